#pragma once
/// @file The subcommands of the `nscd` program (docs/commands.md). Each returns the process exit
/// code: 0 success, 2 invalid input, 3 the simulation stopped on a non-finite state or a
/// solver failure the scene declares fatal. Invalid input is reported by throwing
/// nscd::InputError, which main() turns into a message and exit code 2.

#include <filesystem>
#include <optional>
#include <string>

namespace nscd::app {

struct RunOptions {
  std::filesystem::path scene;
  std::optional<std::filesystem::path> out;  // default out/<scene name>
  int threads = 1;                           // worker threads (main.cpp sets TBB's limit), for run.json
  std::optional<std::string> solver;         // overrides solver.type
  std::optional<std::string> model;          // switches every deformable body to this model
  std::optional<double> duration;            // overrides time.duration [s]
  std::optional<double> checkpoint_interval; // [s] of simulated time between checkpoints
  std::optional<std::filesystem::path> restart;  // checkpoint to continue from
  bool quiet = false;
  bool progress = false;                     // draw a progress bar (stderr is a terminal)
};

int run_command(const RunOptions& options);

int validate_command(const std::filesystem::path& scene);

struct SolveOptions {
  std::filesystem::path problem;                  // FCLIB file, local or global
  std::string solver = "nlgs";                    // a name of solvers::solver_variants()
  double tolerance = 1e-4;                        // on the error measure of solvers/error_measure.hpp
  int max_iterations = 10000;
  std::optional<std::filesystem::path> solution;  // where to write (r, u)
};

/// Solves an FCLIB problem from r = 0 and prints one line: contacts, solver, iterations,
/// error, seconds, status. Not converging is a reported status, not a failure (exit code 0).
int solve_command(const SolveOptions& options);

/// Compares two output directories of `nscd run` of the same scene, B the reference
/// (run_comparison.hpp has the formulas): prints a table of the relative L2 differences of the
/// probe and body histories and of the wall times, writes compare.csv and, when python3 can
/// import matplotlib, compare.png (tools/plot_compare.py) in the current directory.
int compare_command(const std::filesystem::path& run_a, const std::filesystem::path& run_b);

}  // namespace nscd::app
