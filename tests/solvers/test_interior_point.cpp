// The interior point method on the bodies' velocities (interior_point.hpp): the box of
// box_on_ground.hpp against its analytic resultants, the input checks, and the masonry dumps where
// W is singular and Gauss–Seidel stalls.

#include "solvers/interior_point.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/fclib_file.hpp"
#include "solvers/error_measure.hpp"

#include "box_on_ground.hpp"
#include "fclib_problem.hpp"

#include <gtest/gtest.h>

namespace nscd::solvers {
namespace {

using test_box::BoxOnGround;
using test_box::box_on_ground;
using test_box::resultant_error;

TEST(InteriorPoint, BoxPushedBelowTheFrictionLimitSticksWithTheAnalyticResultant) {
  // push 0.3 g h < μ g h: the box stops, Σ r = m (g h, −push, 0). The first solve (s = 0) is the
  // Coulomb problem itself, since a sticking contact has u_T = 0
  const double g_h = 9.81e-3, mu = 0.5, push = 0.3 * g_h;
  const BoxOnGround box = box_on_ground(push, g_h, mu);
  InteriorPointOptions o;
  o.stopping.tolerance = 1e-10;
  const SolverResult res = solve_interior_point(box.p, box.c, o);
  ASSERT_EQ(res.status, SolverStatus::Converged) << res.error;
  EXPECT_EQ(res.stage, SolverType::InteriorPoint);
  EXPECT_EQ(res.factorizations, res.iterations);
  EXPECT_LE(error_measure(box.p, res.r, box.p.W.apply(res.r) + box.p.q), 1e-10);
  EXPECT_LT(resultant_error(box, res.r), 1e-9);  // box_on_ground.hpp
}

TEST(InteriorPoint, BoxPushedBeyondTheFrictionLimitSlidesAfterTheFixedPointOnTheShift) {
  // push 2 μ g h: the box slides along x, Σ r = m g h (1, −μ, 0). The first solve (s = 0) is the
  // convex relaxation, whose sliding box lifts off (u_n = μ ‖u_T‖ > 0); the fixed point s = μ ‖u_T‖
  // of eq. (6) brings it down onto the ground
  const double g_h = 9.81e-3, mu = 0.5, push = 2 * mu * g_h;
  const BoxOnGround box = box_on_ground(push, g_h, mu);
  InteriorPointOptions o;
  o.stopping.tolerance = 1e-10;
  o.max_solves = 1;
  const SolverResult relaxed = solve_interior_point(box.p, box.c, o);
  EXPECT_GT(relaxed.error, 1e-4) << "the relaxation is not Coulomb's law when the box slides";
  o.max_solves = 20;
  const SolverResult res = solve_interior_point(box.p, box.c, o);
  ASSERT_EQ(res.status, SolverStatus::Converged) << res.error;
  EXPECT_LT(resultant_error(box, res.r), 1e-9);  // as above
}

TEST(InteriorPoint, RejectsFrictionlessContactsAMismatchedCouplingOrASingularMass) {
  const BoxOnGround box = box_on_ground(0.0, 1.0, 0.5);
  FrictionProblem p = box.p;
  p.mu(2) = 0.0;  // its cone is a half-line, not a second-order cone
  EXPECT_THROW(solve_interior_point(p, box.c, InteriorPointOptions{}), nscd::InputError);
  BodyCoupling c = box.c;
  c.H = c.H.topRows(9);  // three contacts for the problem's four
  EXPECT_THROW(solve_interior_point(box.p, c, InteriorPointOptions{}), nscd::InputError);
  c = box.c;
  c.M.coeffRef(5, 5) = 0.0;  // no inertia about z: not positive definite
  EXPECT_THROW(solve_interior_point(box.p, c, InteriorPointOptions{}), nscd::InputError);
  InteriorPointOptions o;
  o.shift_progress = 0.0;
  EXPECT_THROW(solve_interior_point(box.p, box.c, o), nscd::InputError);
  o = InteriorPointOptions{};
  o.restart_level = 1.0;  // the restart point would be the start itself
  EXPECT_THROW(solve_interior_point(box.p, box.c, o), nscd::InputError);
}

TEST(InteriorPoint, RestingWallReachesTightToleranceInOneSolve) {
  // the 85-block wall at rest (908 contacts on 510 unknowns: W has rank 510 of 2 724), where NLGS
  // stalls at 4.5e-7 after 20 000 sweeps and the velocity Newton takes about 150 iterations: the
  // interior point method's first solve reaches 1e-13 in 9 iterations (the wall sticks, s = 0 is
  // exact). 20 leaves room for the path to change; the error is recomputed on the local problem
  const io::FclibProblem read =
      io::read_fclib_problem(fclib_data::fclib_folder() / "nscd_wall_static_step500.hdf5");
  ASSERT_TRUE(read.body.has_value());
  InteriorPointOptions o;
  o.stopping.tolerance = 1e-10;
  const SolverResult res = solve_interior_point(read.problem, *read.body, o);
  EXPECT_EQ(res.status, SolverStatus::Converged) << res.error;
  EXPECT_LT(res.iterations, 20);
  EXPECT_LE(error_measure(read.problem, res.r, read.problem.W.apply(res.r) + read.problem.q), 1e-10);
}

TEST(InteriorPoint, RestartFromTheSolveBeforeKeepsTheFixedPointAndSavesIterations) {
  // the harder shake's dump in its step's measure: the eight solves of eq. (6) end at 1.24e-5 from
  // either start, in 116 iterations with the restart of eq. (7) and 186 without (measured). A
  // restart that changed the solves' solutions would change that error; 10 % and a ratio of 0.75
  // leave room for the paths to move with the compiler
  io::FclibProblem read = io::read_fclib_problem(fclib_data::fclib_folder() / "nscd_wall_hard_shake_step520.hdf5");
  ASSERT_TRUE(read.body.has_value());
  read.problem.error_scaling = ErrorScaling::Velocity;
  InteriorPointOptions o;
  const SolverResult restarted = solve_interior_point(read.problem, *read.body, o);
  o.restart_level = 0.0;
  const SolverResult cold = solve_interior_point(read.problem, *read.body, o);
  EXPECT_NEAR(restarted.error, cold.error, 0.1 * cold.error);
  EXPECT_LT(restarted.iterations, 0.75 * cold.iterations) << restarted.iterations << " against " << cold.iterations;
}

}  // namespace
}  // namespace nscd::solvers
