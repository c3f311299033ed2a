// contact/congruence.hpp: polyhedra that are turned copies of one another, given by their
// vertices in any order, against mirror images, other shapes and copies off by more than τ.

#include "contact/congruence.hpp"
#include "contact/mass_properties.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <vector>

namespace nscd::contact {
namespace {

// a voussoir of scenes/arch.json about its centroid
ConvexPolyhedron voussoir() {
  const ConvexPolyhedron hull = convex_hull({{5, -0.5, 2}, {5, 0.5, 2}, {6, -0.5, 2}, {6, 0.5, 2},
                                             {4.890738, -0.5, 3.03955845}, {4.890738, 0.5, 3.03955845},
                                             {5.8688856, -0.5, 3.24747014}, {5.8688856, 0.5, 3.24747014}});
  return translated(hull, -mass_properties(hull).centroid);
}

// the hull of `poly`'s vertices turned by R and listed in reverse order (another vertex order)
ConvexPolyhedron turned_and_reordered(const ConvexPolyhedron& poly, const Mat3& R) {
  std::vector<Vec3> vertices;
  for (const Vec3& v : poly.vertices) vertices.push_back(R * v);
  std::reverse(vertices.begin(), vertices.end());
  return convex_hull(vertices);
}

const Mat3 kTurn = Eigen::AngleAxisd(2.1, Vec3(0.3, -0.8, 0.5).normalized()).toRotationMatrix();
constexpr double kTolerance = 1e-7;

// every vertex of a taken by R onto one of b within `within`
bool takes_onto(const ConvexPolyhedron& a, const ConvexPolyhedron& b, const Mat3& R, double within) {
  return std::ranges::all_of(a.vertices, [&](const Vec3& v) {
    return std::ranges::any_of(b.vertices, [&](const Vec3& w) { return (R * v - w).norm() <= within; });
  });
}

TEST(Congruence, FindsTheRotationOfATurnedCopy) {
  const ConvexPolyhedron a = voussoir(), b = turned_and_reordered(a, kTurn);
  const std::optional<Mat3> R = rotation_onto(a, b, kTolerance);
  ASSERT_TRUE(R.has_value());
  // the copy is exact to round-off, and so is the least-squares rotation: 1e-14 on a metre
  EXPECT_LT((*R - kTurn).norm(), 1e-14);
  EXPECT_NEAR(R->determinant(), 1.0, 1e-14);
  const ConvexPolyhedron turned = rotated(a, *R);
  EXPECT_TRUE(takes_onto(turned, b, Mat3::Identity(), 1e-14));
  for (std::size_t f = 0; f < a.faces.size(); ++f) EXPECT_TRUE(turned.face_normals[f].isApprox(*R * a.face_normals[f]));
}

TEST(Congruence, AcceptsCopiesWithinTheToleranceOnly) {
  const ConvexPolyhedron a = voussoir();
  for (const double offset : {0.3 * kTolerance, 3 * kTolerance}) {
    std::vector<Vec3> vertices = turned_and_reordered(a, kTurn).vertices;
    vertices[2] += offset * Vec3(0.6, 0.0, 0.8);  // one vertex moved
    const bool within = offset < kTolerance;
    const std::optional<Mat3> R = rotation_onto(a, convex_hull(vertices), kTolerance);
    EXPECT_EQ(R.has_value(), within) << offset;
    if (R) {
      EXPECT_TRUE(takes_onto(a, convex_hull(vertices), *R, kTolerance));
    }
  }
}

TEST(Congruence, RefusesMirrorImagesAndOtherShapes) {
  // an irregular tetrahedron has no mirror symmetry: its mirror image is no rotation of it
  const ConvexPolyhedron hull = convex_hull({{0, 0, 0}, {1, 0, 0}, {0.2, 0.7, 0}, {0.3, 0.1, 0.9}});
  const ConvexPolyhedron tetrahedron = translated(hull, -mass_properties(hull).centroid);
  std::vector<Vec3> mirrored;
  for (const Vec3& v : tetrahedron.vertices) mirrored.push_back(Vec3(-v.x(), v.y(), v.z()));
  EXPECT_FALSE(rotation_onto(tetrahedron, convex_hull(mirrored), kTolerance));
  EXPECT_TRUE(rotation_onto(tetrahedron, turned_and_reordered(tetrahedron, kTurn), kTolerance));
  // boxes of the same vertex count, one longer by 1e-6
  EXPECT_FALSE(rotation_onto(make_box(Vec3(1, 2, 3)), make_box(Vec3(1, 2, 3 + 1e-6)), kTolerance));
  EXPECT_FALSE(rotation_onto(make_box(Vec3(1, 2, 3)), voussoir(), kTolerance));
}

TEST(Congruence, ACopyInPlaceIsTurnedByTheIdentity) {
  // a cube matches itself under 24 rotations: the identity is the one returned
  EXPECT_EQ(rotation_onto(make_box(Vec3(1, 1, 1)), make_box(Vec3(1, 1, 1)), kTolerance), Mat3::Identity());
  const ConvexPolyhedron a = voussoir();
  std::vector<Vec3> shifted = a.vertices;
  shifted[0].x() += 0.5 * kTolerance;
  EXPECT_EQ(rotation_onto(a, convex_hull(shifted), kTolerance), Mat3::Identity());
}

TEST(Congruence, FindsARotationOfASymmetricShape) {
  // a cube is its own copy under 24 rotations; any of them will do
  const ConvexPolyhedron cube = make_box(Vec3(1, 1, 1)), turned = turned_and_reordered(cube, kTurn);
  const std::optional<Mat3> R = rotation_onto(cube, turned, kTolerance);
  ASSERT_TRUE(R.has_value());
  EXPECT_TRUE(takes_onto(cube, turned, *R, 1e-14));
  EXPECT_FALSE(rotated(cube, *R).box_half_size.has_value());
  EXPECT_TRUE(rotated(cube, Mat3::Identity()).box_half_size.has_value());
}

}  // namespace
}  // namespace nscd::contact
