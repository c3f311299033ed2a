#pragma once
/// @file
/// Volume, centroid and inertia tensor of a shape of unit density, by exact integration:
/// for a polyhedron, the divergence theorem over its faces [Mirtich 1996] (or, equivalently,
/// the sum over tetrahedra (c, f0, fk, fk+1) of a fan triangulation of each face); for a sphere,
///  (1) V = 4/3 π a³, J = 2/5 V a² I.
/// The inertia tensor is about the centroid, in the shape's frame:
///  (2) J = ∫ (‖x − c‖² I − (x − c)(x − c)ᵀ) dV.
///
/// Reference: [Mirtich 1996] Fast and accurate computation of polyhedral mass properties,
///            J. Graphics Tools 1(2).

#include "contact/shape.hpp"

namespace nscd::contact {

struct MassProperties {
  double volume = 0.0;   // [m³]
  Vec3 centroid = Vec3::Zero();   // in the shape's frame [m]
  Mat3 inertia = Mat3::Zero();    // eq. (2) per unit density [m⁵], about the centroid
};

MassProperties mass_properties(const Shape& shape);

}  // namespace nscd::contact
