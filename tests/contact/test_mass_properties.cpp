#include "contact/mass_properties.hpp"

#include <gtest/gtest.h>

#include <numbers>
#include <random>

namespace nscd::contact {
namespace {

// a dozen tetrahedra of O(1) terms each: rounding stays near 1e-15
constexpr double kTol = 1e-12;

TEST(MassProperties, Box) {
  const double a = 2.0, b = 1.0, c = 1.0;
  const MassProperties mp = mass_properties(make_box(Vec3(a, b, c)));
  const double V = a * b * c;
  EXPECT_NEAR(mp.volume, V, kTol);
  EXPECT_LT(mp.centroid.norm(), kTol);
  // J = V/12 diag(b² + c², a² + c², a² + b²)
  const Vec3 diag = V / 12.0 * Vec3(b * b + c * c, a * a + c * c, a * a + b * b);
  EXPECT_LT((mp.inertia - Mat3(diag.asDiagonal())).cwiseAbs().maxCoeff(), kTol);
}

TEST(MassProperties, TranslatedBoxKeepsCentroidInertia) {
  const Vec3 offset(3.0, -1.0, 2.0);
  const MassProperties mp = mass_properties(translated(make_box(Vec3(2.0, 1.0, 0.5)), offset));
  EXPECT_NEAR(mp.volume, 1.0, kTol);
  EXPECT_LT((mp.centroid - offset).norm(), kTol);
  const Vec3 diag = 1.0 / 12.0 * Vec3(1.25, 4.25, 5.0);
  EXPECT_LT((mp.inertia - Mat3(diag.asDiagonal())).cwiseAbs().maxCoeff(), kTol);
}

TEST(MassProperties, TetrahedronClosedForm) {
  const std::vector<Vec3> v = {Vec3(0.1, 0.2, -0.3), Vec3(1.3, 0.1, 0.0), Vec3(0.2, 1.1, 0.4),
                               Vec3(0.3, 0.4, 1.5)};
  const MassProperties mp = mass_properties(convex_hull(v));
  // [Tonon 2004]: V = |det(v1 − v0, v2 − v0, v3 − v0)| / 6, c = mean of the vertices, and about c
  // ∫ x xᵀ dV = V/20 (Σ (vi − c)(vi − c)ᵀ), since Σ (vi − c) = 0
  Mat3 E;
  for (int k = 0; k < 3; ++k) E.col(k) = v[k + 1] - v[0];
  const double V = std::abs(E.determinant()) / 6.0;
  const Vec3 c = (v[0] + v[1] + v[2] + v[3]) / 4.0;
  Mat3 C = Mat3::Zero();
  for (const Vec3& p : v) C += (p - c) * (p - c).transpose();
  C *= V / 20.0;
  const Mat3 J = C.trace() * Mat3::Identity() - C;
  EXPECT_NEAR(mp.volume, V, kTol);
  EXPECT_LT((mp.centroid - c).norm(), kTol);
  EXPECT_LT((mp.inertia - J).cwiseAbs().maxCoeff(), kTol);
}

TEST(MassProperties, Sphere) {
  const double a = 0.3;
  const MassProperties mp = mass_properties(Sphere{a});
  const double V = 4.0 / 3.0 * std::numbers::pi * a * a * a;
  EXPECT_NEAR(mp.volume, V, kTol);
  EXPECT_EQ(mp.centroid, Vec3::Zero());
  EXPECT_TRUE(mp.inertia.isApprox(0.4 * V * a * a * Mat3::Identity(), kTol));
}

TEST(MassProperties, HullOfPointsOnSphereApproachesSphere) {
  std::mt19937 rng(11);
  std::normal_distribution<double> gauss;
  std::vector<Vec3> points;
  for (int i = 0; i < 4000; ++i) points.push_back(Vec3(gauss(rng), gauss(rng), gauss(rng)).normalized());
  const MassProperties mp = mass_properties(convex_hull(points));
  const MassProperties ball = mass_properties(Sphere{1.0});
  // an inscribed hull of N random points misses O(1/N)–O(log N/N) of the volume (~1% here);
  // 2% allows for that, the inertia (weighted to the surface) loses about 5/3 as much
  EXPECT_LT(mp.volume, ball.volume);
  EXPECT_NEAR(mp.volume / ball.volume, 1.0, 0.02);
  EXPECT_LT(mp.centroid.norm(), 0.01);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(mp.inertia(k, k) / ball.inertia(k, k), 1.0, 0.035);
  // off-diagonal terms vanish up to the sampling noise of the vertices
  EXPECT_LT((mp.inertia - Mat3(mp.inertia.diagonal().asDiagonal())).cwiseAbs().maxCoeff(), 0.01);
}

}  // namespace
}  // namespace nscd::contact
