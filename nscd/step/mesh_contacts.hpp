#pragma once
/// @file
/// Node-to-surface contact detection for pairs with an FFR body [Lozovskiy & Dubois 2016, §3.1],
/// or a TL or linear body (whose nodes are at x₀ + R(q₀) (X + ψ), ffr/tl_body.hpp), alike:
/// the contact points of one body (the slave) are projected orthogonally on the surface of the
/// other (the master, contact/surface_projection.hpp), and each projection within the alert
/// distance is a contact point. Slave points are
///  - an FFR body's boundary nodes, in the current configuration x + O (X + ψ);
///  - a rigid polyhedron's vertices;
///  - a sphere's centre (its gap is the distance minus the radius);
/// master surfaces are an FFR body's deformed boundary triangles, a polyhedron or a sphere. For
/// each pair both directions are tried and the one with more contact points is kept (ties go to
/// the FFR body's nodes, then to the body of smaller index as slave); a sphere is always the
/// slave. This reproduces the paper's count for its three blocks (§4.2: 70 points: 25 under
/// each lower block, and 10 nodes of the upper block on each lower one).
///
/// The boundaries are searched in their reference configuration (surface_search.hpp): the
/// nodes and triangles that a world box may hold are found in the body's trees, its box carried
/// into the body frame and grown by the bound δ on the boundary nodes' displacements, and only
/// those are placed, x + O (X_k + ψ_k); the projection skips triangles whose boxes lie farther
/// than the closest so far (contact/surface_projection.hpp). The contacts are those of every node
/// projected on every triangle.
///
/// Each contact point lies midway between the slave point and its projection, with the master's
/// outward normal (oriented from body a to body b, conventions C1) and the signed distance as
/// gap (C2). Output sorted by (a, b, feature), feature = (1 if the slave is body b) · 2³² + the
/// slave point's index, so it persists across steps.

#include "contact/detection.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"

#include <array>
#include <span>
#include <vector>

namespace nscd {

/// The material point of a contact on an FFR body: mesh nodes, interpolation weights, and its
/// reference position X_B = Σ w_k X_k in the body frame. Sides on other bodies have no nodes.
struct MeshSide {
  std::array<int, 3> nodes = {-1, -1, -1};
  Vec3 weights = Vec3::Zero();
  Vec3 X_B = Vec3::Zero();
  bool on_mesh() const { return nodes[0] >= 0; }
};

/// A contact of a pair with an FE body, and the material points of its two sides (a side on a
/// rigid, fixed or driven body has none).
struct MeshContact {
  contact::ContactPoint point;
  std::array<MeshSide, 2> sides;
};

using MeshContacts = std::vector<MeshContact>;

/// The value Σ_i w_i v_{k_i} at a material point of an FFR body's nodal field of the deformation
/// coordinates v (ψ, λ; v_k = node_rows(body, v, k), ffr_body.hpp), in the body frame, for each
/// of V vectors v (column c for *v[c]; a modal body's Φ rows read once for all of them).
template <int V>
Eigen::Matrix<double, 3, V> interpolate(const ffr::FfrBody& body, const MeshSide& side,
                                        const std::array<const Eigen::VectorXd*, V>& v);

/// interpolate for the one vector v.
inline Vec3 interpolate(const ffr::FfrBody& body, const MeshSide& side, const Eigen::VectorXd& v) {
  return interpolate<1>(body, side, {&v});
}

/// Every contact with gap ≤ alert_distance [m] between an FE body and any other body (pairs of
/// two non-moving bodies never involve an FE body): node to surface, or on the shapes' faces for
/// the pairs of shape_contacts.hpp, from the points `on_shapes` between their undeformed shapes
/// (contact::detect_contacts's, at the same alert distance and the poses of `s`).
void detect_mesh_contacts(const Model& m, const State& s, double alert_distance,
                          std::span<const contact::ContactPoint> on_shapes, MeshContacts& out);

}  // namespace nscd
