#pragma once
/// @file The subcommands of the `nscd` program (docs/commands.md). Each returns the process exit
/// code: 0 success, 2 invalid input, 3 the simulation stopped on a non-finite state or a
/// solver failure the scene declares fatal. Invalid input is reported by throwing
/// nscd::InputError, which main() turns into a message and exit code 2.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace nscd {
class StatusLineSink;
}

namespace nscd::app {

struct RunOptions {
  std::filesystem::path scene;
  std::optional<std::filesystem::path> out;  // default out/<scene name>
  int threads = 1;                           // worker threads (main.cpp sets TBB's limit), for run.json
  std::optional<std::string> solver;         // overrides solver.type
  std::optional<std::string> model;          // switches every deformable body to this model
  std::optional<int> modes;                  // elastic modes of every ffr body (0: full FFR)
  std::optional<std::string> static_correction;  // of every modal ffr body (none|joints)
  std::optional<std::string> contact_surface;    // of every ffr body (mesh|shape)
  std::optional<std::string> unresolved_modes;   // of every modal ffr body (trapezoidal|backward_euler)
  std::optional<std::string> contact;        // overrides contact.model (nscd|penalty)
  std::optional<double> duration;            // overrides time.duration [s]
  std::optional<double> checkpoint_interval; // [s] of simulated time between checkpoints
  std::optional<std::filesystem::path> restart;  // checkpoint to continue from
  bool overwrite = false;                    // delete an earlier run's output in `out` first
  bool quiet = false;
  std::shared_ptr<StatusLineSink> progress;  // where to draw a progress bar (stderr is a terminal), or null
};

int run_command(const RunOptions& options);

int validate_command(const std::filesystem::path& scene);

struct CollapseOptions {
  std::filesystem::path scene;
  std::string direction;                     // "X,Y,Z", not normalised
  std::optional<std::filesystem::path> out;  // default out/<scene name>_collapse
  bool overwrite = false;                    // delete an earlier run's output in `out` first
  int threads = 1;                           // worker threads, for run.json
  double precision = 0.005;                  // P: bisection until λ_hi − λ_lo ≤ P λ_hi
  double max_multiplier = 10;                // the largest λ tried
  std::optional<double> displacement;        // δ [m] (collapse_analysis.hpp eq. 3 by default)
  std::optional<double> ramp_time;           // T_r [s]
  std::optional<double> hold_time;           // T_h [s]
  bool quiet = false;
};

/// Finds the multiplier λ at which the scene's structure collapses under the body acceleration
/// λ |g| d̂ (collapse_analysis.hpp), writes OUT/collapse.json and the frames of the collapsing
/// trial, and prints `collapse multiplier <λ>` as its last line. Exit code 1 when the structure
/// does not stand under its own weight or stands up to the largest multiplier (not invalid
/// input: the answer is that there is no collapse multiplier to give).
int collapse_command(const CollapseOptions& options);

struct SolveOptions {
  std::filesystem::path problem;                  // FCLIB file, local or global
  std::string solver = "auto";                    // a name of solvers::solver_variants()
  double tolerance = 1e-4;                        // on the error measure of solvers/error_measure.hpp
  int max_iterations = 10000;
  int anderson_depth = 3;                         // NLGS sweeps mixed (solvers/anderson_mixing.hpp), 0: none
  std::string error_measure = "siconos";          // "siconos" or "velocity", a scene's solver.error_measure
  std::optional<std::filesystem::path> solution;  // where to write (r, u)
};

/// Solves an FCLIB problem from r = 0 and prints one line: contacts, solver, iterations,
/// error, seconds, status. Not converging is a reported status, not a failure (exit code 0).
int solve_command(const SolveOptions& options);

struct CompareOptions {
  std::filesystem::path run_a, run_b;  // output directories of `nscd run`, B the reference
  std::filesystem::path out = ".";     // where compare.csv and compare.png are written
};

/// Compares two output directories of `nscd run`, B the reference, of the same scene or of two
/// scene files with the same probe and body names (run_comparison.hpp has the formulas): prints a
/// table of the relative L2 differences of the probe and body histories and of the wall times
/// per simulated second, writes OUT/compare.csv and, when the Python interpreter found at build
/// time imports matplotlib, OUT/compare.png (tools/plot_compare.py, plot_script.hpp).
int compare_command(const CompareOptions& options);

}  // namespace nscd::app
