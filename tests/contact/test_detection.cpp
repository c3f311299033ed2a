#include "contact/detection.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

namespace nscd::contact {
namespace {

// positions are O(1) sums and products of exact inputs: a few ulps, far below 1e-12
constexpr double kTol = 1e-12;
constexpr double kAlert = 0.05;

Pose pose_at(const Vec3& p, const Quat& q = Quat::Identity()) { return Pose{p, q}; }

std::vector<ContactPoint> collide(const Shape& sa, const Pose& pa, const Shape& sb, const Pose& pb,
                                  double alert = kAlert) {
  std::vector<ContactPoint> out;
  collide_pair(sa, pa, 0, sb, pb, 1, alert, out);
  return out;
}

// the expected point set, matched in any order
void expect_points(const std::vector<ContactPoint>& got, std::vector<Vec3> expected, double tol) {
  ASSERT_EQ(got.size(), expected.size());
  for (const ContactPoint& cp : got) {
    const auto it = std::find_if(expected.begin(), expected.end(),
                                 [&](const Vec3& p) { return (p - cp.p_W).norm() < tol; });
    ASSERT_NE(it, expected.end()) << "unexpected point " << cp.p_W.transpose();
    expected.erase(it);
  }
}

// frame is orthonormal, right-handed, normal first and equal to n
void expect_frame(const ContactPoint& cp, const Vec3& n, double tol) {
  EXPECT_LT((cp.R_WC.col(0) - n).norm(), tol) << cp.R_WC.col(0).transpose();
  EXPECT_LT((cp.R_WC.transpose() * cp.R_WC - Mat3::Identity()).norm(), tol);
  EXPECT_NEAR(cp.R_WC.determinant(), 1.0, tol);
}

std::vector<Vec3> overlap_corners(double z) {
  return {Vec3(-0.2, -0.3, z), Vec3(0.5, -0.3, z), Vec3(0.5, 0.5, z), Vec3(-0.2, 0.5, z)};
}

TEST(Detection, StackedCubesTouchingGiveFourCorners) {
  const Shape cube = make_box(Vec3::Ones());
  const auto out = collide(cube, pose_at(Vec3::Zero()), cube, pose_at(Vec3(0.3, 0.2, 1.0)));
  expect_points(out, overlap_corners(0.5), kTol);
  for (const ContactPoint& cp : out) {
    EXPECT_EQ(cp.a, 0);
    EXPECT_EQ(cp.b, 1);
    EXPECT_NEAR(cp.gap, 0.0, kTol);
    EXPECT_EQ(cp.R_WC.col(0), Vec3(0, 0, 1));
    expect_frame(cp, Vec3::UnitZ(), kTol);
  }
}

TEST(Detection, StackedCubesWithGapAndPenetration) {
  const Shape cube = make_box(Vec3::Ones());
  for (const double g : {0.01, -0.01}) {
    const auto out = collide(cube, pose_at(Vec3::Zero()), cube, pose_at(Vec3(0.3, 0.2, 1.0 + g)));
    // the point lies midway between the surfaces
    expect_points(out, overlap_corners(0.5 + 0.5 * g), kTol);
    for (const ContactPoint& cp : out) {
      EXPECT_NEAR(cp.gap, g, kTol);
      expect_frame(cp, Vec3::UnitZ(), kTol);
    }
  }
  // beyond the alert distance: nothing
  EXPECT_TRUE(collide(cube, pose_at(Vec3::Zero()), cube, pose_at(Vec3(0.3, 0.2, 1.06))).empty());
}

TEST(Detection, StackedCubesRotatedAboutZ) {
  const Shape cube = make_box(Vec3::Ones());
  const Quat q(Eigen::AngleAxisd(std::numbers::pi / 6.0, Vec3::UnitZ()));
  const Vec3 base(1.0, -2.0, 0.0);
  const auto out =
      collide(cube, pose_at(base, q), cube, pose_at(base + q * Vec3(0.3, 0.2, 1.0), q));
  std::vector<Vec3> expected;
  for (const Vec3& p : overlap_corners(0.5)) expected.push_back(base + q * p);
  // rotated vertices carry ~1e-16 relative error; the clip adds a few operations
  expect_points(out, expected, kTol);
  for (const ContactPoint& cp : out) {
    EXPECT_NEAR(cp.gap, 0.0, kTol);
    expect_frame(cp, Vec3::UnitZ(), kTol);
  }
}

TEST(Detection, CubeOnLargeGround) {
  const Shape ground = make_box(Vec3(10.0, 10.0, 1.0));
  const Shape cube = make_box(Vec3::Ones());
  const std::vector<Vec3> corners = {Vec3(0.5, 1.5, 0.0), Vec3(1.5, 1.5, 0.0), Vec3(1.5, 2.5, 0.0),
                                     Vec3(0.5, 2.5, 0.0)};
  // ground as a: n points up; as b: n points down, same points
  const auto up = collide(ground, pose_at(Vec3(0, 0, -0.5)), cube, pose_at(Vec3(1.0, 2.0, 0.5)));
  expect_points(up, corners, kTol);
  for (const ContactPoint& cp : up) expect_frame(cp, Vec3::UnitZ(), kTol);
  const auto down = collide(cube, pose_at(Vec3(1.0, 2.0, 0.5)), ground, pose_at(Vec3(0, 0, -0.5)));
  expect_points(down, corners, kTol);
  for (const ContactPoint& cp : down) {
    EXPECT_NEAR(cp.gap, 0.0, kTol);
    expect_frame(cp, -Vec3::UnitZ(), kTol);
  }
}

TEST(Detection, CrossingTiltedBarsGiveOneEdgeEdgePoint) {
  // lower bar along x with a top edge (45° about x), upper bar along y with a bottom edge
  const Shape lower = make_box(Vec3(2.0, 0.2, 0.2));
  const Shape upper = make_box(Vec3(0.2, 2.0, 0.2));
  const Quat qa(Eigen::AngleAxisd(std::numbers::pi / 4.0, Vec3::UnitX()));
  const Quat qb(Eigen::AngleAxisd(std::numbers::pi / 4.0, Vec3::UnitY()));
  const double h = 0.1 * std::sqrt(2.0);  // half-diagonal of the 0.2 × 0.2 section
  for (const double g : {0.0, 0.02, -0.01}) {
    const auto out = collide(lower, pose_at(Vec3::Zero(), qa), upper,
                             pose_at(Vec3(0.3, -0.4, 2.0 * h + g), qb));
    ASSERT_EQ(out.size(), 1u) << "g = " << g;
    // edges y = 0, z = h along x and x = 0.3, z = h + g along y cross at (0.3, 0)
    EXPECT_LT((out[0].p_W - Vec3(0.3, 0.0, h + 0.5 * g)).norm(), kTol);
    EXPECT_NEAR(out[0].gap, g, kTol);
    expect_frame(out[0], Vec3::UnitZ(), kTol);
  }
}

TEST(Detection, SphereOnBox) {
  const Shape box = make_box(Vec3(2.0, 2.0, 1.0));
  const Shape ball = Sphere{0.5};
  // above the top face
  auto out = collide(box, pose_at(Vec3::Zero()), ball, pose_at(Vec3(0.3, -0.2, 1.01)));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].gap, 0.01, kTol);
  EXPECT_LT((out[0].p_W - Vec3(0.3, -0.2, 0.505)).norm(), kTol);
  expect_frame(out[0], Vec3::UnitZ(), kTol);
  // beside the edge x = 1, z = 0.5, touching it along (0.6, 0, 0.8); sphere as body a
  out = collide(ball, pose_at(Vec3(1.3, 0.1, 0.9)), box, pose_at(Vec3::Zero()));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].gap, 0.0, kTol);
  EXPECT_LT((out[0].p_W - Vec3(1.0, 0.1, 0.5)).norm(), kTol);
  expect_frame(out[0], -Vec3(0.6, 0.0, 0.8), kTol);
  // centre inside, nearest the +x face: pushed out along +x
  out = collide(box, pose_at(Vec3::Zero()), Shape(Sphere{0.1}), pose_at(Vec3(0.9, 0.0, 0.0)));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].gap, -0.2, kTol);
  EXPECT_LT((out[0].p_W - Vec3(0.9, 0.0, 0.0)).norm(), kTol);
  expect_frame(out[0], Vec3::UnitX(), kTol);
  // beyond the alert distance
  EXPECT_TRUE(collide(box, pose_at(Vec3::Zero()), ball, pose_at(Vec3(0.3, -0.2, 1.06))).empty());
}

TEST(Detection, SphereSphere) {
  const Shape a = Sphere{0.5};
  const Shape b = Sphere{0.3};
  const Vec3 c(1.0, 1.0, 1.0);
  auto out = collide(a, pose_at(c), b, pose_at(c + Vec3(0.48, 0.64, 0.0)));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].gap, 0.0, kTol);
  EXPECT_LT((out[0].p_W - (c + Vec3(0.3, 0.4, 0.0))).norm(), kTol);
  expect_frame(out[0], Vec3(0.6, 0.8, 0.0), kTol);
  // gap 0.04 ≤ alert: reported, point midway
  out = collide(a, pose_at(c), b, pose_at(c + Vec3(0.0, 0.0, 0.84)));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].gap, 0.04, kTol);
  EXPECT_LT((out[0].p_W - (c + Vec3(0.0, 0.0, 0.52))).norm(), kTol);
  EXPECT_TRUE(collide(a, pose_at(c), b, pose_at(c + Vec3(0.0, 0.0, 0.86))).empty());
}

TEST(Detection, FeaturesStableUnderSmallPerturbations) {
  const Shape cube = make_box(Vec3::Ones());
  const Quat q(Eigen::AngleAxisd(std::numbers::pi / 6.0, Vec3::UnitZ()));
  const auto features = [&](const Vec3& dp, const Vec3& dphi) {
    const std::vector<Shape> shapes = {cube, cube};
    const std::vector<Pose> poses = {pose_at(Vec3::Zero(), q),
                                     pose_at(q * Vec3(0.3, 0.2, 1.0) + dp, exp_map(dphi) * q)};
    const std::vector<std::uint8_t> movable = {1, 1};
    std::vector<ContactPoint> out;
    detect_contacts(shapes, poses, movable, kAlert, out);
    std::vector<std::uint64_t> ids;
    for (const ContactPoint& cp : out) ids.push_back(cp.feature);
    return ids;
  };
  const auto reference = features(Vec3::Zero(), Vec3::Zero());
  ASSERT_EQ(reference.size(), 4u);
  EXPECT_TRUE(std::is_sorted(reference.begin(), reference.end()));
  EXPECT_EQ(std::adjacent_find(reference.begin(), reference.end()), reference.end());
  EXPECT_EQ(features(Vec3(1e-4, -2e-4, 3e-4), Vec3(1e-4, 2e-4, -1e-4)), reference);
  EXPECT_EQ(features(Vec3(-1e-3, 1e-3, -2e-3), Vec3(-3e-4, 1e-4, 2e-4)), reference);
  EXPECT_EQ(features(Vec3(0.0, 0.0, 0.02), Vec3::Zero()), reference);
}

TEST(Detection, BoxesGiveTheContactsOfTheSamePolyhedraWithoutTheirBoxBound) {
  // the separating-axis test leaves axes early between boxes from their support functions; it
  // must choose what the vertices alone choose, to the bit, in every configuration: stacked and
  // side by side (axes whose separation is exactly the faces'), tilted and crossing
  const Vec3 size_a(2.0, 1.0, 1.0), size_b(1.0, 1.0, 0.5);
  const ConvexPolyhedron box_a = make_box(size_a), box_b = make_box(size_b);
  ConvexPolyhedron plain_a = box_a, plain_b = box_b;
  plain_a.box_half_size.reset();
  plain_b.box_half_size.reset();
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  int compared = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    // B's centre near A's faces, edges or corners; rotations from none to large
    const Vec3 direction = Vec3(unit(random), unit(random), unit(random));
    const Vec3 c_b = Vec3(100.0, -20.0, 3.0) + (0.5 * (size_a + size_b)).cwiseProduct(
                                                   trial % 4 == 0 ? direction.cwiseSign() : direction);
    const double angle = trial % 3 == 0 ? 0.0 : (trial % 3 == 1 ? 1e-3 : 1.0) * unit(random);
    const Quat q_b(Eigen::AngleAxisd(angle, Vec3(unit(random), unit(random), unit(random)).normalized()));
    const Pose pa = pose_at(Vec3(100.0, -20.0, 3.0)), pb = pose_at(c_b, q_b);
    const std::vector<ContactPoint> boxes = collide(box_a, pa, box_b, pb);
    const std::vector<ContactPoint> plain = collide(plain_a, pa, plain_b, pb);
    ASSERT_EQ(boxes.size(), plain.size()) << "trial " << trial;
    for (std::size_t k = 0; k < boxes.size(); ++k) {
      EXPECT_EQ(boxes[k].p_W, plain[k].p_W) << "trial " << trial;
      EXPECT_EQ(boxes[k].R_WC, plain[k].R_WC) << "trial " << trial;
      EXPECT_EQ(boxes[k].gap, plain[k].gap) << "trial " << trial;
      EXPECT_EQ(boxes[k].feature, plain[k].feature) << "trial " << trial;
    }
    compared += boxes.empty() ? 0 : 1;
  }
  EXPECT_GT(compared, 1000);  // most configurations touch within the alert distance
}

TEST(Detection, NoContactBetweenNonMovableBodies) {
  const std::vector<Shape> shapes = {make_box(Vec3::Ones()), make_box(Vec3::Ones())};
  const std::vector<Pose> poses = {pose_at(Vec3::Zero()), pose_at(Vec3(0.3, 0.2, 1.0))};
  std::vector<ContactPoint> out;
  detect_contacts(shapes, poses, std::vector<std::uint8_t>{0, 0}, kAlert, out);
  EXPECT_TRUE(out.empty());
  detect_contacts(shapes, poses, std::vector<std::uint8_t>{0, 1}, kAlert, out);
  EXPECT_EQ(out.size(), 4u);
}

}  // namespace
}  // namespace nscd::contact
