#include "solvers/error_measure.hpp"
#include "random_problem.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>

#include <cmath>
#include <random>
#include <utility>

namespace nscd::solvers {
namespace {

FrictionProblem one_contact(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu) {
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(W);
  p.q = q;
  p.mu = Eigen::VectorXd::Constant(1, mu);
  return p;
}

TEST(ErrorMeasureTest, HandComputedBoundaryCase) {
  // μ = 0.5, r = (1, 0.4, 0), W = [2 .5 0; .5 1 0; 0 0 1], q = (−2.15, −1.4, 1.2)
  //   u = W r + q = (2.2, 0.9, 0) + q = (0.05, −0.5, 1.2),  ‖u_T‖ = 1.3
  //   x = r − u − μ‖u_T‖ e_n = (1 − 0.05 − 0.65, 0.9, −1.2) = (0.3, 0.9, −1.2),  ‖x_T‖ = 1.5
  //   μ x_n = 0.15 < 1.5 and μ‖x_T‖ = 0.75 > −0.3: boundary case of eq. (4)
  //   P_K(x) = (0.75 + 0.3)/1.25 · (1, 0.5 · (0.6, −0.8)) = (0.84, 0.252, −0.336)
  //   e = r − P_K(x) = (0.16, 0.148, 0.336),  ‖e‖² = 0.0256 + 0.021904 + 0.112896 = 0.1604
  //   ‖q‖² = 8.0225 > ‖u‖² = 1.6925 > ‖r‖² = 1.16, so error = sqrt(0.1604 / 8.0225)
  Eigen::Matrix3d W;
  W << 2, 0.5, 0, 0.5, 1, 0, 0, 0, 1;
  const FrictionProblem p = one_contact(W, Eigen::Vector3d(-2.15, -1.4, 1.2), 0.5);
  const Eigen::VectorXd r = Eigen::Vector3d(1.0, 0.4, 0.0);
  const Eigen::VectorXd u = p.W.apply(r) + p.q;
  // all inputs O(1), a few dozen operations: rounding far below 1e-14
  constexpr double kTol = 1e-14;
  EXPECT_NEAR(error_measure(p, r, u), std::sqrt(0.1604 / 8.0225), kTol);
}

TEST(ErrorMeasureTest, VelocityMeasureIsSiconosOnTheImpulsesAsVelocities) {
  // the case above with ErrorScaling::Velocity: s = tr(W)/3 = 4/3, r̃ = s r = (4/3, 8/15, 0),
  // x = r̃ − u − μ‖u_T‖ e_n = (4/3 − 0.7, 8/15 + 0.5, −1.2): Siconos's error of the problem
  // (W/s, q, μ) at r̃, whose u = (W/s) r̃ + q is the same
  Eigen::Matrix3d W;
  W << 2, 0.5, 0, 0.5, 1, 0, 0, 0, 1;
  FrictionProblem p = one_contact(W, Eigen::Vector3d(-2.15, -1.4, 1.2), 0.5);
  p.error_scaling = ErrorScaling::Velocity;
  const Eigen::VectorXd r = Eigen::Vector3d(1.0, 0.4, 0.0);
  const Eigen::VectorXd u = p.W.apply(r) + p.q;
  const double s = 4.0 / 3.0;
  const FrictionProblem siconos = one_contact(W / s, p.q, 0.5);
  const Eigen::VectorXd r_tilde = s * r;
  EXPECT_EQ(impulse_scale(p, 0), s);
  EXPECT_EQ(impulse_scale(siconos, 0), 1.0);
  // the same operations up to the order of the products: a few ulps
  EXPECT_NEAR(error_measure(p, r, u), error_measure(siconos, r_tilde, siconos.W.apply(r_tilde) + siconos.q), 1e-15);
}

TEST(ErrorMeasureTest, VelocityMeasureDoesNotDependOnTheUnitOfImpulses) {
  // a problem of 5 contacts and a trial r, then the same in an impulse unit c times smaller
  // (W/c, r c: the same velocities). Siconos's measure changes with c; the velocity measure
  // does not (round-off: relative 1e-14 for these O(1) sums)
  std::mt19937 rng(5);
  const int nc = 5;
  const Eigen::MatrixXd W = random_problem::delassus(rng, nc, 1.0);
  const Eigen::VectorXd q = random_problem::uniform_vector(rng, 3 * nc);
  Eigen::VectorXd r = random_problem::uniform_vector(rng, 3 * nc);
  for (int i = 0; i < nc; ++i) r(3 * i) = std::abs(r(3 * i));
  const double c = 1e3;
  const auto errors = [&](ErrorScaling scaling) {
    const auto [a, b] = random_problem::in_two_units(W, q, 0.4, c, scaling);
    const Eigen::VectorXd rb = c * r;
    return std::pair{error_measure(a, r, a.W.apply(r) + q), error_measure(b, rb, b.W.apply(rb) + q)};
  };
  const auto [velocity_a, velocity_b] = errors(ErrorScaling::Velocity);
  EXPECT_NEAR(velocity_a, velocity_b, 1e-14 * velocity_a);
  const auto [siconos_a, siconos_b] = errors(ErrorScaling::Siconos);
  EXPECT_GT(std::abs(siconos_a - siconos_b), 0.1 * siconos_a);
}

TEST(ErrorMeasureTest, ZeroOnExactSolutions) {
  // W = I, μ = 0.5: stick (u = 0), open (r = 0, u_n > 0) and slip (u_n = 0, r_T = −μ r_n u_T/‖u_T‖)
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  const struct {
    Eigen::Vector3d q, r;
  } cases[] = {{{-1.0, 0.1, 0.0}, {1.0, -0.1, 0.0}},
               {{0.5, 3.0, -1.0}, {0.0, 0.0, 0.0}},
               {{-1.0, 2.0, 0.0}, {1.0, -0.5, 0.0}}};
  for (const auto& c : cases) {
    const FrictionProblem p = one_contact(I, c.q, 0.5);
    const Eigen::VectorXd r = c.r;
    // every intermediate value is a short binary fraction, so the error is exactly zero
    EXPECT_EQ(error_measure(p, r, p.W.apply(r) + p.q), 0.0) << c.q.transpose();
  }
}

TEST(ErrorMeasureTest, DenominatorOneWhenEverythingIsZero) {
  const FrictionProblem p = one_contact(Eigen::Matrix3d::Identity(), Eigen::Vector3d::Zero(), 0.3);
  // q = r = u = 0: 0 / 1, not 0 / 0
  EXPECT_EQ(error_measure(p, Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(3)), 0.0);
  // r = 0, u = (−4, 0, 0): x = (4, 0, 0) lies inside K, e = −x, error = 4 / max(0, 0, 4)
  const Eigen::VectorXd u = Eigen::Vector3d(-4.0, 0.0, 0.0);
  EXPECT_EQ(error_measure(p, Eigen::VectorXd::Zero(3), u), 1.0);
}

TEST(ConeProjectionTest, InsideDualAndBoundaryCases) {
  const double mu = 0.5;
  // inside: returned unchanged
  EXPECT_EQ(project_on_cone({2.0, 0.6, -0.8}, mu), Eigen::Vector3d(2.0, 0.6, -0.8));
  // in the polar cone (μ‖x_T‖ ≤ −x_n): zero
  EXPECT_EQ(project_on_cone({-1.0, 0.6, 0.8}, mu), Eigen::Vector3d::Zero());
  // boundary: x = (1, 3, 4), ‖x_T‖ = 5 → r_n = (2.5 + 1) / 1.25 = 2.8, r_T = 0.5 · 2.8 · (0.6, 0.8)
  const Eigen::Vector3d b = project_on_cone({1.0, 3.0, 4.0}, mu);
  // exact up to the rounding of a handful of operations on O(1) numbers
  constexpr double kTol = 1e-15;
  EXPECT_NEAR(b(0), 2.8, kTol);
  EXPECT_NEAR(b(1), 0.84, kTol);
  EXPECT_NEAR(b(2), 1.12, kTol);
  // μ = 0: the cone is the half-line r_T = 0, r_n ≥ 0
  EXPECT_EQ(project_on_cone({-2.0, 0.0, 0.0}, 0.0), Eigen::Vector3d::Zero());
  EXPECT_EQ(project_on_cone({2.0, 1.0, -1.0}, 0.0), Eigen::Vector3d(2.0, 0.0, 0.0));
}

TEST(ConeProjectionTest, IdempotentAndMoreauDecomposition) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(-2.0, 2.0);
  // values O(1) and a few operations per projection: 1e-14 leaves ~50 ulps
  constexpr double kTol = 1e-14;
  for (double mu : {0.1, 0.5, 1.0, 3.0}) {
    for (int k = 0; k < 1000; ++k) {
      const Eigen::Vector3d x(uniform(rng), uniform(rng), uniform(rng));
      const Eigen::Vector3d p = project_on_cone(x, mu);
      // P_K(P_K(x)) = P_K(x); P_K(x) ∈ K
      EXPECT_LE((project_on_cone(p, mu) - p).norm(), kTol);
      EXPECT_LE(std::hypot(p(1), p(2)), mu * p(0) + kTol);
      // Moreau: x = P_K(x) + P_K°(x), K° = −K*, K* = K_{1/μ}, and the two parts are orthogonal
      const Eigen::Vector3d polar = -project_on_cone(-x, 1.0 / mu);
      EXPECT_LE((p + polar - x).norm(), kTol) << "mu " << mu << " x " << x.transpose();
      EXPECT_NEAR(p.dot(polar), 0.0, kTol);
    }
  }
}

}  // namespace
}  // namespace nscd::solvers
