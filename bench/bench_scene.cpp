// Times the simulation of a scene without output (scenes of docs/scene_format.md, e.g. the running-bond
// wall scenes/wall_static.json): steps/s, per-stage wall times, NLGS sweeps per step, contacts,
// position projection sweeps per step, and contact updates per second in the solver (sweeps ×
// contacts / solve time).
//
//   build/bin/bench_scene SCENE.json [--steps N] [--warmup N] [--threads N]
//
// Not a test: numbers depend on the machine; docs/performance.md records them with the command.

#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/stepper.hpp"

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
  CLI::App app{"bench_scene: time the steps of a scene"};
  std::string scene_file;
  long steps = 0, warmup = 0;
  int threads = 1;
  app.add_option("scene", scene_file)->required();
  app.add_option("--steps", steps, "timed steps (default: the scene's duration)");
  app.add_option("--warmup", warmup, "untimed steps first")->default_val(0);
  app.add_option("--threads", threads, "worker threads (0: all cores)")->default_val(1);
  CLI11_PARSE(app, argc, argv);

  const nscd::io::Scene scene = nscd::io::read_scene(scene_file);
  const nscd::Model m = nscd::io::build_model(scene);
  nscd::State s = nscd::io::initial_state(m, scene);
  if (steps <= 0) steps = m.n_steps - warmup;
  const int n_threads = threads > 0 ? threads : tbb::info::default_concurrency();
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(n_threads));

  nscd::StepWorkspace ws;
  for (long n = 0; n < warmup; ++n) nscd::step(m, s, ws);
  ws.timings = {};
  long sweeps = 0, contacts = 0, contact_updates = 0, non_converged = 0, projection_sweeps = 0;
  int max_projection_sweeps = 0;
  double projection_change = 0;
  double max_error = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long n = 0; n < steps; ++n) {
    const nscd::StepReport report = nscd::step(m, s, ws);
    if (report.status != nscd::StepStatus::Ok) {
      std::fprintf(stderr, "bench_scene: %s\n", report.message.c_str());
      return 3;
    }
    sweeps += report.solver_iterations;
    contacts += report.n_contacts;
    contact_updates += static_cast<long>(report.solver_iterations) * report.n_contacts;
    non_converged += report.solver_status != nscd::solvers::SolverStatus::Converged;
    max_error = std::max(max_error, report.solver_error);
    projection_sweeps += ws.projection.sweeps;
    max_projection_sweeps = std::max(max_projection_sweeps, ws.projection.sweeps);
    projection_change = std::max(projection_change, ws.projection.change);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double per_step_ms = 1e3 * wall / static_cast<double>(steps);
  const double n = static_cast<double>(steps);
  std::printf("scene            %s (%d bodies)\n", scene_file.c_str(), m.nb());
  std::printf("threads          %d\n", n_threads);
  std::printf("steps            %ld (+%ld warm-up), h = %g s\n", steps, warmup, m.step.h);
  std::printf("time per step    %.4f ms  (%.0f steps/s)\n", per_step_ms, n / wall);
  std::printf("  free motion    %.4f ms\n", 1e3 * ws.timings.free_motion / n);
  std::printf("  detection      %.4f ms\n", 1e3 * ws.timings.detection / n);
  std::printf("  assembly       %.4f ms\n", 1e3 * ws.timings.assembly / n);
  std::printf("  solve          %.4f ms\n", 1e3 * ws.timings.solve / n);
  std::printf("  update         %.4f ms\n", 1e3 * ws.timings.update / n);
  std::printf("contacts/step    %.1f\n", static_cast<double>(contacts) / n);
  std::printf("NLGS sweeps/step %.2f (tolerance %g, %ld steps not converged, max error %.3g)\n",
              static_cast<double>(sweeps) / n, m.step.solver.stopping().tolerance, non_converged, max_error);
  std::printf("projection       %.2f sweeps/step (at most %d; largest gap change in a last sweep %.2g m)\n",
              static_cast<double>(projection_sweeps) / n, max_projection_sweeps, projection_change);
  std::printf("contact updates  %.3g per second of solve time\n",
              ws.timings.solve > 0 ? static_cast<double>(contact_updates) / ws.timings.solve : 0.0);
  return 0;
}
