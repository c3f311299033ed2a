#include "nscd/app/commands.hpp"
#include "nscd/app/progress_bar.hpp"
#include "nscd/app/run_header.hpp"
#include "nscd/app/run_output_files.hpp"
#include "nscd/app/scene_overrides.hpp"
#include "nscd/app/sha256.hpp"
#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "nscd/io/build_model.hpp"
#include "nscd/io/checkpoint.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/io/scene_checks.hpp"
#include "nscd/step/cohesion.hpp"
#include "nscd/step/initial_overlaps.hpp"
#include "nscd/step/stepper.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

namespace nscd::app {
namespace {

// the checkpoint to continue from, of a run of the same scene
std::optional<io::Checkpoint> read_restart(const RunOptions& o, const Model& m, const std::string& scene_sha256) {
  if (!o.restart) return std::nullopt;
  io::Checkpoint restart = read_run_checkpoint(*o.restart, m, scene_sha256, o.scene);
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

// a bar on a terminal, otherwise a log line every tenth of the run (`next_log` the step of the next one)
void show_progress(const RunOptions& o, const Model& m, const State& s, const StepReport& report,
                   ProgressBar& progress, long& next_log) {
  const auto contacts = [&] {
    return contact_summary(report.n_contacts, report.solver_iterations);
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
StepReport run_steps(const RunOptions& o, const Model& m, State& s, StepWorkspace& ws, RunOutputFiles& files,
                     RunDiagnostics& diagnostics) {
  ProgressBar progress(m.n_steps, m.duration, o.progress);
  StepReport report;
  long next_log = s.step + m.n_steps / 10;
  while (s.step < m.n_steps) {
    const auto step_start = std::chrono::steady_clock::now();
    const StepStartVelocities start = step_start_velocities(s);
    report = step(m, s, ws);
    if (report.status != StepStatus::Ok) break;
    if (ws.contacts.bond_breaks.total() > 0)
      logger().info("{}", describe_breaks(m, s.t, ws.contacts.active, ws.contacts.bond_breaks));
    files.after_step(start, s, ws, report,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start).count(),
                     diagnostics);
    show_progress(o, m, s, report, progress, next_log);
  }
  progress.finish();
  if (report.status != StepStatus::Ok) logger().error("{}", report.message);
  return report;
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
  nlohmann::json header =
      run_header({o.scene, scene_sha256, o.restart, o.threads, scene.solver.type, o.model, m.step.h});
  RunOutputFiles files(m, s, {dir, o.overwrite, scene_sha256, scene.solver.dump_every, checkpoint_every},
                       restart ? &restart->output : nullptr, std::move(header));
  logger().info("{}: {} bodies, {} steps of {} s, output every {} steps to {}", m.name, m.nb(), m.n_steps,
                m.step.h, m.output_every, dir.string());
  const io::SceneChecks checks = io::check_scene(m, scene, false);
  for (const std::string& line : checks.lines) logger().info("{}", line);
  for (const std::string& warning : checks.warnings) logger().warn("{}", warning);

  RunDiagnostics diagnostics = start_diagnostics(m, s, restart ? &*restart : nullptr, scene.detection.max_penetration);
  StepWorkspace ws;
  const StepReport report = run_steps(o, m, s, ws, files, diagnostics);
  files.finish(s, report, diagnostics, ws.timings, wall_start);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (report.status != StepStatus::Ok) return 3;
  logger().info("done: {} steps in {:.2f} s ({:.0f} steps/s); output in {}", s.step, wall,
                static_cast<double>(s.step) / wall, dir.string());
  if (diagnostics.non_converged > 0)
    logger().warn("{} of the {} steps stopped short of solver.tolerance = {:g} (history.csv: solver_error of each "
                  "step){}",
                  diagnostics.non_converged, s.step, m.step.solver.stopping().tolerance,
                  m.step.solver.type == solvers::SolverType::Nlgs
                      ? "; the solver auto (--solver auto, the default) hands over to a Newton method where NLGS "
                        "stalls"
                      : "");
  logger().info("wall time per stage: free motion {:.3g} s, detection {:.3g} s, assembly {:.3g} s, solve {:.3g} s, "
                "update {:.3g} s, output {:.3g} s",
                ws.timings.free_motion, ws.timings.detection, ws.timings.assembly, ws.timings.solve,
                ws.timings.update, files.seconds());
  return 0;
}

}  // namespace nscd::app
