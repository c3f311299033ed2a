#include "contact/mass_properties.hpp"

#include <numbers>

namespace nscd::contact {
namespace {

MassProperties polyhedron_mass_properties(const ConvexPolyhedron& poly) {
  // integrate about a point inside the hull to limit cancellation far from the origin
  Vec3 r = Vec3::Zero();
  for (const Vec3& v : poly.vertices) r += v;
  r /= static_cast<double>(poly.vertices.size());

  // canonical tetrahedron (0, e1, e2, e3): ∫ x xᵀ dV = (K + I) / 120, K all ones; mapped by A = [a b c]
  Mat3 canonical = Mat3::Constant(1.0 / 120.0);
  canonical.diagonal().array() += 1.0 / 120.0;

  // fan of tetrahedra (r, f0, fk, fk+1) over every face
  double volume = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (const auto& loop : poly.faces) {
    const Vec3 a = poly.vertices[loop[0]] - r;
    for (std::size_t k = 1; k + 1 < loop.size(); ++k) {
      Mat3 A;
      A.col(0) = a;
      A.col(1) = poly.vertices[loop[k]] - r;
      A.col(2) = poly.vertices[loop[k + 1]] - r;
      const double det = A.determinant();
      volume += det / 6.0;
      first += det / 24.0 * (A.col(0) + A.col(1) + A.col(2));
      second += det * (A * canonical * A.transpose());
    }
  }

  // shift the second moment to the centroid, then J = tr(C) I − C, eq. (2)
  MassProperties mp;
  mp.volume = volume;
  const Vec3 d = first / volume;
  mp.centroid = r + d;
  const Mat3 C = second - volume * d * d.transpose();
  const Mat3 J = C.trace() * Mat3::Identity() - C;
  mp.inertia = 0.5 * (J + J.transpose());
  return mp;
}

}  // namespace

MassProperties mass_properties(const Shape& shape) {
  if (const auto* sphere = std::get_if<Sphere>(&shape)) {
    // eq. (1)
    MassProperties mp;
    const double a = sphere->radius;
    mp.volume = 4.0 / 3.0 * std::numbers::pi * a * a * a;
    mp.inertia = 0.4 * mp.volume * a * a * Mat3::Identity();
    return mp;
  }
  return polyhedron_mass_properties(std::get<ConvexPolyhedron>(shape));
}

}  // namespace nscd::contact
