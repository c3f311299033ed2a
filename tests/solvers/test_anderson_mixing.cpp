#include "solvers/anderson_mixing.hpp"

#include "nscd/io/fclib_file.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/nlgs.hpp"

#include "fclib_problem.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace nscd::solvers {
namespace {

// x ← G(x) = x − τ (S x − b), Richardson's iteration on S x = b for S symmetric positive
// definite with eigenvalues 0.01 … 1 and τ = 1: its slowest mode shrinks by 0.99 a step
struct Richardson {
  Eigen::MatrixXd S;
  Eigen::VectorXd b, solution;
  explicit Richardson(int n) {
    std::mt19937 rng(7);
    std::normal_distribution<double> normal;
    const Eigen::MatrixXd Q = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return normal(rng); }).householderQr().householderQ();
    Eigen::VectorXd eigenvalues = Eigen::VectorXd::LinSpaced(n, 0.01, 1.0);
    S = Q * eigenvalues.asDiagonal() * Q.transpose();
    b = Eigen::VectorXd::NullaryExpr(n, [&] { return normal(rng); });
    solution = S.ldlt().solve(b);
  }
  void sweep(Eigen::VectorXd& x) const { x -= S * x - b; }
};

TEST(AndersonMixing, SolvesALinearFixedPointOnceItHoldsAsManyDifferencesAsDimensions) {
  // on an affine map in n dimensions, mixing n differences is GMRES [Walker & Ni 2011, Thm 2.2]:
  // the start mixed from n differences is the fixed point in exact arithmetic. Here it is within
  // 1e-7 (the normal equations square the condition of ΔF), and one more sweep and mixing bring
  // it to round-off: 1e-12 leaves a factor 100 to the 8e-15 measured. Unmixed, the slowest mode
  // is still 0.99^9 of its start
  const int n = 6;
  const Richardson g(n);
  detail::AndersonMixing mixing(n, n, 0);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n), plain = x, none;
  for (int k = 0; k < n + 3; ++k) {  // starts 0 and 1 record, start k ≥ 2 mixes min(k − 1, n) differences
    mixing.start_sweep(x, none);
    g.sweep(x);
    g.sweep(plain);
  }
  EXPECT_LE((x - g.solution).norm(), 1e-12 * g.solution.norm());
  EXPECT_GT((plain - g.solution).norm(), 1e-2 * g.solution.norm());
  EXPECT_EQ(mixing.mixed(), n + 1);
  EXPECT_EQ(mixing.restarts(), 0);
}

TEST(AndersonMixing, CarriesALinearImageWithTheSameCoefficients) {
  // eq. (4): y = L x before every sweep, without a product by L
  const int n = 8;
  const Richardson g(n);
  const Eigen::MatrixXd L = Eigen::MatrixXd::Random(3, n);
  detail::AndersonMixing mixing(3, n, 3);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n), y = L * x;
  for (int k = 0; k < 12; ++k) {
    mixing.start_sweep(x, y);
    EXPECT_LE((y - L * x).norm(), 1e-12 * (L * x).norm() + 1e-15) << "sweep " << k;
    const Eigen::VectorXd before = x;
    g.sweep(x);
    y += L * (x - before);  // as NLGS on the bodies updates Δv with each Δr
  }
  EXPECT_GT(mixing.mixed(), 0);
}

TEST(AndersonMixing, RestartsWhenASweepFromTheMixedPointDoesWorse) {
  // a map whose step grows: f_{k+1} = 2 f_k, so every recorded sweep but the first trips the
  // safeguard, and no start is mixed
  detail::AndersonMixing mixing(3, 2, 0);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(2), none;
  double step = 1.0;
  for (int k = 0; k < 5; ++k) {
    EXPECT_FALSE(mixing.start_sweep(x, none));
    x.array() += step;
    step *= 2.0;
  }
  EXPECT_EQ(mixing.mixed(), 0);
  EXPECT_EQ(mixing.restarts(), 3);
}

TEST(AndersonMixing, PausesAfterSweepsWithoutANewLowestStep) {
  // a map that does not converge: sweep 0 moves x by 0.5, every later one by 1.5, 1.4, … 1.1,
  // 1.5, … (turning by 1 rad a sweep; the steps differ by far more than round-off), so that no
  // later sweep sets a new lowest ‖f_k‖. The mixing goes on within each falling run of steps
  // (the safeguard restarts it at each rise) until kStall sweeps have passed without a new
  // lowest, pauses for kStall plain sweeps, then starts afresh
  constexpr int kStall = detail::AndersonMixing::kStall;
  detail::AndersonMixing mixing(3, 2, 0);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(2), none;
  std::vector<int> mixed_at;  // the start_sweep calls that mixed
  for (int k = 0; k <= 3 * kStall; ++k) {
    if (mixing.start_sweep(x, none)) mixed_at.push_back(k);
    const double step = k == 0 ? 0.5 : 1.5 - 0.1 * ((k - 1) % 5);
    x += step * Eigen::Vector2d(std::cos(k), std::sin(k));
  }
  const auto mixed_within = [&](int first, int last) {
    return std::count_if(mixed_at.begin(), mixed_at.end(), [&](int k) { return k >= first && k <= last; });
  };
  EXPECT_GT(mixed_within(2, kStall), kStall / 2);         // call k records sweep k − 1
  EXPECT_EQ(mixed_within(kStall + 1, 2 * kStall + 1), 0);  // the pause
  EXPECT_GT(mixed_within(2 * kStall + 2, 3 * kStall), kStall / 2);
  EXPECT_EQ(mixing.pauses(), 1);
}

TEST(AndersonMixing, DepthZeroLeavesTheSweepsAsTheyAre) {
  detail::AndersonMixing mixing(0, 2, 0);
  Eigen::VectorXd x(2), none;
  for (int k = 0; k < 4; ++k) {
    x << k, 2.0 * k * k;
    const Eigen::VectorXd before = x;
    EXPECT_FALSE(mixing.start_sweep(x, none));
    EXPECT_EQ(x, before);
  }
}

// the stack of ten boxes and the shaken wall dumped from nscd's scenes (tests/data/README.md):
// Gauss–Seidel's slow linear rate, set by the stack's and the wall's global modes, is what the
// mixing removes
struct MixedDump {
  const char* name;
  int mixed_budget;    // sweeps within which mixed NLGS reaches 1e-8
  int plain_sweeps;    // sweeps of plain NLGS, which then stays above 1e-8
};

void PrintTo(const MixedDump& dump, std::ostream* os) { *os << dump.name; }

class AndersonNlgsDumpTest : public testing::TestWithParam<MixedDump> {};

TEST_P(AndersonNlgsDumpTest, MixedNlgsReachesTightToleranceWherePlainNlgsStalls) {
  const io::FclibProblem read =
      io::read_fclib_problem(fclib_data::fclib_folder() / (std::string(GetParam().name) + ".hdf5"));
  NlgsOptions options;
  options.stopping = {1e-8, GetParam().mixed_budget};
  const SolverResult mixed = solve_nlgs(read.problem, options, Eigen::VectorXd());
  EXPECT_EQ(mixed.status, SolverStatus::Converged) << "error " << mixed.error << " after " << mixed.iterations;
  EXPECT_LE(error_measure(read.problem, mixed.r, read.problem.W.apply(mixed.r) + read.problem.q), 1e-8);
  options.anderson_depth = 0;
  options.stopping = {1e-8, GetParam().plain_sweeps};
  const SolverResult plain = solve_nlgs(read.problem, options, Eigen::VectorXd());
  EXPECT_EQ(plain.status, SolverStatus::MaxIterations) << "error " << plain.error;
}

// measured (depth 3): the stack 193 sweeps, the wall 2 476; plain NLGS needs 15 431 on the stack
// and stays at 7.7e-6 after 10 000 on the wall. The budgets sit between, with room for the
// round-off of another compiler
INSTANTIATE_TEST_SUITE_P(SceneDumps, AndersonNlgsDumpTest,
                         testing::Values(MixedDump{"nscd_stack10_step600", 1000, 5000},
                                         MixedDump{"nscd_wall_shaking_step540", 5000, 5000}),
                         [](const testing::TestParamInfo<MixedDump>& param) {
                           return fclib_data::test_name(param.param.name);
                         });

}  // namespace
}  // namespace nscd::solvers
