#pragma once
/// @file
/// The output of a run (docs/output.md), one implementation for `nscd run` and the Python
/// module's simulations: the fixed bodies and the first frame, a history row per step, a frame
/// every Model::output_every steps and at the last step (and, after a failed step, of the last
/// finite state), the step's contact problem every solver.dump_every steps as an FCLIB file,
/// checkpoints every `checkpoint_every` steps, and run.json at the start and at the end with
/// what the run's diagnostics counted (RunDiagnostics) and the wall time per stage.

#include "nscd/io/checkpoint.hpp"
#include "nscd/io/output_writer.hpp"
#include "nscd/step/energy_balance.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"
#include "nscd/step/stepper.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace nscd::app {

/// What the steps report beyond their history: events counted, each warned about once.
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

/// The checkpoint `file`, refused unless a run of the scene `scene` (SHA-256 `scene_sha256`) wrote it.
/// @throws nscd::InputError naming the file and both scenes' SHA-256, or as io::read_checkpoint.
io::Checkpoint read_run_checkpoint(const std::filesystem::path& file, const Model& m, const std::string& scene_sha256,
                                   const std::filesystem::path& scene);

/// The diagnostics of a run starting at `s`, or continuing from checkpoint `restart`.
RunDiagnostics start_diagnostics(const Model& m, const State& s, const io::Checkpoint* restart,
                                 std::optional<double> max_penetration);

/// Counts the step just made (from velocities `start` to `s`, solved `contacts`), warning at the
/// first occurrence of each event, and adds its energy flows to d.energy.
void note_step(RunDiagnostics& d, const Model& m, const StepStartVelocities& start, const State& s,
               const StepContacts& contacts, const StepReport& report);

/// Where the output goes and what is written besides frames and history.
struct RunOutputOptions {
  std::filesystem::path dir;
  bool overwrite = false;         // delete an earlier run's output in dir first
  std::string scene_sha256;       // recorded in checkpoints
  std::optional<int> dump_every;  // solver.dump_every
  long checkpoint_every = 0;      // steps, 0 for none
};

class RunOutputFiles {
 public:
  /// Prepares `o.dir` and writes run.json's `header`, the fixed bodies and the frame of `s`; given
  /// `resume` (where a checkpoint's output stood), continues that output in `o.dir` instead.
  /// @throws nscd::InputError when dir holds an earlier run's output and `o.overwrite` is false.
  RunOutputFiles(const Model& m, const State& s, RunOutputOptions o, const io::OutputPosition* resume,
                 nlohmann::json header);

  /// The files of the step just made (from velocities `start` to `s`, its contacts solved in
  /// ws.contacts), its diagnostics noted in `d` (note_step).
  void after_step(const StepStartVelocities& start, const State& s, const StepWorkspace& ws,
                  const StepReport& report, double wall_seconds, RunDiagnostics& d);

  /// Ends the output at `s`, the last finite state: its frame when the last step failed and it was
  /// not written yet, the files flushed, the last checkpoint, and run.json's entries at the end.
  /// @param timings  the stage times of the run's steps
  /// @param start    when the run started (its wall time is recorded)
  void finish(const State& s, const StepReport& last, const RunDiagnostics& d, const StepTimings& timings,
              std::chrono::steady_clock::time_point start);

  io::OutputPosition position() { return m_out.position(); }
  /// Wall time spent writing files [s].
  double seconds() const { return m_seconds; }

 private:
  void write_frame(const State& s, const io::ContactFrame& contacts, const io::JointFrame& joints);
  void write_checkpoint_now(const State& s, const RunDiagnostics& d);

  const Model& m_m;
  RunOutputOptions m_o;
  io::OutputWriter m_out;
  nlohmann::json m_run;
  double m_seconds = 0;
  long m_last_output = 0;  // the step of the last frame written
};

}  // namespace nscd::app
