// Applied loads (nscd/step/loads.hpp) against closed forms: a constant force on a free block, a
// constant moment on a free sphere, a ramped body acceleration that starts a block sliding on a
// frictional plane when the load factor reaches μ, a body acceleration on finite-element blocks.

#include "scene_builder.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace nscd {
namespace {

constexpr double kG = 9.81;

TEST(Loads, ConstantForceOnAFreeBlockIsIntegratedExactly) {
  io::Scene scene = test::make_scene(1e-2, 1.0, 1000.0, 0.5, 0.0);
  scene.gravity = Vec3::Zero();
  test::add_box(scene, "block", BodyKind::Rigid, Vec3(1, 2, 0.5), Vec3(1, 2, 3));
  io::Load load;
  load.bodies = {"block"};
  load.force = Vec3(300, -200, 100);
  scene.loads.push_back(load);
  test::Simulation sim(scene);
  const double m = sim.model.bodies[0].mass;
  ASSERT_DOUBLE_EQ(m, 1000.0);
  for (int n = 0; n < 100; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  // θ = 1/2 integrates a constant force exactly: x = x₀ + F t²/(2m), v = F t/m
  const double t = sim.state.t;
  const Vec3 expected = Vec3(1, 2, 3) + load.force * t * t / (2 * m);
  EXPECT_LT((sim.state.x[0] - expected).norm(), 1e-12 * expected.norm());
  EXPECT_LT((sim.state.v[0] - load.force * t / m).norm(), 1e-12 * (load.force * t / m).norm());
  EXPECT_EQ(sim.state.w[0], Vec3::Zero());
}

TEST(Loads, ConstantMomentSpinsAFreeSphereLinearly) {
  io::Scene scene = test::make_scene(1e-2, 1.0, 1000.0, 0.5, 0.0);
  scene.gravity = Vec3::Zero();
  test::add_sphere(scene, "ball", BodyKind::Rigid, 0.1, Vec3::Zero());
  io::Load load;
  load.bodies = {"ball"};
  load.moment = Vec3(0.2, -0.1, 0.5);
  scene.loads.push_back(load);
  test::Simulation sim(scene);
  const double I = sim.model.bodies[0].inertia_B(0, 0);
  for (int n = 0; n < 100; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  // a sphere's J_W = I 1: ω = M t / I for any orientation
  const Vec3 expected = load.moment * sim.state.t / I;
  EXPECT_LT((sim.state.w[0] - expected).norm(), 1e-12 * expected.norm());
  EXPECT_EQ(sim.state.v[0], Vec3::Zero());
}

TEST(Loads, RampedAccelerationStartsABlockSlidingAtTheFrictionCoefficient) {
  // a unit cube (b/h = 1 > μ: it slides, it does not tip) on a fixed slab; a horizontal body
  // acceleration g f(t), f ramping 0 → 1 over [0, 1] s: sliding starts at f = μ, t = μ
  const double mu = 0.4, h = 1e-3;
  io::Scene scene = test::make_scene(h, 0.6, 1000.0, mu, 0.0);
  scene.gravity = Vec3(0, 0, -kG);
  scene.solver.tolerance = 1e-10;
  test::add_box(scene, "slab", BodyKind::Fixed, Vec3(20, 4, 1), Vec3::Zero());
  test::add_box(scene, "block", BodyKind::Rigid, Vec3(1, 1, 1), Vec3(0, 0, 1.0));
  io::Load load;
  load.bodies = {"block"};
  load.acceleration = Vec3(kG, 0, 0);
  load.time.type = io::LoadTime::Type::Ramp;
  load.time.start = 0.0;
  load.time.end = 1.0;
  scene.loads.push_back(load);
  test::Simulation sim(scene);
  // sticking, the solver leaves a velocity of ~1e-9 m/s; the first sliding step gains ~g h²/2 = 5e-6 m/s
  constexpr double kSliding = 1e-7;
  double slide_start = -1;
  for (long n = 0; n < sim.model.n_steps && slide_start < 0; ++n) {
    ASSERT_EQ(sim.advance().status, StepStatus::Ok);
    if (sim.state.v[1].x() > kSliding) slide_start = sim.state.t;
  }
  // the step's load impulse is h m g f(t + h/2): the first sliding step ends within one step of μ
  ASSERT_GT(slide_start, 0);
  EXPECT_NEAR(slide_start, mu, h * (1 + 1e-9));
}

TEST(Loads, BodyAccelerationMovesFiniteElementBlocksRigidly) {
  // a uniform acceleration, like gravity, deforms no free block: every point moves by a t²/2
  io::Scene scene = test::stone_scene(1e-3, 0.1, 0.5);
  scene.gravity = Vec3::Zero();
  const BodyKind kinds[] = {BodyKind::Ffr, BodyKind::Tl, BodyKind::Linear};
  for (int i = 0; i < 3; ++i) {
    const std::string name = to_string(kinds[i]);
    test::add_box(scene, name, kinds[i], Vec3(1, 1, 1), Vec3(3.0 * i, 0, 0)).elements = std::array<int, 3>{2, 2, 2};
    scene.probes.push_back({name, name, Vec3(3.0 * i + 0.5, 0.5, 0.5), std::nullopt});
  }
  io::Load load;
  load.bodies = {"ffr", "tl", "linear"};
  load.acceleration = Vec3(2, -1, 0.5);
  scene.loads.push_back(load);
  test::Simulation sim(scene);
  for (long n = 0; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  const Vec3 expected = load.acceleration * sim.state.t * sim.state.t / 2;
  for (const io::ProbeRow& row : io::probe_rows(sim.model, sim.state))
    EXPECT_LT((row.u - expected).norm(), 1e-9 * expected.norm()) << row.probe << ": " << row.u.transpose();
}

}  // namespace
}  // namespace nscd
