#pragma once
/// @file The output of a Python simulation, written as `nscd run` writes it (docs/output.md)
/// through nscd/io/output_writer.hpp and nscd/io/output_frames.hpp: the first frame and the
/// fixed bodies, a history row per step, a frame every Model::output_every steps and at the
/// last step, run.json at the start and at the end.

#include "nscd/io/output_writer.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/energy_balance.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"
#include "nscd/step/stepper.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace nscd::python {

class SimulationOutput {
 public:
  /// Opens `dir`: a new run's (refusing an earlier run's output unless `overwrite`), or, given
  /// `resume`, the continuation of the output of the run a checkpoint was taken from.
  /// @param header  run.json's entries at the start
  SimulationOutput(const std::filesystem::path& dir, bool overwrite, const Model& m, const State& s,
                   const io::OutputPosition* resume, nlohmann::json header);

  /// The history row of the step just made, with the run's energy balance after it, and its
  /// frame when due.
  void after_step(const Model& m, const State& s, const StepContacts& contacts, const StepReport& report,
                  double wall_seconds, const EnergyBalance& energy);

  /// Flushes the files and records the end in run.json.
  void close(const State& s, const StepReport& last, long non_converged);

  io::OutputPosition position() { return m_out.position(); }

 private:
  io::OutputWriter m_out;
  nlohmann::json m_run;
  bool m_closed = false;
};

}  // namespace nscd::python
