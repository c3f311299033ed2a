// Prescribed motions of driven bodies against their closed forms.

#include "nscd/step/driven_motion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace nscd {
namespace {

// closed forms evaluated in double precision: 1e-12 covers the round-off of sin/cos and sums
constexpr double kTol = 1e-12;

TEST(DrivenMotion, SineStartsAtRestAndIntegratesExactly) {
  const double w = 5 * std::numbers::pi / 3;
  const DrivenMotion driven = DrivenMotion::sine(Vec3::UnitX(), 0.9, w, 0.1, 0.0);
  EXPECT_EQ(driven.velocity(0.05), Vec3::Zero());
  EXPECT_EQ(driven.displacement(0.05), Vec3::Zero());
  const double t = 0.7;
  EXPECT_NEAR(driven.velocity(t).x(), 0.9 * std::sin(w * (t - 0.1)), kTol);
  EXPECT_NEAR(driven.displacement(t).x(), 0.9 / w * (1 - std::cos(w * (t - 0.1))), kTol);
  EXPECT_NEAR(driven.displacement(t).y(), 0.0, kTol);
}

TEST(DrivenMotion, AccelerogramTableIsIntegratedTwice) {
  // constant acceleration a = 2 from t = 0 to 1, sampled: v = 2t, x = t² (trapezoids are exact
  // for linear velocity; the displacement of a piecewise-linear velocity is exact too)
  const DrivenMotion driven = DrivenMotion::table(DrivenMotion::TableQuantity::Acceleration, Vec3::UnitY(),
                                                  {0.0, 0.25, 0.5, 0.75, 1.0}, {2.0, 2.0, 2.0, 2.0, 2.0});
  EXPECT_NEAR(driven.velocity(0.6).y(), 1.2, kTol);
  EXPECT_NEAR(driven.displacement(0.6).y(), 0.36, kTol);
  // after the record the table keeps its last velocity
  EXPECT_NEAR(driven.velocity(2.0).y(), 2.0, kTol);
  EXPECT_NEAR(driven.displacement(2.0).y(), 1.0 + 2.0, kTol);
}

using Quantity = DrivenMotion::TableQuantity;

// a table along x
DrivenMotion table(Quantity quantity, const std::vector<double>& times, const std::vector<double>& values) {
  return DrivenMotion::table(quantity, Vec3::UnitX(), times, values);
}

TEST(DrivenMotion, DisplacementTableIsFollowedExactly) {
  const DrivenMotion driven = table(Quantity::Displacement, {0.0, 1.0, 2.0}, {0.0, 0.5, 0.25});
  EXPECT_NEAR(driven.displacement(1.5).x(), 0.375, kTol);
  EXPECT_NEAR(driven.velocity(1.5).x(), -0.25, kTol);
  EXPECT_EQ(driven.acceleration(1.5).x(), 0.0);
  // v is piecewise constant: 0.5, −0.25, then 0 after the record; it jumps by 0.75 at t = 1
  const MotionPeaks peaks = driven.peaks(3.0);
  EXPECT_NEAR(peaks.velocity, 0.5, kTol);
  EXPECT_NEAR(peaks.displacement, 0.5, kTol);
  EXPECT_NEAR(peaks.velocity_jump, 0.75, kTol);
  EXPECT_EQ(peaks.acceleration, 0.0);
}

// the ramp, in g: a = 0 until 0.5 s, then rising linearly to 1 g at 20.5 s, so that
// a = g (t − ½)/20, v = g (t − ½)²/40, Δx = g (t − ½)³/120 on [0.5, 20.5], then v = 10 g
TEST(DrivenMotion, ThreePointAccelerationTableIsARamp) {
  constexpr double g = 9.81;
  const DrivenMotion driven = table(Quantity::Acceleration, {0.0, 0.5, 20.5}, {0.0, 0.0, g});
  // values reach ~10² m/s and ~10³ m: the closed forms and eq. (2) agree to the round-off of a
  // few operations on such numbers, 1e-13 relative
  auto expect_close = [](double actual, double expected) { EXPECT_NEAR(actual, expected, 1e-13 * std::abs(expected)); };
  expect_close(driven.acceleration(10.5).x(), 0.5 * g);
  expect_close(driven.velocity(10.5).x(), g * 100 / 40);
  expect_close(driven.displacement(10.5).x(), g * 1000 / 120);
  EXPECT_EQ(driven.velocity(0.3).x(), 0.0);
  EXPECT_EQ(driven.displacement(0.5).x(), 0.0);
  // after the record: a = 0, the last velocity kept
  EXPECT_EQ(driven.acceleration(25.0).x(), 0.0);
  expect_close(driven.velocity(25.0).x(), 10 * g);
  expect_close(driven.displacement(25.0).x(), g * 8000 / 120 + 10 * g * 4.5);
  const MotionPeaks peaks = driven.peaks(25.0);
  expect_close(peaks.acceleration, g);
  expect_close(peaks.velocity, 10 * g);
  expect_close(peaks.displacement, g * 8000 / 120 + 10 * g * 4.5);
  EXPECT_EQ(peaks.velocity_jump, 0.0);
}

// v linear between samples, eq. (3): v = 2t on [0, 1], 2 − 2(t − 1) on [1, 3], so Δx = t² then
// 1 + 2(t − 1) − (t − 1)², which peaks at 2 where v = 0 (t = 2) and is back to 1 at t = 3
TEST(DrivenMotion, VelocityTableIsIntegratedExactly) {
  const DrivenMotion driven = table(Quantity::Velocity, {0.0, 1.0, 3.0}, {0.0, 2.0, -2.0});
  EXPECT_NEAR(driven.velocity(0.5).x(), 1.0, kTol);
  EXPECT_NEAR(driven.displacement(0.5).x(), 0.25, kTol);
  EXPECT_NEAR(driven.acceleration(2.5).x(), -2.0, kTol);
  EXPECT_NEAR(driven.displacement(1.5).x(), 1.75, kTol);
  EXPECT_NEAR(driven.displacement(3.0).x(), 1.0, kTol);
  // held at −2 after the record
  EXPECT_NEAR(driven.displacement(4.0).x(), -1.0, kTol);
  const MotionPeaks peaks = driven.peaks(3.0);
  EXPECT_NEAR(peaks.acceleration, 2.0, kTol);
  EXPECT_NEAR(peaks.velocity, 2.0, kTol);
  EXPECT_NEAR(peaks.displacement, 2.0, kTol);  // inside a piece, at the root of v
}

TEST(DrivenMotion, SinePeaksOverTheRun) {
  const DrivenMotion driven = DrivenMotion::sine(Vec3::UnitX(), 0.3, 2 * std::numbers::pi, 0.5, 0.0);
  // a quarter period after the start: a from Aω down to 0, v up to A, Δx up to A/ω
  const MotionPeaks quarter = driven.peaks(0.75);
  EXPECT_NEAR(quarter.acceleration, 0.3 * 2 * std::numbers::pi, kTol);
  EXPECT_NEAR(quarter.velocity, 0.3, kTol);
  EXPECT_NEAR(quarter.displacement, 0.3 / (2 * std::numbers::pi), kTol);
  EXPECT_NEAR(driven.peaks(10.0).displacement, 2 * 0.3 / (2 * std::numbers::pi), kTol);
  EXPECT_EQ(driven.peaks(0.4).velocity, 0.0);
}

}  // namespace
}  // namespace nscd
