#pragma once
/// @file
/// How a body moves: rigid, deformable in a floating frame of reference (ffr/), deformable in
/// absolute nodal coordinates (Total Lagrangian or linear, ffr/tl_body.hpp), fixed, driven. The
/// names are those of a scene body's `model` (docs/scene_format.md), the values those of the
/// `model` cell field of the output (docs/output.md).

#include <array>

namespace nscd {

enum class BodyKind { Rigid = 0, Ffr = 1, Tl = 2, Linear = 3, Fixed = 4, Driven = 5 };

/// Every kind, in the order of their values.
inline constexpr std::array<BodyKind, 6> kBodyKinds{BodyKind::Rigid, BodyKind::Ffr,   BodyKind::Tl,
                                                    BodyKind::Linear, BodyKind::Fixed, BodyKind::Driven};

/// "rigid", "ffr", "tl", "linear", "fixed", "driven".
const char* to_string(BodyKind kind);

/// TL and linear bodies: their unknowns are nodal displacements and velocities only.
inline bool is_nodal(BodyKind kind) { return kind == BodyKind::Tl || kind == BodyKind::Linear; }

/// FFR, TL and linear bodies: finite-element meshes, whose contacts are found node to surface.
inline bool has_mesh(BodyKind kind) { return kind == BodyKind::Ffr || is_nodal(kind); }

/// Fixed and driven bodies: their motion is prescribed, they have no unknowns.
inline bool is_kinematic(BodyKind kind) { return kind == BodyKind::Fixed || kind == BodyKind::Driven; }

}  // namespace nscd
