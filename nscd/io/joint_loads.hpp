#pragma once
/// @file
/// The nodes of an FFR body's joints at t = 0, where the static correction "joints" of a modal body
/// puts its unit loads (ffr/modal_basis.hpp eqs. 5–7): every boundary node of the body's mesh within
/// the reach d of another body's shape,
///
///  (1) |dist(x_b + R(q_b) X_k, S_o)| ≤ d,   e_k = R(q_b)ᵀ n_o   (the body frame of b),
///
/// S_o the convex shape of body o at its initial pose (contact/shape.hpp: a box, a convex
/// polyhedron, a mesh file's hull, a sphere) and n_o its outward normal at the closest point
/// (contact/surface_projection.hpp eq. 2). For blocks resting on each other these are the nodes of
/// the faces in contact, loaded along the joint's normal: the bed joints of masonry, a block's base.

#include "ffr/modal_basis.hpp"
#include "nscd/step/model.hpp"

#include <vector>

namespace nscd::io {

/// The loads (1) of body b of m, in the frame of its FFR mesh (m.ffr_bodies[m.bodies[b].ffr_index]),
/// at the initial poses x0, q0, within the reach d [m] (the contact detection's alert distance).
/// @pre body b is an ffr body (NSCD_DEMAND).
std::vector<ffr::NodalLoad> joint_loads(const Model& m, int b, double reach);

}  // namespace nscd::io
