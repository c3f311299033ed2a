#include "nscd/app/commands.hpp"
#include "nscd/app/output_directory.hpp"
#include "nscd/app/progress_bar.hpp"
#include "nscd/app/run_header.hpp"
#include "nscd/app/scene_overrides.hpp"
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
#include "nscd/step/energy_balance.hpp"
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

// the checkpoint to continue from, of a run of the same scene
std::optional<io::Checkpoint> read_restart(const RunOptions& o, const Model& m, const std::string& scene_sha256) {
  if (!o.restart) return std::nullopt;
  io::Checkpoint restart = io::read_checkpoint(*o.restart, m);
  NSCD_THROW_UNLESS(restart.scene_sha256 == scene_sha256,
                    "{}: the checkpoint was written by a run of another scene (SHA-256 {}), not of {} (SHA-256 {})",
                    o.restart->string(), restart.scene_sha256, o.scene.string(), scene_sha256);
  NSCD_THROW_UNLESS(restart.state.step <= m.n_steps, "{}: the checkpoint is at step {}, past the run's {} steps",
                    o.restart->string(), restart.state.step, m.n_steps);
  return restart;
}

// steps between checkpoints, 0 for none
long checkpoint_steps(const RunOptions& o, const Model& m) {
  NSCD_THROW_UNLESS(!o.checkpoint_interval || *o.checkpoint_interval > 0,
                    "--checkpoint-interval {}: expected a positive time in seconds", o.checkpoint_interval.value_or(0));
  return o.checkpoint_interval ? std::max(1L, std::lround(*o.checkpoint_interval / m.step.h)) : 0;
}

// the run's files (frames, history, FCLIB dumps, checkpoints) and the wall time spent writing them
struct RunFiles {
  const Model& m;
  std::filesystem::path dir;
  io::OutputWriter& out;
  std::string scene_sha256;
  long checkpoint_every = 0;  // steps, 0 for none
  double seconds = 0;
};

void write_frame(RunFiles& f, const State& s, const io::ContactFrame& contacts) {
  ScopedTimer timer(&f.seconds);
  f.out.write_output(s.t, io::body_mesh_frame(f.m, s, false), contacts, io::body_rows(f.m, s), io::probe_rows(f.m, s));
}

// the fixed bodies once and the first frame, of a run that does not restart
void write_first_frame(RunFiles& f, const State& s) {
  {
    ScopedTimer timer(&f.seconds);
    const auto is_fixed = [](const BodyModel& b) { return b.kind == BodyKind::Fixed; };
    if (std::any_of(f.m.bodies.begin(), f.m.bodies.end(), is_fixed))
      f.out.write_fixed_bodies(io::body_mesh_frame(f.m, s, true));
  }
  write_frame(f, s, io::ContactFrame{});
}

// the whole state and where the output stands, kept with the last few before it
void write_checkpoint_now(RunFiles& f, const State& s, long non_converged, const EnergyBalance& energy) {
  ScopedTimer timer(&f.seconds);
  io::write_checkpoint(io::checkpoint_path(f.dir, s.step), {f.scene_sha256, s, f.out.position(), non_converged, energy});
  io::keep_last_checkpoints(f.dir, kCheckpointsKept);
}

// the step's contact problem and solution, replayable with `nscd solve` (a step without
// contacts has no problem: FCLIB cannot store an empty one)
void dump_problem(RunFiles& f, const io::Scene& scene, const State& s, const StepContacts& contacts) {
  if (!scene.solver.dump_every || s.step % *scene.solver.dump_every != 0 || contacts.problem.nc() == 0) return;
  ScopedTimer timer(&f.seconds);
  // with the body form when the step had one (rigid bodies, solver auto): a global problem
  io::write_fclib_solution(f.dir / fmt::format("problem_{:06d}.hdf5", s.step), contacts.problem,
                           contacts.solution.r, contacts.solution.u,
                           contacts.has_body_form() ? &contacts.body_form : nullptr);
}

// what the steps report beyond their history: events counted, each warned about once
struct RunDiagnostics {
  long non_converged = 0;       // steps whose contact solver did not converge
  EnergyBalance energy;         // the run's energy balance after the last step (history.csv)
  long newton_unconverged = 0;  // steps whose Newton method of a TL body did not converge
  // the deepest overlap of the run's active contacts, the time of the state holding it (the start of
  // its step), and the steps whose deepest overlap exceeds the scene's detection.max_penetration
  double deepest = 0, deepest_time = 0;
  long over_bound = 0;
  std::optional<double> bound;
  bool strain_warned = false;
  std::map<std::string, long> stage_steps;  // steps with contacts, by the solver (stage) that finished them
  long factorizations = 0;                  // sparse factorisations of the contact solver, in all
};

void note_step(RunDiagnostics& d, const Model& m, const State& s, const StepReport& report) {
  if (report.solver_status != solvers::SolverStatus::Converged && d.non_converged++ == 0)
    logger().warn("t = {}: the contact solver stopped at error {:.3g} after {} iterations (reported in "
                  "history.csv; further occurrences are counted in run.json)",
                  s.t, report.solver_error, report.solver_iterations);
  if (report.n_contacts > 0) ++d.stage_steps[std::string(solvers::to_string(report.solver_stage))];
  d.factorizations += report.solver_factorizations;
  const double step_start_time = static_cast<double>(s.step - 1) * m.step.h;
  if (report.max_penetration > d.deepest) {
    d.deepest = report.max_penetration;
    d.deepest_time = step_start_time;
  }
  if (d.bound && report.max_penetration > *d.bound && d.over_bound++ == 0)
    logger().warn("t = {}: two bodies overlap by {:.3g} m, more than detection.max_penetration = {:.3g} m "
                  "(history.csv has the deepest overlap of every step; further occurrences are counted in run.json)",
                  io::time_text(step_start_time), report.max_penetration, *d.bound);
  if (!report.inner_converged && d.newton_unconverged++ == 0)
    logger().warn("t = {}: the Newton method of a TL body stopped above solver.inner_tolerance after "
                  "solver.inner_max_iterations corrections (further occurrences are not reported)",
                  s.t);
}

// the small-strain models beyond their range, checked at output times only (a pass over the
// cells, as the output's stresses are)
void warn_large_strain_once(RunDiagnostics& d, const Model& m, const State& s) {
  if (d.strain_warned) return;
  const BodyStrain worst = largest_small_strain(m, s);
  if (worst.body < 0 || worst.strain <= kSmallStrainLimit) return;
  d.strain_warned = true;
  logger().warn("t = {}: body \"{}\" (model {}) reaches a strain of {:.3g} % (largest principal strain over its "
                "cells), beyond the 1 % where its small-strain model holds; model \"tl\" does not have this limit "
                "(further occurrences are not reported)",
                s.t, m.bodies[worst.body].name, to_string(m.bodies[worst.body].kind), 100 * worst.strain);
}

// a bar on a terminal, otherwise a log line every tenth of the run (`next_log` the step of the next one)
void show_progress(const RunOptions& o, const Model& m, const State& s, const StepReport& report,
                   ProgressBar& progress, long& next_log) {
  const auto contacts = [&] {
    return contact_summary(report.n_contacts, report.solver_iterations, m.has_meshes());
  };
  if (o.progress) {
    progress.update(s.step, s.t, contacts());
  } else if (s.step >= next_log && s.step < m.n_steps) {
    logger().info("step {}/{}  t = {:.4g} s  {}", s.step, m.n_steps, s.t, contacts());
    next_log += std::max(1L, m.n_steps / 10);
  }
}

// steps to the end of the run or to a failed step, writing every file on the way; returns the
// last step's report
StepReport run_steps(const RunOptions& o, const io::Scene& scene, const Model& m, State& s, StepWorkspace& ws,
                     RunFiles& files, RunDiagnostics& diagnostics) {
  ProgressBar progress(m.n_steps, m.duration, o.progress);
  StepReport report;
  long last_output = s.step, next_log = s.step + m.n_steps / 10;
  while (s.step < m.n_steps) {
    const auto step_start = std::chrono::steady_clock::now();
    const StepStartVelocities start = step_start_velocities(s);
    report = step(m, s, ws);
    if (report.status != StepStatus::Ok) break;
    note_step(diagnostics, m, s, report);
    add_step(diagnostics.energy, m, start, s, ws.contacts);
    files.out.append_history(io::history_row(
        m, s, report, std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start).count(),
        diagnostics.energy));
    dump_problem(files, scene, s, ws.contacts);
    if (s.step % m.output_every == 0 || s.step == m.n_steps) {
      write_frame(files, s, io::contact_frame(m, ws.contacts));
      last_output = s.step;
      warn_large_strain_once(diagnostics, m, s);
    }
    if (files.checkpoint_every > 0 && s.step % files.checkpoint_every == 0 && s.step < m.n_steps)
      write_checkpoint_now(files, s, diagnostics.non_converged, diagnostics.energy);
    show_progress(o, m, s, report, progress, next_log);
  }
  progress.finish();
  if (report.status != StepStatus::Ok) {
    // the state is the last finite one; its contacts were overwritten by the failed step
    logger().error("{}", report.message);
    if (s.step != last_output) write_frame(files, s, io::ContactFrame{});
  }
  files.out.flush();
  if (files.checkpoint_every > 0) write_checkpoint_now(files, s, diagnostics.non_converged, diagnostics.energy);
  return report;
}

// run.json's entries as the run ends
void record_end(nlohmann::json& run, const StepReport& report, const State& s, const RunDiagnostics& d,
                const StepTimings& timings, double output_seconds, double wall) {
  run["status"] = to_string(report.status);
  if (!report.message.empty()) run["message"] = report.message;
  run["steps"] = s.step;
  run["simulated_time"] = s.t;
  run["non_converged_steps"] = d.non_converged;
  run["solver_stages"] = d.stage_steps;
  run["solver_factorizations"] = d.factorizations;
  run["max_penetration"] = {{"deepest", d.deepest},
                            {"time", d.deepest_time},
                            {"bound", d.bound ? nlohmann::json(*d.bound) : nlohmann::json(nullptr)},
                            {"steps_over_bound", d.over_bound}};
  run["wall_seconds"] = wall;
  run["stage_seconds"] = {{"free_motion", timings.free_motion},
                          {"detection", timings.detection},
                          {"assembly", timings.assembly},
                          {"solve", timings.solve},
                          {"update", timings.update},
                          {"output", output_seconds}};
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
  const std::optional<io::Checkpoint> restart = read_restart(o, m, scene_sha256);
  if (restart) s = restart->state;
  const long checkpoint_every = checkpoint_steps(o, m);

  const std::filesystem::path dir = o.out.value_or(std::filesystem::path("out") / m.name);
  if (!restart) prepare_output_directory(dir, o.overwrite);  // a restart continues the output in dir
  io::OutputWriter out(dir, m.name, m.output_vtk, m.output_csv, restart ? &restart->output : nullptr);
  nlohmann::json run = run_header({o.scene, scene_sha256, o.restart, o.threads, scene.solver.type, o.model, m.step.h});
  out.write_run_json(run);
  logger().info("{}: {} bodies, {} steps of {} s, output every {} steps to {}", m.name, m.nb(), m.n_steps,
                m.step.h, m.output_every, dir.string());
  const io::SceneChecks checks = io::check_scene(m, scene, false);
  for (const std::string& line : checks.lines) logger().info("{}", line);
  for (const std::string& warning : checks.warnings) logger().warn("{}", warning);

  RunFiles files{m, dir, out, scene_sha256, checkpoint_every};
  if (!restart) write_first_frame(files, s);
  RunDiagnostics diagnostics;
  diagnostics.non_converged = restart ? restart->non_converged : 0;
  diagnostics.energy = restart ? restart->energy : start_energy_balance(m, s);
  diagnostics.bound = scene.detection.max_penetration;
  StepWorkspace ws;
  const StepReport report = run_steps(o, scene, m, s, ws, files, diagnostics);

  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  record_end(run, report, s, diagnostics, ws.timings, files.seconds, wall);
  out.write_run_json(run);
  if (report.status != StepStatus::Ok) return 3;
  logger().info("done: {} steps in {:.2f} s ({:.0f} steps/s); output in {}", s.step, wall,
                static_cast<double>(s.step) / wall, dir.string());
  logger().info("wall time per stage: free motion {:.3g} s, detection {:.3g} s, assembly {:.3g} s, solve {:.3g} s, "
                "update {:.3g} s, output {:.3g} s",
                ws.timings.free_motion, ws.timings.detection, ws.timings.assembly, ws.timings.solve,
                ws.timings.update, files.seconds);
  return 0;
}

}  // namespace nscd::app
