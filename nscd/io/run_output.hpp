#pragma once
/// @file
/// The output directory of `nscd run` (docs/output.md) read back, for `nscd compare`: what
/// run.json says about the run, the probes' displacement histories (probes.csv) and the bodies'
/// centre-of-mass histories (bodies.csv).

#include "nscd/core/math.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nscd::io {

/// A named vector quantity at strictly increasing times.
struct History {
  std::string name;
  std::vector<double> times;  // [s]
  std::vector<Vec3> values;   // one per time
};

struct RunOutput {
  std::filesystem::path dir;
  // from run.json
  std::string scene;                                        // absolute path of the scene file
  std::string scene_sha256;
  std::optional<std::string> model_override;               // the --model value, if any
  std::string status;                                       // completed, non_finite, ...
  double wall_seconds = 0;                                  // total wall time [s]
  double simulated_time = 0;                                // the time the run reached [s]
  // wall time per stage [s]: free_motion, detection, assembly, solve, update, output, in this
  // order; free_motion is absent from older run.json files, whose detection includes it
  std::vector<std::pair<std::string, double>> stage_seconds;
  // one history per probe and per body, in order of first appearance in the file
  std::vector<History> probes;  // displacement u = (ux, uy, uz) [m], from probes.csv
  std::vector<History> bodies;  // centre of mass x = (x, y, z) [m], from bodies.csv
};

/// Reads DIR/run.json, DIR/probes.csv and DIR/bodies.csv.
/// @throws nscd::InputError naming the directory or the file, and the line (CSV) or JSON path,
///         and what was expected: DIR is not a directory, a file is missing, a CSV row is
///         malformed (a column missing, a cell other than the name not a finite number) or a
///         probe's or body's times do not increase strictly, or run.json lacks a
///         key (`wall_seconds` is written when the run ends, so a run still going or killed has
///         none; `stage_seconds.free_motion` alone may be missing).
RunOutput read_run_output(const std::filesystem::path& dir);

}  // namespace nscd::io
