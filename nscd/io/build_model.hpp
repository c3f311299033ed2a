#pragma once
/// @file
/// Turns a parsed scene (scene.hpp) into the immutable Model and the initial State of nscd/step:
///  - mass m = ρ V and inertia J_B = ρ ∫(‖x‖² I − x xᵀ) dV about the centre of mass, from the
///    shape (contact/mass_properties.hpp); fixed and driven bodies have no mass;
///  - a convex shape is the hull of its vertices, re-centred on its centroid, which is the
///    body's position unless the scene gives one (docs/scene_format.md);
///  - an ffr, tl or linear body's mesh is a box's hexahedra ("elements"), a mesh file, or the
///    tetrahedra of its shape (shape_mesh.hpp) of size "mesh_size", else "meshing.size", else
///    the shape's default; the mesh's centre of mass is the body's position unless given;
///  - the contact law table over material pairs, with the default interaction where given;
///  - a driven body's motion (nscd/step/driven_motion.hpp), a table's values times its scale;
///  - the alert distance (scene value, or 1/100 of the smallest body diameter), the activation
///    tolerance on predicted gaps (1e-6 of the smallest body diameter, far above the round-off
///    of resting contacts and far below any visible gap), and the output cadence in steps.

#include "nscd/io/scene.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"

namespace nscd::io {

/// @throws nscd::InputError (naming the scene file and JSON path) for what the reader cannot
///         check alone: degenerate convex hulls, empty probe regions, mesh sizes giving more
///         than kMaxTetrahedra (shape_mesh.hpp), shapes Gmsh cannot mesh, and models or solvers
///         this version does not provide.
Model build_model(const Scene& scene);

/// The state at t = 0: each body at its initial pose and velocities.
State initial_state(const Model& model, const Scene& scene);

}  // namespace nscd::io
