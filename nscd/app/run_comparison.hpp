#pragma once
/// @file
/// The arithmetic of `nscd compare` (docs/commands.md): how far run A's histories are from those
/// of the reference run B of the same scene.
///
/// For a history a(t) of A and b(t) of B (3-vectors), over B's output times t_k that lie in the
/// common interval [max(a's first time, b's first), min(a's last time, b's last)]:
///
///   ‖a − b‖₂ = sqrt(Σ_k ‖a(t_k) − b(t_k)‖²),   ‖b‖₂ = sqrt(Σ_k ‖b(t_k)‖²),
///   relative L2 difference = ‖a − b‖₂ / ‖b‖₂,
///   max abs difference     = max_k ‖a(t_k) − b(t_k)‖            (‖·‖ the Euclidean norm).
///
/// Where A has no output at t_k, a(t_k) is interpolated linearly between A's neighbouring
/// outputs (times closer than 1e-9 × B's time span count as equal). When ‖b‖₂ = 0 (a history
/// that does not move in B, such as a fixed body) the relative difference is undefined and the
/// absolute ‖a − b‖₂ is reported instead.
///
/// The histories compared are each probe's displacement u(t) (probes.csv) and each body's
/// centre-of-mass displacement x(t) − x(t₀), t₀ the body's first row in bodies.csv.
///
/// Wall times (run.json) are compared per simulated second, w / T with T the time the run
/// reached, so that runs of different lengths compare fairly.

#include "nscd/io/run_output.hpp"

#include <optional>
#include <string>
#include <vector>

namespace nscd::app {

struct HistoryDifference {
  std::string quantity;  // "probe" or "body"
  std::string name;
  int samples = 0;                  // B's output times in the common interval
  double t_first = 0, t_last = 0;   // the first and last of them [s]
  bool interpolated = false;        // some a(t_k) was interpolated
  double norm_a = 0, norm_b = 0;    // ‖a‖₂, ‖b‖₂ [m]
  double l2_difference = 0;         // ‖a − b‖₂ [m]
  double max_abs_difference = 0;    // [m]

  /// ‖a − b‖₂ / ‖b‖₂, or nothing when ‖b‖₂ = 0.
  std::optional<double> relative() const;
};

/// The differences above between two histories (names and quantity left empty); samples is 0
/// when their times do not overlap.
HistoryDifference history_difference(const io::History& a, const io::History& b);

/// Compares every probe and then every body of A with the one of the same name in B, in B's
/// order. A and B may be runs of different scene files (two meshes, two load levels).
/// @throws nscd::InputError if A and B do not have the same probe and body names, or a history
///         of A and its namesake in B share no output time.
std::vector<HistoryDifference> compare_runs(const io::RunOutput& a, const io::RunOutput& b);

/// A wall time of both runs per simulated second [s/s].
struct WallTimeRate {
  std::string name;  // "total" or a stage of run.json's stage_seconds
  double a = 0, b = 0;
};

/// Whether the run's run.json times the free motion as a stage of its own (older files count it
/// in detection).
bool has_free_motion(const io::RunOutput& run);

/// The total wall time and each stage's of A and B, divided by the simulated time of each run.
/// When one run.json has no free_motion stage (older files, whose detection included the free
/// motion), the other run's free_motion is added to its detection too, in a row named
/// "free_motion+detection", so that the rows compare the same work.
/// @throws nscd::InputError if a run's simulated time is 0 (it did not complete a step).
std::vector<WallTimeRate> wall_time_rates(const io::RunOutput& a, const io::RunOutput& b);

}  // namespace nscd::app
