// Rolling resistance (nscd/step/rolling_resistance.hpp): a sphere rolling without slip on a plane
// stops at the distance of eq. (8), with the energy balance closed; a granular column collapsing
// on a plane stops spreading with rolling resistance and spreads further without.

#include "scene_builder.hpp"

#include "nscd/step/energy_balance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

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
  // above both (measured: 5e-8 relative). With the default solver, auto.
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

TEST(RollingResistance, EverySolverStopsTheSphere) {
  // the contact problem of each pass is an ordinary one: every step solver takes it (auto above)
  const double radius = 0.1, v0 = 1.0, mu_r = 0.1, d = 7 * v0 * v0 / (10 * mu_r * kG);
  for (const std::string& name : solvers::step_solver_names()) {
    SCOPED_TRACE(name);
    io::Scene scene = rolling_sphere(radius, v0, mu_r, 1e-3, 1.6);
    scene.solver.type = solvers::parse_step_solver(name, "solver");
    scene.solver.tolerance = 1e-8;
    test::Simulation sim(scene);
    for (long n = 0; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
    EXPECT_NEAR(sim.state.x[1].x(), d, 0.01 * d);
    EXPECT_LT(sim.state.v[1].norm(), 1e-6);
  }
}

TEST(RollingResistance, WithoutItTheSphereRollsOn) {
  // μ_r = 0: no torque, the sphere keeps v0 (rolling without slip needs no friction)
  test::Simulation sim(rolling_sphere(0.1, 1.0, 0.0, 1e-3, 0.5));
  for (long n = 0; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  EXPECT_NEAR(sim.state.v[1].x(), 1.0, 1e-9);
  EXPECT_NEAR(sim.state.x[1].x(), 0.5, 1e-9);
}

// a granular column as scenes/gen_column.py writes it: side × side files of `layers` spheres
// (radius 0.05 m ± 10 %), 0.15 m apart with a horizontal jitter of ± 0.012 m, 0.115 m apart
// vertically, released from rest over a fixed 10 m × 10 m plane (top at z = 0); μ = 0.5, e = 0, NLGS to
// 1e-4 within 300 sweeps
io::Scene granular_column(int side, int layers, double mu_r, double duration) {
  io::Scene scene = test::make_scene(1e-3, duration, 2500.0, 0.5, 0.0);
  scene.interactions[0].rolling_resistance = mu_r;
  scene.solver.type = solvers::SolverType::Nlgs;
  scene.solver.tolerance = 1e-4;
  scene.solver.max_iterations = 300;
  test::add_box(scene, "plane", BodyKind::Fixed, Vec3(10, 10, 0.1), Vec3(0, 0, -0.05));
  std::mt19937 random(3);  // its raw sequence is the same on every platform
  const auto uniform = [&random](double lo, double hi) { return lo + (hi - lo) * (random() / 4294967295.0); };
  const double first = -(side - 1) * 0.15 / 2;
  for (int layer = 0; layer < layers; ++layer)
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j) {
        const double radius = 0.05 * uniform(0.9, 1.1);
        const Vec3 centre(first + i * 0.15 + uniform(-0.012, 0.012), first + j * 0.15 + uniform(-0.012, 0.012),
                          0.056 + layer * 0.115);
        test::add_sphere(scene, "grain_" + std::to_string(scene.bodies.size() - 1), BodyKind::Rigid, radius, centre);
      }
  return scene;
}

// the largest horizontal distance of a sphere's centre from the column's axis [m]
double runout(const test::Simulation& sim) {
  double largest = 0;
  for (int b = 1; b < sim.model.nb(); ++b) largest = std::max(largest, sim.state.x[b].head<2>().norm());
  return largest;
}

// steps sim to time t
void run_to(test::Simulation& sim, double t) {
  while (sim.state.t < t - 0.5 * sim.model.step.h) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
}

TEST(RollingResistance, GranularColumnRunoutStopsGrowing) {
  // 3 × 3 × 8 = 72 spheres: the column topples from t ≈ 0.1 s and, with μ_r = 0.2, the runout
  // stops growing by t ≈ 1.8 s (the fastest spheres leave the heap at ≈ 1.3 m/s and stop within
  // 7 v²/(10 μ_r g) ≈ 0.6 m, 7 v/(5 μ_r g) ≈ 0.9 s; measured: 0.9958 m at 1.6 s, 0.9963 m from
  // 1.8 s to 4 s). From t1 = 2 s to t2 = 2.4 s the runout may move by 1e-6 m: a sphere at rest
  // creeps only by what the solver's tolerance (1e-4) leaves of its velocity, ~1e-6 m/s over 400
  // steps of 1e-3 s (measured: 0, to 1e-9). Without rolling resistance the spheres that left the
  // heap roll on: 2.8 m at 2 s, asked for at least 0.5 m more
  test::Simulation with(granular_column(3, 8, 0.2, 2.4));
  run_to(with, 2.0);
  const double at_t1 = runout(with);
  run_to(with, 2.4);
  EXPECT_NEAR(runout(with), at_t1, 1e-6);
  EXPECT_GT(at_t1, 0.5);  // the column did collapse (initial runout 0.23 m)
  test::Simulation without(granular_column(3, 8, 0.0, 2.0));
  run_to(without, 2.0);
  EXPECT_GT(runout(without), runout(with) + 0.5);
}

}  // namespace
}  // namespace nscd
