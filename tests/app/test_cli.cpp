// The `nscd` program as a user runs it: output files of docs/output.md, exit codes of docs/commands.md.

#include "run_nscd.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

namespace {

using namespace nscd::cli_test;

fs::path write_scene(const fs::path& dir, const std::string& json) {
  const fs::path file = dir / "scene.json";
  std::ofstream(file) << json;
  return file;
}

// one box on a fixed ground: a minimal valid scene; `extra_body` is spliced into the body list
std::string box_scene(const std::string& box_extra = "", const std::string& density = "1000") {
  return R"({
    "name": "box",
    "time": {"step": 1e-3, "duration": 0.01, "output_every": 5},
    "materials": {"stone": {"density": )" + density + R"(}},
    "interactions": [{"materials": ["stone", "stone"], "friction": 0.5}],
    "bodies": [
      {"name": "ground", "model": "fixed", "material": "stone", "shape": {"box": [4, 4, 1]}, "position": [0, 0, -0.5]},
      {"name": "block", "model": "rigid", "material": "stone", "shape": {"box": [1, 1, 1]},
       "position": [0, 0, 0.5])" + box_extra + R"(}
    ],
    "probes": [{"name": "top", "body": "block", "point": [0, 0, 1]}]
  })";
}

TEST(Cli, RunWritesEveryOutputFileOfTheContract) {
  const fs::path dir = fresh_dir("run");
  const fs::path scene = write_scene(dir, box_scene());
  const Result r = run_nscd("run " + scene.string() + " --out " + (dir / "out").string() + " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const fs::path out = dir / "out";
  for (const char* file : {"box.pvd", "bodies_000000.vtu", "bodies_000002.vtu", "contacts_000000.vtp",
                           "contacts_000002.vtp", "fixed.vtu", "history.csv", "bodies.csv", "probes.csv", "run.json"})
    EXPECT_TRUE(fs::exists(out / file)) << file;
  // outputs at t = 0, 0.005 and the final time 0.01: three outputs, not four
  EXPECT_FALSE(fs::exists(out / "bodies_000003.vtu"));

  const std::string history = read_text(out / "history.csv");
  EXPECT_EQ(history.substr(0, history.find('\n')),
            "step,time,kinetic_energy,potential_energy,n_contacts,solver_iterations,solver_error,inner_iterations,"
            "wall_seconds");
  EXPECT_EQ(std::count(history.begin(), history.end(), '\n'), 11);  // header + 10 steps

  const nlohmann::json run = nlohmann::json::parse(read_text(out / "run.json"));
  EXPECT_EQ(run["status"], "completed");
  EXPECT_EQ(run["steps"], 10);
  EXPECT_EQ(run["scene_sha256"].get<std::string>().size(), 64u);
  for (const char* stage : {"detection", "assembly", "solve", "update", "output"})
    EXPECT_TRUE(run["stage_seconds"].contains(stage)) << stage;
}

TEST(Cli, InvalidSceneExitsWithCode2AndNamesTheJsonPath) {
  const fs::path dir = fresh_dir("invalid");
  const fs::path scene = write_scene(dir, box_scene(R"(, "velocity": "fast")"));
  const Result r = run_nscd("run " + scene.string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("bodies[1].velocity"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("scene.json"), std::string::npos) << r.output;
}

TEST(Cli, BadCommandLineExitsWithCode2) {
  EXPECT_EQ(run_nscd("run").exit_code, 2);
  EXPECT_EQ(run_nscd("run scenes/default.json --threads many").exit_code, 2);
  EXPECT_EQ(run_nscd("frobnicate").exit_code, 2);
  const Result missing = run_nscd("run /nonexistent/scene.json");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("/nonexistent/scene.json"), std::string::npos) << missing.output;
}

TEST(Cli, SolverOverrideRunsTheSceneAndIsRecorded) {
  const fs::path dir = fresh_dir("solver");
  const fs::path scene = write_scene(dir, box_scene());
  for (const std::string solver : {"ccp", "lcp", "nsn", "prox"}) {
    const Result r = run_nscd("run " + scene.string() + " --quiet --solver " + solver + " --out " + (dir / solver).string());
    ASSERT_EQ(r.exit_code, 0) << solver << ": " << r.output;
    const nlohmann::json run = nlohmann::json::parse(read_text(dir / solver / "run.json"));
    EXPECT_EQ(run["solver"], solver);
    EXPECT_EQ(run["status"], "completed") << solver;
  }
  const Result bad = run_nscd("run " + scene.string() + " --solver gauss --out " + (dir / "bad").string());
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("nlgs, ccp, lcp, nsn, prox"), std::string::npos) << bad.output;
}

TEST(Cli, OverlappingBodiesAtStartAreRefusedWithTheirNamesAndDepth) {
  // the block's centre 0.2 m above the ground's top face: 0.3 m inside it
  const fs::path dir = fresh_dir("overlap");
  std::string json = box_scene();
  json.replace(json.find("[0, 0, 0.5]"), 11, "[0, 0, 0.2]");
  const fs::path scene = write_scene(dir, json);
  for (const std::string& command : {"validate " + scene.string(), "run " + scene.string() + " --out " + (dir / "out").string()}) {
    const Result r = run_nscd(command);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("bodies[0] \"ground\" and bodies[1] \"block\" overlap by 0.3 m"), std::string::npos)
        << r.output;
  }
  EXPECT_FALSE(fs::exists(dir / "out" / "run.json"));  // refused before anything is written
}

TEST(Cli, NonFiniteStateStopsWithCode3AndReadableOutput) {
  // ω = 1e300 rad/s on a body of inertia ~1e9 kg m²: the angular momentum overflows to inf
  const fs::path dir = fresh_dir("nonfinite");
  const fs::path scene = write_scene(dir, box_scene(R"(, "angular_velocity": [1e300, 0, 0])", "1e10"));
  const Result r = run_nscd("run " + scene.string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("block"), std::string::npos) << r.output;
  const nlohmann::json run = nlohmann::json::parse(read_text(dir / "out" / "run.json"));
  EXPECT_EQ(run["status"], "non_finite");
  EXPECT_TRUE(fs::exists(dir / "out" / "box.pvd"));
}

TEST(Cli, ValidatePrintsASummaryWithoutSimulating) {
  const fs::path dir = fresh_dir("validate");
  const fs::path scene = write_scene(dir, box_scene());
  const Result r = run_nscd("validate " + scene.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("bodies: 2 (1 fixed, 1 rigid)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("degrees of freedom: 6"), std::string::npos) << r.output;
  // the resting block touches the ground on its four bottom corners
  EXPECT_NE(r.output.find(": 4"), std::string::npos) << r.output;
}

TEST(Cli, ValidateShowsTheSolversMinimumSweeps) {
  const fs::path dir = fresh_dir("validate_min_sweeps");
  std::string json = box_scene();
  json.replace(json.find(R"("materials")"), 0, R"("solver": {"type": "nlgs", "min_iterations": 10}, )");
  const Result r = run_nscd("validate " + write_scene(dir, json).string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("at most 1000 iterations, at least 10 sweeps"), std::string::npos) << r.output;
}

TEST(Cli, SolvePrintsOneLineAndWritesTheSolution) {
  const fs::path problem = fs::path(NSCD_TEST_DATA_DIR) / "fclib" / "Capsules-i100-1090.hdf5";
  const fs::path dir = fresh_dir("solve");
  const Result r = run_nscd("solve " + problem.string() + " --tolerance 1e-6 --solution " +
                            (dir / "solution.hdf5").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // the line of docs/commands.md: contacts, solver, iterations, error, seconds, status
  for (const char* field : {"contacts 276", "solver nlgs", "iterations ", "error ", "seconds ", "status converged"})
    EXPECT_NE(r.output.find(field), std::string::npos) << field << " in " << r.output;
  EXPECT_TRUE(fs::exists(dir / "solution.hdf5"));
  // the written file is itself an FCLIB local problem that nscd reads and solves
  const Result again = run_nscd("solve " + (dir / "solution.hdf5").string() + " --tolerance 1e-6");
  EXPECT_EQ(again.exit_code, 0) << again.output;
}

TEST(Cli, DumpedStepProblemsReplayWithSolve) {
  const fs::path dir = fresh_dir("dump");
  std::string json = box_scene();
  json.insert(json.find("\"time\""), R"("solver": {"dump_every": 5, "tolerance": 1e-8}, )");
  const fs::path scene = write_scene(dir, json);
  const Result r = run_nscd("run " + scene.string() + " --out " + (dir / "out").string() + " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // steps 5 and 10 of 10
  EXPECT_TRUE(fs::exists(dir / "out" / "problem_000005.hdf5"));
  EXPECT_TRUE(fs::exists(dir / "out" / "problem_000010.hdf5"));
  EXPECT_FALSE(fs::exists(dir / "out" / "problem_000001.hdf5"));
  // the resting block's four corner contacts, solved again from scratch to the same tolerance
  const Result solved = run_nscd("solve " + (dir / "out" / "problem_000010.hdf5").string() + " --tolerance 1e-8");
  EXPECT_EQ(solved.exit_code, 0) << solved.output;
  EXPECT_NE(solved.output.find("contacts 4 "), std::string::npos) << solved.output;
  EXPECT_NE(solved.output.find("status converged"), std::string::npos) << solved.output;
}

TEST(Cli, SolveRejectsBadFilesAndOptionsWithCode2) {
  EXPECT_EQ(run_nscd("solve /nonexistent/problem.hdf5").exit_code, 2);
  const Result not_hdf5 = run_nscd("solve " + std::string(NSCD_SOURCE_DIR) + "/README.md");
  EXPECT_EQ(not_hdf5.exit_code, 2);
  EXPECT_NE(not_hdf5.output.find("not an HDF5 file"), std::string::npos) << not_hdf5.output;
  EXPECT_EQ(run_nscd("solve x.hdf5 --tolerance -1").exit_code, 2);
}

TEST(Cli, VersionAndHelpExitWithZero) {
  EXPECT_EQ(run_nscd("--version").exit_code, 0);
  EXPECT_EQ(run_nscd("--help").exit_code, 0);
}

}  // namespace
