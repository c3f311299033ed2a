// Free rigid-body motion: the torque-free asymmetric top (exact conservation laws, the
// intermediate-axis instability) and the free-fall of a body under gravity.

#include "scene_builder.hpp"

#include "nscd/step/energy.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace nscd {
namespace {

Vec3 angular_momentum(const Model& m, const State& s, int b) {
  const Mat3 R = s.q[b].toRotationMatrix();
  return R * m.bodies[b].inertia_B * R.transpose() * s.w[b];
}

TEST(RigidMotion, TorqueFreeAsymmetricBodyConservesMomentumAndFlips) {
  // box 1 × 2 × 3: principal moments 13, 10, 5 (× m/12); y is the intermediate axis
  io::Scene scene = test::make_scene(1e-3, 10.0, 1000.0, 0.5, 0.0);
  scene.gravity = Vec3::Zero();
  io::Body& body = test::add_box(scene, "top", BodyKind::Rigid, Vec3(1, 2, 3), Vec3::Zero());
  body.angular_velocity = 2.0 * Vec3(0.01, 1.0, 0.01).normalized();  // |ω| = 2 rad/s
  scene.theta = 0.5;
  test::Simulation sim(scene);

  const Vec3 L0 = angular_momentum(sim.model, sim.state, 0);
  const double E0 = kinetic_energy(sim.model, sim.state);
  double max_L_error = 0;
  double max_E_error[2] = {0, 0};  // first and second half of the run
  double min_w_y = 1e300, initial_w_y = (sim.state.q[0].conjugate() * sim.state.w[0]).y();
  for (int n = 1; n <= 10000; ++n) {
    ASSERT_EQ(sim.advance().status, StepStatus::Ok);
    max_L_error = std::max(max_L_error, (angular_momentum(sim.model, sim.state, 0) - L0).norm() / L0.norm());
    const double E_error = std::abs(kinetic_energy(sim.model, sim.state) - E0) / E0;
    double& half = max_E_error[n <= 5000 ? 0 : 1];
    half = std::max(half, E_error);
    min_w_y = std::min(min_w_y, (sim.state.q[0].conjugate() * sim.state.w[0]).y());
  }
  // the scheme conserves L exactly up to the fixed point's 1e-15 tolerance and round-off
  // (about 1e-16 per step, 1e4 steps): 1e-8 is the bound with a wide margin
  EXPECT_LT(max_L_error, 1e-8);
  // θ = 1/2 is symmetric: the energy error is O((hω)²) = 4e-6 and bounded, not growing
  EXPECT_LT(max_E_error[0], 1e-4);
  EXPECT_LT(max_E_error[1], 1e-4);
  // growth rate ω √((I1−I2)(I2−I3)/(I1 I3)) ≈ 0.96 /s takes a 1% perturbation to a flip within
  // about 5 s: the body-frame ω_y must reverse (to near −|ω|)
  EXPECT_GT(initial_w_y, 1.9);
  EXPECT_LT(min_w_y, -1.5);
}

TEST(RigidMotion, FreeFallIsExactWithTheTrapezoidalRule) {
  io::Scene scene = test::make_scene(1e-2, 1.0, 1000.0, 0.5, 0.0);
  io::Body& body = test::add_sphere(scene, "ball", BodyKind::Rigid, 0.1, Vec3(0, 0, 10));
  body.velocity = Vec3(1, 0, 2);
  test::Simulation sim(scene);
  for (int n = 0; n < 100; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  // θ = 1/2 integrates constant acceleration exactly; round-off over 100 steps ~1e-14
  const double t = 1.0;
  EXPECT_NEAR(sim.state.x[0].x(), t, 1e-12);
  EXPECT_NEAR(sim.state.x[0].z(), 10 + 2 * t - 0.5 * 9.81 * t * t, 1e-12);
}

}  // namespace
}  // namespace nscd
