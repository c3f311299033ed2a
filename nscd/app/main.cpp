// The `nscd` command (docs/commands.md): parses the command line, maps errors to exit codes.

#include "nscd/app/commands.hpp"
#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/solve.hpp"

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace {
constexpr int kExitInvalidInput = 2;

// the library logger on stderr; its sink also draws the progress bar of `nscd run`
std::shared_ptr<nscd::StatusLineSink> install_logger(bool quiet) {
  auto sink = std::make_shared<nscd::StatusLineSink>(stderr);
  auto log = std::make_shared<spdlog::logger>("nscd-app", sink);
  log->set_pattern("%^[%l]%$ %v");
  log->set_level(quiet ? spdlog::level::err : spdlog::level::info);
  nscd::set_logger(log);
  return sink;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"nscd: non-smooth contact dynamics of rigid and deformable blocks", "nscd"};
  app.set_version_flag("--version", std::string("nscd ") + NSCD_VERSION);
  app.require_subcommand(1);

  nscd::app::RunOptions run;
  std::string out_dir;
  CLI::App* run_cmd = app.add_subcommand("run", "simulate a scene and write its output");
  run_cmd->add_option("scene", run.scene, "scene file (JSON)")->required();
  run_cmd->add_option("--out", out_dir, "output directory (default out/<scene name>)");
  run_cmd->add_option_function<std::string>("--solver", [&](const std::string& v) { run.solver = v; },
                                            "override solver.type (auto|nlgs|ccp|lcp|nsn|prox)");
  run_cmd->add_option_function<std::string>("--model", [&](const std::string& v) { run.model = v; },
                                            "switch every deformable body to this model (rigid|ffr|tl|linear)");
  run_cmd->add_option_function<double>("--duration", [&](double v) { run.duration = v; },
                                       "override time.duration [s]");
  run_cmd->add_option_function<double>("--checkpoint-interval", [&](double v) { run.checkpoint_interval = v; },
                                       "write DIR/checkpoint_*.h5 every T seconds of simulated time, and at the end");
  run_cmd->add_option_function<std::string>("--restart", [&](const std::string& v) { run.restart = v; },
                                            "continue the run saved in this checkpoint, appending to its output");
  CLI::Option* restart_option = run_cmd->get_option("--restart");
  run_cmd->add_flag("--overwrite", run.overwrite,
                    "replace the output of an earlier run in the output directory (its other files are kept)")
      ->excludes(restart_option);
  run_cmd->add_flag("--quiet", run.quiet, "print only errors");

  std::filesystem::path validate_scene;
  CLI::App* validate_cmd = app.add_subcommand("validate", "check a scene and print a summary");
  validate_cmd->add_option("scene", validate_scene, "scene file (JSON)")->required();

  nscd::app::SolveOptions solve;
  std::string solution_file;
  CLI::App* solve_cmd = app.add_subcommand("solve", "solve a frictional contact problem from an FCLIB file");
  solve_cmd->add_option("problem", solve.problem, "FCLIB problem (HDF5), local or global")->required();
  std::string solver_help = "solver:";
  for (const nscd::solvers::SolverVariant& v : nscd::solvers::solver_variants())
    solver_help += "\n  " + std::string(v.name) + ": " + std::string(v.description);
  solve_cmd->add_option("--solver", solve.solver, solver_help)->default_val("auto");
  solve_cmd->add_option("--tolerance", solve.tolerance, "tolerance on the error measure")->default_val(1e-4);
  solve_cmd->add_option("--max-iterations", solve.max_iterations, "iteration budget")->default_val(10000);
  solve_cmd->add_option("--solution", solution_file, "write the problem and its solution (r, u) to this FCLIB file");

  nscd::app::CompareOptions compare;
  CLI::App* compare_cmd = app.add_subcommand(
      "compare", "compare two runs (B the reference); writes compare.csv and compare.png");
  compare_cmd->add_option("run_a", compare.run_a, "output directory of the run compared (A)")->required();
  compare_cmd->add_option("run_b", compare.run_b, "output directory of the reference run (B)")->required();
  compare_cmd->add_option("--out", compare.out, "directory for compare.csv and compare.png (default: the current one)");

  // --threads on every command: TBB's thread limit for the whole command
  int threads = 0;
  for (CLI::App* command : {run_cmd, validate_cmd, solve_cmd, compare_cmd})
    command->add_option("--threads", threads, "worker threads, 0 for all cores")->default_val(0);

  // a word that is not a command gets a plain answer rather than CLI11's "subcommand required"
  const auto commands = app.get_subcommands([](const CLI::App*) { return true; });
  const auto is_command = [&](const char* word) {
    return std::any_of(commands.begin(), commands.end(), [&](const CLI::App* c) { return c->get_name() == word; });
  };
  if (argc > 1 && argv[1][0] != '-' && !is_command(argv[1])) {
    std::fprintf(stderr, "nscd: error: unknown command \"%s\" (this version provides: run, validate, solve, compare; see nscd --help)\n",
                 argv[1]);
    return kExitInvalidInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::vector<CLI::App*> parsed = app.get_subcommands();
    const std::string help = parsed.empty() ? "nscd --help" : "nscd " + parsed.front()->get_name() + " --help";
    std::fprintf(stderr, "nscd: error: %s (see %s)\n", e.what(), help.c_str());
    return kExitInvalidInput;
  }

  const std::shared_ptr<nscd::StatusLineSink> terminal = install_logger(run.quiet);
  try {
    NSCD_THROW_UNLESS(threads >= 0, "--threads {}: expected 0 (all cores) or a positive count", threads);
    const int workers = threads > 0 ? threads : tbb::info::default_concurrency();
    tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(workers));
    run.threads = workers;
    if (*run_cmd) {
      if (!out_dir.empty()) run.out = out_dir;
      if (!run.quiet && isatty(fileno(stderr))) run.progress = terminal;
      return nscd::app::run_command(run);
    }
    if (*solve_cmd) {
      if (!solution_file.empty()) solve.solution = solution_file;
      return nscd::app::solve_command(solve);
    }
    if (*compare_cmd) return nscd::app::compare_command(compare);
    return nscd::app::validate_command(validate_scene);
  } catch (const nscd::InputError& e) {
    std::fprintf(stderr, "nscd: error: %s\n", e.what());
    return kExitInvalidInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nscd: internal error: %s\n", e.what());
    return 1;
  }
}
