#pragma once
/// @file The overrides of a scene by `nscd run --solver, --duration, --model, --modes, --static-correction,
/// --contact-surface, --unresolved-modes`
/// (docs/commands.md),
/// shared by the program and the Python module's Simulation.

#include "nscd/app/commands.hpp"
#include "nscd/io/scene.hpp"

namespace nscd::app {

/// Applies o.solver (solver.type), o.duration (time.duration), o.contact (contact.model) and
/// o.model to `scene`: every ffr, tl and linear body switches to that model and, for ffr, tl or
/// linear, every rigid body too (its convex, box or sphere shape meshed into tetrahedra,
/// nscd/io/shape_mesh.hpp); fixed and driven bodies stay as they are; o.modes (ffr.modes): the
/// elastic modes of every ffr body, over the bodies' and materials' "modes"; o.static_correction
/// (ffr.joint_correction): likewise over their "static_correction"; o.contact_surface
/// (ffr.shape_contact): likewise over their "contact_surface"; o.unresolved_modes
/// (ffr.damp_unresolved): likewise over their "unresolved_modes".
/// @throws nscd::InputError naming the option: an unknown solver, contact model or model, a
///         non-positive duration, penalty contact without a stiffness, a finite-element model
///         for a scene without rigid or finite-element bodies, for bodies whose material lacks
///         "young" or "poisson" (naming what to add), or for bodies that carry a force or moment
///         load; a negative number of modes, or modes for a scene without ffr bodies; a static
///         correction other than none or joints, a contact surface other than mesh or shape, an
///         integration of unresolved modes other than trapezoidal or backward_euler, or any of
///         these for a scene without ffr bodies.
void apply_overrides(const RunOptions& o, io::Scene& scene);

}  // namespace nscd::app
