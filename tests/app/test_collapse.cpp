// `nscd collapse` (docs/commands.md) and its search (nscd/app/collapse_analysis.hpp): a block on a
// tilting plane, a semicircular arch against the limit analysis of arch_limit_analysis.hpp, and
// the errors of the command line.

#include "arch_limit_analysis.hpp"
#include "run_nscd.hpp"

#include "nscd/app/collapse_analysis.hpp"
#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <string>

namespace {

using namespace nscd::cli_test;
using nscd::app::bracket_collapse;
using nscd::app::CollapseSearch;
using nscd::app::TrialResult;

fs::path write_scene(const fs::path& dir, const std::string& json) {
  const fs::path file = dir / "scene.json";
  std::ofstream(file) << json;
  return file;
}

// the multiplier of the last line `collapse multiplier <λ>`
double printed_multiplier(const std::string& output) {
  const std::string key = "collapse multiplier ";
  const std::size_t at = output.rfind(key);
  return at == std::string::npos ? std::nan("") : std::stod(output.substr(at + key.size()));
}

// a block b × h (b along x, 0.5 deep) on a fixed ground, friction μ: tilting the plane by α is
// the horizontal acceleration g tan α, so it slides at λ = μ when μ < b/h and overturns at λ = b/h
std::string block_scene(double friction) {
  return R"({
    "name": "block",
    "time": {"step": 1e-3, "duration": 1, "output_interval": 0.1},
    "solver": {"type": "nlgs", "tolerance": 1e-6, "max_iterations": 1000},
    "materials": {"stone": {"density": 2000}},
    "interactions": [{"materials": ["stone", "stone"], "friction": )" + std::to_string(friction) + R"(}],
    "bodies": [
      {"name": "ground", "model": "fixed", "material": "stone", "shape": {"box": [4, 4, 0.5]}, "position": [0, 0, -0.25]},
      {"name": "block", "model": "rigid", "material": "stone", "shape": {"box": [0.5, 0.5, 1]}, "position": [0, 0, 0.5]}
    ]
  })";
}

// the arch of scenes/gen_arch.py at a smaller scale: n voussoirs between radii R = 1 m and 1 + t
// (flat faces, radial joints), 0.3 m deep, springings on fixed abutments 0.5 m high; μ = 0.9
// excludes sliding
std::string arch_scene(int n, double thickness) {
  const double radius = 1, depth = 0.3, height = 0.5, width = thickness + 0.3, outer = radius + thickness;
  nlohmann::json bodies = nlohmann::json::array();
  bodies.push_back({{"name", "ground"}, {"model", "fixed"}, {"material", "stone"},
                    {"shape", {{"box", {2 * outer + 2 * width + 1, depth + 1, 0.2}}}}, {"position", {0, 0, -0.1}}});
  for (const double side : {-1.0, 1.0})
    bodies.push_back({{"name", side < 0 ? "abutment_left" : "abutment_right"}, {"model", "fixed"},
                      {"material", "stone"}, {"shape", {{"box", {width, depth + 0.2, height}}}},
                      {"position", {side * (radius + thickness / 2), 0, height / 2}}});
  for (int i = 0; i < n; ++i) {
    nlohmann::json vertices = nlohmann::json::array();
    for (const double a : {M_PI * i / n, M_PI * (i + 1) / n})
      for (const double r : {radius, outer})
        for (const double y : {-depth / 2, depth / 2})
          vertices.push_back({r * std::cos(a), y, height + r * std::sin(a)});
    bodies.push_back({{"name", "voussoir_" + std::to_string(i)}, {"model", "rigid"}, {"material", "stone"},
                      {"shape", {{"convex", {{"vertices", vertices}}}}}});
  }
  const nlohmann::json scene = {
      {"name", "arch"},
      {"time", {{"step", 1e-3}, {"duration", 1}, {"output_interval", 0.05}}},
      {"solver", {{"type", "nlgs"}, {"tolerance", 1e-6}, {"max_iterations", 2000}}},
      {"materials", {{"stone", {{"density", 2000}}}}},
      {"interactions", {{{"materials", {"stone", "stone"}}, {"friction", 0.9}}}},
      {"bodies", bodies}};
  return scene.dump();
}

// ---------------------------------------------------------------------------------------------
// the search, with trials that collapse above a known multiplier

TrialResult fake_trial(double multiplier, double collapse_at) {
  TrialResult r;
  r.multiplier = multiplier;
  r.collapsed = multiplier > collapse_at;
  return r;
}

TEST(CollapseSearch, BracketsByDoublingThenBisectsToThePrecision) {
  const CollapseSearch s = bracket_collapse([](double l) { return fake_trial(l, 0.37); }, {0.005, 0.25, 10});
  ASSERT_GE(s.trials.size(), 4u);
  EXPECT_EQ(s.trials[0].multiplier, 0.0);
  EXPECT_EQ(s.trials[1].multiplier, 0.25);
  EXPECT_EQ(s.trials[2].multiplier, 0.5);
  EXPECT_EQ(s.trials[3].multiplier, 0.375);
  ASSERT_TRUE(s.hi);
  EXPECT_TRUE(s.stands_unloaded);
  EXPECT_LE(s.lo, 0.37);
  EXPECT_GT(*s.hi, 0.37);
  EXPECT_LE(*s.hi - s.lo, 0.005 * *s.hi);
  EXPECT_NEAR(s.multiplier(), 0.37, 0.0025 * *s.hi);
}

TEST(CollapseSearch, ReportsAStructureThatFallsUnloadedOrStandsUpToTheLargestMultiplier) {
  const CollapseSearch falls = bracket_collapse([](double l) { return fake_trial(l, -1); }, {0.005, 0.25, 10});
  EXPECT_FALSE(falls.stands_unloaded);
  EXPECT_EQ(falls.trials.size(), 1u);

  const CollapseSearch stands = bracket_collapse([](double l) { return fake_trial(l, 100); }, {0.005, 0.25, 3});
  EXPECT_FALSE(stands.hi);
  EXPECT_EQ(stands.lo, 3.0);
  std::vector<double> tried;
  for (const TrialResult& r : stands.trials) tried.push_back(r.multiplier);
  EXPECT_EQ(tried, (std::vector<double>{0, 0.25, 0.5, 1, 2, 3}));
}

// ---------------------------------------------------------------------------------------------
// the block on a tilting plane. Tolerance 1 % (issue 16): the bisection stops at a bracket of
// 0.5 % and prints its midpoint; the criterion's bias is far below (collapse_analysis.hpp eq. 3:
// a sliding block is caught from λ = μ (1 + 3·10⁻⁴ D/(μ L)) on)

nlohmann::json run_collapse(const std::string& name, const std::string& scene_json, double expected,
                            double tolerance, const std::string& options = "") {
  const fs::path dir = fresh_dir(name);
  const fs::path scene = write_scene(dir, scene_json);
  const Result r = run_nscd("collapse " + scene.string() + " --direction 1,0,0 --out " + (dir / "out").string() +
                            " --quiet " + options);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::size_t last_line = r.output.rfind('\n', r.output.size() - 2) + 1;  // npos + 1 = 0: a single line
  EXPECT_EQ(r.output.compare(last_line, 20, "collapse multiplier "), 0) << r.output;
  const double multiplier = printed_multiplier(r.output);
  EXPECT_NEAR(multiplier, expected, tolerance * expected) << r.output;
  EXPECT_TRUE(fs::exists(dir / "out" / "run.json"));  // the frames of the collapsing trial
  const nlohmann::json json = nlohmann::json::parse(read_text(dir / "out" / "collapse.json"));
  EXPECT_NEAR(json["collapse_multiplier"].get<double>(), multiplier, 1e-5 * multiplier);
  return json;
}

TEST(Collapse, ABlockSlidesAtTheFrictionCoefficientWhenItIsBelowItsAspectRatio) {
  const nlohmann::json json = run_collapse("collapse_slide", block_scene(0.3), 0.3, 0.01);
  ASSERT_EQ(json["mechanism"]["joints"].size(), 1u);
  EXPECT_EQ(json["mechanism"]["joints"][0]["mode"], "slide");
  EXPECT_EQ(json["mechanism"]["joints"][0]["bodies"], nlohmann::json({"ground", "block"}));
  EXPECT_EQ(json["trials"][0]["multiplier"], 0.0);
  EXPECT_EQ(json["trials"][0]["outcome"], "stands");
}

TEST(Collapse, ABlockOverturnsAtItsAspectRatioWhenFrictionIsAbove) {
  const nlohmann::json json = run_collapse("collapse_overturn", block_scene(0.8), 0.5, 0.01);
  ASSERT_EQ(json["mechanism"]["joints"].size(), 1u);
  EXPECT_EQ(json["mechanism"]["joints"][0]["mode"], "hinge");
}

// ---------------------------------------------------------------------------------------------
// the arch

// the limit analysis itself: the thickness at which the horizontal multiplier reaches 0 is the
// minimum thickness under self-weight, t / R_mean ≈ 0.1075 for a semicircular arch ([Heyman 1966]
// found 0.106; Ochsendorf's exact value for radial joints 0.1075), R_mean = R + t/2; 30 voussoirs
// come within 0.001 of the continuous arch
TEST(ArchLimitAnalysis, FindsHeymansMinimumThickness) {
  double lo = 0.10, hi = 0.13;  // thickness over the intrados radius
  for (int k = 0; k < 12; ++k) {
    const double mid = 0.5 * (lo + hi);
    (nscd::test::arch_collapse_mechanism({30, 1.0, mid}).multiplier < 0 ? lo : hi) = mid;
  }
  const double t = 0.5 * (lo + hi);
  EXPECT_NEAR(t / (1 + t / 2), 0.1075, 0.001);
}

// one trial at λ = 0 of the arch of thickness t (collapse_analysis.hpp), from the library
TrialResult self_weight_trial(double thickness) {
  const nscd::io::Scene scene = nscd::io::read_scene_text(arch_scene(20, thickness), "arch.json");
  const nscd::app::CollapseCriterion c = nscd::app::default_criterion(nscd::io::build_model(scene), "arch.json");
  const nscd::io::Scene loaded = nscd::app::collapse_scene(scene, nscd::Vec3::UnitX(), 0.0, c);
  const nscd::Model m = nscd::io::build_model(loaded);
  return nscd::app::run_trial(m, nscd::io::initial_state(m, loaded), 0.0, c);
}

TEST(Collapse, AnArchStandsUnderItsOwnWeightAtThicknessPoint12) {
  const TrialResult r = self_weight_trial(0.12);
  EXPECT_FALSE(r.collapsed) << "body " << r.body << " moved " << r.displacement[r.body] << " m at t = " << r.time;
}

TEST(Collapse, AnArchOfThicknessPoint09FallsUnderItsOwnWeightWhichIsNotAnInputError) {
  EXPECT_TRUE(self_weight_trial(0.09).collapsed);
  const fs::path dir = fresh_dir("collapse_thin_arch");
  const fs::path scene = write_scene(dir, arch_scene(20, 0.09));
  const Result r = run_nscd("collapse " + scene.string() + " --direction 1,0,0 --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("collapses under its own weight"), std::string::npos) << r.output;
  const nlohmann::json json = nlohmann::json::parse(read_text(dir / "out" / "collapse.json"));
  EXPECT_FALSE(json["stands_unloaded"].get<bool>());
  EXPECT_TRUE(json["collapse_multiplier"].is_null());
  EXPECT_FALSE(json["mechanism"]["joints"].empty());
}

// the horizontal collapse multiplier against the kinematic theorem over 4-hinge mechanisms of the
// same geometry: 3 % (issue 16); the 4 contact points of a face-to-face joint sit at its intrados
// and extrados edges, the hinges of the analysis, and μ = 0.9 excludes sliding. The joints that
// hinge in the collapsing trial are the analysis' four.
TEST(Collapse, AnArchsHorizontalMultiplierMatchesTheLimitAnalysis) {
  const nscd::test::HingeMechanism analysis = nscd::test::arch_collapse_mechanism({20, 1.0, 0.15});
  const nlohmann::json json =
      run_collapse("collapse_arch", arch_scene(20, 0.15), analysis.multiplier, 0.03, "--precision 0.01");
  std::set<int> hinges;
  for (const nlohmann::json& joint : json["mechanism"]["joints"]) {
    if (joint["mode"] != "hinge") continue;
    // joint j lies between voussoirs j − 1 and j, joint 0 on the right abutment, 20 on the left one
    // (bodies in scene order: the abutments come first)
    const std::string a = joint["bodies"][0], b = joint["bodies"][1];
    hinges.insert(a == "abutment_right" ? 0 : a == "abutment_left" ? 20 : std::stoi(b.substr(b.find('_') + 1)));
  }
  EXPECT_EQ(hinges, std::set<int>(analysis.joints.begin(), analysis.joints.end())) << json["mechanism"].dump();
}

// ---------------------------------------------------------------------------------------------
// errors: exit code 2, nothing written

TEST(Collapse, BadInputExitsWithCode2AndWritesNothing) {
  const fs::path dir = fresh_dir("collapse_errors");
  const fs::path scene = write_scene(dir, block_scene(0.3));
  const std::string out = " --out " + (dir / "out").string();
  const struct {
    std::string arguments, message;
  } cases[] = {
      {scene.string() + " --direction 1,0", "expected three numbers X,Y,Z"},
      {scene.string() + " --direction 1,0,0,0", "expected three numbers X,Y,Z"},
      {scene.string() + " --direction 0,0,0", "expected a non-zero vector"},
      {scene.string() + " --direction x,0,0", "\"x\" is not a number"},
      {scene.string() + " --direction 1,0,0 --precision -0.1", "--precision -0.1: expected a number in (0, 1)"},
      {scene.string() + " --direction 1,0,0 --max-multiplier 0", "--max-multiplier 0: expected a positive number"},
      {scene.string() + " --direction 1,0,0 --displacement -1", "--displacement -1: expected a positive number"},
      {(dir / "missing.json").string() + " --direction 1,0,0", "missing.json"},
      {scene.string(), "--direction is required"},
  };
  for (const auto& c : cases) {
    const Result r = run_nscd("collapse " + c.arguments + out);
    EXPECT_EQ(r.exit_code, 2) << c.arguments << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.arguments << "\n" << r.output;
    EXPECT_FALSE(fs::exists(dir / "out")) << c.arguments;
  }
}

TEST(Collapse, RefusesASceneWithoutGravityOrWithoutAMovableBody) {
  const fs::path dir = fresh_dir("collapse_scene_errors");
  std::string weightless = block_scene(0.3), immovable = block_scene(0.3);
  weightless.replace(weightless.find("\"time\""), 0, "\"gravity\": [0, 0, 0], ");
  immovable.replace(immovable.find("\"rigid\""), 7, "\"fixed\"");
  for (const auto& [scene, message] : {std::pair{weightless, "scene.json: gravity: expected a non-zero gravity"},
                                       std::pair{immovable, "scene.json: bodies: expected a rigid or finite-element"}}) {
    const Result r = run_nscd("collapse " + write_scene(dir, scene).string() + " --direction 1,0,0 --out " +
                              (dir / "out").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir / "out"));
  }
}

TEST(Collapse, RefusesADirectoryHoldingAnEarlierOutputUnlessOverwriting) {
  const fs::path dir = fresh_dir("collapse_refuse");
  const fs::path scene = write_scene(dir, block_scene(0.3));
  fs::create_directories(dir / "out");
  std::ofstream(dir / "out" / "collapse.json") << "{}";
  const std::string command = "collapse " + scene.string() + " --direction 1,0,0 --quiet --out " + (dir / "out").string();
  const Result refused = run_nscd(command);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("--overwrite"), std::string::npos) << refused.output;
  EXPECT_EQ(read_text(dir / "out" / "collapse.json"), "{}");
  const Result replaced = run_nscd(command + " --overwrite --precision 0.05");
  EXPECT_EQ(replaced.exit_code, 0) << replaced.output;
  EXPECT_NE(read_text(dir / "out" / "collapse.json"), "{}");
}

}  // namespace
