#pragma once
/// @file The overrides of a scene by `nscd run --solver, --duration, --model` (docs/commands.md),
/// shared by the program and the Python module's Simulation.

#include "nscd/app/commands.hpp"
#include "nscd/io/scene.hpp"

namespace nscd::app {

/// Applies o.solver (solver.type), o.duration (time.duration), o.contact (contact.model) and
/// o.model (every ffr, tl and linear body switched to that model) to `scene`.
/// @throws nscd::InputError naming the option: an unknown solver, contact model or model, a
///         non-positive duration, penalty contact without a stiffness, or a finite-element model
///         for a scene without finite-element bodies.
void apply_overrides(const RunOptions& o, io::Scene& scene);

}  // namespace nscd::app
