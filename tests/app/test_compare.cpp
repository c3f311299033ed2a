// `nscd compare` (docs/commands.md): the L2 differences of run_comparison.hpp on hand-computed
// histories, and the command on real runs and on bad input.

#include "nscd/app/plot_script.hpp"
#include "nscd/app/run_comparison.hpp"
#include "nscd/core/error.hpp"
#include "run_nscd.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace nscd::cli_test;
using nscd::Vec3;
using nscd::app::HistoryDifference;
using nscd::io::History;

// ---------------------------------------------------------------------------------------------
// the arithmetic

TEST(Compare, L2DifferenceOfAHandComputedCase) {
  const History a{"p", {0, 1, 2}, {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)}};
  const History b{"p", {0, 1, 2}, {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0)}};
  const HistoryDifference d = nscd::app::history_difference(a, b);
  // a − b = 0, 0, (1, −1, 0): ‖a − b‖₂ = √2; ‖b‖₂ = √(0 + 1 + 2) = √3; ‖a‖₂ = √5
  EXPECT_EQ(d.samples, 3);
  EXPECT_FALSE(d.interpolated);
  EXPECT_DOUBLE_EQ(d.l2_difference, std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(d.norm_b, std::sqrt(3.0));
  EXPECT_DOUBLE_EQ(d.norm_a, std::sqrt(5.0));
  ASSERT_TRUE(d.relative());
  EXPECT_DOUBLE_EQ(*d.relative(), std::sqrt(2.0 / 3.0));
  EXPECT_DOUBLE_EQ(d.max_abs_difference, std::sqrt(2.0));
}

TEST(Compare, InterpolatesAOntoBsTimesWithinTheCommonInterval) {
  // A ends at t = 1 with outputs at 0 and 1 only; B has outputs every 0.5 up to 1.5
  const History a{"p", {0, 1}, {Vec3(0, 0, 0), Vec3(2, 0, 0)}};
  const History b{"p", {0, 0.5, 1, 1.5}, {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 0, 0), Vec3(9, 9, 9)}};
  const HistoryDifference d = nscd::app::history_difference(a, b);
  // t = 0, 0.5, 1: a = 0, (1, 0, 0) interpolated, (2, 0, 0); a − b = 0, 0, (1, 0, 0)
  EXPECT_EQ(d.samples, 3);
  EXPECT_DOUBLE_EQ(d.t_first, 0.0);
  EXPECT_DOUBLE_EQ(d.t_last, 1.0);
  EXPECT_TRUE(d.interpolated);
  EXPECT_DOUBLE_EQ(d.l2_difference, 1.0);
  EXPECT_DOUBLE_EQ(*d.relative(), 1.0 / std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(d.max_abs_difference, 1.0);
}

TEST(Compare, TimesThatDifferByRoundingAreTheSameOutputTimes) {
  const History a{"p", {0, 0.1 + 0.2}, {Vec3(0, 0, 0), Vec3(1, 0, 0)}};  // 0.30000000000000004
  const History b{"p", {0, 0.3}, {Vec3(0, 0, 0), Vec3(1, 0, 0)}};
  const HistoryDifference d = nscd::app::history_difference(a, b);
  EXPECT_EQ(d.samples, 2);
  EXPECT_FALSE(d.interpolated);
  EXPECT_EQ(d.l2_difference, 0.0);
}

TEST(Compare, ZeroReferenceReportsTheAbsoluteDifference) {
  const History a{"p", {0, 1}, {Vec3(0, 0, 0), Vec3(0, 3, 4)}};
  const History b{"p", {0, 1}, {Vec3(0, 0, 0), Vec3(0, 0, 0)}};
  const HistoryDifference d = nscd::app::history_difference(a, b);
  EXPECT_FALSE(d.relative());
  EXPECT_DOUBLE_EQ(d.l2_difference, 5.0);
}

nscd::io::RunOutput run_output(const std::string& dir, const std::string& probe, double body_x0) {
  nscd::io::RunOutput run;
  run.dir = dir;
  run.scene_sha256 = "0123";
  run.probes = {History{probe, {0, 1}, {Vec3(0, 0, 0), Vec3(1, 0, 0)}}};
  run.bodies = {History{"block", {0, 1}, {Vec3(body_x0, 0, 0), Vec3(body_x0 + 2, 0, 0)}}};
  return run;
}

TEST(Compare, BodiesAreComparedByTheirDisplacementFromTheFirstRow) {
  const std::vector<HistoryDifference> rows =
      nscd::app::compare_runs(run_output("a", "top", 5.0), run_output("b", "top", 5.0));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].quantity, "probe");
  EXPECT_EQ(rows[1].quantity, "body");
  EXPECT_EQ(rows[1].name, "block");
  EXPECT_DOUBLE_EQ(rows[1].norm_b, 2.0);  // ‖(0, 0, 0), (2, 0, 0)‖, not of the positions x0 = 5, 7
  EXPECT_EQ(rows[1].l2_difference, 0.0);
}

TEST(Compare, RunsOfDifferentScenesAreComparedButNotWithDifferentProbes) {
  // two scene files (two meshes, two load levels) with the same probes and bodies
  nscd::io::RunOutput other = run_output("b", "top", 0.0);
  other.scene_sha256 = "4567";
  EXPECT_EQ(nscd::app::compare_runs(run_output("a", "top", 0.0), other).size(), 2u);
  try {
    nscd::app::compare_runs(run_output("a", "top", 0.0), run_output("b", "bottom", 0.0));
    FAIL() << "expected an InputError";
  } catch (const nscd::InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("\"bottom\""), std::string::npos) << message;
    EXPECT_NE(message.find("probes.csv"), std::string::npos) << message;
  }
}

using Stages = std::vector<std::pair<std::string, double>>;

nscd::io::RunOutput timed_run(double wall, double simulated_time, const Stages& stages) {
  nscd::io::RunOutput run = run_output("a", "top", 0.0);
  run.wall_seconds = wall;
  run.simulated_time = simulated_time;
  run.stage_seconds = stages;
  return run;
}

TEST(Compare, WallTimesAreComparedPerSimulatedSecond) {
  // A ran 0.5 s of simulated time, B 2 s: B's 4 s of wall time is 2 s per simulated second
  const nscd::io::RunOutput a = timed_run(3, 0.5, {{"free_motion", 1}, {"detection", 0.5}, {"output", 0.25}});
  const nscd::io::RunOutput b = timed_run(4, 2, {{"free_motion", 1}, {"detection", 2}, {"output", 1}});
  const std::vector<nscd::app::WallTimeRate> rates = nscd::app::wall_time_rates(a, b);
  ASSERT_EQ(rates.size(), 4u);
  const std::vector<std::string> names{"total", "free_motion", "detection", "output"};
  const std::vector<double> rate_a{6, 2, 1, 0.5}, rate_b{2, 0.5, 1, 0.5};
  for (std::size_t i = 0; i < rates.size(); ++i) {
    EXPECT_EQ(rates[i].name, names[i]);
    EXPECT_DOUBLE_EQ(rates[i].a, rate_a[i]) << names[i];
    EXPECT_DOUBLE_EQ(rates[i].b, rate_b[i]) << names[i];
  }
}

TEST(Compare, AnOlderRunJsonWithoutFreeMotionIsComparedWithFreeMotionInDetection) {
  // B's run.json predates the free_motion stage: its detection includes the free motion, so A's
  // free motion is counted in A's detection too
  const nscd::io::RunOutput a = timed_run(3, 1, {{"free_motion", 1}, {"detection", 0.5}, {"output", 0.25}});
  const nscd::io::RunOutput b = timed_run(4, 1, {{"detection", 2}, {"output", 1}});
  for (const auto& rates : {nscd::app::wall_time_rates(a, b), nscd::app::wall_time_rates(b, a)}) {
    ASSERT_EQ(rates.size(), 3u);
    EXPECT_EQ(rates[1].name, "free_motion+detection");
    EXPECT_DOUBLE_EQ(rates[1].a + rates[1].b, 1.5 + 2);
    EXPECT_EQ(rates[2].name, "output");
  }
}

TEST(Compare, ARunThatSimulatedNothingHasNoWallTimePerSecond) {
  const nscd::io::RunOutput a = timed_run(3, 0, {{"detection", 0.5}});
  try {
    nscd::app::wall_time_rates(a, timed_run(3, 1, {{"detection", 0.5}}));
    FAIL() << "expected an InputError";
  } catch (const nscd::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a/run.json: simulated_time 0"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// where the plot script is found

TEST(PlotScript, AnInstalledProgramFindsTheScriptUnderShareNextToItsBin) {
  // a fake installation: <prefix>/bin/nscd and <prefix>/share/nscd/tools/plot_compare.py
  const fs::path prefix = fresh_dir("plot_script_prefix");
  fs::create_directories(prefix / "bin");
  fs::create_directories(prefix / "share" / "nscd" / "tools");
  std::ofstream(prefix / "bin" / "nscd") << "";
  const fs::path installed = prefix / "share" / "nscd" / "tools" / "plot_compare.py";
  const fs::path source = fs::path(NSCD_SOURCE_DIR) / "tools" / "plot_compare.py";
  EXPECT_EQ(nscd::app::plot_script_candidates(prefix / "bin" / "nscd"), (std::vector<fs::path>{installed, source}));
  // not installed: the source tree's copy, the one of a program run from its build tree
  EXPECT_EQ(nscd::app::find_plot_script(prefix / "bin" / "nscd"), source);
  std::ofstream(installed) << "";
  EXPECT_EQ(nscd::app::find_plot_script(prefix / "bin" / "nscd"), installed);
  // the executable's location unknown: the source tree only
  EXPECT_EQ(nscd::app::plot_script_candidates(fs::path()), std::vector<fs::path>{source});
}

// ---------------------------------------------------------------------------------------------
// the command

// whether the interpreter `nscd compare` runs the plot script with (the one CMake found) has matplotlib
bool python_has_matplotlib() {
  const std::string python = NSCD_PYTHON;
  return !python.empty() && std::system((python + " -c 'import matplotlib' >/dev/null 2>&1").c_str()) == 0;
}

// runs `nscd run SCENE OPTIONS --out DIR --quiet` and checks it succeeded
void run_scene(const std::string& scene, const std::string& options, const fs::path& out) {
  const Result r = run_nscd("run " + scene + " " + options + " --out " + out.string() + " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.output;
}

// the rows of compare.csv, as cells
std::vector<std::vector<std::string>> read_csv(const fs::path& file) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream text(read_text(file));
  for (std::string line; std::getline(text, line);) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  return rows;
}

const std::vector<std::string>* find_row(const std::vector<std::vector<std::string>>& rows, const std::string& quantity,
                                         const std::string& name) {
  for (const auto& row : rows)
    if (row.size() >= 2 && row[0] == quantity && row[1] == name) return &row;
  return nullptr;
}

TEST(CompareCli, FfrAgainstRigidPrintsTheTableAndWritesCompareCsv) {
  const fs::path dir = fresh_dir("compare_ffr");
  const std::string scene = std::string(NSCD_SOURCE_DIR) + "/scenes/ffr_rotating_cuboid.json";
  run_scene(scene, "--model ffr --duration 0.02", dir / "ffr");
  run_scene(scene, "--model rigid --duration 0.02", dir / "rigid");

  const Result r = run_nscd("compare ffr rigid", dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* text : {"--model ffr", "--model rigid", "top_point", "cuboid", "rel. L2 diff",
                           "wall time per simulated second", "total", "free_motion", "wrote compare.csv"})
    EXPECT_NE(r.output.find(text), std::string::npos) << text << " in\n" << r.output;

  const auto rows = read_csv(dir / "compare.csv");
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0], (std::vector<std::string>{"quantity", "name", "relative_l2_difference", "l2_difference",
                                               "max_abs_difference", "samples", "a", "b", "ratio"}));
  // the deformable cuboid is stiff: its probe moves almost as the rigid one, but not exactly
  const auto* probe = find_row(rows, "probe", "top_point");
  ASSERT_NE(probe, nullptr);
  ASSERT_EQ(probe->size(), 9u);
  const double relative = std::stod((*probe)[2]);
  EXPECT_GT(relative, 0.0);
  EXPECT_LT(relative, 0.05);
  EXPECT_EQ((*probe)[5], "3");  // outputs at t = 0, 0.01 and 0.02
  ASSERT_NE(find_row(rows, "body", "cuboid"), nullptr);
  const auto* wall = find_row(rows, "wall_seconds_per_simulated_second", "total");
  ASSERT_NE(wall, nullptr);
  EXPECT_GT(std::stod((*wall)[6]), 0.0);
  EXPECT_GT(std::stod((*wall)[8]), 0.0);

  if (python_has_matplotlib())
    EXPECT_TRUE(fs::exists(dir / "compare.png")) << r.output;
  else
    EXPECT_NE(r.output.find("plot skipped"), std::string::npos) << r.output;
}

TEST(CompareCli, RunComparedWithItselfGivesZero) {
  const fs::path dir = fresh_dir("compare_self");
  run_scene(std::string(NSCD_SOURCE_DIR) + "/scenes/incline.json", "--duration 0.05", dir / "run");
  const Result r = run_nscd("compare run run", dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto rows = read_csv(dir / "compare.csv");
  int histories = 0;
  for (const auto& row : rows) {
    if (row[0] != "probe" && row[0] != "body") continue;
    ++histories;
    // the fixed plane does not move: no relative difference, an absolute one of 0
    EXPECT_TRUE(row[2] == "0" || (row[1] == "plane" && row[2].empty())) << row[1] << ": " << row[2];
    EXPECT_EQ(row[3], "0") << row[1];
    EXPECT_EQ(row[4], "0") << row[1];
  }
  EXPECT_EQ(histories, 3);  // probe block_centre, bodies plane and block
  const auto* wall = find_row(rows, "wall_seconds_per_simulated_second", "total");
  ASSERT_NE(wall, nullptr);
  EXPECT_EQ((*wall)[8], "1");
}

// `nscd compare A B` exits with code 2 and names `expected` (a file, a line) in its message
void expect_refused(const std::string& arguments, const fs::path& cwd, const std::string& expected) {
  const Result r = run_nscd("compare " + arguments, cwd);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("nscd: error: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(expected), std::string::npos) << expected << " in\n" << r.output;
}

TEST(CompareCli, BadInputsExitWithCode2AndNameTheFile) {
  const fs::path dir = fresh_dir("compare_bad");
  const std::string scene = std::string(NSCD_SOURCE_DIR) + "/scenes/incline.json";
  run_scene(scene, "--duration 0.03", dir / "good");

  expect_refused("good missing", dir, "missing: expected the output directory of `nscd run`, found no such directory");
  EXPECT_EQ(run_nscd("compare good", dir).exit_code, 2);  // one directory only: a command-line error

  fs::copy(dir / "good", dir / "no_probes");
  fs::remove(dir / "no_probes" / "probes.csv");
  expect_refused("no_probes good", dir, "no_probes/probes.csv: no such file");

  // a malformed row: line 3 of probes.csv (header, t = 0, then t = 0.01) with x = "oops"
  fs::copy(dir / "good", dir / "malformed");
  std::string probes = read_text(dir / "good" / "probes.csv");
  const std::string row_start = "\n0.01,block_centre,";
  const std::size_t x = probes.find(row_start) + row_start.size();
  probes.replace(x, probes.find(',', x) - x, "oops");
  std::ofstream(dir / "malformed" / "probes.csv") << probes;
  expect_refused("malformed good", dir, "malformed/probes.csv:3: column \"x\": expected a finite number, found \"oops\"");

  // a run that did not finish has no total wall time
  fs::copy(dir / "good", dir / "running");
  std::string run_json = read_text(dir / "good" / "run.json");
  run_json.replace(run_json.find("\"wall_seconds\""), 14, "\"wall_secondz\"");
  std::ofstream(dir / "running" / "run.json") << run_json;
  expect_refused("good running", dir, "running/run.json: top level: missing key \"wall_seconds\"");
}

TEST(CompareCli, DifferentScenesAreComparedAndSaidToDiffer) {
  // the incline at two friction coefficients: two load levels of one set-up, two scene files
  const fs::path dir = fresh_dir("compare_scenes");
  const std::string scene = std::string(NSCD_SOURCE_DIR) + "/scenes/incline.json";
  std::string json = read_text(scene);
  const std::string friction = "\"friction\": 0.3";
  ASSERT_NE(json.find(friction), std::string::npos);
  json.replace(json.find(friction), friction.size(), "\"friction\": 0.1");
  std::ofstream(dir / "slippery.json") << json;
  run_scene(scene, "--duration 0.05", dir / "reference");
  run_scene((dir / "slippery.json").string(), "--duration 0.05", dir / "slippery");
  const Result r = run_nscd("compare slippery reference", dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("scenes differ: A ran " + fs::absolute(dir / "slippery.json").string() + ", B ran " + scene),
            std::string::npos)
      << r.output;
  // the block slides down with acceleration g (sin 30° − μ cos 30°) in both: the displacement
  // histories are proportional, ‖a‖₂ / ‖b‖₂ the ratio of the accelerations (the trapezoidal rule
  // is exact for a constant acceleration; 1e-6 leaves room for the solver's tolerance 1e-8)
  const auto rows = read_csv(dir / "compare.csv");
  const auto* probe = find_row(rows, "probe", "block_centre");
  ASSERT_NE(probe, nullptr);
  const double sin30 = 0.5, cos30 = std::sqrt(3.0) / 2;
  EXPECT_NEAR(std::stod((*probe)[8]), (sin30 - 0.1 * cos30) / (sin30 - 0.3 * cos30), 1e-6);
}

TEST(CompareCli, OutWritesIntoTheGivenDirectoryAndAnOlderRunJsonIsRead) {
  const fs::path dir = fresh_dir("compare_out");
  run_scene(std::string(NSCD_SOURCE_DIR) + "/scenes/incline.json", "--duration 0.02", dir / "run");
  // a run.json written before the free_motion stage existed
  fs::copy(dir / "run", dir / "older");
  nlohmann::json run_json = nlohmann::json::parse(read_text(dir / "run" / "run.json"));
  run_json["stage_seconds"].erase("free_motion");
  std::ofstream(dir / "older" / "run.json") << run_json.dump(2);

  const Result r = run_nscd("compare run older --out results/compare", dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("wrote results/compare/compare.csv"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("B's run.json has no free_motion stage"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "compare.csv"));
  const auto rows = read_csv(dir / "results" / "compare" / "compare.csv");
  EXPECT_NE(find_row(rows, "wall_seconds_per_simulated_second", "free_motion+detection"), nullptr);
  EXPECT_EQ(find_row(rows, "wall_seconds_per_simulated_second", "free_motion"), nullptr);
  if (python_has_matplotlib()) {
    EXPECT_TRUE(fs::exists(dir / "results" / "compare" / "compare.png")) << r.output;
  }
}

}  // namespace
