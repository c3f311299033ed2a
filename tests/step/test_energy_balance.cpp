// The energy balance of nscd/step/energy_balance.hpp: the friction dissipated by a block sliding
// down an incline against its closed form, and a balance error ε (eq. 6) below 1e-6 of the
// total energy on the incline, the 10-box stack and the shaking wall; contacts on undamped elastic
// blocks do no positive work.

#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/energy_balance.hpp"
#include "nscd/step/stepper.hpp"
#include "scene_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <tuple>

namespace nscd {
namespace {

io::Scene read(const std::string& file) { return io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / file); }

struct BalancedRun {
  Model m;
  State s;
  EnergyBalance energy;
  double largest_error = 0;  // max over the steps of |ε| [J]
};

BalancedRun run_balanced(const io::Scene& scene, int steps) {
  BalancedRun run{io::build_model(scene), {}, {}};
  run.s = io::initial_state(run.m, scene);
  run.energy = start_energy_balance(run.m, run.s);
  StepWorkspace ws;
  for (int n = 0; n < steps; ++n) {
    const StepStartVelocities start = step_start_velocities(run.s);
    EXPECT_EQ(step(run.m, run.s, ws).status, StepStatus::Ok);
    add_step(run.energy, run.m, start, run.s, ws.contacts);
    run.largest_error = std::max(run.largest_error, std::abs(run.energy.error()));
  }
  return run;
}

// the magnitude of the total energy at t = 0, the scale of the balance's error
double total_energy(const EnergyBalance& e) { return std::abs(e.initial); }

TEST(EnergyBalance, AppliedLoadsWorkIsCountedAndTheBalanceCloses) {
  // the incline's block pushed up the slope by a constant force, pressed by a body acceleration
  // into it and twisted by a moment about the plane's normal: every term of eq. (7) works, and
  // friction dissipates; the balance closes to the solver's tolerance as on the plain incline
  io::Scene scene = read("scenes/incline.json");
  io::Load push;
  push.bodies = {"block"};
  push.force = Vec3(200, 0, 100);
  push.moment = Vec3(-5, 0, 8.7);
  push.acceleration = Vec3(-1, 0, -2);
  scene.loads.push_back(push);
  const BalancedRun run = run_balanced(scene, 300);
  EXPECT_GT(std::abs(run.energy.load_work), 1.0);
  EXPECT_GT(run.energy.friction, 1.0);
  EXPECT_LT(run.largest_error, 1e-6 * total_energy(run.energy));
}

TEST(EnergyBalance, BlockSlidingDownAnInclineDissipatesMuMgCosAlphaTimesTheDistance) {
  // μ = 0.3 < tan 30°: the block slides with its face on the plane and does not turn, so the
  // normal force is m g cos α at every step and the θ = 1/2 scheme's step displacement is
  // h (v⁻ + v⁺)/2, the velocity eq. (2) weights the friction impulse with: the closed form holds
  // to the solver's tolerance (1e-8), far below the 1e-6 asked here
  const io::Scene scene = read("scenes/incline.json");
  const BalancedRun run = run_balanced(scene, 300);
  const double alpha = 0.5235987755982988, mu = 0.3;  // the scene's tilt (30°) and friction
  const int block = 1;
  const double distance = (run.s.x[block] - run.m.bodies[block].x0).norm();
  const double expected = mu * run.m.bodies[block].mass * 9.81 * std::cos(alpha) * distance;
  EXPECT_GT(distance, 0.1);
  EXPECT_NEAR(run.energy.friction, expected, 1e-6 * expected);
  EXPECT_NEAR(run.energy.impacts, 0, 1e-6 * expected);
  EXPECT_LT(run.largest_error, 1e-6 * total_energy(run.energy));
}

TEST(EnergyBalance, ClosesOnTheStackOfTenBoxes) {
  const BalancedRun run = run_balanced(read("scenes/stack10.json"), 200);
  EXPECT_LT(run.largest_error, 1e-6 * total_energy(run.energy));
}

TEST(EnergyBalance, ClosesOnTheShakingWallWithTheTableDoingWork) {
  // shaken from t = 0 rather than 0.5 s, so that 100 steps see the table work on the wall
  io::Scene scene = read("scenes/wall_shaking_table.json");
  scene.bodies[0].motion_velocity->start = 0;
  const BalancedRun run = run_balanced(scene, 100);
  EXPECT_GT(std::abs(run.energy.driven_work), 1e-3);
  EXPECT_LT(run.largest_error, 1e-6 * total_energy(run.energy));
}

// Two undamped elastic stone blocks 1 m wide stacked on fixed ground, released at h = 1e-3 s:
// their lowest free–free modes (about 2 kHz) are far above 1/h, the trapezoidal rule keeps them
// ringing, and their nodes' velocities change sign from step to step, so that contacts are often
// active while they move apart (u_n⁻ > 0). Held on u_n⁺ ≥ 0, such a contact's impulse does the
// work r_n u_n⁻/2 > 0, and the stack blew up at θ = 1/2 and θ = 1 alike: the impacts' dissipation
// fell to −5.8e3 J (linear, θ = 1/2) down to −8.3e8 J (linear, θ = 1) in 0.1 s. Held on
// u_n⁺ + u_n⁻ ≥ 0 (contact_problem.hpp, normal_velocity_shift), the contacts do no positive work:
// the impacts' dissipation never falls below −1e-6 J (measured −6.6e-10 J, the solver's tolerance
// 1e-8 on impulses of 25 N s), and the kinetic energy stays below the gravitational energy the
// blocks have released by settling onto the ground and each other (measured at least 6.2e-3 J
// below it; the kinetic energy peaks at 0.022 J for FFR, 0.051 J for linear)
class UndampedElasticStack : public testing::TestWithParam<std::tuple<BodyKind, double>> {};

TEST_P(UndampedElasticStack, ContactsDoNoWorkAndTheStackStaysAtRest) {
  const auto [model, theta] = GetParam();
  io::Scene scene = test::stone_scene(1e-3, 0.1, 0.6);
  scene.gravity = Vec3(0, 0, -9.81);
  scene.theta = theta;
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(3, 3, 0.2), Vec3(0, 0, -0.1));
  test::add_box(scene, "lower", model, Vec3(1, 1, 1), Vec3(0, 0, 0.5)).elements = {4, 4, 4};
  test::add_box(scene, "upper", model, Vec3(1, 1, 1), Vec3(0, 0, 1.5)).elements = {4, 4, 4};
  test::Simulation sim(scene);
  EnergyBalance energy = start_energy_balance(sim.model, sim.state);
  const double gravitational_0 = energy.gravitational;
  double least_impacts = 0, largest_excess = -1;
  for (long n = 0; n < sim.model.n_steps; ++n) {
    const StepStartVelocities start = step_start_velocities(sim.state);
    ASSERT_EQ(sim.advance().status, StepStatus::Ok) << n;
    add_step(energy, sim.model, start, sim.state, sim.workspace.contacts);
    least_impacts = std::min(least_impacts, energy.impacts);
    largest_excess = std::max(largest_excess, energy.kinetic - (gravitational_0 - energy.gravitational));
  }
  EXPECT_GT(least_impacts, -1e-6);
  EXPECT_LT(largest_excess, 0.0);
}

INSTANTIATE_TEST_SUITE_P(FfrAndLinear, UndampedElasticStack,
                         testing::Combine(testing::Values(BodyKind::Ffr, BodyKind::Linear), testing::Values(0.5, 1.0)));

}  // namespace
}  // namespace nscd
