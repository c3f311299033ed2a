#pragma once
/// @file
/// The check that no two bodies of a scene overlap at t = 0. Contact dynamics resolves
/// penetrations only through the impacts it predicts; bodies that start inside each other are
/// pushed apart by an arbitrary impulse in the first step, which is never what the user meant
/// (a typo in a position, a generator's off-by-one). A contact at t = 0 is an overlap when
///
///  (1) −gap > kOverlapFraction · min(d_a, d_b),   d = 2 × bounding radius of the body,
///
/// a tolerance far above the round-off of bodies placed face to face (~1e-12 m) and far below a
/// visible overlap.

#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"

#include <string>

namespace nscd {

/// Fraction of the smaller body's diameter beyond which a penetration at t = 0 is an overlap.
inline constexpr double kOverlapFraction = 1e-3;

/// @throws nscd::InputError naming `file`, the two bodies (bodies[i] "name"), the depth and the
///         point of the deepest overlap of eq. (1), and how many pairs overlap, if any do.
void check_initial_overlaps(const Model& m, const State& s, const std::string& file);

}  // namespace nscd
