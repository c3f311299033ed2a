// Contact problems dumped from nscd's own scenes (tests/data/README.md): masonry walls at rest and
// shaken, the arch, the stack of ten boxes, a pile of spheres. Written as FCLIB global problems
// (M, H) by `solver.dump_every`, so the default solver runs its Newton stage on the bodies'
// velocities. Each must reach 1e-8 from r = 0, the error recomputed here on the condensed local
// problem; NLGS alone stalls on the walls (solver_family_expected_failures.inc has the smaller
// wall of test_solver_family.cpp).

#include "nscd/io/fclib_file.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solve.hpp"

#include "fclib_problem.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace nscd::solvers {
namespace {

const char* const kDumps[] = {
#include "scene_dumps.inc"
};

std::string case_name(const testing::TestParamInfo<const char*>& info) { return fclib_data::test_name(info.param); }

class SceneDumpTest : public testing::TestWithParam<const char*> {};

TEST_P(SceneDumpTest, DefaultSolverReachesTightTolerance) {
  const io::FclibProblem read = io::read_fclib_problem(fclib_data::fclib_folder() / (std::string(GetParam()) + ".hdf5"));
  ASSERT_TRUE(read.body.has_value()) << "a dump of a rigid scene is a global problem";
  SolverOptions options = *solver_options_from_name("auto");
  options.stopping() = {1e-8, 10000};
  const SolverResult res = solve(read.problem, options, Eigen::VectorXd(), &*read.body);
  const double error = error_measure(read.problem, res.r, read.problem.W.apply(res.r) + read.problem.q);
  EXPECT_EQ(res.status, SolverStatus::Converged) << "error " << res.error << " after " << res.iterations
                                                 << " iterations, stage " << to_string(res.stage);
  EXPECT_LE(error, 1e-8);
}

INSTANTIATE_TEST_SUITE_P(Scenes, SceneDumpTest, testing::ValuesIn(kDumps), case_name);

// auto at 1e-8 on dump `name` from r = 0 (a failure, and an empty result, if it is not global)
SolverResult solve_dump_with_auto(const std::string& name) {
  const io::FclibProblem read = io::read_fclib_problem(fclib_data::fclib_folder() / (name + ".hdf5"));
  if (!read.body) {
    ADD_FAILURE() << name << ": a dump of a rigid scene is a global problem";
    return {};
  }
  SolverOptions options = *solver_options_from_name("auto");
  options.stopping() = {1e-8, 10000};
  return solve(read.problem, options, Eigen::VectorXd(), &*read.body);
}

TEST(SceneDumpNewton, ArchReachesTightToleranceFromTheNewtonStagesBestImpulses) {
  // the arch (68 contacts, W far from regular): NLGS hands over at sweep 49, and the velocity
  // Newton's path here turns on round-off. Before J's contact terms were summed by body pair
  // (velocity_prox.hpp) it reached 1e-8 after 163 of its iterations, 212 in all; since, it ends
  // its 200 at 1.2e-7 and NLGS from its best r converges at 1 043 iterations in all. Without the
  // restart from the best r after a failed step at a stiff ρ, the Newton stage ends at 1.4e-6 and
  // NLGS stops short (1.3e-8 after 6 106 iterations; before the change: thrown back from 6e-8 to
  // 2e-4, 7 882 iterations). 2 000 sits between the two
  const SolverResult res = solve_dump_with_auto("nscd_arch_step600");
  EXPECT_EQ(res.status, SolverStatus::Converged);
  EXPECT_LT(res.iterations, 2000);
}

TEST(SceneDumpNewton, ShakingWallReachesTightToleranceInTheNewtonStage) {
  // the shaken wall: NLGS hands over at sweep 49, and the velocity Newton, its proximal steps
  // ended once ψ fell by 1e-6 (velocity_prox.hpp), reaches 1e-8 at 136 iterations in all (155
  // with 1e-8). Solved to 1e-12 instead, each proximal step took 4 Newton iterations, ρ never
  // grew back, the steps contracted by a few per cent each, and the stage ran out of its 200
  // iterations at 2e-8 (NLGS finished: 623 iterations). 300 sits between the two
  const SolverResult res = solve_dump_with_auto("nscd_wall_shaking_step540");
  EXPECT_EQ(res.status, SolverStatus::Converged);
  EXPECT_EQ(res.stage, SolverType::VelocityProx);
  EXPECT_LT(res.iterations, 300);
}

TEST(SceneDumpKnownFailure, HardShakeStepStaysAboveTightTolerance) {
  // the wall on a table shaken at 1.5 m/s, 2 Hz, 20 steps into the shaking (the whole wall slides
  // and rocks): neither stage of auto reaches 1e-8 here. From r = 0 the velocity PROX ends its
  // 200 iterations near 4e-5 (given 1 000, it cycles between a failed step at a stiff ρ and a
  // restart from the same best r, at 8e-8; given 3 000 and a slower regrowth of ρ, its proximal
  // steps stagnate at 3e-8, docs/performance.md), and the NLGS after it gets to about 1e-7 in
  // 10 000 sweeps: an open case of the convergence work. This test fails when it starts passing,
  // so that the problem moves to kDumps
  const io::FclibProblem read =
      io::read_fclib_problem(fclib_data::fclib_folder() / "nscd_wall_hard_shake_step520.hdf5");
  ASSERT_TRUE(read.body.has_value());
  SolverOptions options = *solver_options_from_name("auto");
  options.stopping() = {1e-8, 1000};  // NLGS's budget after the Newton stage: kept small, it does not converge
  const SolverResult res = solve(read.problem, options, Eigen::VectorXd(), &*read.body);
  const double error = error_measure(read.problem, res.r, read.problem.W.apply(res.r) + read.problem.q);
  std::printf("KNOWN_FAIL auto nscd_wall_hard_shake_step520 1e-08: error %.1e, stage %s, %d iterations\n", error,
              std::string(to_string(res.stage)).c_str(), res.iterations);
  EXPECT_TRUE(std::isfinite(error));
  EXPECT_GT(error, 1e-8) << "now solved: move it to scene_dumps.inc";
}

}  // namespace
}  // namespace nscd::solvers
