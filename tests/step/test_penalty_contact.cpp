// Penalty contact (penalty_contact.hpp): the static penetration m g / k_n of eq. (2), the
// energy kept by the undamped spring (eq. (1)), and the stable step of eq. (5).
#include "nscd/step/penalty_contact.hpp"

#include "nscd/core/error.hpp"
#include "scene_builder.hpp"

#include <cmath>
#include <numbers>

namespace nscd {
namespace {

io::Scene penalty_scene(double h, double duration, double stiffness, double damping) {
  io::Scene scene = test::make_scene(h, duration, 1000.0, 0.5, 0.0);
  scene.contact.penalty = true;
  scene.contact.stiffness = stiffness;
  scene.contact.damping = damping;
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(4, 4, 1), Vec3(0, 0, -0.5));
  return scene;
}

// the largest penetration over the contacts of the last step
double penetration(const test::Simulation& sim) {
  double depth = 0;
  for (const ActiveContact& c : sim.workspace.contacts.active) depth = std::max(depth, -c.point.gap);
  return depth;
}

TEST(PenaltyContact, RestingSphereAndBlockPenetrateMgOverK) {
  const double k = 1e6;
  for (const bool block : {false, true}) {
    // critically damped (ζ = 1 for the body's mass): at rest after a few 1/ω ≈ 2 ms
    const double mass = block ? 1000.0 * 0.5 : 1000.0 * 4.0 / 3.0 * std::numbers::pi * 0.1 * 0.1 * 0.1;
    io::Scene scene = penalty_scene(1e-3, 0.5, k, 2 * std::sqrt(k * mass));
    if (block) test::add_box(scene, "block", BodyKind::Rigid, Vec3(1, 1, 0.5), Vec3(0, 0, 0.25));
    else test::add_sphere(scene, "ball", BodyKind::Rigid, 0.1, Vec3(0, 0, 0.1));
    test::Simulation sim(scene);
    EXPECT_FALSE(sim.model.step.projection);
    while (sim.state.step < sim.model.n_steps) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
    // at rest u = 0, so eq. (2) is k_n (−g) = m g exactly; after 0.5 s, at least 22 e-foldings
    // of the critically damped motion (the block's ω = 45 rad/s), the gap is within ~1e-8 of
    // rest: 1e-6 relative
    const double expected = mass * 9.81 / k;
    EXPECT_NEAR(penetration(sim), expected, 1e-6 * expected) << (block ? "block" : "sphere");
    EXPECT_EQ(sim.workspace.contacts.solution.iterations, 0);
    if (block) {
      EXPECT_NEAR(sim.state.q[1].angularDistance(Quat::Identity()), 0.0, 1e-12);
    }
  }
}

TEST(PenaltyContact, UndampedSphereBouncesBackToItsHeight) {
  // dropped from 0.05 m onto a spring with h ω ≈ 0.05: the Störmer–Verlet step keeps the energy
  // up to O((h ω)²) while in contact, and the switch of eq. (1) at g̃ = 0 costs O(h) of the
  // approach speed's energy once per contact; 1 % of the height bounds both
  const double h = 1e-4, k = 1e6;
  io::Scene scene = penalty_scene(h, 0.25, k, 0.0);
  test::add_sphere(scene, "ball", BodyKind::Rigid, 0.1, Vec3(0, 0, 0.15));
  test::Simulation sim(scene);
  bool bounced = false;
  double apex = 0;
  while (sim.state.step < sim.model.n_steps) {
    ASSERT_EQ(sim.advance().status, StepStatus::Ok);
    bounced = bounced || sim.state.v[1].z() > 0;
    if (bounced) apex = std::max(apex, sim.state.x[1].z());
  }
  ASSERT_TRUE(bounced);
  EXPECT_NEAR(apex, 0.15, 0.01 * 0.05);
}

TEST(PenaltyContact, ReturnsTheVelocitiesOfEverySolverUEqualsWrPlusQ) {
  // restitution 0.5 shifts q on approach (contact_problem.hpp); penalty contact does not use it,
  // but its u keeps the solvers' meaning, u = W r + q, which the joint output and the energy
  // balance read less that shift
  io::Scene scene = penalty_scene(1e-4, 0.2, 1e6, 0.0);
  scene.interactions.front().restitution = 0.5;
  test::add_sphere(scene, "ball", BodyKind::Rigid, 0.1, Vec3(0, 0, 0.15));
  test::Simulation sim(scene);
  int loaded_steps = 0;
  while (sim.state.step < sim.model.n_steps) {
    ASSERT_EQ(sim.advance().status, StepStatus::Ok);
    const solvers::FrictionProblem& p = sim.workspace.contacts.problem;
    const solvers::SolverResult& x = sim.workspace.contacts.solution;
    if (p.nc() == 0 || x.r.maxCoeff() <= 0) continue;
    ++loaded_steps;
    // the same sums in the same order: equal to round-off of the velocities (~1 m/s)
    EXPECT_LT((x.u - (p.W.apply(x.r) + p.q)).cwiseAbs().maxCoeff(), 1e-14) << "t = " << sim.state.t;
  }
  EXPECT_GT(loaded_steps, 0);
}

TEST(PenaltyContact, StepAboveTheStableLimitIsRefused) {
  // a 500 kg block on k_n = 1e9 N/m: ω = √(k/m) = 1414 rad/s, h_crit = 2/ω = 1.41 ms undamped
  const double mass = 1000.0 * 0.5 * 0.5 * 2;
  io::Scene scene = penalty_scene(2e-3, 0.1, 1e9, 0.0);
  test::add_box(scene, "block", BodyKind::Rigid, Vec3(0.5, 0.5, 2), Vec3(0, 0, 1));
  EXPECT_NEAR(penalty_stable_step(PenaltyLaw{1e9, 0.0, 1e-3}, mass), 2 / std::sqrt(1e9 / mass), 1e-15);
  try {
    io::build_model(scene);
    FAIL() << "a step above the stable limit was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("above the stable step"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("\"block\""), std::string::npos) << e.what();
  }
  scene.time.step = 1e-3;
  EXPECT_NO_THROW(io::build_model(scene));
}

}  // namespace
}  // namespace nscd
