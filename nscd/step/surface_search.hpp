#pragma once
/// @file
/// What node-to-surface detection (mesh_contacts.hpp) searches an FE body's boundary with, built
/// once with the model: box trees (contact/box_tree.hpp) over its boundary nodes and boundary
/// triangles at their reference positions X (body frame), and, for a modal body, the constant of
///   (1) ‖Φ_k ξ‖ ≤ c ‖ξ‖,   c = max_k ‖Φ_k‖_F over the boundary nodes k
/// (Φ_k the node's three rows of the modal basis, ffr/modal_basis.hpp), a bound on a boundary
/// node's displacement from its reference position. A boundary node (or triangle) whose current
/// position lies in a world box then has its reference position in that box's image in the body
/// frame grown by the largest displacement δ, so a query in the current configuration is made in
/// the reference one, without computing the current positions of the nodes it leaves out.

#include "contact/box_tree.hpp"
#include "ffr/ffr_body.hpp"

namespace nscd {

/// The search structures of one FE body.
struct SurfaceSearch {
  contact::BoxTree nodes;      // item i: the boundary node surface.nodes[i] (a point box)
  contact::BoxTree triangles;  // item t: surface.triangles[t]
  double modal_bound = 0.0;    // c of (1); 0 for a body without modes
};

/// The search structures of `body`'s boundary (FfrBody::surface).
SurfaceSearch surface_search(const ffr::FfrBody& body);

}  // namespace nscd
