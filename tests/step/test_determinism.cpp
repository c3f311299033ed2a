// Same scene, same results, whatever the thread count: detection, assembly and the per-body
// stages run in parallel, and every reduction has a fixed order, so states must be bitwise
// equal.

#include "nscd/io/scene.hpp"
#include "nscd/step/build_model.hpp"
#include "nscd/step/stepper.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <filesystem>
#include <string>

namespace nscd {
namespace {

// `deformable`: the model of the scene's FFR bodies (as nscd run --model)
State run_scene(const std::string& file, int steps, int threads, io::BodyModel deformable = io::BodyModel::Ffr) {
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  io::Scene scene = io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / file);
  for (io::Body& body : scene.bodies)
    if (body.model == io::BodyModel::Ffr) body.model = deformable;
  const Model m = build_model(scene);
  State s = initial_state(m, scene);
  StepWorkspace ws;
  for (int n = 0; n < steps; ++n) EXPECT_EQ(step(m, s, ws).status, StepStatus::Ok);
  return s;
}

void expect_bitwise_equal(const State& a, const State& b) {
  ASSERT_EQ(a.x.size(), b.x.size());
  for (std::size_t i = 0; i < a.x.size(); ++i) {
    EXPECT_EQ(a.x[i], b.x[i]) << "body " << i;
    EXPECT_EQ(a.q[i].coeffs(), b.q[i].coeffs()) << "body " << i;
    EXPECT_EQ(a.v[i], b.v[i]) << "body " << i;
    EXPECT_EQ(a.w[i], b.w[i]) << "body " << i;
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

TEST(Determinism, DefaultSceneIsBitwiseEqualWithOneAndTwoThreads) {
  // boxes and spheres in flight and landing: contacts appear and vanish
  expect_bitwise_equal(run_scene("scenes/default.json", 800, 1), run_scene("scenes/default.json", 800, 2));
}

TEST(Determinism, ThreeTlBlocksAreBitwiseEqualWithOneAndTwoThreads) {
  // §4.2 with TL bodies: 70 node-to-surface contacts, Newton solves per body in parallel
  expect_bitwise_equal(run_scene("scenes/ffr_three_blocks.json", 30, 1, io::BodyModel::Tl),
                       run_scene("scenes/ffr_three_blocks.json", 30, 2, io::BodyModel::Tl));
}

}  // namespace
}  // namespace nscd
