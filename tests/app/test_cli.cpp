// The `nscd` program as a user runs it: output files of docs/output.md, exit codes of docs/commands.md.

#include "nscd/io/fclib_file.hpp"
#include "run_nscd.hpp"
#include "solvers/solve.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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
            "step,time,kinetic_energy,potential_energy,n_contacts,max_penetration,solver_iterations,solver_error,"
            "inner_iterations,solver_stage,solver_factorizations,gravitational_energy,elastic_energy,"
            "friction_dissipated,impact_dissipated,damping_dissipated,driven_work,load_work,projection_work,energy_error,"
            "bonds_intact,bonds_broken,wall_seconds");
  EXPECT_EQ(std::count(history.begin(), history.end(), '\n'), 11);  // header + 10 steps

  const nlohmann::json run = nlohmann::json::parse(read_text(out / "run.json"));
  EXPECT_EQ(run["status"], "completed");
  EXPECT_EQ(run["steps"], 10);
  EXPECT_EQ(run["scene_sha256"].get<std::string>().size(), 64u);
  // the VTK found at configure time: libvtk9-dev's or ParaView's (cmake/nscd_vtk_origin.cmake)
  EXPECT_EQ(run["vtk"]["version"], NSCD_VTK_VERSION);
  EXPECT_EQ(run["vtk"]["origin"], NSCD_VTK_ORIGIN);
  for (const char* stage : {"free_motion", "detection", "assembly", "solve", "update", "output"})
    EXPECT_TRUE(run["stage_seconds"].contains(stage)) << stage;
}

// a ball resting on the ground with an overlap of 1e-4 m at t = 0 (accepted: below 1e-3 of its diameter, 0.2 m),
// run against a bound below it and one above it; the overlap is in the first step's contacts whatever the
// contact law does with it afterwards
TEST(Cli, AnOverlapBeyondTheScenesBoundWarnsOnceAndIsRecorded) {
  const fs::path dir = fresh_dir("penetration");
  const auto scene = [&](const std::string& bound) {
    return write_scene(dir, R"({
      "name": "ball",
      "time": {"step": 1e-3, "duration": 0.01},
      "detection": {"max_penetration": )" + bound + R"(},
      "materials": {"stone": {"density": 1000}},
      "interactions": [{"materials": ["stone", "stone"], "friction": 0.5}],
      "bodies": [
        {"name": "ground", "model": "fixed", "material": "stone", "shape": {"box": [4, 4, 1]}, "position": [0, 0, -0.5]},
        {"name": "ball", "model": "rigid", "material": "stone", "shape": {"sphere": 0.1}, "position": [0, 0, 0.0999]}
      ]
    })");
  };
  const auto count = [](const std::string& text, const std::string& what) {
    long n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  const std::string warning = "more than detection.max_penetration";
  // round-off of the position 0.0999 and of the gap, far below the 1e-4 m overlap
  constexpr double kTolerance = 1e-12;

  const fs::path over = dir / "over";
  const Result r = run_nscd("run " + scene("5e-5").string() + " --out " + over.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(count(r.output, warning), 1) << r.output;
  EXPECT_NE(r.output.find("t = 0: two bodies overlap by 0.0001 m, more than detection.max_penetration = 5e-05 m"),
            std::string::npos)
      << r.output;
  const nlohmann::json run = nlohmann::json::parse(read_text(over / "run.json"));
  EXPECT_NEAR(run["max_penetration"]["deepest"].get<double>(), 1e-4, kTolerance);
  EXPECT_EQ(run["max_penetration"]["time"], 0.0);
  EXPECT_EQ(run["max_penetration"]["bound"], 5e-5);
  // every step over the bound is counted, as history.csv shows them
  const std::string history = read_text(over / "history.csv");
  long rows_over = 0;
  for (auto line = history.find('\n') + 1; line < history.size(); line = history.find('\n', line) + 1) {
    auto field = line;
    for (int column = 0; column < 5; ++column) field = history.find(',', field) + 1;  // max_penetration
    if (std::stod(history.substr(field)) > 5e-5) ++rows_over;
  }
  EXPECT_GE(rows_over, 1);
  EXPECT_EQ(run["max_penetration"]["steps_over_bound"], rows_over);

  const fs::path under = dir / "under";
  const Result quiet = run_nscd("run " + scene("2e-4").string() + " --out " + under.string());
  ASSERT_EQ(quiet.exit_code, 0) << quiet.output;
  EXPECT_EQ(quiet.output.find("warning"), std::string::npos) << quiet.output;
  const nlohmann::json quiet_run = nlohmann::json::parse(read_text(under / "run.json"));
  EXPECT_NEAR(quiet_run["max_penetration"]["deepest"].get<double>(), 1e-4, kTolerance);
  EXPECT_EQ(quiet_run["max_penetration"]["steps_over_bound"], 0);
}

TEST(Cli, ARerunIntoAnEarlierRunsDirectoryIsRefusedWithoutOverwrite) {
  const fs::path dir = fresh_dir("rerun");
  const fs::path scene = write_scene(dir, box_scene());
  const fs::path out = dir / "out";
  ASSERT_EQ(run_nscd("run " + scene.string() + " --out " + out.string() + " --quiet").exit_code, 0);
  ASSERT_TRUE(fs::exists(out / "bodies_000002.vtu"));
  std::ofstream(out / "notes.txt") << "the user's own file";
  std::ofstream(out / "my_table.csv") << "a,b\n";

  const Result refused = run_nscd("run " + scene.string() + " --out " + out.string() + " --duration 0.005");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("nscd: error: " + out.string() + ": holds the output of an earlier run"),
            std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("--overwrite"), std::string::npos) << refused.output;
  EXPECT_TRUE(fs::exists(out / "bodies_000002.vtu"));  // nothing touched

  // a shorter re-run with --overwrite: outputs at t = 0 and 0.005 only, no stale third frame
  const Result rerun =
      run_nscd("run " + scene.string() + " --out " + out.string() + " --duration 0.005 --overwrite --quiet");
  ASSERT_EQ(rerun.exit_code, 0) << rerun.output;
  EXPECT_TRUE(fs::exists(out / "bodies_000001.vtu"));
  EXPECT_FALSE(fs::exists(out / "bodies_000002.vtu"));
  EXPECT_FALSE(fs::exists(out / "contacts_000002.vtp"));
  EXPECT_FALSE(fs::exists(out / "joints_000002.vtp"));
  EXPECT_EQ(read_text(out / "box.pvd").find("bodies_000002.vtu"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(read_text(out / "run.json"))["steps"], 5);
  // files nscd does not write are kept
  EXPECT_EQ(read_text(out / "notes.txt"), "the user's own file");
  EXPECT_TRUE(fs::exists(out / "my_table.csv"));
  // --overwrite contradicts --restart, which continues the output in the directory
  EXPECT_EQ(run_nscd("run " + scene.string() + " --out " + out.string() + " --overwrite --restart x.h5").exit_code, 2);
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
  // CLI11's own errors, with the prefix of every error
  const Result not_a_number = run_nscd("run scenes/default.json --duration abc");
  EXPECT_EQ(not_a_number.exit_code, 2);
  EXPECT_EQ(not_a_number.output.rfind("nscd: error: Could not convert: --duration = abc", 0), 0u)
      << not_a_number.output;
  const Result missing_scene = run_nscd("validate");
  EXPECT_EQ(missing_scene.exit_code, 2);
  EXPECT_EQ(missing_scene.output.rfind("nscd: error: ", 0), 0u) << missing_scene.output;
  EXPECT_NE(missing_scene.output.find("nscd validate --help"), std::string::npos) << missing_scene.output;
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

TEST(Cli, ValidateSummarisesTheLoads) {
  const fs::path dir = fresh_dir("validate_loads");
  std::string json = box_scene();
  json.replace(json.find(R"("materials")"), 0,
               R"("loads": [{"bodies": ["block"], "force": [10, 0, 0], "time": {"type": "ramp", "start": 0, "end": 1e6}}], )");
  const Result r = run_nscd("validate " + write_scene(dir, json).string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // the ramp reaches 1 only at 10⁶ s: over the scene's run it stays far below
  EXPECT_NE(r.output.find("loads[0]: on 1 body, force (10, 0, 0) N, time factor at most "), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("time factor at most 1 over"), std::string::npos) << r.output;
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
  // the line of docs/commands.md: contacts, solver, iterations, error, seconds, status, stage
  for (const char* field :
       {"contacts 276", "solver auto", "iterations ", "error ", "seconds ", "status converged", "  stage "})
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

TEST(Cli, StepsWithoutContactsAreNotDumped) {
  const fs::path dir = fresh_dir("dump_free_flight");
  std::string json = box_scene();
  json.insert(json.find("\"time\""), R"("solver": {"dump_every": 1}, )");
  // the block starts 1.5 m above the ground: no contact in the 10 steps (it falls 0.5 mm)
  json.replace(json.find("[0, 0, 0.5]"), 11, "[0, 0, 2.0]");
  const Result r = run_nscd("run " + write_scene(dir, json).string() + " --out " + (dir / "out").string() + " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "problem_000001.hdf5"));
  EXPECT_NE(read_text(dir / "out" / "run.json").find("\"status\": \"completed\""), std::string::npos);
}

TEST(Cli, SolveMeasuresTheErrorAsAsked) {
  // one symmetric NLGS sweep from r = 0 on the stack of ten boxes dumped from scenes/stack10.json:
  // the same impulses, measured in N s (siconos) or as velocities (velocity), as the library
  // measures them; boxes of 1 t make the two differ
  const fs::path problem = fs::path(NSCD_TEST_DATA_DIR) / "fclib" / "nscd_stack10_step600.hdf5";
  const nscd::io::FclibProblem read = nscd::io::read_fclib_problem(problem);
  nscd::solvers::SolverOptions options = nscd::solvers::parse_solver_variant("nlgs", "--solver");
  options.stopping() = {1e-30, 1};
  std::vector<double> expected;
  for (const auto& [scaling, name] : {std::pair{nscd::solvers::ErrorScaling::Siconos, "siconos"},
                                      std::pair{nscd::solvers::ErrorScaling::Velocity, "velocity"}}) {
    nscd::solvers::FrictionProblem p = read.problem;
    p.error_scaling = scaling;
    expected.push_back(nscd::solvers::solve(p, options, Eigen::VectorXd()).error);
    const Result r = run_nscd("solve " + problem.string() +
                              " --solver nlgs --max-iterations 1 --tolerance 1e-30 --error-measure " + name);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::size_t at = r.output.find("error ");
    ASSERT_NE(at, std::string::npos) << r.output;
    // printed with four significant digits
    EXPECT_NEAR(std::stod(r.output.substr(at + 6)), expected.back(), 1e-3 * expected.back()) << name;
  }
  EXPECT_GT(std::abs(expected[0] - expected[1]), 0.1 * expected[0]);
  const Result bad = run_nscd("solve x.hdf5 --error-measure joules");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("--error-measure joules: expected siconos or velocity"), std::string::npos) << bad.output;
}

TEST(Cli, SolveRejectsBadFilesAndOptionsWithCode2) {
  EXPECT_EQ(run_nscd("solve /nonexistent/problem.hdf5").exit_code, 2);
  const Result not_hdf5 = run_nscd("solve " + std::string(NSCD_SOURCE_DIR) + "/README.md");
  EXPECT_EQ(not_hdf5.exit_code, 2);
  EXPECT_NE(not_hdf5.output.find("not an HDF5 file"), std::string::npos) << not_hdf5.output;
  EXPECT_EQ(run_nscd("solve x.hdf5 --tolerance -1").exit_code, 2);
  const Result depth = run_nscd("solve x.hdf5 --anderson-depth 17");
  EXPECT_EQ(depth.exit_code, 2);
  EXPECT_NE(depth.output.find("--anderson-depth 17: expected an integer in [0, 16]"), std::string::npos)
      << depth.output;
}

TEST(Cli, SolveMixesTheSweepsUnlessTheDepthIsZero) {
  // the stack of ten boxes dumped from scenes/stack10.json: NLGS reaches 1e-8 in 193 sweeps with
  // the default mixing, and stays above it after 2 000 plain sweeps (15 431 needed)
  const fs::path problem = fs::path(NSCD_TEST_DATA_DIR) / "fclib" / "nscd_stack10_step600.hdf5";
  const std::string solve = "solve " + problem.string() + " --solver nlgs --tolerance 1e-8 --max-iterations 2000";
  const Result mixed = run_nscd(solve);
  EXPECT_NE(mixed.output.find("status converged"), std::string::npos) << mixed.output;
  const Result plain = run_nscd(solve + " --anderson-depth 0");
  EXPECT_NE(plain.output.find("status max_iterations"), std::string::npos) << plain.output;
}

TEST(Cli, VersionAndHelpExitWithZero) {
  EXPECT_EQ(run_nscd("--version").exit_code, 0);
  EXPECT_EQ(run_nscd("--help").exit_code, 0);
}

}  // namespace

namespace {

// an FFR block on the ground, of Young's modulus `young` [Pa]
std::string ffr_block_scene(const std::string& young, const std::string& duration) {
  return R"({
    "name": "soft",
    "time": {"step": 1e-3, "duration": )" + duration + R"(, "output_every": 5},
    "materials": {"stone": {"density": 2500, "young": )" + young + R"(, "poisson": 0.2}},
    "interactions": [{"materials": ["stone", "stone"], "friction": 0.5}],
    "bodies": [
      {"name": "ground", "model": "fixed", "material": "stone", "shape": {"box": [4, 4, 1]}, "position": [0, 0, -0.5]},
      {"name": "block", "model": "ffr", "material": "stone", "shape": {"box": [1, 1, 1]}, "elements": [2, 2, 2],
       "position": [0, 0, 0.5]}
    ]
  })";
}

TEST(Cli, ModelOverrideMeshesRigidBodiesOnceTheirMaterialIsElastic) {
  const fs::path dir = fresh_dir("model_override");
  const std::string ball = R"(,
      {"name": "ball", "model": "rigid", "material": "stone", "shape": {"sphere": 0.2}, "position": [2, 0, 0.2]})";
  std::string json = box_scene();
  json.insert(json.find("\n    ],"), ball);
  const fs::path scene = write_scene(dir, json);
  for (const char* model : {"ffr", "tl", "linear"}) {
    const Result r = run_nscd("run " + scene.string() + " --model " + model + " --out " + (dir / "out").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(std::string("--model ") + model + ": \"block\", \"ball\" of material \"stone\""),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("needs \"young\" [Pa] and \"poisson\""), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir / "out" / "run.json"));
  }
  // rigid is what they are already
  EXPECT_EQ(run_nscd("run " + scene.string() + " --model rigid --quiet --out " + (dir / "out").string()).exit_code, 0);

  // with Young's modulus and Poisson's ratio, the box and the sphere are meshed into tetrahedra
  std::string elastic = box_scene(R"(, "mesh_size": 0.5)", R"(1000, "young": 1e9, "poisson": 0.2)");
  elastic.insert(elastic.find("\n    ],"), ball);
  const fs::path elastic_scene = write_scene(dir, elastic);
  for (const char* model : {"ffr", "tl", "linear"}) {
    const fs::path out = dir / (std::string("out_") + model);
    const Result r = run_nscd("run " + elastic_scene.string() + " --model " + model + " --quiet --out " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(read_text(out / "bodies_000000.vtu").find("NumberOfCells"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(read_text(out / "run.json"))["status"], "completed");
  }
  // the laws of rigid bodies only: cohesion (and likewise rolling resistance) refuses the switch
  const std::string friction = R"("friction": 0.5})";
  elastic.replace(elastic.find(friction), friction.size(), R"("friction": 0.5, "cohesion": 1e4})");
  const Result glued = run_nscd("run " + write_scene(dir, elastic).string() + " --model ffr --out " +
                                (dir / "out_glued").string());
  EXPECT_EQ(glued.exit_code, 2) << glued.output;
  EXPECT_NE(glued.output.find("--model ffr: interactions[0] of"), std::string::npos) << glued.output;
  EXPECT_NE(glued.output.find("has rolling resistance or cohesion"), std::string::npos) << glued.output;
  EXPECT_FALSE(fs::exists(dir / "out_glued"));
}

TEST(Cli, ModelOverrideOfASceneWithoutMovingBodiesIsRefused) {
  const fs::path dir = fresh_dir("model_fixed_only");
  const fs::path scene = write_scene(dir, R"({
    "time": {"step": 1e-3, "duration": 0.01},
    "materials": {"stone": {"density": 1000, "young": 1e9, "poisson": 0.2}},
    "bodies": [{"name": "ground", "model": "fixed", "material": "stone", "shape": {"box": [4, 4, 1]}}]
  })");
  const Result r = run_nscd("run " + scene.string() + " --model ffr --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--model ffr: " + scene.string() + " has no rigid, ffr, tl or linear body"),
            std::string::npos)
      << r.output;
}

// issue 17: every voussoir of the arch (convex polyhedra) meshed with the default size and
// simulated as FFR, one step
TEST(Cli, ModelFfrRunsTheArchOfConvexVoussoirs) {
  const fs::path dir = fresh_dir("arch_ffr");
  const Result r = run_nscd("run scenes/arch.json --model ffr --duration 0.001 --quiet --out " + (dir / "out").string(),
                            NSCD_SOURCE_DIR);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string history = read_text(dir / "out" / "history.csv");
  EXPECT_EQ(std::count(history.begin(), history.end(), '\n'), 2);  // header + 1 step
  // the voussoirs' tetrahedra: VTK_TETRA (10) cells in the bodies' file
  EXPECT_NE(read_text(dir / "out" / "bodies_000001.vtu").find("NumberOfCells"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(read_text(dir / "out" / "run.json"))["status"], "completed");
}

TEST(Cli, MeshSizesGivingTooManyTetrahedraExitWithCode2) {
  const fs::path dir = fresh_dir("mesh_size");
  const fs::path scene = write_scene(dir, box_scene(R"(, "mesh_size": 1e-4)", R"(1000, "young": 1e9, "poisson": 0.2)"));
  const Result r = run_nscd("run " + scene.string() + " --model ffr --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(scene.string() + ": bodies[1].mesh_size: 0.0001 m gives about 8.49e+12 tetrahedra for "
                                           "body \"block\"; expected at most 1e+06 per body"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "run.json"));
}

// the modal reduction's number of modes (issue 17): --modes, the body's and the material's
// "modes"; a bad one exits with code 2 naming where it comes from
TEST(Cli, ModesBeyondTheMeshOrWithoutFfrBodiesExitWithCode2) {
  const fs::path dir = fresh_dir("modes");
  const std::string plain = ffr_block_scene("1e9", "0.01");
  const auto with = [&plain](const std::string& body_modes, const std::string& material_modes) {
    std::string json = plain;
    const std::string elements = R"("elements": [2, 2, 2])", poisson = R"("poisson": 0.2)";
    json.insert(json.find(elements) + elements.size(), body_modes);
    json.insert(json.find(poisson) + poisson.size(), material_modes);
    return json;
  };
  const auto expect_error = [&](const std::string& json, const std::string& options, const std::string& message) {
    const Result r = run_nscd("run " + write_scene(dir, json).string() + options + " --out " + (dir / "out").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir / "out" / "run.json"));
  };
  // the 2 × 2 × 2 block has 27 nodes: at most 81 − 7 = 74 modes
  expect_error(plain, " --modes 75",
               "--modes 75: body \"block\": 75 modes for a mesh of 27 nodes; expected 1 to 74 (3 × nodes − 7)");
  expect_error(plain, " --modes -1", "--modes -1: expected a number of modes ≥ 0");
  expect_error(plain, " --model rigid --modes 6", " has no ffr body (add --model ffr)");
  expect_error(with(R"(, "modes": 80)", ""), "",
               "bodies[1].modes: body \"block\": 80 modes for a mesh of 27 nodes; expected 1 to 74");
  expect_error(with("", R"(, "modes": 100)"), "",
               ": materials.stone.modes: body \"block\": 100 modes for a mesh of 27 nodes");
  // the body's number wins over the material's; validate names the modes kept
  const fs::path good = write_scene(dir, with(R"(, "modes": 6)", R"(, "modes": 100)"));
  const Result validated = run_nscd("validate " + good.string());
  ASSERT_EQ(validated.exit_code, 0) << validated.output;
  EXPECT_NE(validated.output.find("1 of 1 bodies reduced to 6 elastic modes (highest kept frequency"),
            std::string::npos)
      << validated.output;
  EXPECT_NE(validated.output.find("\"block\" (ffr, 6 modes): highest kept natural frequency"), std::string::npos)
      << validated.output;
  EXPECT_EQ(run_nscd("run " + good.string() + " --quiet --out " + (dir / "out").string()).exit_code, 0);
}

// the static correction of the joints: a bad value exits with code 2 naming the key; validate
// counts the corrections (the 2 × 2 × 2 block rests on the ground on the 9 nodes of its base)
TEST(Cli, StaticCorrectionOfTheJoints) {
  const fs::path dir = fresh_dir("static_correction");
  std::string json = ffr_block_scene("1e9", "0.01");
  const std::string elements = R"("elements": [2, 2, 2])";
  json.insert(json.find(elements) + elements.size(), R"(, "modes": 6, "static_correction": "joint")");
  const Result bad = run_nscd("run " + write_scene(dir, json).string() + " --out " + (dir / "out").string());
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("bodies[1].static_correction: expected one of \"none\", \"joints\", found \"joint\"; "
                            "did you mean \"joints\"?"),
            std::string::npos)
      << bad.output;
  json.replace(json.find("\"joint\""), 7, "\"joints\"");
  const Result validated = run_nscd("validate " + write_scene(dir, json).string());
  ASSERT_EQ(validated.exit_code, 0) << validated.output;
  EXPECT_NE(validated.output.find("\"block\" (ffr, 6 modes + 9 static corrections): highest kept"), std::string::npos)
      << validated.output;
  const fs::path scene = write_scene(dir, ffr_block_scene("1e9", "0.01"));
  const Result option = run_nscd("run " + scene.string() + " --modes 6 --static-correction edges --out " +
                                 (dir / "out").string());
  EXPECT_EQ(option.exit_code, 2) << option.output;
  EXPECT_NE(option.output.find("--static-correction edges: expected none or joints"), std::string::npos)
      << option.output;
  EXPECT_EQ(run_nscd("run " + scene.string() + " --modes 6 --static-correction joints --quiet --out " +
                     (dir / "out").string())
                .exit_code,
            0);
}

// the contact surface of ffr bodies: a bad value of the key or the option exits with code 2
// naming it; "shape" on a body not meshed from a box or convex shape (a sphere) names the body;
// the block on the ground runs on its shape's faces: 4 contact points (history.csv's n_contacts)
TEST(Cli, ContactSurfaceOfFfrBodies) {
  const fs::path dir = fresh_dir("contact_surface");
  const std::string plain = ffr_block_scene("1e9", "0.01");
  const std::string elements = R"("elements": [2, 2, 2])";
  const auto expect_error = [&](const std::string& json, const std::string& options, const std::string& message) {
    const Result r = run_nscd("run " + write_scene(dir, json).string() + options + " --out " + (dir / "out").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir / "out" / "run.json"));
  };
  std::string json = plain;
  json.insert(json.find(elements) + elements.size(), R"(, "contact_surface": "faces")");
  expect_error(json, "", "bodies[1].contact_surface: expected one of \"mesh\", \"shape\", found \"faces\"");
  expect_error(plain, " --contact-surface face", "--contact-surface face: expected mesh or shape");
  expect_error(plain, " --model rigid --contact-surface shape", " has no ffr body (add --model ffr)");
  const std::string ball = R"(,
      {"name": "ball", "model": "ffr", "material": "stone", "shape": {"sphere": 0.3}, "position": [2, 0, 0.3]})";
  std::string with_ball = plain;
  with_ball.insert(with_ball.find("\n    ]"), ball);
  expect_error(with_ball, " --contact-surface shape",
               "--contact-surface shape: body \"ball\": \"contact_surface\": \"shape\" needs a mesh made from a box "
               "or a convex shape, found a sphere");
  const Result r = run_nscd("run " + write_scene(dir, plain).string() + " --contact-surface shape --out " +
                            (dir / "out").string() + " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json run = nlohmann::json::parse(read_text(dir / "out" / "run.json"));
  EXPECT_EQ(run["non_converged_steps"], 0);
  std::istringstream history(read_text(dir / "out" / "history.csv"));
  std::string line, last;
  while (std::getline(history, line)) last = line;
  for (int column = 0; column < 4; ++column) last.erase(0, last.find(',') + 1);
  EXPECT_EQ(last.substr(0, last.find(',')), "4") << last;
}

// how modal ffr bodies integrate the modes the step does not resolve: a bad value of the key or of
// the option exits with code 2 naming it; validate counts those modes and says how they move (the
// 1 m stone block at h = 1e-3 s: its 6 lowest modes have h ω above 2)
TEST(Cli, UnresolvedModesOfModalBodies) {
  const fs::path dir = fresh_dir("unresolved_modes");
  std::string json = ffr_block_scene("3.5e10", "0.01");
  const std::string elements = R"("elements": [2, 2, 2])";
  json.insert(json.find(elements) + elements.size(), R"(, "modes": 6, "unresolved_modes": "euler")");
  const Result bad = run_nscd("run " + write_scene(dir, json).string() + " --out " + (dir / "out").string());
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("bodies[1].unresolved_modes: expected one of \"trapezoidal\", \"backward_euler\", found "
                            "\"euler\""),
            std::string::npos)
      << bad.output;
  json.replace(json.find("\"euler\""), 7, "\"backward_euler\"");
  const Result damped = run_nscd("validate " + write_scene(dir, json).string());
  ASSERT_EQ(damped.exit_code, 0) << damped.output;
  EXPECT_NE(damped.output.find("; 6 with h ω > 2 integrated by backward Euler"), std::string::npos) << damped.output;
  const std::string key = R"(, "unresolved_modes": "backward_euler")";
  json.erase(json.find(key), key.size());
  const fs::path scene = write_scene(dir, json);
  const Result ringing = run_nscd("validate " + scene.string());
  ASSERT_EQ(ringing.exit_code, 0) << ringing.output;
  EXPECT_NE(ringing.output.find("; 6 with h ω > 2, which the trapezoidal rule keeps ringing unless damped "
                                "(\"unresolved_modes\": \"backward_euler\" settles them)"),
            std::string::npos)
      << ringing.output;
  const Result option = run_nscd("run " + scene.string() + " --unresolved-modes implicit --out " + (dir / "out").string());
  EXPECT_EQ(option.exit_code, 2) << option.output;
  EXPECT_NE(option.output.find("--unresolved-modes implicit: expected trapezoidal or backward_euler"),
            std::string::npos)
      << option.output;
  EXPECT_EQ(run_nscd("run " + scene.string() + " --unresolved-modes backward_euler --quiet --out " +
                     (dir / "out").string())
                .exit_code,
            0);
}

// the newcomer's first run (tools/setup.sh demo): every step converges, no warning
TEST(Cli, DefaultSceneRunsClean) {
  const fs::path dir = fresh_dir("default_scene");
  const Result r = run_nscd("run scenes/default.json --out " + (dir / "out").string(), NSCD_SOURCE_DIR);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;
  const nlohmann::json run = nlohmann::json::parse(read_text(dir / "out" / "run.json"));
  EXPECT_EQ(run["non_converged_steps"], 0);
}

// a run whose solver cannot meet its tolerance: the first short step is warned about, and the
// end of the run says how many there were, as run.json counts them
TEST(Cli, RunCountsTheStepsThatStoppedShort) {
  const fs::path dir = fresh_dir("stopped_short");
  nlohmann::json scene = nlohmann::json::parse(read_text(fs::path(NSCD_SOURCE_DIR) / "scenes/default.json"));
  scene["time"]["duration"] = 0.05;
  scene["solver"]["type"] = "nlgs";
  scene["solver"]["tolerance"] = 1e-12;
  scene["solver"]["max_iterations"] = 1;
  const Result r = run_nscd("run " + write_scene(dir, scene.dump()).string() + " --out " + (dir / "out").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const long short_steps = nlohmann::json::parse(read_text(dir / "out" / "run.json"))["non_converged_steps"];
  ASSERT_GT(short_steps, 0);
  EXPECT_NE(r.output.find("the contact solver stopped at error"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(std::to_string(short_steps) + " of the 50 steps stopped short of solver.tolerance = 1e-12"),
            std::string::npos)
      << r.output;
  // with NLGS as the scene's solver, the end of the run points to auto, which hands over where NLGS
  // stalls; with auto it does not
  const std::string hint = "the solver auto (--solver auto, the default) hands over to a Newton method";
  EXPECT_NE(r.output.find(hint), std::string::npos) << r.output;
  const Result automatic =
      run_nscd("run " + (dir / "scene.json").string() + " --solver auto --overwrite --out " + (dir / "out").string());
  ASSERT_EQ(automatic.exit_code, 0) << automatic.output;
  EXPECT_NE(automatic.output.find("steps stopped short of solver.tolerance"), std::string::npos) << automatic.output;
  EXPECT_EQ(automatic.output.find(hint), std::string::npos) << automatic.output;
}

// the box scene written in millimetres (sizes and positions in mm, density in kg/mm³, g in mm/s²)
TEST(Cli, ValidateWarnsOfAMillimetreScene) {
  const fs::path dir = fresh_dir("millimetres");
  std::string json = R"({
    "name": "box_mm",
    "time": {"step": 1e-3, "duration": 0.01},
    "gravity": [0, 0, -9810],
    "materials": {"stone": {"density": 2.5e-6}},
    "interactions": [{"materials": ["stone", "stone"], "friction": 0.5}],
    "bodies": [
      {"name": "ground", "model": "fixed", "material": "stone", "shape": {"box": [4000, 4000, 1000]}, "position": [0, 0, -500]},
      {"name": "block", "model": "rigid", "material": "stone", "shape": {"box": [1000, 1000, 1000]}, "position": [0, 0, 500]}
    ]
  })";
  const Result r = run_nscd("validate " + write_scene(dir, json).string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* part : {"\"block\" (rigid): mass 2500 kg, size 1000 × 1000 × 1000 m",
                           "warning: material \"stone\": density 2.5e-06 kg/m³ is outside [100, 25000]",
                           "warning: gravity |g| = 9810 m/s² is outside",
                           "warning: 1 body is larger than 1000 m (largest extent), beyond the blocks and structures "
                           "this program is meant for: lengths in millimetres? \"ground\"",
                           "free fall in one step g h²/2 = 0.0049"})
    EXPECT_NE(r.output.find(part), std::string::npos) << part << " in " << r.output;
}

// Young's modulus 5 GPa typed as 5000: validate warns, and the run warns once of the strain
TEST(Cli, YoungInTheWrongUnitIsReportedBeforeAndDuringTheRun) {
  const fs::path dir = fresh_dir("young");
  const fs::path scene = write_scene(dir, ffr_block_scene("5000", "0.05"));
  const Result v = run_nscd("validate " + scene.string());
  ASSERT_EQ(v.exit_code, 0) << v.output;
  EXPECT_NE(v.output.find("warning: material \"stone\": Young's modulus 5000 Pa is outside"), std::string::npos)
      << v.output;
  EXPECT_NE(v.output.find("\"block\" (ffr): highest natural frequency"), std::string::npos) << v.output;
  const Result r = run_nscd("run " + scene.string() + " --out " + (dir / "out").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Young's modulus 5000 Pa"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("body \"block\" (model ffr) reaches a strain of"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("reaches a strain", r.output.find("reaches a strain") + 1), std::string::npos)
      << r.output;  // once
  // the same block of stone (35 GPa) stays far below 1 %: no warning at all
  const Result stone = run_nscd("run " + write_scene(dir, ffr_block_scene("35e9", "0.05")).string() + " --out " +
                                (dir / "stone").string());
  ASSERT_EQ(stone.exit_code, 0) << stone.output;
  EXPECT_EQ(stone.output.find("warning"), std::string::npos) << stone.output;
}

// driven bodies' peaks: the issue's three-point ramp of acceleration, in g
TEST(Cli, ValidatePrintsTheDrivenBodiesPeaks) {
  const fs::path dir = fresh_dir("driven_peaks");
  std::ofstream(dir / "ramp.csv") << "time,acceleration\n0,0\n0.5,0\n20.5,1\n";
  std::string json = box_scene();
  json.replace(json.find(R"("model": "fixed")"), 16, R"("model": "driven", "motion": {"velocity": {"type": "table",
      "file": "ramp.csv", "quantity": "acceleration", "direction": [1, 0, 0], "scale": 9.81}})");
  json.replace(json.find(R"("duration": 0.01)"), 16, R"("duration": 10.5)");
  const Result r = run_nscd("validate " + write_scene(dir, json).string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // at 10.5 s: a = 0.5 g, v = g · 10²/40, Δx = g · 10³/120
  EXPECT_NE(r.output.find("driven \"ground\" velocity: peak acceleration 4.905 m/s², velocity 24.53 m/s, "
                          "displacement 81.75 m"),
            std::string::npos)
      << r.output;
}

// --contact: penalty needs the scene's stiffness; with it, the run says which model gave the
// impulses (history.csv's solver_stage)
TEST(Cli, ContactOverrideSwitchesToPenaltyContact) {
  const fs::path dir = fresh_dir("contact_override");
  std::string json = box_scene();
  const fs::path plain = write_scene(dir, json);
  Result r = run_nscd("run " + plain.string() + " --contact penalty --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--contact penalty: " + plain.string() + " gives no contact stiffness"), std::string::npos)
      << r.output;
  r = run_nscd("run " + plain.string() + " --contact springs --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--contact springs: expected nscd or penalty"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));

  json.replace(json.find(R"("materials")"), 11, R"("contact": {"stiffness": 1e7, "damping": 1e4}, "materials")");
  r = run_nscd("run " + write_scene(dir, json).string() + " --contact penalty --quiet --out " +
               (dir / "out").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string history = read_text(dir / "out" / "history.csv");
  EXPECT_NE(history.find(",penalty,"), std::string::npos) << history;
  EXPECT_EQ(history.find(",nlgs,"), std::string::npos) << history;
}

TEST(Cli, CohesionWithoutFrictionIsRefusedWithCode2) {
  const fs::path dir = fresh_dir("cohesion_without_friction");
  std::string scene = box_scene();
  const std::string friction = R"("friction": 0.5})";
  scene.replace(scene.find(friction), friction.size(), R"("friction": 0, "cohesion": 1e4})");
  const Result r = run_nscd("run " + write_scene(dir, scene).string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("interactions[0].cohesion: a cohesion c > 0 needs a friction μ > 0"), std::string::npos)
      << r.output;
}

}  // namespace
