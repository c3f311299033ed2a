#include "nscd/app/commands.hpp"
#include "nscd/app/output_directory.hpp"
#include "nscd/app/progress_bar.hpp"
#include "nscd/app/sha256.hpp"
#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "nscd/core/timer.hpp"
#include "nscd/io/build_model.hpp"
#include "nscd/io/checkpoint.hpp"
#include "nscd/io/fclib_file.hpp"
#include "nscd/io/output_frames.hpp"
#include "nscd/io/output_writer.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/io/scene_checks.hpp"
#include "nscd/step/initial_overlaps.hpp"
#include "nscd/step/stepper.hpp"
#include "nscd/step/strain_check.hpp"


#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>

namespace nscd::app {
namespace {

// checkpoints kept in the output directory, the newest ones
constexpr int kCheckpointsKept = 3;

// --model ffr|tl|linear on a scene without finite-element bodies: its rigid bodies cannot be
// meshed (only a box with "elements" or a mesh file can)
std::string unmeshable_bodies(const RunOptions& o, const io::Scene& scene) {
  std::vector<std::string> names;
  for (const io::Body& body : scene.bodies)
    if (body.model == io::BodyModel::Rigid) names.push_back(body.name);
  if (names.empty())
    return fmt::format("--model {}: {} has no rigid, ffr, tl or linear body to simulate as {}", *o.model,
                       o.scene.string(), *o.model);
  return fmt::format("--model {}: {} has no ffr, tl or linear body, and its {} rigid bodies cannot be meshed "
                     "(only a box with \"elements\" or a \"mesh\" file can): {}",
                     *o.model, o.scene.string(), names.size(), io::name_list(names));
}

// the command line's overrides of the scene
void apply_overrides(const RunOptions& o, io::Scene& scene) {
  if (o.solver) {
    const std::vector<std::string>& types = io::solver_types();
    NSCD_THROW_UNLESS(std::find(types.begin(), types.end(), *o.solver) != types.end(),
                      "--solver {}: unknown solver; expected one of {}", *o.solver, fmt::join(types, ", "));
    scene.solver.type = *o.solver;
  }
  if (o.duration) {
    NSCD_THROW_UNLESS(*o.duration > 0, "--duration {}: expected a positive time in seconds", *o.duration);
    scene.time.duration = *o.duration;
  }
  if (o.model) {
    static const std::map<std::string, io::BodyModel> kModels{
        {"rigid", io::BodyModel::Rigid}, {"ffr", io::BodyModel::Ffr}, {"tl", io::BodyModel::Tl},
        {"linear", io::BodyModel::Linear}};
    const auto it = kModels.find(*o.model);
    NSCD_THROW_UNLESS(it != kModels.end(), "--model {}: expected rigid, ffr, tl or linear", *o.model);
    // only finite-element bodies switch; a scene without any would run unchanged under the
    // override's name, so a finite-element override of it is refused
    const bool any_switched = std::any_of(scene.bodies.begin(), scene.bodies.end(), [](const io::Body& body) {
      return io::is_finite_element(body.model);
    });
    if (!any_switched && io::is_finite_element(it->second)) throw InputError(unmeshable_bodies(o, scene));
    for (io::Body& body : scene.bodies)
      if (io::is_finite_element(body.model)) body.model = it->second;
  }
}

const char* to_string(StepStatus status) {
  switch (status) {
    case StepStatus::Ok: return "completed";
    case StepStatus::NonFinite: return "non_finite";
    case StepStatus::SolverFailed: return "solver_failed";
  }
  return "unknown";
}

}  // namespace

int run_command(const RunOptions& o) {
  const auto wall_start = std::chrono::steady_clock::now();
  io::Scene scene = io::read_scene(o.scene);
  apply_overrides(o, scene);
  const Model m = io::build_model(scene);
  State s = io::initial_state(m, scene);
  check_initial_overlaps(m, s, scene.file.string());
  const std::string scene_sha256 = sha256_hex(o.scene);
  std::optional<io::Checkpoint> restart;
  if (o.restart) {
    restart = io::read_checkpoint(*o.restart, m);
    NSCD_THROW_UNLESS(restart->scene_sha256 == scene_sha256,
                      "{}: the checkpoint was written by a run of another scene (SHA-256 {}), not of {} (SHA-256 {})",
                      o.restart->string(), restart->scene_sha256, o.scene.string(), scene_sha256);
    NSCD_THROW_UNLESS(restart->state.step <= m.n_steps, "{}: the checkpoint is at step {}, past the run's {} steps",
                      o.restart->string(), restart->state.step, m.n_steps);
    s = restart->state;
  }
  NSCD_THROW_UNLESS(!o.checkpoint_interval || *o.checkpoint_interval > 0,
                    "--checkpoint-interval {}: expected a positive time in seconds", o.checkpoint_interval.value_or(0));
  const long checkpoint_every =
      o.checkpoint_interval ? std::max(1L, std::lround(*o.checkpoint_interval / m.step.h)) : 0;


  const std::filesystem::path dir = o.out.value_or(std::filesystem::path("out") / m.name);
  if (!restart) prepare_output_directory(dir, o.overwrite);  // a restart continues the output in dir
  io::OutputWriter out(dir, m.name, m.output_vtk, m.output_csv, restart ? &restart->output : nullptr);
  nlohmann::json run{{"version", NSCD_VERSION},
                     {"vtk", {{"version", NSCD_VTK_VERSION}, {"origin", NSCD_VTK_ORIGIN}}},
                     {"scene", std::filesystem::absolute(o.scene).string()},
                     {"scene_sha256", scene_sha256},
                     {"restarted_from", o.restart ? nlohmann::json(o.restart->string()) : nlohmann::json(nullptr)},
                     {"threads", o.threads},
                     {"solver", scene.solver.type},
                     {"model_override", o.model ? nlohmann::json(*o.model) : nlohmann::json(nullptr)},
                     {"time_step", m.step.h},
                     {"status", "running"}};
  out.write_run_json(run);
  logger().info("{}: {} bodies, {} steps of {} s, output every {} steps to {}", m.name, m.nb(), m.n_steps,
                m.step.h, m.output_every, dir.string());
  const io::SceneChecks checks = io::check_scene(m, scene, false);
  for (const std::string& line : checks.lines) logger().info("{}", line);
  for (const std::string& warning : checks.warnings) logger().warn("{}", warning);

  StepWorkspace ws;
  double output_seconds = 0;
  auto write_output = [&](const io::ContactFrame& contacts) {
    ScopedTimer timer(&output_seconds);
    out.write_output(s.t, io::body_mesh_frame(m, s, false), contacts, io::body_rows(m, s), io::probe_rows(m, s));
  };
  if (!restart) {
    ScopedTimer timer(&output_seconds);
    if (std::any_of(m.bodies.begin(), m.bodies.end(), [](const BodyModel& b) { return b.kind == BodyKind::Fixed; }))
      out.write_fixed_bodies(io::body_mesh_frame(m, s, true));
  }
  if (!restart) write_output(io::ContactFrame{});

  long non_converged = restart ? restart->non_converged : 0;
  // the whole state and where the output stands, kept with the last few before it
  auto write_checkpoint_now = [&] {
    ScopedTimer timer(&output_seconds);
    io::write_checkpoint(io::checkpoint_path(dir, s.step), {scene_sha256, s, out.position(), non_converged});
    io::keep_last_checkpoints(dir, kCheckpointsKept);
  };

  // the small-strain models beyond their range, checked at output times only (a pass over the
  // cells, as the output's stresses are)
  bool strain_warned = false;
  auto warn_large_strain_once = [&] {
    if (strain_warned) return;
    const BodyStrain worst = largest_small_strain(m, s);
    if (worst.body < 0 || worst.strain <= kSmallStrainLimit) return;
    strain_warned = true;
    logger().warn("t = {}: body \"{}\" (model {}) reaches a strain of {:.3g} % (largest principal strain over its "
                  "cells), beyond the 1 % where its small-strain model holds; model \"tl\" does not have this limit "
                  "(further occurrences are not reported)",
                  s.t, m.bodies[worst.body].name, to_string(m.bodies[worst.body].kind), 100 * worst.strain);
  };

  // the deepest overlap of the run's active contacts, the time of the state holding it (the start of its
  // step), and the steps whose deepest overlap exceeds the scene's detection.max_penetration
  double deepest = 0, deepest_time = 0;
  long over_bound = 0;
  const std::optional<double> bound = scene.detection.max_penetration;

  ProgressBar progress(m.n_steps, m.duration, o.progress);
  StepReport report;
  std::map<std::string, long> stage_steps;  // steps with contacts, by the solver (stage) that finished them
  long factorizations = 0;
  long newton_unconverged = 0, last_output = s.step, next_log = s.step + m.n_steps / 10;
  while (s.step < m.n_steps) {
    const auto step_start = std::chrono::steady_clock::now();
    report = step(m, s, ws);
    if (report.status != StepStatus::Ok) break;
    if (report.solver_status != solvers::SolverStatus::Converged && non_converged++ == 0)
      logger().warn("t = {}: the contact solver stopped at error {:.3g} after {} iterations (reported in "
                    "history.csv; further occurrences are counted in run.json)",
                    s.t, report.solver_error, report.solver_iterations);
    const double step_start_time = static_cast<double>(s.step - 1) * m.step.h;
    if (report.max_penetration > deepest) {
      deepest = report.max_penetration;
      deepest_time = step_start_time;
    }
    if (bound && report.max_penetration > *bound && over_bound++ == 0)
      logger().warn("t = {}: two bodies overlap by {:.3g} m, more than detection.max_penetration = {:.3g} m "
                    "(history.csv has the deepest overlap of every step; further occurrences are counted in run.json)",
                    io::time_text(step_start_time), report.max_penetration, *bound);
    if (!report.inner_converged && newton_unconverged++ == 0)
      logger().warn("t = {}: the Newton method of a TL body stopped above solver.inner_tolerance after "
                    "solver.inner_max_iterations corrections (further occurrences are not reported)",
                    s.t);
    out.append_history({s.step, s.t, kinetic_energy(m, s), potential_energy(m, s), report.n_contacts,
                        report.max_penetration, report.solver_iterations, report.solver_error, report.inner_iterations,
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start).count(),
                        solvers::to_string(report.solver_stage), report.solver_factorizations});
    if (report.n_contacts > 0) ++stage_steps[std::string(solvers::to_string(report.solver_stage))];
    factorizations += report.solver_factorizations;
    // the step's contact problem and solution, replayable with `nscd solve` (a step without
    // contacts has no problem: FCLIB cannot store an empty one)
    if (scene.solver.dump_every && s.step % *scene.solver.dump_every == 0 && ws.problem.nc() > 0) {
      ScopedTimer timer(&output_seconds);
      io::write_fclib_solution(dir / fmt::format("problem_{:06d}.hdf5", s.step), ws.problem, ws.result.r,
                               ws.result.u);
    }
    if (s.step % m.output_every == 0 || s.step == m.n_steps) {
      write_output(io::contact_frame(m, ws));
      last_output = s.step;
      warn_large_strain_once();
    }
    if (checkpoint_every > 0 && s.step % checkpoint_every == 0 && s.step < m.n_steps) write_checkpoint_now();
    // a bar on a terminal, otherwise a log line every tenth of the run
    const auto contacts = [&] {
      return contact_summary(report.n_contacts, report.solver_iterations, m.has_deformable());
    };
    if (o.progress) {
      progress.update(s.step, s.t, contacts());
    } else if (s.step >= next_log && s.step < m.n_steps) {
      logger().info("step {}/{}  t = {:.4g} s  {}", s.step, m.n_steps, s.t, contacts());
      next_log += std::max(1L, m.n_steps / 10);
    }
  }
  progress.finish();
  if (report.status != StepStatus::Ok) {
    // the state is the last finite one; its contacts were overwritten by the failed step
    logger().error("{}", report.message);
    if (s.step != last_output) write_output(io::ContactFrame{});
  }
  out.flush();
  if (checkpoint_every > 0) write_checkpoint_now();

  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  run["status"] = to_string(report.status);
  if (!report.message.empty()) run["message"] = report.message;
  run["steps"] = s.step;
  run["simulated_time"] = s.t;
  run["non_converged_steps"] = non_converged;
  run["solver_stages"] = stage_steps;
  run["solver_factorizations"] = factorizations;
  run["max_penetration"] = {{"deepest", deepest},
                            {"time", deepest_time},
                            {"bound", bound ? nlohmann::json(*bound) : nlohmann::json(nullptr)},
                            {"steps_over_bound", over_bound}};
  run["wall_seconds"] = wall;
  run["stage_seconds"] = {{"free_motion", ws.timings.free_motion},
                          {"detection", ws.timings.detection},
                          {"assembly", ws.timings.assembly},
                          {"solve", ws.timings.solve},
                          {"update", ws.timings.update},
                          {"output", output_seconds}};
  out.write_run_json(run);
  if (report.status != StepStatus::Ok) return 3;
  logger().info("done: {} steps in {:.2f} s ({:.0f} steps/s); output in {}", s.step, wall,
                static_cast<double>(s.step) / wall, dir.string());
  logger().info("wall time per stage: free motion {:.3g} s, detection {:.3g} s, assembly {:.3g} s, solve {:.3g} s, "
                "update {:.3g} s, output {:.3g} s",
                ws.timings.free_motion, ws.timings.detection, ws.timings.assembly, ws.timings.solve,
                ws.timings.update, output_seconds);
  return 0;
}

}  // namespace nscd::app
