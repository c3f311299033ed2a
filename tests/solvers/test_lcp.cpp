// Lemke's method on tiny LCPs with known solutions, and the pyramid LCP (lcp_solver.hpp)
// against the exact cone solution as the number of facets grows.

#include "solvers/error_measure.hpp"
#include "solvers/lcp_lemke.hpp"
#include "solvers/lcp_solver.hpp"
#include "random_problem.hpp"

#include <gtest/gtest.h>

#include <string>

#include <Eigen/Core>

#include <cmath>
#include <numbers>
#include <random>
#include <utility>

namespace nscd::solvers {
namespace {

TEST(LemkeTest, InteriorSolution) {
  // M = [2 1; 1 2], b = (−5, −6): w = 0, z = M⁻¹ (5, 6) = (4/3, 7/3)
  Eigen::Matrix2d M;
  M << 2, 1, 1, 2;
  const LemkeResult res = lemke(M, Eigen::Vector2d(-5, -6), 10);
  ASSERT_TRUE(res.solved);
  constexpr double kTol = 1e-14;  // two pivots on O(1) numbers
  EXPECT_NEAR(res.z(0), 4.0 / 3.0, kTol);
  EXPECT_NEAR(res.z(1), 7.0 / 3.0, kTol);
}

TEST(LemkeTest, OneActiveOneInactive) {
  // b = (−1, 2): z = (1/2, 0), w = (0, 5/2)
  Eigen::Matrix2d M;
  M << 2, 1, 1, 2;
  const LemkeResult res = lemke(M, Eigen::Vector2d(-1, 2), 10);
  ASSERT_TRUE(res.solved);
  EXPECT_NEAR(res.z(0), 0.5, 1e-15);
  EXPECT_EQ(res.z(1), 0.0);
}

TEST(LemkeTest, NonNegativeBIsSolvedByZero) {
  const LemkeResult res = lemke(Eigen::Matrix2d::Identity(), Eigen::Vector2d(1, 0), 10);
  EXPECT_TRUE(res.solved);
  EXPECT_EQ(res.pivots, 0);
  EXPECT_EQ(res.z, Eigen::Vector2d::Zero());
}

TEST(LemkeTest, InfeasibleEndsOnARay) {
  // w = −z − 1 cannot be ≥ 0 for z ≥ 0
  const LemkeResult res = lemke(-Eigen::MatrixXd::Identity(1, 1), Eigen::VectorXd::Constant(1, -1.0), 10);
  EXPECT_FALSE(res.solved);
}

TEST(LemkeTest, DegenerateThreeByThree) {
  // a copositive-plus M with ties in the ratio test (equal entries of b): z = (1, 1, 0) solves
  // w = M z + b with w = (0, 0, 1)
  Eigen::Matrix3d M;
  M << 1, 0, 1, 0, 1, 1, 1, 1, 1;
  const LemkeResult res = lemke(M, Eigen::Vector3d(-1, -1, -1), 20);
  ASSERT_TRUE(res.solved);
  const Eigen::Vector3d w = M * res.z + Eigen::Vector3d(-1, -1, -1);
  constexpr double kTol = 1e-14;
  EXPECT_GE(w.minCoeff(), -kTol);
  EXPECT_GE(res.z.minCoeff(), 0.0);
  EXPECT_LE(std::abs(res.z.dot(w)), kTol);
}

// the projection of x on the regular k-gon of circumradius a with vertices a (cos 2πj/k, sin 2πj/k)
Eigen::Vector2d project_on_polygon(const Eigen::Vector2d& x, double a, int k) {
  Eigen::Vector2d best;
  double best_distance = INFINITY;
  for (int j = 0; j < k; ++j) {
    const double t0 = 2.0 * std::numbers::pi * j / k, t1 = 2.0 * std::numbers::pi * (j + 1) / k;
    const Eigen::Vector2d v0(a * std::cos(t0), a * std::sin(t0)), v1(a * std::cos(t1), a * std::sin(t1));
    const double s = std::clamp((x - v0).dot(v1 - v0) / (v1 - v0).squaredNorm(), 0.0, 1.0);
    const Eigen::Vector2d y = v0 + s * (v1 - v0);
    if ((x - y).norm() < best_distance) {
      best_distance = (x - y).norm();
      best = y;
    }
  }
  return best;
}

class PyramidTest : public testing::TestWithParam<LcpMethod> {};

TEST_P(PyramidTest, ApproachesTheConeAsFacetsGrow) {
  // W = I, q = (−1, 3, 4), μ = 0.5: the cone solution is r = (1, −0.3, −0.4). With k facets the
  // LCP is the optimality condition of min ½‖r‖² + qᵀ r over the pyramid, so r_n = 1 and r_T is
  // the projection of −q_T on the k-gon of circumradius μ r_n = 0.5 (analytic)
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(Eigen::MatrixXd::Identity(3, 3));
  p.q = Eigen::Vector3d(-1.0, 3.0, 4.0);
  p.mu = Eigen::VectorXd::Constant(1, 0.5);
  double first_error = 0.0;
  double last_error = 0.0;
  for (int k : {4, 8, 16, 32, 64}) {
    LcpOptions options;
    options.method = GetParam();
    options.facets = k;
    options.stopping.tolerance = 1e-14;
    const SolverResult res = solve_lcp(p, options, Eigen::VectorXd());
    ASSERT_EQ(res.status, SolverStatus::Converged) << "k = " << k;
    const Eigen::Vector2d expected_t = project_on_polygon(Eigen::Vector2d(-3.0, -4.0), 0.5, k);
    constexpr double kTol = 1e-12;  // pivoting on O(1) numbers
    EXPECT_NEAR(res.r(0), 1.0, kTol) << "k = " << k;
    EXPECT_LE((res.r.tail<2>() - expected_t).norm(), kTol) << "k = " << k;
    // the error on the cone problem is that of the analytic r: r_T lies within a chord
    // 2 μ r_n sin(π/k) of the exact (−0.3, −0.4) (the polygon turns the sliding direction by up
    // to π/k, so the error is first order in 1/k), relative to max(‖q‖, ‖r‖, ‖u‖) ≥ ‖q‖
    const Eigen::Vector3d r_exact(1.0, expected_t(0), expected_t(1));
    const Eigen::Vector3d u_exact = r_exact + p.q;
    EXPECT_NEAR(res.error, error_measure(p, r_exact, u_exact), kTol) << "k = " << k;
    EXPECT_LE(res.error, 2.0 * 0.5 * std::sin(std::numbers::pi / k) / p.q.norm()) << "k = " << k;
    if (k == 4) first_error = res.error;
    last_error = res.error;
  }
  // from 4 to 64 facets the error drops by more than an order of magnitude
  EXPECT_LT(last_error, 0.1 * first_error);
}

TEST_P(PyramidTest, StickingContactIsExact) {
  // μ = 1 and r = −q inside every pyramid with k ≥ 4 facets (‖q_T‖ = 0.2 ≤ cos(π/4)): exact
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(Eigen::MatrixXd::Identity(3, 3));
  p.q = Eigen::Vector3d(-1.0, 0.12, -0.16);
  p.mu = Eigen::VectorXd::Constant(1, 1.0);
  LcpOptions options;
  options.method = GetParam();
  options.stopping.tolerance = 1e-14;
  const SolverResult res = solve_lcp(p, options, Eigen::VectorXd());
  ASSERT_EQ(res.status, SolverStatus::Converged);
  EXPECT_LE((res.r + p.q).norm(), 1e-14);
  EXPECT_LE(res.error, 1e-14);
}

TEST(PyramidGaussSeidel, StopsAtTheSameSweepInAnyUnitOfImpulsesWithTheVelocityMeasure) {
  // 6 contacts with W = A Aᵀ + I/10, then the same problem in an impulse unit c times smaller
  // (W/c: the same velocities for r c). With the velocity measure e_lcp weighs the impulses as
  // velocities, so Gauss–Seidel makes the same sweeps and stops at the same one (r scaled by c to
  // round-off); with Siconos's it adds N s to m/s, and its denominator, ‖r‖ c, stops it earlier
  std::mt19937 rng(11);
  const int nc = 6;
  const Eigen::MatrixXd W = random_problem::delassus(rng, nc, 0.1);
  Eigen::VectorXd q = random_problem::uniform_vector(rng, 3 * nc);
  for (int i = 0; i < nc; ++i) q(3 * i) = -std::abs(q(3 * i));
  const double c = 1e4;
  const auto solve_both = [&](ErrorScaling scaling) {
    const auto [a, b] = random_problem::in_two_units(W, q, 0.5, c, scaling);
    LcpOptions options;
    options.method = LcpMethod::Pgs;
    options.stopping.tolerance = 1e-8;
    return std::pair{solve_lcp(a, options, Eigen::VectorXd()), solve_lcp(b, options, Eigen::VectorXd())};
  };
  const auto [velocity_a, velocity_b] = solve_both(ErrorScaling::Velocity);
  ASSERT_EQ(velocity_a.status, SolverStatus::Converged);
  ASSERT_EQ(velocity_b.status, SolverStatus::Converged);
  EXPECT_EQ(velocity_a.iterations, velocity_b.iterations);
  EXPECT_GT(velocity_a.iterations, 8);  // more than one evaluation of e_lcp
  // the same sweeps on W and W/c: r differs by round-off of the local pivoting (1e-12 relative)
  EXPECT_LE((velocity_b.r / c - velocity_a.r).norm(), 1e-10 * velocity_a.r.norm());
  const auto [siconos_a, siconos_b] = solve_both(ErrorScaling::Siconos);
  EXPECT_LT(siconos_b.iterations, siconos_a.iterations);
}

std::string param_name(const testing::TestParamInfo<LcpMethod>& info) { return std::string(to_string(info.param)); }

INSTANTIATE_TEST_SUITE_P(Methods, PyramidTest, testing::Values(LcpMethod::Lemke, LcpMethod::Pgs),
                         param_name);

}  // namespace
}  // namespace nscd::solvers
