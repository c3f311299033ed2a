// Orthogonal projection of points on polyhedra, spheres and triangulated surfaces
// (contact/surface_projection.hpp) against hand-computed closest points.

#include "contact/surface_projection.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace nscd::contact {
namespace {

// exact arithmetic on small integers and halves, up to the last bit of a square root
constexpr double kTol = 1e-14;

TEST(SurfaceProjection, PointAboveAFaceProjectsOnItWithTheFaceNormal) {
  const ConvexPolyhedron box = make_box(Vec3(2, 2, 2));
  const SurfaceProjection p = project_on_polyhedron(box, Vec3(0.3, -0.2, 1.5));
  EXPECT_NEAR(p.distance, 0.5, kTol);
  EXPECT_TRUE(p.point.isApprox(Vec3(0.3, -0.2, 1.0), kTol));
  EXPECT_EQ(p.normal, Vec3(0, 0, 1));
}

TEST(SurfaceProjection, PointInsideGetsTheNearestFaceAndANegativeDistance) {
  const ConvexPolyhedron box = make_box(Vec3(2, 2, 2));
  const SurfaceProjection p = project_on_polyhedron(box, Vec3(0.9, 0.1, 0.2));
  EXPECT_NEAR(p.distance, -0.1, kTol);
  EXPECT_TRUE(p.point.isApprox(Vec3(1.0, 0.1, 0.2), kTol));
  EXPECT_EQ(p.normal, Vec3(1, 0, 0));
}

TEST(SurfaceProjection, PointBeyondAnEdgeProjectsOnTheEdge) {
  const ConvexPolyhedron box = make_box(Vec3(2, 2, 2));
  const SurfaceProjection p = project_on_polyhedron(box, Vec3(2, 0.5, 2));
  EXPECT_NEAR(p.distance, std::sqrt(2.0), kTol);
  EXPECT_TRUE(p.point.isApprox(Vec3(1, 0.5, 1), kTol));
  EXPECT_TRUE(p.normal.isApprox(Vec3(1, 0, 1).normalized(), kTol));
}

TEST(SurfaceProjection, SphereProjectionIsRadial) {
  const SurfaceProjection p = project_on_sphere(0.5, Vec3(0, 3, 4));
  EXPECT_NEAR(p.distance, 4.5, kTol);
  EXPECT_TRUE(p.normal.isApprox(Vec3(0, 0.6, 0.8), kTol));
  EXPECT_TRUE(p.point.isApprox(Vec3(0, 0.3, 0.4), kTol));
}

// the unit square z = 0, x, y ∈ [0, 1], as two counter-clockwise triangles (normal +z)
const std::vector<Vec3> kSquare = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)};
const std::vector<std::array<int, 3>> kTriangles = {{0, 1, 2}, {0, 2, 3}};

TEST(SurfaceProjection, TrianglesGiveTheFaceNormalAndBarycentricWeights) {
  const auto p = project_on_triangles(kSquare, kTriangles, Vec3(0.75, 0.25, 0.1), 1.0);
  ASSERT_TRUE(p.has_value());
  EXPECT_NEAR(p->distance, 0.1, kTol);
  EXPECT_EQ(p->normal, Vec3(0, 0, 1));
  EXPECT_EQ(p->nodes, (std::array<int, 3>{0, 1, 2}));
  // (0.75, 0.25) = 0.25 X0 + 0.5 X1 + 0.25 X2
  EXPECT_TRUE(p->weights.isApprox(Vec3(0.25, 0.5, 0.25), kTol));
  Vec3 interpolated = Vec3::Zero();
  for (int i = 0; i < 3; ++i) interpolated += p->weights[i] * kSquare[p->nodes[i]];
  EXPECT_TRUE(interpolated.isApprox(p->point, kTol));
}

TEST(SurfaceProjection, PointOnTheSharedDiagonalStillGetsTheFaceNormal) {
  // at round-off distance above the diagonal the direction p − q means nothing
  const auto p = project_on_triangles(kSquare, kTriangles, Vec3(0.5, 0.5, 1e-17), 1.0);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->normal, Vec3(0, 0, 1));
  EXPECT_NEAR(p->distance, 1e-17, kTol);
}

TEST(SurfaceProjection, BelowTheSurfaceIsNegativeAndFarPointsAreIgnored) {
  const auto below = project_on_triangles(kSquare, kTriangles, Vec3(0.2, 0.6, -0.05), 1.0);
  ASSERT_TRUE(below.has_value());
  EXPECT_NEAR(below->distance, -0.05, kTol);
  EXPECT_EQ(below->normal, Vec3(0, 0, 1));
  EXPECT_FALSE(project_on_triangles(kSquare, kTriangles, Vec3(0.5, 0.5, 2.0), 1.0).has_value());
}

// the prepared triangles (box test first, normals computed once) give the projection of the
// plain loop bit for bit, on the unit cube's 12 triangles and a zero-area one, at points of a
// quarter lattice around it: many lie on shared edges and faces, where ties go to the first
TEST(SurfaceProjection, PreparedTrianglesGiveTheSameProjection) {
  std::vector<Vec3> nodes;
  for (int k = 0; k < 8; ++k) nodes.push_back(Vec3(k & 1, (k >> 1) & 1, (k >> 2) & 1));
  const std::vector<std::array<int, 3>> triangles = {
      {0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4}, {2, 6, 3},
      {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}, {0, 1, 1}};
  std::vector<PreparedTriangle> prepared;
  prepare_triangles(nodes, triangles, prepared);
  ASSERT_EQ(prepared.size(), 12u);  // the zero-area triangle is left out
  int projected = 0;
  for (const double max_distance : {0.3, std::numeric_limits<double>::infinity()})
    for (int i = -2; i <= 6; ++i)
      for (int j = -2; j <= 6; ++j)
        for (int k = -2; k <= 6; ++k) {
          const Vec3 p(0.25 * i, 0.25 * j, 0.25 * k);
          const auto plain = project_on_triangles(nodes, triangles, p, max_distance);
          const auto fast = project_on_triangles(nodes, prepared, p, max_distance);
          ASSERT_EQ(plain.has_value(), fast.has_value()) << p.transpose();
          if (!plain) continue;
          ++projected;
          EXPECT_EQ(plain->nodes, fast->nodes) << p.transpose();
          EXPECT_EQ(plain->point, fast->point);
          EXPECT_EQ(plain->weights, fast->weights);
          EXPECT_EQ(plain->normal, fast->normal);
          EXPECT_EQ(plain->distance, fast->distance);
        }
  EXPECT_GT(projected, 729);  // every point within infinity, and some within 0.3
}

}  // namespace
}  // namespace nscd::contact
