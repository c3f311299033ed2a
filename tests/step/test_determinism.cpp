// Same scene, same results, whatever the thread count: detection, assembly and the per-body
// stages run in parallel, and every reduction has a fixed order, so states (rigid motion, FFR
// and TL nodal fields, contact impulses) must be bitwise equal.

#include "scene_builder.hpp"

#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/stepper.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <filesystem>
#include <random>
#include <string>

namespace nscd {
namespace {

State run_scene(const io::Scene& scene, int steps, int threads) {
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  const Model m = io::build_model(scene);
  State s = io::initial_state(m, scene);
  StepWorkspace ws;
  for (int n = 0; n < steps; ++n) EXPECT_EQ(step(m, s, ws).status, StepStatus::Ok);
  return s;
}

// `deformable`: the model of the scene's FFR bodies (as nscd run --model)
State run_scene(const std::string& file, int steps, int threads, BodyKind deformable = BodyKind::Ffr) {
  io::Scene scene = io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / file);
  for (io::Body& body : scene.bodies)
    if (body.model == BodyKind::Ffr) body.model = deformable;
  return run_scene(scene, steps, threads);
}

void expect_bitwise_equal(const State& a, const State& b) {
  ASSERT_EQ(a.x.size(), b.x.size());
  for (std::size_t i = 0; i < a.x.size(); ++i) {
    EXPECT_EQ(a.x[i], b.x[i]) << "body " << i;
    EXPECT_EQ(a.q[i].coeffs(), b.q[i].coeffs()) << "body " << i;
    EXPECT_EQ(a.v[i], b.v[i]) << "body " << i;
    EXPECT_EQ(a.w[i], b.w[i]) << "body " << i;
  }
  ASSERT_EQ(a.psi.size(), b.psi.size());
  for (std::size_t i = 0; i < a.psi.size(); ++i) {
    EXPECT_EQ(a.psi[i], b.psi[i]) << "FFR body " << i;
    EXPECT_EQ(a.lambda[i], b.lambda[i]) << "FFR body " << i;
  }
  ASSERT_EQ(a.tl_psi.size(), b.tl_psi.size());
  for (std::size_t i = 0; i < a.tl_psi.size(); ++i) {
    EXPECT_EQ(a.tl_psi[i], b.tl_psi[i]) << "TL body " << i;
    EXPECT_EQ(a.tl_lambda[i], b.tl_lambda[i]) << "TL body " << i;
  }
  ASSERT_EQ(a.warm.size(), b.warm.size());
  for (std::size_t k = 0; k < a.warm.size(); ++k) EXPECT_EQ(a.warm[k].r_W, b.warm[k].r_W) << "contact " << k;
}

TEST(Determinism, ShakingWallIsBitwiseEqualWithOneTwoAndFourThreads) {
  // 600 steps reach the shaking (it starts at t = 0.5 s), where the solver does many sweeps
  const State one = run_scene("scenes/wall_shaking_table.json", 600, 1);
  expect_bitwise_equal(one, run_scene("scenes/wall_shaking_table.json", 600, 2));
  expect_bitwise_equal(one, run_scene("scenes/wall_shaking_table.json", 600, 4));
}

TEST(Determinism, ShakingWallWithAutoIsBitwiseEqualWithOneAndTwoThreads) {
  // auto at 1e-8: its velocity Newton stage finishes the shaking steps (sequential, after the
  // parallel NLGS sweeps), 30 steps into the shaking
  io::Scene scene = io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / "scenes/wall_shaking_table.json");
  scene.solver.type = solvers::SolverType::Auto;
  scene.solver.tolerance = 1e-8;
  expect_bitwise_equal(run_scene(scene, 530, 1), run_scene(scene, 530, 2));
}

TEST(Determinism, DefaultSceneIsBitwiseEqualWithOneAndTwoThreads) {
  // boxes and spheres in flight and landing: contacts appear and vanish
  expect_bitwise_equal(run_scene("scenes/default.json", 800, 1), run_scene("scenes/default.json", 800, 2));
}

TEST(Determinism, PileOfSpheresSweptInParallelColoursIsBitwiseEqualWithOneTwoAndFourThreads) {
  // 24 × 24 × 4 spheres of radius 0.05 ± 10 % on a 0.1 m lattice on a ground, the larger ones
  // touching: over 3 000 contacts, whose colours (hundreds of contacts each) the NLGS sweeps in
  // parallel chunks, unlike the wall and the FCLIB problems, which are swept in index order
  io::Scene scene = test::make_scene(1e-3, 0.04, 2500.0, 0.4, 0.1);
  scene.solver.max_iterations = 30;  // bitwise equality, not convergence, is tested
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(4, 4, 0.2), Vec3(0, 0, -0.1));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.005, 0.005);
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 24; ++j)
      for (int i = 0; i < 24; ++i) {
        const double radius = 0.05 + jitter(rng);
        test::add_sphere(scene, "grain_" + std::to_string(i) + "_" + std::to_string(j) + "_" + std::to_string(k),
                         BodyKind::Rigid, radius, Vec3(0.1 * (i - 11.5), 0.1 * (j - 11.5), 0.05 + 0.1 * k));
      }
  const State one = run_scene(scene, 40, 1);
  ASSERT_GT(one.warm.size(), 3000u);
  expect_bitwise_equal(one, run_scene(scene, 40, 2));
  expect_bitwise_equal(one, run_scene(scene, 40, 4));
}

TEST(Determinism, GranularColumnWithRollingResistanceIsBitwiseEqualWithOneAndTwoThreads) {
  // 160 spheres landing and toppling, rolling torques at every contact (rolling_resistance.hpp)
  expect_bitwise_equal(run_scene("scenes/granular_column.json", 250, 1),
                       run_scene("scenes/granular_column.json", 250, 2));
}

TEST(Determinism, ThreeFfrBlocksAreBitwiseEqualWithOneTwoAndFourThreads) {
  // §4.2 with FFR bodies: the upper block on the two others on the table, node-to-surface
  // contacts from the first step, the outer iterations of Algorithm 1 with per-body Rotator and
  // deformation solves in parallel; 50 steps (5 ms) let the blocks settle and deform, at a cost
  // of about 0.1 s per run in Release
  const State one = run_scene("scenes/ffr_three_blocks.json", 50, 1);
  ASSERT_EQ(one.psi.size(), 3u);
  ASSERT_GE(one.warm.size(), 70u);
  for (const Eigen::VectorXd& psi : one.psi) ASSERT_GT(psi.norm(), 0.0);  // the blocks do deform
  expect_bitwise_equal(one, run_scene("scenes/ffr_three_blocks.json", 50, 2));
  expect_bitwise_equal(one, run_scene("scenes/ffr_three_blocks.json", 50, 4));
}

TEST(Determinism, ThreeTlBlocksAreBitwiseEqualWithOneAndTwoThreads) {
  // §4.2 with TL bodies: 70 node-to-surface contacts, Newton solves per body in parallel
  expect_bitwise_equal(run_scene("scenes/ffr_three_blocks.json", 30, 1, BodyKind::Tl),
                       run_scene("scenes/ffr_three_blocks.json", 30, 2, BodyKind::Tl));
}

}  // namespace
}  // namespace nscd
