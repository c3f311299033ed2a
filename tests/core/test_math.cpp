// The small maths of nscd/core/math.hpp against Eigen's own constructions.

#include "nscd/core/math.hpp"

#include <gtest/gtest.h>

#include <random>

namespace nscd {
namespace {

TEST(Math, ExpMapMatchesAngleAxisAtAllAngles) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (double angle : {0.0, 1e-12, 1e-9, 1e-8, 2e-8, 1e-3, 0.5, 3.0}) {
    const Vec3 axis = Vec3(unit(rng), unit(rng), unit(rng)).normalized();
    const Quat expected(Eigen::AngleAxisd(angle, axis));
    // both branches (Taylor below 1e-8, closed form above) agree with Eigen to round-off
    EXPECT_LT((exp_map(angle * axis).coeffs() - expected.coeffs()).norm(), 1e-15) << angle;
    EXPECT_NEAR(exp_map(angle * axis).norm(), 1.0, 1e-15);
  }
}

TEST(Math, SkewIsTheCrossProduct) {
  const Vec3 a(0.3, -1.2, 2.0), b(-0.7, 0.4, 1.1);
  // the same products in another order: a few ulps
  EXPECT_LT((skew(a) * b - a.cross(b)).norm(), 1e-15);
}

TEST(Math, OrthonormalFrameIsRightHandedWithTheNormalFirst) {
  std::mt19937 rng(11);
  std::normal_distribution<double> gauss;
  for (int k = 0; k < 1000; ++k) {
    const Vec3 n = Vec3(gauss(rng), gauss(rng), gauss(rng)).normalized();
    const Mat3 R = orthonormal_frame(n);
    EXPECT_EQ(R.col(0), n);
    // orthonormal to round-off of a few operations on unit vectors
    EXPECT_LT((R.transpose() * R - Mat3::Identity()).norm(), 1e-14);
    EXPECT_NEAR(R.determinant(), 1.0, 1e-14);
  }
  // an axis-aligned normal, as on the faces of boxes, gives an exact frame (only 0 and ±1 occur)
  const Mat3 expected = (Mat3() << 0, 0, -1, 0, 1, 0, 1, 0, 0).finished();
  EXPECT_EQ(orthonormal_frame(Vec3::UnitZ()), expected);
}

}  // namespace
}  // namespace nscd
