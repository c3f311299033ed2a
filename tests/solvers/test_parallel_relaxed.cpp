// The parallel relaxed solvers: CCP projected Gauss–Seidel (ccp_pgs.hpp) and LCP block
// Gauss–Seidel (lcp_solver.hpp) sweep in the colour order of sweep_plan.hpp, their coloured sweep
// equals a sequential sweep of the renumbered problem in index order iteration by iteration, and
// they and APGD (ccp_apgd.hpp, parallel over fixed blocks of contacts) give bitwise the same
// result with 1, 2 and 4 threads.

#include "solvers/ccp_pgs.hpp"
#include "solvers/ccp_solver.hpp"
#include "solvers/contact_blocks.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/lcp_lemke.hpp"
#include "solvers/lcp_solver.hpp"
#include "solvers/local_solver.hpp"
#include "solvers/sweep_plan.hpp"
#include "tests/solvers/parallel_testing.hpp"
#include "tests/support/lattice_problem.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>

#include <cstring>
#include <string>
#include <vector>

namespace nscd::solvers {
namespace {

using parallel_testing::bitwise_equal;
using parallel_testing::has_parallel_color;
using parallel_testing::with_threads;

// spheres on a 10 × 10 × 10 lattice: 2800 contacts, colours of more than 4 chunks, 3 blocks of
// contact_blocks.hpp
const FrictionProblem& lattice() {
  static const FrictionProblem p = test_support::lattice_problem(10, 1);
  return p;
}

// the result with 1 thread, and r, u, iterations, status and error bitwise equal with 2 and 4
template <class Solve>
void expect_same_result_with_one_two_four_threads(Solve&& solve) {
  const SolverResult one = with_threads(1, solve);
  EXPECT_GT(one.iterations, 1);
  for (const int threads : {2, 4}) {
    const SolverResult res = with_threads(threads, solve);
    EXPECT_TRUE(bitwise_equal(res.r, one.r)) << threads << " threads";
    EXPECT_TRUE(bitwise_equal(res.u, one.u)) << threads << " threads";
    EXPECT_EQ(res.iterations, one.iterations) << threads << " threads";
    EXPECT_EQ(res.status, one.status) << threads << " threads";
    EXPECT_EQ(std::memcmp(&res.error, &one.error, sizeof(double)), 0) << threads << " threads";
  }
}

// the reference CCP sweep, ccp_pgs.hpp eqs. (1)–(2), contacts in index order
void sequential_ccp_sweep(const FrictionProblem& p, const Eigen::VectorXd& s, double omega, Eigen::VectorXd& r) {
  for (int i = 0; i < p.nc(); ++i) {
    Eigen::Vector3d u = p.q.segment<3>(3 * i) + p.W.diag(i) * r.segment<3>(3 * i);
    p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& W_ij) { u.noalias() += W_ij * r.segment<3>(3 * j); });
    u(0) += s(i);
    const double eta = omega * detail::fixed_point_rho(p.W.diag(i));
    r.segment<3>(3 * i) = project_on_cone(r.segment<3>(3 * i) - eta * u, p.mu(i));
  }
}

// the reference LCP sweep of lcp_solver.hpp, contacts in index order (k facets)
void sequential_lcp_sweep(const FrictionProblem& p, int k, Eigen::VectorXd& r, Eigen::VectorXd& z) {
  const int m = k + 2;
  const Eigen::MatrixXd B = detail::pyramid_basis(k);
  for (int i = 0; i < p.nc(); ++i) {
    Eigen::Vector3d q_loc = p.q.segment<3>(3 * i);
    p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& W_ij) { q_loc.noalias() += W_ij * r.segment<3>(3 * j); });
    Eigen::VectorXd b = Eigen::VectorXd::Zero(m);
    b.head(k + 1) = B.transpose() * q_loc;
    const LemkeResult local = lemke(detail::pyramid_block(p.W.diag(i), p.mu(i), B), b, 4 * m);
    if (!local.solved) continue;
    z.segment(m * i, m) = local.z;
    r.segment<3>(3 * i) = B * local.z.head(k + 1);
  }
}

TEST(ParallelRelaxed, LatticeIsColouredIntoParallelChunksAndSeveralBlocks) {
  const detail::SweepPlan plan = detail::make_sweep_plan(lattice().W);
  EXPECT_TRUE(plan.renumbers());
  EXPECT_TRUE(has_parallel_color(plan));
  EXPECT_GT(lattice().nc(), 2 * detail::kContactBlock);
}

TEST(ParallelRelaxed, CcpPgsSweepEqualsSequentialSweepOfRenumberedProblemIterationByIteration) {
  const detail::SweepPlan plan = detail::make_sweep_plan(lattice().W);
  const FrictionProblem p = renumbered(lattice(), plan.coloring.order);
  const Eigen::VectorXd s = Eigen::VectorXd::Constant(p.nc(), 0.01);
  const double omega = 1.2;
  for (const int threads : {1, 2}) {
    Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * p.nc());
    Eigen::VectorXd r_reference = r;
    for (int sweep = 1; sweep <= 20; ++sweep) {
      bool converged = false;
      const int sweeps = with_threads(threads, [&] { return detail::ccp_pgs(p, plan, s, omega, 0.0, 1, r, converged); });
      ASSERT_EQ(sweeps, 1);
      sequential_ccp_sweep(p, s, omega, r_reference);
      ASSERT_TRUE(bitwise_equal(r, r_reference)) << threads << " threads, sweep " << sweep;
    }
  }
}

TEST(ParallelRelaxed, LcpPgsSweepEqualsSequentialSweepOfRenumberedProblemIterationByIteration) {
  const detail::SweepPlan plan = detail::make_sweep_plan(lattice().W);
  const FrictionProblem p = renumbered(lattice(), plan.coloring.order);
  const int k = 8;
  for (const int threads : {1, 2}) {
    Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * p.nc());
    Eigen::VectorXd z = Eigen::VectorXd::Zero((k + 2) * p.nc());
    Eigen::VectorXd r_reference = r, z_reference = z;
    for (int sweep = 1; sweep <= 5; ++sweep) {
      bool converged = false;
      const int sweeps = with_threads(threads, [&] { return detail::lcp_pgs(p, plan, k, 0.0, 1, r, z, converged); });
      ASSERT_EQ(sweeps, 1);
      sequential_lcp_sweep(p, k, r_reference, z_reference);
      ASSERT_TRUE(bitwise_equal(r, r_reference)) << threads << " threads, sweep " << sweep;
      ASSERT_TRUE(bitwise_equal(z, z_reference)) << threads << " threads, sweep " << sweep;
    }
  }
}

TEST(ParallelRelaxed, CcpPgsAndApgdAreBitwiseEqualWithOneTwoAndFourThreads) {
  CcpOptions options;
  options.stopping.tolerance = 1e-8;
  options.stopping.max_iterations = 300;
  for (const CcpMethod method : {CcpMethod::Pgs, CcpMethod::Apgd})
    for (const bool correction : {false, true}) {
      options.method = method;
      options.correction = correction;
      SCOPED_TRACE(std::string(method == CcpMethod::Pgs ? "pgs, " : "apgd, ") +
                   (correction ? "corrected" : "relaxation"));
      expect_same_result_with_one_two_four_threads([&] { return solve_ccp(lattice(), options, Eigen::VectorXd()); });
    }
}

TEST(ParallelRelaxed, LcpPgsIsBitwiseEqualWithOneTwoAndFourThreads) {
  LcpOptions options;
  options.method = LcpMethod::Pgs;
  options.stopping.tolerance = 1e-8;
  options.stopping.max_iterations = 40;
  expect_same_result_with_one_two_four_threads([&] { return solve_lcp(lattice(), options, Eigen::VectorXd()); });
}

TEST(ParallelRelaxed, DelassusProductAndCcpErrorAreBitwiseEqualWithOneTwoAndFourThreads) {
  const FrictionProblem& p = lattice();
  const Eigen::VectorXd r = Eigen::VectorXd::LinSpaced(3 * p.nc(), -1.0, 2.0);
  const Eigen::VectorXd s = Eigen::VectorXd::Constant(p.nc(), 0.1);
  const Eigen::VectorXd Wr = with_threads(1, [&] { return p.W.apply(r); });
  const Eigen::VectorXd u = Wr + p.q;
  const double one = with_threads(1, [&] { return ccp_error(p, s, r, u); });
  for (const int threads : {2, 4}) {
    EXPECT_TRUE(bitwise_equal(with_threads(threads, [&] { return p.W.apply(r); }), Wr)) << threads << " threads";
    const double e = with_threads(threads, [&] { return ccp_error(p, s, r, u); });
    EXPECT_EQ(std::memcmp(&e, &one, sizeof(double)), 0) << threads << " threads";
  }
}

}  // namespace
}  // namespace nscd::solvers
