// `nscd collapse` (docs/commands.md): the collapse load multiplier of a scene, by the search of
// collapse_analysis.hpp, with collapse.json and the frames of the collapsing trial.

#include "nscd/app/collapse_analysis.hpp"
#include "nscd/app/commands.hpp"
#include "nscd/app/output_directory.hpp"
#include "nscd/app/run_header.hpp"
#include "nscd/app/run_output_files.hpp"
#include "nscd/app/sha256.hpp"
#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "nscd/io/build_model.hpp"
#include "nscd/step/initial_overlaps.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace nscd::app {
namespace {

// the frames of the collapsing trial continue until a body has moved this many δ
constexpr double kFramesStopFactor = 20;

// a step of a trial that failed (non-finite state, fatal solver failure): exit code 3
struct TrialFailed {
  std::string message;
};

Vec3 parse_direction(const std::string& text) {
  std::vector<double> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    NSCD_THROW_UNLESS(used > 0 && used == item.size() && std::isfinite(value),
                      "--direction {}: \"{}\" is not a number; expected three numbers X,Y,Z such as 1,0,0", text,
                      item);
    values.push_back(value);
  }
  NSCD_THROW_UNLESS(values.size() == 3 && text.back() != ',',
                    "--direction {}: expected three numbers X,Y,Z separated by commas, such as 1,0,0", text);
  const Vec3 d(values[0], values[1], values[2]);
  NSCD_THROW_UNLESS(d.norm() > 0, "--direction {}: expected a non-zero vector", text);
  return d;
}

void check_options(const CollapseOptions& o) {
  NSCD_THROW_UNLESS(o.precision > 0 && o.precision < 1, "--precision {}: expected a number in (0, 1)", o.precision);
  NSCD_THROW_UNLESS(o.max_multiplier > 0, "--max-multiplier {}: expected a positive number", o.max_multiplier);
  const auto positive = [](const std::optional<double>& value, const char* option) {
    NSCD_THROW_UNLESS(!value || *value > 0, "{} {}: expected a positive number", option, value.value_or(0));
  };
  positive(o.displacement, "--displacement");
  positive(o.ramp_time, "--ramp-time");
  positive(o.hold_time, "--hold-time");
}

CollapseCriterion criterion(const CollapseOptions& o, const Model& m) {
  CollapseCriterion c = default_criterion(m, o.scene.string());
  c.displacement = o.displacement.value_or(c.displacement);
  c.ramp_time = o.ramp_time.value_or(c.ramp_time);
  c.hold_time = o.hold_time.value_or(c.hold_time);
  return c;
}

// one trial at λ, logged; `observe` sees its steps (the frames' trial)
TrialResult trial(const io::Scene& scene, const Vec3& d, double multiplier, const CollapseCriterion& c,
                  const TrialObserver& observe = {}, double stop_factor = 1) {
  const io::Scene loaded = collapse_scene(scene, d, multiplier, c);
  const Model m = io::build_model(loaded);
  const TrialResult r = run_trial(m, io::initial_state(m, loaded), multiplier, c, observe, stop_factor);
  if (r.status != StepStatus::Ok) throw TrialFailed{r.message};
  logger().info("λ = {:.6g}: {} (t = {:.3g} s, largest displacement {:.3g} m, body \"{}\")", multiplier,
                r.collapsed ? "collapses" : "stands", r.time, r.displacement[r.body], m.bodies[r.body].name);
  return r;
}

// the collapsing trial again, its steps written as `nscd run` writes them
void write_frames(const CollapseOptions& o, const io::Scene& scene, const Vec3& d, double multiplier,
                  const CollapseCriterion& c, const std::filesystem::path& dir) {
  const auto wall_start = std::chrono::steady_clock::now();
  const io::Scene loaded = collapse_scene(scene, d, multiplier, c);
  const Model m = io::build_model(loaded);
  const State s0 = io::initial_state(m, loaded);
  const std::string scene_sha256 = sha256_hex(o.scene);
  RunOutputFiles files(m, s0, {dir, o.overwrite, scene_sha256, std::nullopt, 0}, nullptr,
                       run_header({o.scene, scene_sha256, std::nullopt, o.threads, loaded.solver.type, std::nullopt,
                                   m.step.h}));
  RunDiagnostics diagnostics = start_diagnostics(m, s0, nullptr, loaded.detection.max_penetration);
  State last = s0;
  StepReport last_report;
  StepTimings timings;
  auto step_start = std::chrono::steady_clock::now();  // the step's wall time runs from the last file written
  const auto observe = [&](const StepStartVelocities& start, const State& s, const StepWorkspace& ws,
                           const StepReport& report) {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start).count();
    files.after_step(start, s, ws, report, wall, diagnostics);
    last = s;
    last_report = report;
    timings = ws.timings;
    step_start = std::chrono::steady_clock::now();
  };
  run_trial(m, s0, multiplier, c, observe, kFramesStopFactor);
  files.finish(last, last_report, diagnostics, timings, wall_start);
}

nlohmann::json trial_json(const TrialResult& r, const Model& m) {
  return {{"multiplier", r.multiplier},
          {"outcome", r.collapsed ? "collapses" : "stands"},
          {"time", r.time},
          {"largest_displacement", r.displacement[r.body]},
          {"body", m.bodies[r.body].name},
          {"unconverged_steps", r.unconverged_steps}};
}

// a contact solver stopping short lets a standing structure creep, which the criterion cannot
// tell from a collapse
void warn_unconverged(const CollapseSearch& search, const CollapseCriterion& c) {
  long steps = 0;
  double creep = 0;
  for (const TrialResult& r : search.trials) {
    steps += r.unconverged_steps;
    if (!r.collapsed) creep = std::max(creep, r.displacement[r.body]);
  }
  if (steps == 0) return;
  logger().warn("the contact solver stopped above solver.tolerance in {} steps of the trials; a structure that "
                "stands may creep and be taken for a collapse (the standing trials moved up to {:.3g} m, against "
                "δ = {:.3g} m): if they come close, tighten solver.tolerance and solver.max_iterations",
                steps, creep, c.displacement);
}

// the bodies and joints that moved in the collapsing trial `r`
nlohmann::json mechanism_json(const TrialResult& r, const Model& m, const CollapseCriterion& c) {
  nlohmann::json bodies = nlohmann::json::array(), joints = nlohmann::json::array();
  for (int b = 0; b < m.nb(); ++b)
    if (r.displacement[b] > kMechanismFraction * c.displacement) bodies.push_back({{"name", m.bodies[b].name}, {"displacement", r.displacement[b]}});
  for (const JointMotion& j : r.joints)
    joints.push_back({{"bodies", {m.bodies[j.a].name, m.bodies[j.b].name}},
                      {"mode", j.mode},
                      {"centroid", {j.centroid.x(), j.centroid.y(), j.centroid.z()}},
                      {"area", j.area},
                      {"max_opening", j.max_opening},
                      {"min_opening", j.min_opening},
                      {"max_slip", j.max_slip}});
  return {{"multiplier", r.multiplier}, {"time", r.time}, {"bodies", bodies}, {"joints", joints}};
}

void write_collapse_json(const CollapseOptions& o, const Model& m, const Vec3& d, const CollapseCriterion& c,
                         const CollapseSearch& search, const std::filesystem::path& dir) {
  const auto or_null = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  nlohmann::json trials = nlohmann::json::array();
  for (const TrialResult& r : search.trials) trials.push_back(trial_json(r, m));
  const auto collapsing = std::find_if(search.trials.rbegin(), search.trials.rend(),
                                       [&](const TrialResult& r) { return search.hi && r.multiplier == *search.hi; });
  const Vec3 unit = d.normalized();
  const nlohmann::json json = {
      {"scene", std::filesystem::absolute(o.scene).string()},
      {"direction", {unit.x(), unit.y(), unit.z()}},
      {"gravity", m.step.gravity.norm()},
      {"stands_unloaded", search.stands_unloaded},
      {"collapse_multiplier",
       search.hi && search.stands_unloaded ? nlohmann::json(search.multiplier()) : nlohmann::json(nullptr)},
      {"bracket", {search.lo, or_null(search.hi)}},
      {"precision", o.precision},
      {"max_multiplier", o.max_multiplier},
      {"criterion",
       {{"displacement", c.displacement},
        {"ramp_time", c.ramp_time},
        {"hold_time", c.hold_time},
        {"structure_size", c.structure_size},
        {"mechanism_threshold", kMechanismFraction * c.displacement}}},
      {"trials", trials},
      {"mechanism", collapsing != search.trials.rend() ? mechanism_json(*collapsing, m, c) : nlohmann::json(nullptr)}};
  std::ofstream out(dir / "collapse.json");
  out << json.dump(2) << '\n';
  NSCD_THROW_UNLESS(out.good(), "{}: cannot write collapse.json", dir.string());
}

// the exit code and last words of the search's outcome
int report(const CollapseSearch& search, const CollapseOptions& o, const std::filesystem::path& dir) {
  if (!search.stands_unloaded) {
    std::fprintf(stderr,
                 "nscd: the structure collapses under its own weight (λ = 0), so it has no collapse multiplier; "
                 "the scene is valid, the structure is not stable (collapse.json and the frames of that trial are "
                 "in %s)\n",
                 dir.string().c_str());
    return 1;
  }
  if (!search.hi) {
    std::fprintf(stderr, "nscd: the structure stands up to --max-multiplier %g; raise it to find its collapse load\n",
                 o.max_multiplier);
    return 1;
  }
  std::printf("collapse multiplier %.6g\n", search.multiplier());
  return 0;
}

}  // namespace

int collapse_command(const CollapseOptions& o) {
  const Vec3 d = parse_direction(o.direction);
  check_options(o);
  const io::Scene scene = io::read_scene(o.scene);
  const Model m = io::build_model(scene);
  check_initial_overlaps(m, io::initial_state(m, scene), scene.file.string());
  const CollapseCriterion c = criterion(o, m);
  NSCD_THROW_UNLESS(c.ramp_time + c.hold_time >= m.step.h,
                    "--ramp-time {} s and --hold-time {} s: expected a trial of at least one time step ({} s)",
                    c.ramp_time, c.hold_time, m.step.h);
  const std::filesystem::path dir = o.out.value_or(std::filesystem::path("out") / (m.name + "_collapse"));
  prepare_output_directory(dir, o.overwrite);
  logger().info("{}: collapse along ({:.3g}, {:.3g}, {:.3g}); a body moving more than {:.3g} m collapses it; load "
                "ramped over {:.3g} s, held {:.3g} s",
                m.name, d.x(), d.y(), d.z(), c.displacement, c.ramp_time, c.hold_time);
  try {
    const CollapseSearch search = bracket_collapse(
        [&](double multiplier) { return trial(scene, d, multiplier, c); }, {o.precision, 0.25, o.max_multiplier});
    warn_unconverged(search, c);
    if (search.hi) write_frames(o, scene, d, *search.hi, c, dir);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    NSCD_THROW_UNLESS(!ec, "{}: cannot create the output directory: {}", dir.string(), ec.message());
    write_collapse_json(o, m, d, c, search, dir);
    return report(search, o, dir);
  } catch (const TrialFailed& e) {
    logger().error("{}", e.message);
    return 3;
  }
}

}  // namespace nscd::app
