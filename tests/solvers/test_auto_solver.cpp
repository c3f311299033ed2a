// The default policy of auto_solver.hpp, NLGS's progress test (nlgs.hpp), the proximal Newton
// on the bodies' velocities (velocity_prox.hpp) and the safeguarded PROX rule of auto's stage 4
// (prox.hpp, nsn.hpp).

#include "solvers/auto_solver.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/fclib_file.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/nlgs.hpp"
#include "solvers/nsn.hpp"
#include "solvers/prox.hpp"
#include "solvers/velocity_prox.hpp"

#include "box_on_ground.hpp"
#include "fclib_problem.hpp"
#include "random_problem.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <array>
#include <random>
#include <vector>

namespace nscd::solvers {
namespace {

using test_box::BoxOnGround;
using test_box::box_on_ground;
using test_box::coupling;
using test_box::local_form;
using test_box::Matrix36;
using test_box::Matrix66;
using test_box::resultant_error;

TEST(VelocityProx, BoxPushedBelowTheFrictionLimitSticksWithTheAnalyticResultant) {
  // push 0.3 g h < μ g h: the box stops, Σ r = m (g h, −push, 0); the four corners share it in
  // one of infinitely many ways (W has rank 6 of 12)
  const double g_h = 9.81e-3, mu = 0.5, push = 0.3 * g_h;
  const BoxOnGround box = box_on_ground(push, g_h, mu);
  VelocityProxOptions o;
  o.stopping.tolerance = 1e-10;
  const SolverResult res = solve_velocity_prox(box.p, box.c, o, Eigen::VectorXd());
  ASSERT_EQ(res.status, SolverStatus::Converged) << res.error;
  EXPECT_EQ(res.stage, SolverType::VelocityProx);
  EXPECT_LE(error_measure(box.p, res.r, box.p.W.apply(res.r) + box.p.q), 1e-10);
  EXPECT_LT(resultant_error(box, res.r), 1e-9);  // box_on_ground.hpp
}

TEST(VelocityProx, BoxPushedBeyondTheFrictionLimitSlidesWithTheAnalyticResultant) {
  // push 2 μ g h: the box slides along x, Σ r = m g h (1, −μ, 0) (Coulomb's law on a flat face)
  const double g_h = 9.81e-3, mu = 0.5, push = 2 * mu * g_h;
  const BoxOnGround box = box_on_ground(push, g_h, mu);
  VelocityProxOptions o;
  o.stopping.tolerance = 1e-10;
  const SolverResult res = solve_velocity_prox(box.p, box.c, o, Eigen::VectorXd());
  ASSERT_EQ(res.status, SolverStatus::Converged) << res.error;
  EXPECT_LT(resultant_error(box, res.r), 1e-9);  // as above
}

TEST(VelocityProx, RejectsACouplingOfAnotherProblemOrASingularMass) {
  const BoxOnGround box = box_on_ground(0.0, 1.0, 0.5);
  BodyCoupling c = box.c;
  c.H = c.H.topRows(9);  // three contacts for the problem's four
  EXPECT_THROW(solve_velocity_prox(box.p, c, VelocityProxOptions{}, Eigen::VectorXd()), nscd::InputError);
  c = box.c;
  c.M.coeffRef(5, 5) = 0.0;  // no inertia about z: not positive definite
  EXPECT_THROW(solve_velocity_prox(box.p, c, VelocityProxOptions{}, Eigen::VectorXd()), nscd::InputError);
}

TEST(AutoSolver, RandomRigidSystemsReachTightToleranceWithTheirBodyForm) {
  // 12 bodies, 40 contacts between random pairs (some on the fixed ground): W of rank ≤ 72 for
  // 120 rows, μ in [0.2, 1], approaching contacts; the error is recomputed here
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    const int nb = 12, nc = 40;
    std::vector<Matrix66> mass;
    std::vector<std::array<int, 2>> body;
    std::vector<std::array<Matrix36, 2>> blocks;
    for (int b = 0; b < nb; ++b) {
      Matrix66 A = Matrix66::NullaryExpr([&] { return uniform(rng); });
      mass.push_back(A * A.transpose() + Matrix66::Identity());
    }
    Eigen::VectorXd q(3 * nc), mu(nc);
    for (int i = 0; i < nc; ++i) {
      const int a = static_cast<int>(rng() % (nb + 1)) - 1;  // −1: the ground
      const int b = (a + 1 + static_cast<int>(rng() % (nb - 1))) % nb;
      body.push_back({a, b});
      blocks.push_back({Matrix36::NullaryExpr([&] { return uniform(rng); }),
                        Matrix36::NullaryExpr([&] { return uniform(rng); })});
      q.segment<3>(3 * i) = Eigen::Vector3d(0.6 * uniform(rng) - 0.4, uniform(rng), uniform(rng));
      mu(i) = 0.6 + 0.4 * uniform(rng);
    }
    const BodyCoupling c = coupling(mass, body, blocks);
    const FrictionProblem p = local_form(c, q, mu);
    AutoOptions a;
    a.stopping.tolerance = 1e-10;
    a.stopping.max_iterations = 20000;
    a.max_newton_iterations = 400;
    const SolverResult res = solve_auto(p, a, Eigen::VectorXd(), &c);
    EXPECT_EQ(res.status, SolverStatus::Converged) << "trial " << trial << " error " << res.error;
    EXPECT_LE(error_measure(p, res.r, p.W.apply(res.r) + p.q), 1e-10) << "trial " << trial;
  }
}

TEST(NlgsProgress, StallTestEndsSweepsThatNoLongerHalveTheError) {
  // local_problem_test: mixed NLGS needs about 1 800 sweeps to 1e-8
  const std::optional<FrictionProblem> p = fclib_data::read_fclib_local("local_problem_test");
  ASSERT_TRUE(p.has_value());
  NlgsOptions o;
  o.stopping.tolerance = 1e-8;
  o.stopping.max_iterations = 1000;
  o.stall_window = 16;
  const SolverResult stalled = solve_nlgs(*p, o, Eigen::VectorXd());
  EXPECT_EQ(stalled.status, SolverStatus::MaxIterations);
  EXPECT_LT(stalled.iterations, o.stopping.max_iterations);
  o.stall_window = 0;  // no progress test: every sweep of the budget
  EXPECT_EQ(solve_nlgs(*p, o, Eigen::VectorXd()).iterations, o.stopping.max_iterations);
  o.stall_factor = 1.0;
  EXPECT_THROW(solve_nlgs(*p, o, Eigen::VectorXd()), nscd::InputError);
}

TEST(NlgsProgress, LowestWindowEndsSweepsThatFindNoLowerError) {
  // a random well-conditioned problem at a tolerance no sweep reaches: NLGS falls to round-off,
  // then its error finds no new lowest value, and the test ends the sweeps; without it they run
  // out the budget
  const FrictionProblem p = random_problem::jacobian_problem(20, 3);
  NlgsOptions o;
  o.stopping.tolerance = 1e-300;
  o.stopping.max_iterations = 20000;
  o.lowest_window = 256;
  const SolverResult ended = solve_nlgs(p, o, Eigen::VectorXd());
  EXPECT_EQ(ended.status, SolverStatus::MaxIterations);
  EXPECT_LT(ended.iterations, o.stopping.max_iterations);
  EXPECT_LT(ended.error, 1e-13);  // round-off: ~1e-16 relative, times the sweeps' sums of a few terms
  o.lowest_window = 0;
  EXPECT_EQ(solve_nlgs(p, o, Eigen::VectorXd()).iterations, o.stopping.max_iterations);
  o.lowest_window = -1;
  EXPECT_THROW(solve_nlgs(p, o, Eigen::VectorXd()), nscd::InputError);
}

TEST(AutoSolver, ThirdStageEndsWithoutANewLowestErrorAndCountsItsSweeps) {
  // a tolerance no stage reaches and a Newton stage of one iteration: stage 3 runs, and ends
  // rest_lowest_window sweeps after its lowest error instead of running out the budget; its
  // sweeps count in the iterations whether or not its r is kept (stage 4 is the same both times:
  // its budget is priced on the sweeps stages 1–3 may take)
  const FrictionProblem p = random_problem::jacobian_problem(20, 3);
  AutoOptions o;
  o.stopping = {1e-300, 5000};
  o.max_newton_iterations = 1;
  o.rest_lowest_window = 0;  // no test: every sweep of the budget
  const SolverResult whole = solve_auto(p, o, Eigen::VectorXd());
  o.rest_lowest_window = 64;
  const SolverResult ended = solve_auto(p, o, Eigen::VectorXd());
  EXPECT_EQ(whole.status, SolverStatus::MaxIterations);
  EXPECT_EQ(ended.status, SolverStatus::MaxIterations);
  EXPECT_LT(ended.iterations, whole.iterations);
  EXPECT_GE(whole.iterations, o.stopping.max_iterations);  // stages 1 and 3 took the whole budget
  EXPECT_EQ(ended.factorizations, whole.factorizations);
}

TEST(NlgsProgress, PatienceLetsASteadilyFallingErrorReachTheTolerance) {
  // a step of a pile of 300 spheres: NLGS falls to 1e-8 slowly (about 3 000 sweeps), so the
  // progress test alone ends it early, at the first window where the error falls but does not
  // halve; with patience it goes on past that window (until one where the error rises), asking
  // the patience once; a patience of 0 is the progress test alone
  const std::optional<FrictionProblem> p =
      io::read_fclib_problem(fclib_data::fclib_folder() / "nscd_small_pile_step750.hdf5").problem;
  ASSERT_TRUE(p.has_value());
  NlgsOptions o;
  o.stopping.tolerance = 1e-8;
  o.stopping.max_iterations = 10000;
  o.stall_window = 16;
  const SolverResult impatient = solve_nlgs(*p, o, Eigen::VectorXd());
  EXPECT_EQ(impatient.status, SolverStatus::MaxIterations);
  int asked = 0;
  o.stall_patience = [&] {
    ++asked;
    return 1e6;
  };
  const SolverResult patient = solve_nlgs(*p, o, Eigen::VectorXd());
  EXPECT_EQ(asked, 1);
  EXPECT_GT(patient.iterations, impatient.iterations);
  EXPECT_LT(patient.error, impatient.error);
  o.stall_patience = [] { return 0.0; };
  EXPECT_EQ(solve_nlgs(*p, o, Eigen::VectorXd()).iterations, impatient.iterations);
}

TEST(AutoSolver, ConvergedFirstStageIsNlgsBitForBit) {
  // Box_Stacks at 1e-4: NLGS converges without stalling, and auto returns exactly its result
  const std::optional<FrictionProblem> p =
      io::read_fclib_problem(fclib_data::fclib_folder() / "Box_Stacks-i0122-82-5.hdf5").problem;
  AutoOptions a;
  a.stopping.tolerance = 1e-4;
  NlgsOptions n;
  n.stopping.tolerance = 1e-4;
  n.stopping.max_iterations = a.stopping.max_iterations;
  const SolverResult automatic = solve_auto(*p, a, Eigen::VectorXd());
  const SolverResult nlgs = solve_nlgs(*p, n, Eigen::VectorXd());
  ASSERT_EQ(automatic.status, SolverStatus::Converged);
  EXPECT_EQ(automatic.stage, SolverType::Nlgs);
  EXPECT_EQ(automatic.factorizations, 0);
  EXPECT_EQ(automatic.iterations, nlgs.iterations);
  EXPECT_EQ(automatic.r, nlgs.r);
}

TEST(AutoSolver, NewtonStageFinishesWhereNlgsStalls) {
  // local_problem_test at 1e-8: NLGS stalls (above), PROX from its r reaches the tolerance
  const std::optional<FrictionProblem> p = fclib_data::read_fclib_local("local_problem_test");
  ASSERT_TRUE(p.has_value());
  AutoOptions a;
  a.stopping.tolerance = 1e-8;
  const SolverResult res = solve_auto(*p, a, Eigen::VectorXd());
  ASSERT_EQ(res.status, SolverStatus::Converged) << res.error;
  EXPECT_EQ(res.stage, SolverType::Prox);
  EXPECT_GT(res.factorizations, 0);
  EXPECT_LE(error_measure(*p, res.r, p->W.apply(res.r) + p->q), 1e-8);
}

TEST(AutoSolver, SpheresInABoxReachTightToleranceInTheNewtonStage) {
  // Siconos's 256 spheres in a box, a global problem: NLGS stalls and the velocity Newton reaches
  // 1e-8 in 146 iterations in all. With its proximal steps always ended once ψ fell by 1e-6,
  // never solved further after a step that brought no new lowest error (velocity_prox.hpp), they
  // stalled near 3e-6 and NLGS ran out its budget at 2.9e-6; 400 leaves room for the path to change
  const io::FclibProblem read =
      io::read_fclib_problem(fclib_data::fclib_folder() / "spheres-in-a-box-98-i10000-256-10.hdf5");
  ASSERT_TRUE(read.body.has_value());
  AutoOptions a;
  a.stopping.tolerance = 1e-8;
  const SolverResult res = solve_auto(read.problem, a, Eigen::VectorXd(), &*read.body);
  ASSERT_EQ(res.status, SolverStatus::Converged) << res.error;
  EXPECT_EQ(res.stage, SolverType::VelocityProx);
  EXPECT_LT(res.iterations, 400);
  EXPECT_LE(error_measure(read.problem, res.r, read.problem.W.apply(res.r) + read.problem.q), 1e-8);
}

TEST(AutoSolver, RockPileReachesTightToleranceInTheRestartStage) {
  // Siconos's pile of rocks, a local problem (463 contacts, W singular): NLGS stalls, stage 2's
  // PROX keeps the r of its failed inner solves and ends at 1.2e-5, NLGS after it too; the
  // safeguarded PROX from r = 0 (stage 4) reaches 1e-8 in 2 217 Newton iterations. The test
  // recomputes the error of the returned r itself; without stage 4 auto returns 1.2e-5
  const std::optional<FrictionProblem> p = fclib_data::read_fclib_local("RockPile_tob1");
  ASSERT_TRUE(p.has_value());
  AutoOptions a;
  a.stopping = {1e-8, 10000};  // nscd solve's budget
  const SolverResult res = solve_auto(*p, a, Eigen::VectorXd());
  ASSERT_EQ(res.status, SolverStatus::Converged) << res.error;
  EXPECT_EQ(res.stage, SolverType::ProxRestart);
  EXPECT_LE(error_measure(*p, res.r, p->W.apply(res.r) + p->q), 1e-8);
  // stage 4's 2 217 factorisations cost 2.2 × the operations of stages 1–3: at half of them, about
  // 500 Newton iterations, it stops short
  a.restart_cost_ratio = 0.5;
  EXPECT_EQ(solve_auto(*p, a, Eigen::VectorXd()).status, SolverStatus::MaxIterations);
}

TEST(AutoSolver, RestartRuleKeepsTheIterateOfFailedInnerSolves) {
  // stage 4's PROX (prox.hpp, reject_failed) with one Newton iteration per proximal step: no
  // inner solve reaches its tolerance in one iteration from r0 (an NLGS result at 1e-3), so every
  // one fails and r stays r0 bit for bit; the default rule keeps the failed iterates and moves
  const std::optional<FrictionProblem> p = fclib_data::read_fclib_local("local_problem_test");
  ASSERT_TRUE(p.has_value());
  NlgsOptions n;
  n.stopping.tolerance = 1e-3;
  const Eigen::VectorXd r0 = solve_nlgs(*p, n, Eigen::VectorXd()).r;
  ProxOptions o = AutoOptions().prox_restart;
  o.inner_max_iterations = 1;
  o.stopping = {1e-8, 10};
  const SolverResult rejected = solve_prox(*p, o, r0);
  EXPECT_EQ(rejected.iterations, 10);
  EXPECT_EQ(rejected.r, r0);
  EXPECT_EQ(rejected.error, error_measure(*p, r0, p->W.apply(r0) + p->q));
  o.reject_failed = false;
  EXPECT_NE(solve_prox(*p, o, r0).r, r0);
}

TEST(AutoSolver, MinimumLineSearchStepEndsNewtonWhereItStalls) {
  // NSN alone on BoxesStack1 (W singular): its Armijo search stalls far from the solution
  // (solver_family_expected_failures.inc) and takes tiny steps for the whole budget; with
  // min_step = 1/16 (stage 4's rule) Newton ends at the first iteration without a step of 1/16
  const std::optional<FrictionProblem> p = fclib_data::read_fclib_local("BoxesStack1-i100000-32");
  ASSERT_TRUE(p.has_value());
  NsnOptions o;
  o.stopping = {1e-8, 100};
  const SolverResult full = solve_nsn(*p, o, Eigen::VectorXd());
  o.min_step = AutoOptions().prox_restart.newton.min_step;
  const SolverResult ended = solve_nsn(*p, o, Eigen::VectorXd());
  EXPECT_EQ(full.iterations, 100);
  EXPECT_EQ(ended.status, SolverStatus::MaxIterations);
  EXPECT_LT(ended.iterations, full.iterations);
}

TEST(AutoSolver, BodyFormStageOnTheBoxWhereCornersAreRedundant) {
  // the box of the VelocityProx tests through auto, given its body form: the Newton stage on the
  // velocities finishes it if NLGS stalls, and the result meets the tolerance either way
  const double g_h = 9.81e-3, mu = 0.5;
  const BoxOnGround box = box_on_ground(0.3 * g_h, g_h, mu);
  AutoOptions a;
  a.stopping.tolerance = 1e-10;
  const SolverResult res = solve_auto(box.p, a, Eigen::VectorXd(), &box.c);
  ASSERT_EQ(res.status, SolverStatus::Converged) << res.error;
  EXPECT_TRUE(res.stage == SolverType::Nlgs || res.stage == SolverType::VelocityProx);
  EXPECT_LE(error_measure(box.p, res.r, box.p.W.apply(res.r) + box.p.q), 1e-10);
}

}  // namespace
}  // namespace nscd::solvers
