// The solver of a scene (solver.type): the exact solvers and the CCP with its correction solve the
// same Signorini–Coulomb problem at every step, so the incline, the stack of ten boxes and the
// arch must move the same with each of them, to the solver tolerance.

#include "scene_builder.hpp"

#include "nscd/step/contact_problem.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

namespace nscd {
namespace {

constexpr double kG = 9.81;

io::Scene with_solver(io::Scene scene, const std::string& type) {
  scene.solver.type = solvers::parse_step_solver(type, "solver.type");
  return scene;
}

// runs the scene and returns every body's centre of mass after each step
std::vector<std::vector<Vec3>> trajectory(const io::Scene& scene) {
  test::Simulation sim(scene);
  std::vector<std::vector<Vec3>> path;
  while (sim.state.step < sim.model.n_steps) {
    const StepReport report = sim.advance();
    EXPECT_EQ(report.status, StepStatus::Ok);
    EXPECT_EQ(report.solver_status, solvers::SolverStatus::Converged)
        << solvers::to_string(scene.solver.type) << " at step " << sim.state.step << ", error " << report.solver_error;
    if (report.status != StepStatus::Ok) break;
    path.push_back(sim.state.x);
  }
  return path;
}

// largest distance between the same body at the same step of two runs
double largest_difference(const std::vector<std::vector<Vec3>>& a, const std::vector<std::vector<Vec3>>& b) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0;
  for (std::size_t n = 0; n < std::min(a.size(), b.size()); ++n)
    for (std::size_t body = 0; body < a[n].size(); ++body) worst = std::max(worst, (a[n][body] - b[n][body]).norm());
  return worst;
}

// a unit cube sliding down a slab tilted by 30° with μ = 0.3 (as test_contact_dynamics.cpp)
io::Scene incline() {
  io::Scene scene = test::make_scene(1e-3, 0.5, 1000.0, 0.3, 0.0);
  scene.gravity = Vec3(0, 0, -kG);
  scene.solver.tolerance = 1e-8;
  scene.solver.max_iterations = 20000;
  const Quat tilt(Eigen::AngleAxisd(std::numbers::pi / 6, Vec3::UnitY()));
  test::add_box(scene, "slope", BodyKind::Fixed, Vec3(20, 4, 1), Vec3::Zero(), tilt);
  test::add_box(scene, "block", BodyKind::Rigid, Vec3(1, 1, 1), tilt * Vec3(0, 0, 1.0), tilt);
  return scene;
}

TEST(SolverChoice, InclineSlidesTheSameWithEveryExactSolverAndWithCorrectedCcp) {
  const io::Scene scene = incline();
  const auto reference = trajectory(with_solver(scene, "nlgs"));
  ASSERT_GT((reference.back()[1] - reference.front()[1]).norm(), 0.1);  // it slides: ½ a t² ≈ 0.08 m… 0.3 m
  for (const char* type : {"auto", "ccp", "nsn", "prox"}) {
    SCOPED_TRACE(type);
    // every step's impulses solve the same problem to a relative error of 1e-8, and the slide
    // travels 0.3 m: positions agree to 1e-8 × 0.3 m, far below the 1e-7 m asserted
    EXPECT_LT(largest_difference(trajectory(with_solver(scene, type)), reference), 1e-7);
  }
}

TEST(SolverChoice, StackOfTenBoxesStaysAtRestWithCorrectedCcpAndAuto) {
  io::Scene scene = test::make_scene(1e-3, 0.5, 1000.0, 0.5, 0.0);
  scene.solver.tolerance = 1e-8;
  scene.solver.max_iterations = 20000;
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(10, 10, 1), Vec3(0, 0, -0.5));
  for (int k = 0; k < 10; ++k)
    test::add_box(scene, "box" + std::to_string(k), BodyKind::Rigid, Vec3(1, 1, 1), Vec3(0, 0, 0.5 + k));
  const auto nlgs = trajectory(with_solver(scene, "nlgs"));
  const auto ccp = trajectory(with_solver(scene, "ccp"));
  const auto automatic = trajectory(with_solver(scene, "auto"));
  // all hold the stack: the residual velocities are the solver's (1e-8 relative of g h), which
  // over 500 steps move the boxes by far less than 1e-8 m
  EXPECT_LT(largest_difference(nlgs, ccp), 1e-8);
  EXPECT_LT(largest_difference(nlgs, automatic), 1e-8);
  EXPECT_LT(largest_difference(ccp, std::vector<std::vector<Vec3>>(ccp.size(), ccp.front())), 1e-8);
}

TEST(SolverChoice, ArchStandsTheSameWithNlgsAndCorrectedCcp) {
  io::Scene scene = io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / "scenes" / "arch.json");
  scene.time.duration = 0.1;
  // not 1e-8: the corrected CCP stalls at 1.09e-8 on a step of this arch (its fixed point on the
  // De Saxcé shift; the same with 20 000 and 50 000 iterations), and reaches 1e-7 on every step
  scene.solver.tolerance = 1e-7;
  scene.solver.max_iterations = 20000;
  const auto nlgs = trajectory(with_solver(scene, "nlgs"));
  const auto ccp = trajectory(with_solver(scene, "ccp"));
  // the error measure is relative to max(‖q‖, ‖r‖, ‖u‖), here ‖r‖ ≈ 1e2 N·s (15 voussoirs of
  // 2.1 t, m g h ≈ 20 N·s each), so a tolerance of 1e-7 leaves contact velocities free to
  // ~1e-5 m/s: over 0.1 s the two runs, and the arch itself, could move by up to ~1e-6 m (4e-9 m
  // measured). The arch stands with both (no voussoir moves by 2e-6 m), and they agree to that.
  const std::vector<std::vector<Vec3>> at_rest(nlgs.size(), nlgs.front());
  EXPECT_LT(largest_difference(nlgs, at_rest), 2e-6);
  EXPECT_LT(largest_difference(ccp, at_rest), 2e-6);
  EXPECT_LT(largest_difference(nlgs, ccp), 2e-6);
}

TEST(SolverChoice, ShakingWallMovesTheSameWithAutoAsWithNlgs) {
  // the 85-block wall on its table, 40 steps into the shaking (it starts at t = 0.5 s): auto at
  // 1e-8 (its Newton stage finishes most shaking steps) against NLGS at 1e-6, where it still
  // converges within 20 000 sweeps
  io::Scene scene = io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / "scenes" / "wall_shaking_table.json");
  scene.time.duration = 0.54;
  scene.solver.max_iterations = 20000;
  scene.solver.tolerance = 1e-6;
  const auto nlgs = trajectory(with_solver(scene, "nlgs"));
  scene.solver.tolerance = 1e-8;
  const auto automatic = trajectory(with_solver(scene, "auto"));
  // the error measure is relative to the norm of all the wall's impulses (~10² N·s), so NLGS's
  // 1e-6 leaves contact velocities free to ~1e-6 m/s, ~1e-9 m per step of 1 ms: over the 40
  // shaking steps the runs differ by 1.1e-8 m (measured). 1e-7 m keeps a margin and is still
  // 10³ times below the table's travel over those steps (~1e-4 m)
  EXPECT_LT(largest_difference(nlgs, automatic), 1e-7);
}

TEST(SolverChoice, ShakingWallOnAHarderShakeMostlyReachesTightToleranceWithAuto) {
  // the wall on a table shaken at 1.5 m/s, 2 Hz, along (1, 0.3, 0) from t = 0.5 s (the harder
  // shake of bench/bench_convergence.py), its first 30 shaking steps with auto at 1e-8. Some of
  // these steps no solver of nscd or Siconos brings to 1e-8 (docs/performance.md), so this is a
  // regression guard on counts measured with this build: 8 steps end short, none above 3.1e-7.
  // With the velocity Newton restarting after every step damped below 1/16 (before 2026-11-28),
  // 15 ended short; the bound, 11, lies between
  io::Scene scene = io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / "scenes" / "wall_shaking_table.json");
  io::Motion& motion = *scene.bodies[0].motion_velocity;
  motion.amplitude = 1.5;
  motion.angular_frequency = 4 * std::numbers::pi;
  motion.direction = Vec3(1, 0.3, 0).normalized();
  scene.time.duration = 0.53;
  scene.solver.tolerance = 1e-8;
  scene.solver.max_iterations = 10000;
  test::Simulation sim(with_solver(scene, "auto"));
  int short_steps = 0;
  double worst = 0;
  while (sim.state.step < sim.model.n_steps) {
    const StepReport report = sim.advance();
    ASSERT_EQ(report.status, StepStatus::Ok);
    if (sim.state.t <= 0.5 + 1e-9) continue;
    short_steps += report.solver_status == solvers::SolverStatus::Converged ? 0 : 1;
    worst = std::max(worst, report.solver_error);
  }
  EXPECT_LE(short_steps, 11);
  EXPECT_LT(worst, 1e-6);
}

TEST(SolverChoice, AutoOnARigidSceneGetsTheBodyFormAndTheDeferredW) {
  // the wall at rest, second step (the first one's stick start reads W): auto's body form (M, H)
  // holds every movable side's block G, and the W assembled on demand is H M⁻¹ Hᵀ with the
  // diagonal blocks the step had before
  io::Scene scene = io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / "scenes" / "wall_static.json");
  test::Simulation sim(with_solver(scene, "auto"));
  ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  StepContacts& contacts = sim.workspace.contacts;
  ASSERT_TRUE(contacts.has_body_form());
  ASSERT_FALSE(contacts.delassus_assembled);
  const int nc = contacts.problem.nc();
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(3 * nc, 6 * sim.model.nb());
  for (int i = 0; i < nc; ++i)
    for (int side = 0; side < 2; ++side)
      if (const ContactJacobian& J = contacts.active.jacobian(i); J.movable[side])
        H.block<3, 6>(3 * i, 6 * J.body[side]) = J.G[side];
  EXPECT_EQ(Eigen::MatrixXd(contacts.body_form.H), H);
  std::vector<Eigen::Matrix3d> diagonal(nc);
  for (int i = 0; i < nc; ++i) diagonal[i] = contacts.problem.W.diag(i);
  const solvers::FrictionProblem& p = assembled_problem(sim.model, sim.workspace);
  EXPECT_TRUE(contacts.delassus_assembled);
  for (int i = 0; i < nc; ++i) EXPECT_EQ(p.W.diag(i), diagonal[i]) << i;
  const Eigen::MatrixXd M = Eigen::MatrixXd(contacts.body_form.M);
  const Eigen::MatrixXd W = H * M.inverse() * H.transpose();
  EXPECT_LE((p.W.to_dense() - W).cwiseAbs().maxCoeff(), 1e-12 * W.cwiseAbs().maxCoeff());
}

TEST(SolverChoice, AutoOnModalBodiesGetsTheBodyFormOfTheirFramesAndModes) {
  // §4.2's three blocks with 12 modes each, node to surface, after a few steps: the body form
  // adds each modal body's coordinates after the frames, with Â₊ on M's diagonal and T_isᵀ in H,
  // so that H M⁻¹ Hᵀ is the W that the step assembles point pair by point pair
  // (ffr_coupling.hpp's mesh_block). The step's last form is that of its last solve, a
  // linearisation before the last one; both are taken again at the last one here.
  io::Scene scene = io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / "scenes" / "ffr_three_blocks.json");
  scene.ffr.modes = 12;
  test::Simulation sim(with_solver(scene, "auto"));
  for (int n = 0; n < 5; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  StepContacts& contacts = sim.workspace.contacts;
  ASSERT_GT(contacts.problem.nc(), 0);
  ASSERT_TRUE(contacts.has_body_form());
  const Eigen::Index frames = 6 * sim.model.nb();
  EXPECT_EQ(contacts.body_form.M.rows(), frames + 3 * 12);
  defer_assembly(sim.model, sim.workspace);
  const solvers::BodyCoupling form = body_form(sim.model, sim.workspace);
  const Eigen::MatrixXd M = Eigen::MatrixXd(form.M);
  const Eigen::MatrixXd H = Eigen::MatrixXd(form.H);
  const Eigen::MatrixXd W = H * M.inverse() * H.transpose();
  const Eigen::MatrixXd assembled = assembled_problem(sim.model, sim.workspace).W.to_dense();
  // round-off of sums over a dozen modes: 1e-12 of the largest entry
  EXPECT_LE((assembled - W).cwiseAbs().maxCoeff(), 1e-12 * W.cwiseAbs().maxCoeff());
  // the frames alone miss the deformation's share of W (measured: 0.9 of W's largest entry, a
  // node's compliance through the modes)
  const Eigen::MatrixXd frames_only =
      H.leftCols(frames) * M.topLeftCorner(frames, frames).inverse() * H.leftCols(frames).transpose();
  EXPECT_GT((assembled - frames_only).cwiseAbs().maxCoeff(), 0.1 * W.cwiseAbs().maxCoeff());
}

}  // namespace
}  // namespace nscd
