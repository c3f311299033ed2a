#pragma once
/// @file The simulation of the Python module (docs/python.md): a scene read and overridden as
/// `nscd run` reads it (nscd/io/scene.hpp, nscd/app/scene_overrides.hpp), its Model and State
/// (nscd/io/build_model.hpp), stepped by nscd::step (nscd/step/stepper.hpp, one Moreau–Jean step
/// [Jean 1999]) inside the TBB task arena of its thread count (thread_arenas.hpp), so that its
/// thread count neither leaks into nor comes from any other simulation. Output is opt-in and written by
/// the code of `nscd run` (nscd/app/run_output_files.hpp); checkpoints are those of `nscd run`
/// (nscd/io/checkpoint.hpp).

#include "nscd/app/run_output_files.hpp"
#include "nscd/io/output_writer.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"
#include "nscd/step/stepper.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace nscd::python {

struct SimulationOptions {
  std::string text;            // the scene file's text (JSON)
  std::filesystem::path file;  // the file it is, or stands for: messages, mesh folder, default name
  std::string sha256;          // of the text, recorded in checkpoints and run.json
  std::optional<int> threads;  // worker threads; unset: all cores
  std::optional<std::string> model, solver;  // as `nscd run --model, --solver`
  std::optional<int> modes;                  // as `nscd run --modes`
};

class Simulation {
 public:
  /// Reads, overrides and builds the scene, refusing overlapping initial poses as `nscd run` does.
  /// @throws nscd::InputError naming the file and JSON path (or the option) and what was expected.
  explicit Simulation(SimulationOptions options);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// One step inside the arena of its thread count; writes the output of the step when it is on.
  /// @throws nscd::Error with the step's message when it fails (non-finite state, or a solver
  ///         failure the scene declares fatal); the state is then the last finite one.
  const StepReport& step();

  /// Steps until the step index reaches `last_step`.
  void run_to(long last_step);

  /// Starts writing the output of `nscd run` to `dir` (docs/output.md) from the current state,
  /// or, with `resume`, continues in `dir` the output of the run the restored checkpoint was
  /// written by, from where the checkpoint says it stood.
  /// @throws nscd::InputError when `dir` holds an earlier run's output (without `overwrite`), or,
  ///         with `resume`, when no checkpoint was restored or `dir` lacks that output.
  void open_output(const std::filesystem::path& dir, bool overwrite, bool resume);
  /// Flushes the output and records the end of the run in run.json; no-op without output.
  void close_output();

  /// Writes the whole state (and where the output stands) to `file`; without output, as an
  /// output of one time (the current one) and empty files.
  void write_checkpoint(const std::filesystem::path& file) const;
  /// Continues from a checkpoint of a run of the same scene text.
  /// @throws nscd::InputError naming the file when it is not one.
  void restore(const std::filesystem::path& file);

  const io::Scene& scene() const { return m_scene; }
  const Model& model() const { return m_model; }
  const State& state() const { return m_state; }
  const StepWorkspace& workspace() const { return m_ws; }
  const StepReport& last_report() const { return m_report; }
  int threads() const { return m_threads; }
  const std::string& scene_sha256() const { return m_options.sha256; }

 private:
  SimulationOptions m_options;
  io::Scene m_scene;
  Model m_model;
  State m_state;
  StepWorkspace m_ws;
  StepReport m_report;
  int m_threads = 1;
  app::RunDiagnostics m_diagnostics;  // of the steps since the start or the checkpoint restored
  std::optional<io::OutputPosition> m_restored_output;  // of the checkpoint restored, if any
  std::optional<std::filesystem::path> m_restored_from;  // the checkpoint restored, if any (run.json)
  std::unique_ptr<app::RunOutputFiles> m_output;
  std::chrono::steady_clock::time_point m_output_start;  // when the output was opened
  StepTimings m_timings_at_open;                         // the workspace's stage times then
};

}  // namespace nscd::python
