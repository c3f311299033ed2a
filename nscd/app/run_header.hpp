#pragma once
/// @file
/// run.json's entries as a run starts (docs/output.md), the same for `nscd run` and the Python
/// module: the program's and VTK's versions, the scene and its SHA-256, the checkpoint the run
/// continues (or null), threads, solver, the --model override (or null), the time step, and
/// status "running".

#include "solvers/solver_result.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace nscd::app {

struct RunStart {
  std::filesystem::path scene;                          // written absolute
  std::string scene_sha256;
  std::optional<std::filesystem::path> restarted_from;  // the checkpoint continued
  int threads = 0;
  solvers::SolverType solver = solvers::SolverType::Auto;
  std::optional<std::string> model_override;
  double time_step = 0;
};

nlohmann::json run_header(const RunStart& start);

}  // namespace nscd::app
