#pragma once
/// @file
/// Polyhedron–polyhedron narrow phase (internal to nscd::contact).
///
/// Separating-axis test [Gottschalk 1996, Ericson 2005 §5.2.1] over the face normals of a and b
/// and the cross products of their edge directions. For a unit axis L oriented from a to b,
///  (1) s(L) = min_{y∈b} L·y − max_{x∈a} L·x,
/// and the pair's separation is max_L s(L) over the candidates: the largest separation when the
/// bodies are apart, minus the smallest penetration depth when they overlap. Face axes are
/// preferred unless another axis separates more by
///  (2) 5 % of |s| + 10⁻³ · min(radius_a, radius_b),
/// so that resting face–face contact stays face–face (as in Box2D and [Gregorius 2013]). The scan
/// of an axis stops as soon as its vertices show that it cannot matter: a face axis once it
/// cannot exceed the best face so far, an edge axis once it can neither separate by more than
/// the alert distance nor be preferred to the faces by (2); the result is the same to the bit.
/// Between two boxes, of half edges u_k = h_k R e_k about their centres c, eq. (1) is also
///  (3) s(L) = L·(c_b − c_a) − h_a(L) − h_b(L),  h(L) = Σ_k |L·u_k|,
/// up to round-off, and the axes whose (3) shows they cannot matter are not scanned at all.
///  - Face axis: the reference face is that face, the incident face the face of the other body
///    whose normal is most anti-parallel to it. The incident polygon is clipped by the side planes
///    of the reference face (clip_polygon.hpp); every clipped vertex x with separation
///    s = n_ref·x − offset_ref ≤ alert gives a point x − s/2 n_ref with gap s.
///  - Edge–edge axis: the closest points of the two supporting edges give one point, midway.
///
/// References: [Ericson 2005] Real-Time Collision Detection, Morgan Kaufmann.
///             [Gregorius 2013] The separating axis test between convex polyhedra, GDC.

#include "contact/clip_polygon.hpp"
#include "contact/detection.hpp"
#include "contact/posed_shapes.hpp"

#include <vector>

namespace nscd::contact::detail {

/// Buffers reused across pairs by one thread.
struct ClipScratch {
  std::vector<ClipVertex> polygon;
  std::vector<ClipVertex> clipped;
};

/// Appends the contact points of polyhedra a < b with gap ≤ alert_distance to `out`.
void collide_polyhedra(const PosedPolyhedron& A, int a, const PosedPolyhedron& B, int b,
                       double alert_distance, ClipScratch& scratch, std::vector<ContactPoint>& out);

}  // namespace nscd::contact::detail
