// Cohesive joints (nscd/step/cohesion.hpp) against their strengths: a block hung under a fixed
// block by a joint of tensile strength f_t holds while m g < f_t A and falls after; a glued block
// pushed sideways holds while F < c A + μ m g, slides after, and stays frictional once broken.
// Each at 0.95 and 1.05 of the limit, with every solver that takes the shifted cone.

#include "scene_builder.hpp"

#include "nscd/step/cohesion.hpp"
#include "nscd/step/energy_balance.hpp"
#include "nscd/step/joint_forces.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace nscd {
namespace {

constexpr double kG = 9.81;
constexpr double kDensity = 1000.0;

// the scene's interaction stone–stone made cohesive
void glue(io::Scene& scene, double tensile_strength, double cohesion, std::optional<double> residual = std::nullopt) {
  io::Interaction& in = scene.interactions.front();
  in.tensile_strength = tensile_strength;
  in.cohesion = cohesion;
  in.residual_friction = residual;
}

// the state (joint_forces.hpp eq. (7)) of the step's only joint
JointState only_joint_state(const test::Simulation& sim) {
  const std::vector<Joint> joints = find_joints(sim.workspace.contacts.active);
  EXPECT_EQ(joints.size(), 1u);
  return joint_forces(sim.model, sim.workspace.contacts, joints).front().state;
}

// a 1 × 1 × 0.5 block (m = 500 kg) hung under the 2 × 2 × 1 fixed block "ceiling" by its top face
// (A = 1 m²), with f_t = m g / (ratio A) and c = 10 μ f_t, so that the tension limit is f_t A
io::Scene hung_block(const std::string& solver, double ratio) {
  constexpr double mu = 0.5;
  io::Scene scene = test::make_scene(1e-3, 0.1, kDensity, mu, 0.0);
  scene.gravity = Vec3(0, 0, -kG);
  scene.solver.type = solvers::parse_step_solver(solver, "solver.type");
  scene.solver.tolerance = 1e-8;
  const double weight = 500 * kG;
  glue(scene, weight / ratio, 10 * mu * weight / ratio);
  test::add_box(scene, "ceiling", BodyKind::Fixed, Vec3(2, 2, 1), Vec3(0, 0, 1));
  test::add_box(scene, "block", BodyKind::Rigid, Vec3(1, 1, 0.5), Vec3(0, 0, 0.25));
  return scene;
}

class HungBlock : public ::testing::TestWithParam<std::string> {};

TEST_P(HungBlock, HoldsBelowTheTensileStrength) {
  test::Simulation sim(hung_block(GetParam(), 0.95));
  for (long n = 0; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  // held: the solver's residual velocity (tolerance 1e-8 on ~g h) moves it by far less than 1 µm
  EXPECT_EQ(sim.state.bonds.size(), 4u);
  EXPECT_EQ(sim.state.broken_bonds.size(), 0u);
  EXPECT_LT((sim.state.x[1] - Vec3(0, 0, 0.25)).norm(), 1e-6);
  // the joint carries the weight: Σ r_N = −m g h (tension), within the solver's tolerance
  const Eigen::VectorXd& r = sim.workspace.contacts.solution.r;
  double normal = 0;
  for (int i = 0; i < sim.workspace.contacts.problem.nc(); ++i) normal += r[3 * i];
  EXPECT_NEAR(normal, -500 * kG * 1e-3, 1e-6 * 500 * kG * 1e-3);
}

TEST_P(HungBlock, FallsAboveTheTensileStrength) {
  test::Simulation sim(hung_block(GetParam(), 1.05));
  ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  // the first step breaks every bond in tension, and the block falls freely from t = 0
  EXPECT_EQ(sim.workspace.contacts.bond_breaks.tension, 4);
  EXPECT_TRUE(sim.state.bonds.empty());
  EXPECT_EQ(sim.state.broken_bonds.size(), 4u);
  for (long n = 1; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  const double t = sim.state.t;
  EXPECT_NEAR(sim.state.x[1].z(), 0.25 - kG * t * t / 2, 1e-9);
  EXPECT_EQ(sim.state.broken_bonds.size(), 4u);
}

INSTANTIATE_TEST_SUITE_P(Solvers, HungBlock, ::testing::Values("nlgs", "nsn", "prox", "auto", "ccp", "lcp"));

// a 1 × 1 × 0.2 block (m = 200 kg, A = 1 m²) glued on a fixed slab, pushed along x by F = ratio
// (c A + μ m g) applied at its centre of mass; c A = m g, f_t = 2 c/μ (the cone limits the tension)
struct PushedBlock {
  static constexpr double mu = 0.5, residual = 0.3, mass = 200.0;
  static constexpr double cohesion = mass * kG;
  static double limit() { return cohesion + mu * mass * kG; }
};

io::Scene pushed_block(const std::string& solver, double ratio) {
  io::Scene scene = test::make_scene(1e-3, 0.1, kDensity, PushedBlock::mu, 0.0);
  scene.gravity = Vec3(0, 0, -kG);
  scene.solver.type = solvers::parse_step_solver(solver, "solver.type");
  scene.solver.tolerance = 1e-8;
  glue(scene, 2 * PushedBlock::cohesion / PushedBlock::mu, PushedBlock::cohesion, PushedBlock::residual);
  test::add_box(scene, "slab", BodyKind::Fixed, Vec3(4, 4, 1), Vec3(0, 0, -0.5));
  test::add_box(scene, "block", BodyKind::Rigid, Vec3(1, 1, 0.2), Vec3(0, 0, 0.1));
  io::Load load;
  load.bodies = {"block"};
  load.force = Vec3(ratio * PushedBlock::limit(), 0, 0);
  scene.loads.push_back(load);
  return scene;
}

class PushedGluedBlock : public ::testing::TestWithParam<std::string> {};

TEST_P(PushedGluedBlock, HoldsBelowCohesionPlusFriction) {
  test::Simulation sim(pushed_block(GetParam(), 0.95));
  for (long n = 0; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  EXPECT_EQ(sim.state.bonds.size(), 4u);
  EXPECT_EQ(sim.state.broken_bonds.size(), 0u);
  EXPECT_LT((sim.state.x[1] - Vec3(0, 0, 0.1)).norm(), 1e-6);
  EXPECT_EQ(only_joint_state(sim), JointState::Intact);
}

TEST_P(PushedGluedBlock, SlidesAboveCohesionPlusFrictionAndStaysFrictional) {
  test::Simulation sim(pushed_block(GetParam(), 1.05));
  for (long n = 0; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  EXPECT_TRUE(sim.state.bonds.empty());
  EXPECT_EQ(sim.state.broken_bonds.size(), 4u);
  // broken: it slides on μ_res, a = (F − μ_res m g)/m, from within a few steps of t = 0 (the
  // bonds break once the slip velocity exceeds kBondBreakVelocity)
  const double F = 1.05 * PushedBlock::limit();
  const double a = (F - PushedBlock::residual * PushedBlock::mass * kG) / PushedBlock::mass;
  const double t = sim.state.t;
  EXPECT_NEAR(sim.state.v[1].x(), a * t, 5e-3 * a * t);
  EXPECT_NEAR(sim.state.x[1].z(), 0.1, 1e-6);
  EXPECT_EQ(only_joint_state(sim), JointState::Sliding);
}

INSTANTIATE_TEST_SUITE_P(Solvers, PushedGluedBlock, ::testing::Values("nlgs", "nsn", "prox", "auto", "ccp", "lcp"));

TEST(Cohesion, EnergyBalanceStaysClosedAcrossTheBreak) {
  // the pushed block at 1.05 of its limit: the bonds break at once and the load's work goes into
  // kinetic energy and friction; ε stays at round-off of the work done
  test::Simulation sim(pushed_block("nlgs", 1.05));
  EnergyBalance e = start_energy_balance(sim.model, sim.state);
  for (long n = 0; n < sim.model.n_steps; ++n) {
    const StepStartVelocities start = step_start_velocities(sim.state);
    ASSERT_EQ(sim.advance().status, StepStatus::Ok);
    add_step(e, sim.model, start, sim.state, sim.workspace.contacts);
  }
  EXPECT_GT(e.friction, 0);
  EXPECT_LT(std::abs(e.error()), 1e-9 * e.load_work);
}

TEST(Cohesion, ContactsFormedLaterAreNeverBonded) {
  // a block dropped from 1 mm onto a glued slab: its contacts form at t > 0 and stay frictional
  io::Scene scene = pushed_block("nlgs", 0.0);
  scene.bodies.back().position = Vec3(0, 0, 0.101);
  scene.loads.clear();
  test::Simulation sim(scene);
  for (long n = 0; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  EXPECT_GT(sim.workspace.contacts.problem.nc(), 0);
  EXPECT_TRUE(sim.state.bonds.empty());
  EXPECT_EQ(sim.state.broken_bonds.size(), 0u);
}

TEST(Cohesion, WithoutCohesionNoContactIsBonded) {
  io::Scene scene = pushed_block("nlgs", 0.0);
  glue(scene, 0.0, 0.0);
  test::Simulation sim(scene);
  ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  for (const ActiveContact& c : sim.workspace.contacts.active) EXPECT_EQ(c.bond, Bond::None);
  EXPECT_EQ(sim.workspace.contacts.cohesion_shift.size(), 0);
  EXPECT_TRUE(sim.state.bonds.empty());
}

}  // namespace
}  // namespace nscd
