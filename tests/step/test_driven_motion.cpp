// Prescribed motions of driven bodies against their closed forms.

#include "nscd/step/driven_motion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace nscd {
namespace {

// closed forms evaluated in double precision: 1e-12 covers the round-off of sin/cos and sums
constexpr double kTol = 1e-12;

TEST(DrivenMotion, SineStartsAtRestAndIntegratesExactly) {
  io::Motion motion;
  motion.type = io::Motion::Type::Sine;
  motion.direction = Vec3::UnitX();
  motion.amplitude = 0.9;
  motion.angular_frequency = 5 * std::numbers::pi / 3;
  motion.start = 0.1;
  const DrivenMotion driven(motion);
  EXPECT_EQ(driven.velocity(0.05), Vec3::Zero());
  EXPECT_EQ(driven.displacement(0.05), Vec3::Zero());
  const double t = 0.7, w = motion.angular_frequency;
  EXPECT_NEAR(driven.velocity(t).x(), 0.9 * std::sin(w * (t - 0.1)), kTol);
  EXPECT_NEAR(driven.displacement(t).x(), 0.9 / w * (1 - std::cos(w * (t - 0.1))), kTol);
  EXPECT_NEAR(driven.displacement(t).y(), 0.0, kTol);
}

TEST(DrivenMotion, AccelerogramTableIsIntegratedTwice) {
  // constant acceleration a = 2 from t = 0 to 1, sampled: v = 2t, x = t² (trapezoids are exact
  // for linear velocity; the displacement of a piecewise-linear velocity is exact too)
  io::Motion motion;
  motion.type = io::Motion::Type::Table;
  motion.quantity = io::Motion::Quantity::Acceleration;
  motion.direction = Vec3::UnitY();
  motion.scale = 2.0;
  motion.times = {0.0, 0.25, 0.5, 0.75, 1.0};
  motion.values = {1.0, 1.0, 1.0, 1.0, 1.0};
  const DrivenMotion driven(motion);
  EXPECT_NEAR(driven.velocity(0.6).y(), 1.2, kTol);
  EXPECT_NEAR(driven.displacement(0.6).y(), 0.36, kTol);
  // after the record the table keeps its last velocity
  EXPECT_NEAR(driven.velocity(2.0).y(), 2.0, kTol);
  EXPECT_NEAR(driven.displacement(2.0).y(), 1.0 + 2.0, kTol);
}

TEST(DrivenMotion, DisplacementTableIsFollowedExactly) {
  io::Motion motion;
  motion.type = io::Motion::Type::Table;
  motion.quantity = io::Motion::Quantity::Displacement;
  motion.direction = Vec3::UnitX();
  motion.times = {0.0, 1.0, 2.0};
  motion.values = {0.0, 0.5, 0.25};
  const DrivenMotion driven(motion);
  EXPECT_NEAR(driven.displacement(1.5).x(), 0.375, kTol);
  EXPECT_NEAR(driven.velocity(1.5).x(), -0.25, kTol);
}

}  // namespace
}  // namespace nscd
