#include "python/src/simulation.hpp"

#include "nscd/app/run_header.hpp"
#include "nscd/app/scene_overrides.hpp"
#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "nscd/io/build_model.hpp"
#include "nscd/io/checkpoint.hpp"
#include "nscd/step/initial_overlaps.hpp"
#include "python/src/thread_arenas.hpp"

#include <tbb/info.h>

#include <chrono>
#include <utility>

namespace nscd::python {
namespace {

io::Scene read_overridden_scene(const SimulationOptions& o) {
  io::Scene scene = io::read_scene_text(o.text, o.file);
  app::RunOptions run;
  run.scene = o.file;
  run.model = o.model;
  run.modes = o.modes;
  run.solver = o.solver;
  app::apply_overrides(run, scene);
  return scene;
}

int thread_count(const std::optional<int>& threads) {
  NSCD_THROW_UNLESS(!threads || *threads > 0, "threads={}: expected a positive count, or None for all cores",
                    threads.value_or(0));
  return threads ? *threads : tbb::info::default_concurrency();
}

// the stage times spent from `then` to `now`
StepTimings since(const StepTimings& now, const StepTimings& then) {
  return {now.free_motion - then.free_motion, now.detection - then.detection, now.assembly - then.assembly,
          now.solve - then.solve, now.update - then.update};
}

}  // namespace

Simulation::Simulation(SimulationOptions options)
    : m_options(std::move(options)),
      m_scene(read_overridden_scene(m_options)),
      m_model(io::build_model(m_scene)),
      m_state(io::initial_state(m_model, m_scene)),
      m_threads(thread_count(m_options.threads)) {
  check_initial_overlaps(m_model, m_state, m_scene.file.string());
  m_diagnostics = app::start_diagnostics(m_model, m_state, nullptr, m_scene.detection.max_penetration);
}

Simulation::~Simulation() {
  try {
    close_output();
  } catch (const std::exception& e) {  // a destructor cannot raise: said, not lost
    logger().error("{}", e.what());
  }
}

const StepReport& Simulation::step() {
  const auto start = std::chrono::steady_clock::now();
  const StepStartVelocities velocities = step_start_velocities(m_state);
  arena_for(m_threads).execute([&] { m_report = nscd::step(m_model, m_state, m_ws); });
  if (m_report.status != StepStatus::Ok) {
    close_output();
    throw Error(m_report.message);
  }
  const double wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (m_output)
    m_output->after_step(velocities, m_state, m_ws, m_report, wall_seconds, m_diagnostics);
  else
    app::note_step(m_diagnostics, m_model, velocities, m_state, m_ws.contacts, m_report);
  return m_report;
}

void Simulation::run_to(long last_step) {
  while (m_state.step < last_step) step();
}

void Simulation::open_output(const std::filesystem::path& dir, bool overwrite, bool resume) {
  NSCD_THROW_UNLESS(!resume || m_restored_output, "{}: no checkpoint restored whose output to continue", dir.string());
  close_output();
  m_output_start = std::chrono::steady_clock::now();
  m_timings_at_open = m_ws.timings;
  nlohmann::json header = app::run_header({m_options.file, m_options.sha256, m_restored_from, m_threads,
                                           m_scene.solver.type, m_options.model, m_model.step.h});
  const io::OutputPosition* position = resume ? &*m_restored_output : nullptr;
  m_output = std::make_unique<app::RunOutputFiles>(
      m_model, m_state, app::RunOutputOptions{dir, overwrite, m_options.sha256, m_scene.solver.dump_every, 0},
      position, std::move(header));
  m_restored_output.reset();
}

void Simulation::close_output() {
  if (!m_output) return;
  const std::unique_ptr<app::RunOutputFiles> output = std::move(m_output);
  output->finish(m_state, m_report, m_diagnostics, since(m_ws.timings, m_timings_at_open), m_output_start);
}

void Simulation::write_checkpoint(const std::filesystem::path& file) const {
  io::OutputPosition output = m_output ? m_output->position() : io::OutputPosition{{m_state.t}};
  io::write_checkpoint(file, {m_options.sha256, m_state, std::move(output), m_diagnostics.non_converged,
                              m_diagnostics.energy});
}

void Simulation::restore(const std::filesystem::path& file) {
  io::Checkpoint c = app::read_run_checkpoint(file, m_model, m_options.sha256, m_options.file);
  close_output();
  // copied into the existing buffers, and the workspace kept (the step uses it as scratch only):
  // the memory that NumPy views taken earlier point to stays allocated
  m_state = c.state;
  m_diagnostics = app::start_diagnostics(m_model, m_state, &c, m_scene.detection.max_penetration);
  m_restored_output = std::move(c.output);
  m_restored_from = file;
  m_report = StepReport{};
}

}  // namespace nscd::python
