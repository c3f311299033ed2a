#include "contact/shape.hpp"

#include "nscd/core/error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace nscd::contact {
namespace {

// vertices are given or sums of a few O(1) values: rounding stays at a few ulps
constexpr double kTol = 1e-12;

// Newell's normal of a face loop, independent of the library's computation
Vec3 newell(const ConvexPolyhedron& poly, std::size_t f) {
  const auto& loop = poly.faces[f];
  Vec3 n = Vec3::Zero();
  for (std::size_t k = 0; k < loop.size(); ++k) {
    const Vec3& p = poly.vertices[loop[k]];
    const Vec3& q = poly.vertices[loop[(k + 1) % loop.size()]];
    n += Vec3((p.y() - q.y()) * (p.z() + q.z()), (p.z() - q.z()) * (p.x() + q.x()),
              (p.x() - q.x()) * (p.y() + q.y()));
  }
  return n.normalized();
}

// faces CCW about their normals, normals unit and outward (every vertex behind every face
// plane), and edges the unique sides of the face loops
void expect_valid(const ConvexPolyhedron& poly, double tol) {
  ASSERT_EQ(poly.faces.size(), poly.face_normals.size());
  Vec3 centre = Vec3::Zero();
  for (const Vec3& v : poly.vertices) centre += v;
  centre /= static_cast<double>(poly.vertices.size());
  std::size_t sides = 0;
  for (std::size_t f = 0; f < poly.faces.size(); ++f) {
    const Vec3& n = poly.face_normals[f];
    EXPECT_NEAR(n.norm(), 1.0, tol);
    EXPECT_GT(newell(poly, f).dot(n), 1.0 - tol) << "face " << f << " is not CCW";
    const double offset = n.dot(poly.vertices[poly.faces[f][0]]);
    EXPECT_GT(offset - n.dot(centre), 0.0) << "face " << f << " normal points inwards";
    for (const Vec3& v : poly.vertices) EXPECT_LE(n.dot(v) - offset, tol);
    for (int i : poly.faces[f]) EXPECT_NEAR(n.dot(poly.vertices[i]), offset, tol);
    sides += poly.faces[f].size();
  }
  // each edge borders two faces; Euler: V − E + F = 2
  EXPECT_EQ(2 * poly.edges.size(), sides);
  EXPECT_EQ(poly.vertices.size() + poly.faces.size(), poly.edges.size() + 2);
  for (const auto& e : poly.edges) EXPECT_LT(e[0], e[1]);
}

TEST(Shape, BoxTopology) {
  const ConvexPolyhedron box = make_box(Vec3(2.0, 1.0, 0.5));
  ASSERT_EQ(box.vertices.size(), 8u);
  ASSERT_EQ(box.faces.size(), 6u);
  EXPECT_EQ(box.edges.size(), 12u);
  for (const auto& loop : box.faces) EXPECT_EQ(loop.size(), 4u);
  for (const Vec3& v : box.vertices) EXPECT_EQ(v.cwiseAbs(), Vec3(1.0, 0.5, 0.25));
  expect_valid(box, kTol);
  // the six axis directions, each once
  Mat3 sum_abs = Mat3::Zero();
  for (const Vec3& n : box.face_normals) sum_abs += n.cwiseAbs() * n.cwiseAbs().transpose();
  EXPECT_TRUE(sum_abs.isApprox(2.0 * Mat3::Identity(), kTol));
  // in the order −e_0, +e_0, −e_1, +e_1, −e_2, +e_2, exactly: the narrow phase's support-function
  // test of the faces (polyhedron_polyhedron.cpp) relies on it
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(box.face_normals[2 * k], Vec3(-Vec3::Unit(k)));
    EXPECT_EQ(box.face_normals[2 * k + 1], Vec3::Unit(k));
  }
  EXPECT_EQ(box.box_half_size, Vec3(1.0, 0.5, 0.25));
}

// every edge is parallel to its class's first edge and to no other class's
void expect_direction_classes(const ConvexPolyhedron& poly, std::size_t classes) {
  ASSERT_EQ(poly.edge_direction.size(), poly.edges.size());
  ASSERT_EQ(poly.direction_edge.size(), classes);
  const auto direction = [&poly](int e) {
    return Vec3(poly.vertices[poly.edges[e][1]] - poly.vertices[poly.edges[e][0]]).normalized();
  };
  for (std::size_t e = 0; e < poly.edges.size(); ++e)
    for (std::size_t c = 0; c < classes; ++c) {
      // parallel edges of these shapes are parallel to round-off; others at 30° or more
      const double sine = direction(static_cast<int>(e)).cross(direction(poly.direction_edge[c])).norm();
      if (poly.edge_direction[e] == static_cast<int>(c)) {
        EXPECT_LT(sine, kTol) << "edge " << e;
      } else {
        EXPECT_GT(sine, 0.49) << "edge " << e << ", class " << c;
      }
    }
  for (std::size_t c = 0; c < classes; ++c) EXPECT_EQ(poly.edge_direction[poly.direction_edge[c]], static_cast<int>(c));
}

TEST(Shape, EdgeDirectionClasses) {
  expect_direction_classes(make_box(Vec3(2.0, 1.0, 0.5)), 3);
  // a hexagonal prism: the hexagons' three edge directions and the axis
  std::vector<Vec3> points;
  for (int k = 0; k < 6; ++k)
    for (const double z : {-0.5, 0.5})
      points.emplace_back(std::cos(k * std::numbers::pi / 3.0), std::sin(k * std::numbers::pi / 3.0), z);
  const ConvexPolyhedron prism = convex_hull(points);
  expect_direction_classes(prism, 4);
  EXPECT_FALSE(prism.box_half_size);
}

TEST(Shape, BoxRejectsNonPositiveSize) {
  EXPECT_THROW(make_box(Vec3(1.0, 0.0, 1.0)), InputError);
  EXPECT_THROW(make_box(Vec3(1.0, -1.0, 1.0)), InputError);
}

TEST(Shape, HullOfCubeWithInteriorPointsMergesCoplanarFacets) {
  std::vector<Vec3> points;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> inner(-0.4, 0.4);
  for (int i = 0; i < 20; ++i) points.emplace_back(inner(rng), inner(rng), inner(rng));
  for (int i = 0; i < 8; ++i) {
    points.emplace_back((i & 1) ? 0.5 : -0.5, (i & 2) ? 0.5 : -0.5, (i & 4) ? 0.5 : -0.5);
  }
  const ConvexPolyhedron hull = convex_hull(points);
  EXPECT_EQ(hull.vertices.size(), 8u);
  ASSERT_EQ(hull.faces.size(), 6u);
  for (const auto& loop : hull.faces) EXPECT_EQ(loop.size(), 4u);
  EXPECT_EQ(hull.edges.size(), 12u);
  for (const Vec3& v : hull.vertices) EXPECT_EQ(v.cwiseAbs(), Vec3::Constant(0.5));
  expect_valid(hull, kTol);
}

TEST(Shape, HullOfPointsOnSphereIsConvexAndCcw) {
  std::mt19937 rng(3);
  std::normal_distribution<double> gauss;
  std::vector<Vec3> points;
  for (int i = 0; i < 300; ++i) {
    points.push_back(Vec3(gauss(rng), gauss(rng), gauss(rng)).normalized() * 2.0);
  }
  const ConvexPolyhedron hull = convex_hull(points);
  // points on a sphere are all extreme
  EXPECT_EQ(hull.vertices.size(), points.size());
  // Qhull merges facets within its roundoff (~1e-15 here); the check allows 1e-10 on radius 2
  expect_valid(hull, 1e-10);
}

TEST(Shape, HullRejectsDegenerateInput) {
  const std::vector<Vec3> three = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  EXPECT_THROW(convex_hull(three), InputError);
  const std::vector<Vec3> coplanar = {Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0, 1, 1), Vec3(1, 1, 1),
                                      Vec3(0.5, 0.2, 1)};
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  try {
    convex_hull(coplanar);
    ADD_FAILURE() << "coplanar points accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("coplanar"), std::string::npos) << e.what();
  }
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  const std::vector<Vec3> collinear = {Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2), Vec3(3, 3, 3)};
  EXPECT_THROW(convex_hull(collinear), InputError);
  const std::vector<Vec3> same(5, Vec3(1, 2, 3));
  EXPECT_THROW(convex_hull(same), InputError);
}

TEST(Shape, TranslatedAndBoundingRadius) {
  const ConvexPolyhedron box = make_box(Vec3(2.0, 2.0, 2.0));
  EXPECT_NEAR(bounding_radius(Shape(box)), std::sqrt(3.0), kTol);
  const ConvexPolyhedron moved = translated(box, Vec3(1.0, 0.0, 0.0));
  EXPECT_EQ(moved.faces, box.faces);
  EXPECT_EQ(moved.vertices[7], Vec3(2.0, 1.0, 1.0));
  EXPECT_FALSE(moved.box_half_size);  // no longer centred on the origin
  EXPECT_EQ(translated(box, Vec3::Zero()).box_half_size, box.box_half_size);
  EXPECT_NEAR(bounding_radius(Shape(moved)), std::sqrt(6.0), kTol);
  EXPECT_EQ(bounding_radius(Shape(Sphere{0.25})), 0.25);
}

}  // namespace
}  // namespace nscd::contact
