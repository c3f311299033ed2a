#pragma once
/// @file
/// Whether two convex polyhedra, each about its own origin (its centre of mass, shape.hpp), are
/// the same solid turned: a proper rotation R and a one-to-one matching π of their vertices with
///   (1) |R a_k − b_π(k)| ≤ τ   for every vertex a_k of a,
/// R the identity when it meets (1) (a copy in place, even of a symmetric shape, keeps its
/// frame), else the least-squares rotation of the matched vertices [Kabsch 1976]:
///   (2) R = V diag(1, 1, det(V Uᵀ)) Uᵀ,   U Σ Vᵀ = Σ_k a_k b_π(k)ᵀ (singular value decomposition).
/// The matching is found from b's vertex farthest from the origin and the one whose direction
/// differs most from it: each pair of a's vertices with the same lengths and dot product (within
/// τ) proposes the rotation between the two pairs' orthonormal frames, and a proposal that takes
/// every vertex of a within 4τ of a distinct vertex of b gives the matching, then (2) and the test
/// (1). The arch's voussoirs, and any block given by its vertices in place, are such rotations of
/// one another; their meshes and modal bases are made once (nscd/io/build_model.cpp).
///
/// References: [Kabsch 1976] A solution for the best rotation to relate two sets of vectors,
///             Acta Cryst. A32, 922–923.

#include "contact/shape.hpp"

#include <optional>
#include <span>
#include <vector>

namespace nscd::contact {

/// The distances of the vertices from the origin, sorted: those of turned copies agree within τ.
std::vector<double> vertex_radii(const ConvexPolyhedron& poly);

/// Whether two lists of vertex_radii agree within `tolerance` τ [m] (same length, each within τ):
/// a test for (1) that needs no rotation, made first by rotation_onto.
bool radii_match(std::span<const double> a, std::span<const double> b, double tolerance);

/// The rotation R of (1)–(2) turning `a` onto `b` within `tolerance` τ [m], if there is one.
std::optional<Mat3> rotation_onto(const ConvexPolyhedron& a, const ConvexPolyhedron& b, double tolerance);

/// The same polyhedron turned by the rotation R about its origin.
ConvexPolyhedron rotated(const ConvexPolyhedron& poly, const Mat3& R);

}  // namespace nscd::contact
