// Every solver of solvers/solve.hpp on every FCLIB problem of tests/data/fclib at tolerances
// 1e-4 and 1e-8, within an iteration budget. The pass criterion is the common error
// (error_measure.hpp eq. (3)) of the returned reactions, never stored reactions. The expected
// failures are listed in solver_family_expected_failures.inc with their reason; they are run too,
// printed as "KNOWN_FAIL ..." lines with the error they reach, and must still fail: a case that
// meets the pass criterion fails the test, so that an improvement is noticed and the case moved
// to the passing list (bench/bench_solvers.cpp prints every case). Plus the dispatcher's names and
// a random problem.

#include "nscd/core/error.hpp"
#include "nscd/io/fclib_file.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solve.hpp"
#include "tests/solvers/fclib_problem.hpp"
#include "random_problem.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <cstdio>
#include <vector>

namespace nscd::solvers {
namespace {

// the problems of tests/data/fclib (tests/data/README.md): Siconos's test problems and two steps
// dumped from nscd's own scenes
const char* const kProblems[] = {
    "Box_Stacks-i0122-82-5", "BoxesStack1-i100000-32", "Capsules-i100-1090", "Capsules-i101-404",
    "Capsules-i122-1617", "Confeti-ex03-Fc3D-SBM", "Confeti-ex13-Fc3D-SBM", "CubeH8", "KaplasTower-i1061-4",
    "LMGC_100_PR_PerioBox-i00361-60-03000", "LMGC_GlobalFrictionContactProblem00046", "NESpheres_30_1",
    "OneObject-i100000-316", "OneObject-i100000-499", "OneObject-i1028-138", "Spheres-i099-356-679",
    "local_problem_test", "nscd_wall_4x3_shaking_step750", "nscd_ffr_three_blocks_step3000"};

const char* const kSolvers[] = {"auto", "nlgs-ac", "nlgs-jm", "nlgs-dsfp", "nsn", "prox", "ccp", "ccp-pgs-corrected",
                                "ccp-apgd", "ccp-pgs", "lcp-lemke", "lcp-pgs"};

// iteration budgets (sweeps, Newton iterations, APGD steps, pivots) at 1e-4 and 1e-8: about twice
// what the slowest passing case needs (Release build, bench_solvers), so that CI stays fast
int budget(const SolverOptions& o, bool tight) {
  switch (o.type) {
    case SolverType::Auto:  // NLGS sweeps (its Newton stage has its own budget)
    case SolverType::Nlgs:
      return tight ? 6000 : 2500;
    case SolverType::Nsn:
      return tight ? 100 : 60;
    case SolverType::Prox:
    case SolverType::VelocityProx:
    case SolverType::InteriorPoint:
    case SolverType::ProxRestart:
      return tight ? 200 : 100;
    case SolverType::Ccp:
      return tight ? 20000 : 6000;
    case SolverType::Lcp:
      return o.lcp.method == LcpMethod::Lemke ? 20000 : 2000;
  }
  return 0;
}

// an expected failure: solver ("*": every solver), problem ("*": every problem), tolerance
// (0: both), reason
struct ExpectedFailure {
  const char* solver;
  const char* problem;
  double tolerance;
  const char* reason;
};

const ExpectedFailure kExpectedFailures[] = {
#include "solver_family_expected_failures.inc"
};

const ExpectedFailure* expected_failure(const std::string& solver, const std::string& problem, double tol) {
  for (const ExpectedFailure& f : kExpectedFailures) {
    if ((std::string(f.solver) == "*" || f.solver == solver) && (std::string(f.problem) == "*" || f.problem == problem) &&
        (f.tolerance == 0.0 || f.tolerance == tol))
      return &f;
  }
  return nullptr;
}

std::string case_name(const testing::TestParamInfo<const char*>& info) { return fclib_data::test_name(info.param); }

// one test per problem (read once: condensing a global problem takes up to seconds), every
// solver at both tolerances inside it, expected failures included
class FclibSolverFamilyTest : public testing::TestWithParam<const char*> {};

TEST_P(FclibSolverFamilyTest, EverySolverReachesTolerance) {
  const std::string problem = GetParam();
  const io::FclibProblem read = io::read_fclib_problem(fclib_data::fclib_folder() / (problem + ".hdf5"));
  const FrictionProblem& p = read.problem;
  // dense Lemke costs O(((k+2) nc)³) time and O(((k+2) nc)²) memory: small problems only in CI
  constexpr int kLemkeMaxVariables = 300;
  for (const char* solver : kSolvers) {
    for (const double tol : {1e-4, 1e-8}) {
      SCOPED_TRACE(std::string(solver) + " on " + problem + " at " + (tol < 1e-6 ? "1e-8" : "1e-4"));
      std::optional<SolverOptions> options = solver_options_from_name(solver);
      ASSERT_TRUE(options.has_value());
      if (options->type == SolverType::Lcp && options->lcp.method == LcpMethod::Lemke &&
          (options->lcp.facets + 2) * p.nc() > kLemkeMaxVariables) {
        std::printf("NOT_RUN %s %s %.0e: dense Lemke on %d LCP unknowns is too slow for CI\n", solver,
                    problem.c_str(), tol, (options->lcp.facets + 2) * p.nc());
        continue;
      }
      options->stopping() = {tol, budget(*options, tol < 1e-6)};
      // a global file's body form goes to auto's Newton stage (velocity_prox.hpp)
      const SolverResult res = solve(p, *options, Eigen::VectorXd(), read.body ? &*read.body : nullptr);
      // the pass criterion: the common error of the returned r, recomputed here
      const double error = error_measure(p, res.r, p.W.apply(res.r) + p.q);
      const bool passes = error <= tol && res.status == SolverStatus::Converged;
      if (const ExpectedFailure* f = expected_failure(solver, problem, tol)) {
        std::printf("KNOWN_FAIL %s %s %.0e: error %.1e, status %s, %d iterations; %s\n", solver, problem.c_str(),
                    tol, error, std::string(to_string(res.status)).c_str(), res.iterations, f->reason);
        // a failure stays finite: a NaN or an infinity is a bug, not a slow solver
        EXPECT_TRUE(std::isfinite(error)) << to_string(res.status);
        EXPECT_NE(res.status, SolverStatus::NonFinite);
        EXPECT_FALSE(passes) << "expected failure now reaches the tolerance (error " << error << ", "
                             << res.iterations << " iterations): remove it from solver_family_expected_failures.inc "
                             << "so that it is checked as a passing case";
        continue;
      }
      EXPECT_TRUE(passes) << "error " << error << ", " << res.iterations << " iterations, status "
                          << to_string(res.status);
      EXPECT_NEAR(res.error, error, 1e-12 + 1e-9 * error);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fclib, FclibSolverFamilyTest, testing::ValuesIn(kProblems), case_name);

// an entry that matches no case would silently stop checking anything: every expected failure
// names a solver of kSolvers and a problem of kProblems
TEST(SolverFamilyExpectedFailures, EveryEntryNamesASolverAndAProblemOfTheTable) {
  for (const ExpectedFailure& f : kExpectedFailures) {
    const auto listed = [](const auto& names, const char* name) {
      return std::string(name) == "*" ||
             std::any_of(std::begin(names), std::end(names), [&](const char* n) { return std::string(n) == name; });
    };
    EXPECT_TRUE(listed(kSolvers, f.solver)) << f.solver;
    EXPECT_TRUE(listed(kProblems, f.problem)) << f.problem;
    EXPECT_TRUE(f.tolerance == 0.0 || f.tolerance == 1e-4 || f.tolerance == 1e-8) << f.tolerance;
  }
}

TEST(SolverDispatchTest, EveryNameIsAccepted) {
  for (const SolverVariant& v : solver_variants()) {
    EXPECT_TRUE(solver_options_from_name(v.name).has_value()) << v.name;
    EXPECT_FALSE(v.description.empty());
  }
  EXPECT_FALSE(solver_options_from_name("nlgs-xx").has_value());
  EXPECT_FALSE(solver_options_from_name("").has_value());
  EXPECT_EQ(solver_options_from_name("nlgs-jm")->nlgs.local_solver, LocalSolverKind::JeanMoreau);
  EXPECT_EQ(solver_options_from_name("ccp")->ccp.correction, true);
  EXPECT_EQ(solver_options_from_name("ccp-pgs")->ccp.correction, false);
  EXPECT_EQ(solver_options_from_name("lcp-lemke")->lcp.method, LcpMethod::Lemke);
  SolverOptions o = *solver_options_from_name("prox");
  o.stopping() = {1e-7, 33};
  EXPECT_EQ(o.prox.stopping.tolerance, 1e-7);
  EXPECT_EQ(o.prox.stopping.max_iterations, 33);
  EXPECT_EQ(std::as_const(o).stopping().max_iterations, 33);
}

TEST(SolverDispatchTest, NamesAreReadIntoTheSolverTypeWithTheAcceptedNamesOnError) {
  for (const std::string& name : step_solver_names())
    EXPECT_EQ(to_string(parse_step_solver(name, "solver.type")), name);
  EXPECT_EQ(parse_solver_variant("nlgs-jm", "--solver").nlgs.local_solver, LocalSolverKind::JeanMoreau);
  try {
    parse_step_solver("gauss", "--solver");
    ADD_FAILURE() << "no error";
  } catch (const nscd::InputError& e) {
    EXPECT_STREQ(e.what(), "--solver gauss: unknown solver; expected one of auto, nlgs, ccp, lcp, nsn, prox");
  }
  EXPECT_THROW(parse_step_solver("nlgs-jm", "solver.type"), nscd::InputError);  // a variant of `nscd solve` only
  try {
    parse_solver_variant("nlgs-xx", "--solver");
    ADD_FAILURE() << "no error";
  } catch (const nscd::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--solver nlgs-xx: unknown solver; expected one of auto, nlgs, nlgs-ac"),
              std::string::npos);
  }
  // the NLGS swept by Algorithm 1: NLGS's, auto's stage 1 (its tolerance), none for the others
  EXPECT_EQ(nlgs_sweeps(parse_solver_variant("auto", ""))->stopping.tolerance, AutoOptions{}.stopping.tolerance);
  EXPECT_EQ(nlgs_sweeps(parse_solver_variant("nlgs-dsfp", ""))->local_solver, LocalSolverKind::DeSaxceFixedPoint);
  EXPECT_FALSE(nlgs_sweeps(parse_solver_variant("nsn", "")).has_value());
}

TEST(SolverDispatchTest, ExactSolversAgreeOnARandomProblem) {
  // every Coulomb solver reaches 1e-10 on a well-posed random problem (W positive definite)
  const FrictionProblem p = random_problem::jacobian_problem(30, 7);
  for (const char* name : {"nlgs-ac", "nlgs-jm", "nlgs-dsfp", "nsn", "prox", "ccp", "ccp-pgs-corrected"}) {
    SolverOptions o = *solver_options_from_name(name);
    o.stopping() = {1e-10, 50000};
    const SolverResult res = solve(p, o, Eigen::VectorXd());
    EXPECT_EQ(res.status, SolverStatus::Converged) << name << " error " << res.error;
    EXPECT_LE(res.error, 1e-10) << name;
    EXPECT_EQ(res.u, p.W.apply(res.r) + p.q) << name;
  }
}

TEST(SolverDispatchTest, NonFiniteDataIsReported) {
  FrictionProblem p = random_problem::jacobian_problem(5, 4);
  p.q(4) = std::numeric_limits<double>::quiet_NaN();
  for (const SolverVariant& v : solver_variants()) {
    const SolverResult res = solve(p, *solver_options_from_name(v.name), Eigen::VectorXd());
    EXPECT_EQ(res.status, SolverStatus::NonFinite) << v.name;
  }
}

TEST(SolverDispatchTest, EmptyProblemConverges) {
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(Eigen::MatrixXd(0, 0));
  p.q.resize(0);
  p.mu.resize(0);
  for (const SolverVariant& v : solver_variants()) {
    const SolverResult res = solve(p, *solver_options_from_name(v.name), Eigen::VectorXd());
    EXPECT_EQ(res.status, SolverStatus::Converged) << v.name;
    EXPECT_EQ(res.error, 0.0) << v.name;
    EXPECT_EQ(res.iterations, 0) << v.name;  // a step without contacts reports no sweep
  }
}

}  // namespace
}  // namespace nscd::solvers
