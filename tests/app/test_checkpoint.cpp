// Checkpoint and restart (docs/commands.md): a run stopped after a checkpoint and restarted from
// it ends with the same output files as the run that was never stopped, bit for bit; checkpoints
// of another scene and corrupted files are refused with exit code 2.

#include "tests/app/run_nscd.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace nscd::cli_test {
namespace {

// checkpoint_<step>.h5, as nscd/io/checkpoint.hpp names them
std::string fmt_checkpoint(long step) {
  std::string digits = std::to_string(step);
  return "checkpoint_" + std::string(9 - digits.size(), '0') + digits + ".h5";
}

// history.csv without its last column (the wall time of each step, which no two runs share)
std::string history_without_wall_times(const fs::path& dir) {
  static const std::regex kLastColumn(",[^,\n]*\n");
  return std::regex_replace(read_text(dir / "history.csv"), kLastColumn, "\n");
}

std::vector<std::string> checkpoints_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".h5") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// runs `scene` for `duration` with checkpoints every `interval`, copies the output as a run
// stopped at its end, restarts that copy from the checkpoint at `step` and expects the same files
void expect_restart_equals_uninterrupted(const std::string& name, const std::string& scene, const std::string& duration,
                                         const std::string& interval, long step, const std::string& pvd,
                                         const std::string& options = "") {
  const fs::path dir = fresh_dir("checkpoint_" + name);
  const fs::path full = dir / "full", stopped = dir / "stopped";
  const std::string common = "run " + scene + " --quiet --duration " + duration + options;
  const Result first = run_nscd(common + " --checkpoint-interval " + interval + " --out " + full.string());
  ASSERT_EQ(first.exit_code, 0) << first.output;
  // the stopped run wrote everything up to its end; the restart must cut it back and redo it
  fs::copy(full, stopped, fs::copy_options::recursive);
  const std::string checkpoint = (stopped / fmt_checkpoint(step)).string();
  const Result restarted = run_nscd(common + " --threads 1 --out " + stopped.string() + " --restart " + checkpoint);
  ASSERT_EQ(restarted.exit_code, 0) << restarted.output;
  for (const std::string& file : std::vector<std::string>{"bodies.csv", "probes.csv", "joints.csv", pvd})
    EXPECT_EQ(read_text(stopped / file), read_text(full / file)) << file;
  EXPECT_EQ(history_without_wall_times(stopped), history_without_wall_times(full));
  EXPECT_NE(read_text(stopped / "run.json").find("\"restarted_from\""), std::string::npos);
}

TEST(Checkpoint, ShakingWallRestartedMidRunEqualsTheUninterruptedRun) {
  // 200 steps of the 86-block wall on its moving table, checkpoints at steps 50, 100, 150, 200;
  // restarted from step 100, on one thread where the first run used all cores
  expect_restart_equals_uninterrupted("wall", "scenes/wall_shaking_table.json", "0.2", "0.05", 100,
                                      "wall_shaking_table.pvd");
}

TEST(Checkpoint, FfrBlocksRestartedMidRunEqualTheUninterruptedRun) {
  // the paper's three FFR blocks (nodal ψ, λ in the state), 200 steps, restarted from step 100
  expect_restart_equals_uninterrupted("ffr", "scenes/ffr_three_blocks.json", "0.02", "0.005", 100,
                                      "ffr_three_blocks.pvd");
}

TEST(Checkpoint, ModalFfrBlocksRestartedMidRunEqualTheUninterruptedRun) {
  // the same blocks with 12 elastic modes each (modal ξ, η in the state), restarted from step 100
  expect_restart_equals_uninterrupted("modal", "scenes/ffr_three_blocks.json", "0.02", "0.005", 100,
                                      "ffr_three_blocks.pvd", " --modes 12");
}

TEST(Checkpoint, TlBlocksRestartedMidRunEqualTheUninterruptedRun) {
  // the same blocks as Total Lagrangian bodies (absolute nodal state), 20 steps, restarted at 10
  expect_restart_equals_uninterrupted("tl", "scenes/ffr_three_blocks.json", "0.002", "0.001", 10,
                                      "ffr_three_blocks.pvd", " --model tl");
}

TEST(Checkpoint, CohesiveBondsRestartedBeforeAndAfterTheyBreakEqualTheUninterruptedRun) {
  // a block glued on a fixed slab (c A = m g, μ = 0.5) pushed by a force ramping to twice
  // c A + μ m g over 0.25 s: its four bonds break at step 126. Restarted from step 100 (bonds
  // intact in the checkpoint) and from step 150 (bonds broken: frictional with μ_res)
  const fs::path dir = fresh_dir("checkpoint_glued_scene");
  const fs::path scene = dir / "glued.json";
  std::ofstream(scene) << R"({
  "time": {"step": 0.001, "duration": 0.2},
  "materials": {"stone": {"density": 1000}},
  "interactions": [{"materials": ["stone", "stone"], "friction": 0.5, "tensile_strength": 1e4, "cohesion": 1962,
                    "residual_friction": 0.3}],
  "bodies": [
    {"name": "slab", "model": "fixed", "material": "stone", "shape": {"box": [4, 4, 1]}, "position": [0, 0, -0.5]},
    {"name": "block", "model": "rigid", "material": "stone", "shape": {"box": [1, 1, 0.2]}, "position": [0, 0, 0.1]}],
  "loads": [{"bodies": ["block"], "force": [5886, 0, 0], "time": {"type": "ramp", "start": 0, "end": 0.25}}]
})";
  expect_restart_equals_uninterrupted("glued_intact", scene.string(), "0.2", "0.05", 100, "glued.pvd");
  expect_restart_equals_uninterrupted("glued_broken", scene.string(), "0.2", "0.05", 150, "glued.pvd");
  const std::string history = read_text(dir.parent_path() / "nscd_test_cli_checkpoint_glued_broken" / "full" / "history.csv");
  EXPECT_NE(history.find(",0,4,"), std::string::npos) << "the bonds break during the run";
}

TEST(Checkpoint, OnlyTheNewestThreeAreKept) {
  const fs::path dir = fresh_dir("checkpoint_keep");
  const Result r = run_nscd("run scenes/incline.json --quiet --duration 0.01 --checkpoint-interval 0.001 --out " +
                            dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> names = checkpoints_in(dir);
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names.back(), fmt_checkpoint(10));  // the one at the end of the run
}

TEST(Checkpoint, AnotherScenesOrACorruptedCheckpointIsRefusedWithCode2) {
  const fs::path dir = fresh_dir("checkpoint_refused");
  ASSERT_EQ(run_nscd("run scenes/incline.json --quiet --duration 0.01 --checkpoint-interval 0.005 --out " +
                     (dir / "incline").string())
                .exit_code,
            0);
  const fs::path checkpoint = dir / "incline" / fmt_checkpoint(10);
  // another scene with as many bodies: refused by its SHA-256
  const Result other = run_nscd("run scenes/sphere_bounce.json --out " + (dir / "other").string() +
                                " --restart " + checkpoint.string());
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_NE(other.output.find(checkpoint.string()), std::string::npos) << other.output;
  EXPECT_FALSE(fs::exists(dir / "other" / "run.json"));
  // not an HDF5 file, and a checkpoint cut in half
  const fs::path garbage = dir / "garbage.h5", truncated = dir / "truncated.h5";
  std::ofstream(garbage) << "not a checkpoint";
  fs::copy_file(checkpoint, truncated);
  fs::resize_file(truncated, fs::file_size(checkpoint) / 2);
  for (const fs::path& bad : {garbage, truncated, dir / "missing.h5"}) {
    const Result r = run_nscd("run scenes/incline.json --out " + (dir / "incline").string() + " --restart " +
                              bad.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(bad.string()), std::string::npos) << r.output;
  }
  // the refused restarts lost nothing: the run's checkpoint still restarts it
  EXPECT_EQ(run_nscd("run scenes/incline.json --quiet --duration 0.01 --out " + (dir / "incline").string() +
                     " --restart " + checkpoint.string())
                .exit_code,
            0);
}

}  // namespace
}  // namespace nscd::cli_test
