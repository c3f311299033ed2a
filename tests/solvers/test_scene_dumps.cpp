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
#include <functional>
#include <string>

namespace nscd::solvers {
namespace {

const char* const kDumps[] = {
#include "scene_dumps.inc"
};

std::string case_name(const testing::TestParamInfo<const char*>& info) { return fclib_data::test_name(info.param); }

// auto at 1e-8 on dump `name` from r = 0 (a failure, and an empty result, if it is not global), its
// impulses measured as `scaling` says, within max_iterations, auto's options changed by `adjust`;
// the error recomputed here on the condensed local problem
struct DumpSolve {
  SolverResult result;
  double error = 0.0;
};
DumpSolve solve_dump_with_auto(const std::string& name, ErrorScaling scaling = ErrorScaling::Siconos,
                               int max_iterations = 10000,
                               const std::function<void(AutoOptions&)>& adjust = [](AutoOptions&) {}) {
  io::FclibProblem read = io::read_fclib_problem(fclib_data::fclib_folder() / (name + ".hdf5"));
  if (!read.body) {
    ADD_FAILURE() << name << ": a dump of a rigid scene is a global problem";
    return {};
  }
  read.problem.error_scaling = scaling;
  SolverOptions options = *solver_options_from_name("auto");
  options.stopping() = {1e-8, max_iterations};
  adjust(options.automatic);
  DumpSolve out{solve(read.problem, options, Eigen::VectorXd(), &*read.body), 0.0};
  out.error = error_measure(read.problem, out.result.r, read.problem.W.apply(out.result.r) + read.problem.q);
  return out;
}

// auto's options with the interior point run where NLGS stopped above `threshold` or eq. (7) of
// auto_solver.hpp holds
std::function<void(AutoOptions&)> interior_point_above(double threshold) {
  return [threshold](AutoOptions& a) { a.interior_point_above = threshold; };
}

class SceneDumpTest : public testing::TestWithParam<const char*> {};

TEST_P(SceneDumpTest, DefaultSolverReachesTightTolerance) {
  const DumpSolve solved = solve_dump_with_auto(GetParam());
  const SolverResult& res = solved.result;
  EXPECT_EQ(res.status, SolverStatus::Converged) << "error " << res.error << " after " << res.iterations
                                                 << " iterations, stage " << to_string(res.stage);
  EXPECT_LE(solved.error, 1e-8);
}

INSTANTIATE_TEST_SUITE_P(Scenes, SceneDumpTest, testing::ValuesIn(kDumps), case_name);

TEST(SceneDumpNewton, ArchReachesTightToleranceFromTheNewtonStagesBestImpulses) {
  // the arch (68 contacts, W far from regular): NLGS hands over at sweep 49, and the velocity
  // Newton's path here turns on round-off. Before J's contact terms were summed by body pair
  // (velocity_prox.hpp) it reached 1e-8 after 163 of its iterations, 212 in all; since, it ends
  // its 200 at 1.2e-7 and NLGS from its best r converges at 1 043 iterations in all. Without the
  // restart from the best r after a failed step at a stiff ρ, the Newton stage ends at 1.4e-6 and
  // NLGS stops short (1.3e-8 after 6 106 iterations; before the change: thrown back from 6e-8 to
  // 2e-4, 7 882 iterations). 2 000 sits between the two
  const SolverResult res = solve_dump_with_auto("nscd_arch_step600").result;
  EXPECT_EQ(res.status, SolverStatus::Converged);
  EXPECT_LT(res.iterations, 2000);
}

TEST(SceneDumpNewton, ShakingWallReachesTightToleranceInTheInteriorPoint) {
  // the shaken wall: NLGS hands over at sweep 49, and the interior point method's first solve
  // (interior_point.hpp, s = 0) reaches 1e-13 in 10 iterations: the wall sticks, and the centre of
  // its redundant corners' impulses is a solution. Before it, the velocity Newton from NLGS's r
  // took 142 iterations in all, and NLGS alone stalls at 4.6e-7 after 20 000 sweeps; 100 sits
  // between the two
  const SolverResult res = solve_dump_with_auto("nscd_wall_shaking_step540").result;
  EXPECT_EQ(res.status, SolverStatus::Converged);
  EXPECT_EQ(res.stage, SolverType::InteriorPoint);
  EXPECT_LT(res.iterations, 100);
}

TEST(SceneDumpNewton, InteriorPointRunsWhereNlgsVelocitiesStick) {
  // with the threshold on NLGS's error out of reach, eq. (7) alone decides. The wall at rest:
  // NLGS hands over at 4.8e-5 with σ 0.35 times that, and the interior point's first solve
  // (s = 0) is the answer, 9 iterations to 4e-14
  const SolverResult wall =
      solve_dump_with_auto("nscd_wall_static_step500", ErrorScaling::Siconos, 10000, interior_point_above(1.0)).result;
  EXPECT_EQ(wall.status, SolverStatus::Converged);
  EXPECT_EQ(wall.stage, SolverType::InteriorPoint);
  // the pile of spheres slides: NLGS hands over at 1.5e-5 with σ 1 900 times that. The interior
  // point's 81 iterations ended at 1.7e-4, above NLGS's error, and the velocity Newton started
  // from NLGS's r either way: 47 factorisations without the interior point, 128 with it
  const SolverResult pile =
      solve_dump_with_auto("nscd_small_pile_step750", ErrorScaling::Siconos, 10000, interior_point_above(1.0)).result;
  const SolverResult pile_with =
      solve_dump_with_auto("nscd_small_pile_step750", ErrorScaling::Siconos, 10000, interior_point_above(0.0)).result;
  EXPECT_EQ(pile.status, SolverStatus::Converged);
  EXPECT_EQ(pile.stage, SolverType::VelocityProx);
  EXPECT_EQ(pile_with.status, SolverStatus::Converged);
  EXPECT_LE(pile.factorizations + 50, pile_with.factorizations);
}

TEST(SceneDumpNewton, HardShakeStepReachesTightToleranceInItsStepsMeasure) {
  // in the measure of the step that wrote it (each impulse as the velocity it gives its contact):
  // NLGS hands over at sweep 33 (3.7e-3), the interior point's eight solves of De Saxcé's fixed
  // point end at 1.2e-5, and the velocity Newton from there reaches 1e-8 at 188 iterations in all.
  // From NLGS's r (before the interior point) it ended a budget of 200 at 4e-5 and NLGS after it at
  // 5.8e-8
  const DumpSolve solved = solve_dump_with_auto("nscd_wall_hard_shake_step520", ErrorScaling::Velocity);
  EXPECT_EQ(solved.result.status, SolverStatus::Converged) << "error " << solved.result.error;
  EXPECT_EQ(solved.result.stage, SolverType::VelocityProx);
  EXPECT_LE(solved.error, 1e-8);
}

TEST(SceneDumpNewton, WallComingApartNeedsTheVelocityNewtonsLongerBudget) {
  // step 801 of the harder shake (t = 0.801 s; the run at the default tolerance, 1e-6), where the
  // wall comes apart (964 contacts). In its steps' measure from r = 0 the velocity Newton still
  // finds new lowest errors after 200 iterations and converges at 713 in all (612 factorisations,
  // the interior point's included). With the former budget of 200 it ended at 6.6e-7, and NLGS
  // after it found no lower error (docs/performance.md, "The velocity Newton's budget")
  const DumpSolve solved = solve_dump_with_auto("nscd_wall_hard_shake_step801", ErrorScaling::Velocity);
  EXPECT_EQ(solved.result.status, SolverStatus::Converged) << "error " << solved.result.error;
  EXPECT_EQ(solved.result.stage, SolverType::VelocityProx);
  EXPECT_LE(solved.error, 1e-8);
  const DumpSolve former = solve_dump_with_auto("nscd_wall_hard_shake_step801", ErrorScaling::Velocity, 10000,
                                                [](AutoOptions& a) { a.max_newton_iterations = 200; });
  EXPECT_GT(former.error, 1e-8);
}

TEST(SceneDumpKnownFailure, HardShakeStepStaysAboveTightToleranceInSiconossMeasure) {
  // in Siconos's measure (impulses added to velocities as they are) the same path ends at 1.2e-8:
  // the velocity Newton from the interior point's r stops there after its 600 iterations (1.6e-8
  // after 200), and NLGS after it finds no lower error (docs/performance.md). This test fails when
  // it starts passing, so that the problem moves to kDumps
  const DumpSolve solved = solve_dump_with_auto("nscd_wall_hard_shake_step520", ErrorScaling::Siconos, 1000);
  std::printf("KNOWN_FAIL auto nscd_wall_hard_shake_step520 1e-08: error %.1e, stage %s, %d iterations\n", solved.error,
              std::string(to_string(solved.result.stage)).c_str(), solved.result.iterations);
  EXPECT_TRUE(std::isfinite(solved.error));
  EXPECT_GT(solved.error, 1e-8) << "now solved: move it to scene_dumps.inc";
}

}  // namespace
}  // namespace nscd::solvers
