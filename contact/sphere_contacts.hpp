#pragma once
/// @file
/// Narrow phase of pairs involving a sphere (internal to nscd::contact); one point per pair.
///  - sphere–sphere: n = (c_b − c_a)/‖c_b − c_a‖ (e_z for coincident centres),
///    gap = ‖c_b − c_a‖ − r_a − r_b.
///  - polyhedron–sphere, centre c outside: the closest point y of the polyhedron to c lies on a
///    face whose plane has c on its positive side; n = (c − y)/‖c − y‖, gap = ‖c − y‖ − r.
///    Centre inside (every face offset s_f = n_f·c − offset_f ≤ 0): the face of largest s_f gives
///    n = n_f and gap = s_f − r.
/// The point is midway between the two surfaces along n; n is flipped when the sphere is body a.

#include "contact/detection.hpp"
#include "contact/posed_shapes.hpp"

#include <vector>

namespace nscd::contact::detail {

/// Appends the contact point of spheres a < b if its gap ≤ alert_distance.
void collide_spheres(const PosedSphere& A, int a, const PosedSphere& B, int b,
                     double alert_distance, std::vector<ContactPoint>& out);

/// Appends the contact point of a polyhedron and a sphere if its gap ≤ alert_distance.
/// @param polyhedron_is_a  the polyhedron is body a (< b), else it is body b
void collide_polyhedron_sphere(const PosedPolyhedron& P, const PosedSphere& S, int a, int b,
                               bool polyhedron_is_a, double alert_distance,
                               std::vector<ContactPoint>& out);

}  // namespace nscd::contact::detail
