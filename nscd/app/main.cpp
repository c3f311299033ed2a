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
#include <filesystem>
#include <memory>
#include <optional>
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

// every command's options, filled by the parser
struct Commands {
  nscd::app::RunOptions run;
  std::string out_dir;
  std::filesystem::path validate_scene;
  nscd::app::SolveOptions solve;
  std::string solution_file;
  nscd::app::CompareOptions compare;
  nscd::app::CollapseOptions collapse;
  std::string collapse_out;
  int threads = 0;
  CLI::App* run_cmd = nullptr;
  CLI::App* validate_cmd = nullptr;
  CLI::App* solve_cmd = nullptr;
  CLI::App* compare_cmd = nullptr;
  CLI::App* collapse_cmd = nullptr;
};

void add_run_command(CLI::App& app, Commands& c) {
  nscd::app::RunOptions& run = c.run;
  CLI::App* cmd = c.run_cmd = app.add_subcommand("run", "simulate a scene and write its output");
  cmd->add_option("scene", run.scene, "scene file (JSON)")->required();
  cmd->add_option("--out", c.out_dir, "output directory (default out/<scene name>)");
  cmd->add_option_function<std::string>("--solver", [&](const std::string& v) { run.solver = v; },
                                        fmt::format("override solver.type ({})",
                                                    fmt::join(nscd::solvers::step_solver_names(), "|")));
  cmd->add_option_function<std::string>("--model", [&](const std::string& v) { run.model = v; },
                                        "switch every rigid and deformable body to this model (rigid|ffr|tl|linear)");
  cmd->add_option_function<int>("--modes", [&](int v) { run.modes = v; },
                                "keep the K lowest elastic modes of every ffr body (0: the full mesh)");
  cmd->add_option_function<std::string>("--static-correction", [&](const std::string& v) { run.static_correction = v; },
                                        "static correction of every modal ffr body (none|joints)");
  cmd->add_option_function<std::string>("--contact-surface", [&](const std::string& v) { run.contact_surface = v; },
                                        "contact of every ffr body on its mesh's nodes or its shape's faces (mesh|shape)");
  cmd->add_option_function<std::string>("--unresolved-modes", [&](const std::string& v) { run.unresolved_modes = v; },
                                        "integration of the modes of every modal ffr body with ω h > 2 "
                                        "(trapezoidal|backward_euler)");
  cmd->add_option_function<std::string>("--contact", [&](const std::string& v) { run.contact = v; },
                                        "override contact.model (nscd|penalty)");
  cmd->add_option_function<double>("--duration", [&](double v) { run.duration = v; }, "override time.duration [s]");
  cmd->add_option_function<double>("--checkpoint-interval", [&](double v) { run.checkpoint_interval = v; },
                                   "write DIR/checkpoint_*.h5 every T seconds of simulated time, and at the end");
  cmd->add_option_function<std::string>("--restart", [&](const std::string& v) { run.restart = v; },
                                        "continue the run saved in this checkpoint, appending to its output");
  CLI::Option* restart_option = cmd->get_option("--restart");
  cmd->add_flag("--overwrite", run.overwrite,
                "replace the output of an earlier run in the output directory (its other files are kept)")
      ->excludes(restart_option);
  cmd->add_flag("--quiet", run.quiet, "print only errors");
}

void add_validate_command(CLI::App& app, Commands& c) {
  c.validate_cmd = app.add_subcommand("validate", "check a scene and print a summary");
  c.validate_cmd->add_option("scene", c.validate_scene, "scene file (JSON)")->required();
}

void add_solve_command(CLI::App& app, Commands& c) {
  nscd::app::SolveOptions& solve = c.solve;
  CLI::App* cmd = c.solve_cmd = app.add_subcommand("solve", "solve a frictional contact problem from an FCLIB file");
  cmd->add_option("problem", solve.problem, "FCLIB problem (HDF5), local or global")->required();
  std::string solver_help = "solver:";
  for (const nscd::solvers::SolverVariant& v : nscd::solvers::solver_variants())
    solver_help += "\n  " + std::string(v.name) + ": " + std::string(v.description);
  cmd->add_option("--solver", solve.solver, solver_help)->default_val("auto");
  cmd->add_option("--tolerance", solve.tolerance, "tolerance on the error measure")->default_val(1e-4);
  cmd->add_option("--max-iterations", solve.max_iterations, "iteration budget")->default_val(10000);
  cmd->add_option("--anderson-depth", solve.anderson_depth,
                  "sweeps of nlgs and auto mixed by Anderson's method, 0 for plain Gauss-Seidel")
      ->default_val(3);
  cmd->add_option("--error-measure", solve.error_measure,
                  "siconos: Siconos's fc3d_compute_error; velocity: each impulse as the velocity it gives its contact, "
                  "as a scene's steps measure it (solver.error_measure)")
      ->default_val("siconos");
  cmd->add_option("--solution", c.solution_file, "write the problem and its solution (r, u) to this FCLIB file");
}

void add_compare_command(CLI::App& app, Commands& c) {
  nscd::app::CompareOptions& compare = c.compare;
  CLI::App* cmd = c.compare_cmd =
      app.add_subcommand("compare", "compare two runs (B the reference); writes compare.csv and compare.png");
  cmd->add_option("run_a", compare.run_a, "output directory of the run compared (A)")->required();
  cmd->add_option("run_b", compare.run_b, "output directory of the reference run (B)")->required();
  cmd->add_option("--out", compare.out, "directory for compare.csv and compare.png (default: the current one)");
}

void add_collapse_command(CLI::App& app, Commands& c) {
  nscd::app::CollapseOptions& collapse = c.collapse;
  CLI::App* cmd = c.collapse_cmd = app.add_subcommand(
      "collapse", "find the load multiplier at which a structure collapses under a body acceleration");
  cmd->add_option("scene", collapse.scene, "scene file (JSON)")->required();
  cmd->add_option("--direction", collapse.direction, "direction X,Y,Z of the body acceleration λ|g|")->required();
  cmd->add_option("--out", c.collapse_out, "output directory (default out/<scene name>_collapse)");
  cmd->add_flag("--overwrite", collapse.overwrite, "replace the output of an earlier run in the output directory");
  cmd->add_option("--precision", collapse.precision, "bisect until (λ_hi - λ_lo) <= P λ_hi")->default_val(0.005);
  cmd->add_option("--max-multiplier", collapse.max_multiplier, "the largest multiplier tried")->default_val(10);
  cmd->add_option_function<double>("--displacement", [&](double v) { collapse.displacement = v; },
                                   "collapse criterion: a body moving more than this [m] (default 1 % of the "
                                   "smallest body's size)");
  cmd->add_option_function<double>("--ramp-time", [&](double v) { collapse.ramp_time = v; },
                                   "time over which the load rises to λ [s] (default 4 sqrt(L/|g|))");
  cmd->add_option_function<double>("--hold-time", [&](double v) { collapse.hold_time = v; },
                                   "time the load is then held [s] (default 8 sqrt(L/|g|))");
  cmd->add_flag("--quiet", collapse.quiet, "print only errors and the result");
}

// the command line parsed into the options bound to `app`; an exit code if the command ends there
// (help, version, an unknown command or a parse error)
std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  // a word that is not a command gets a plain answer rather than CLI11's "subcommand required"
  const auto commands = app.get_subcommands([](const CLI::App*) { return true; });
  const auto is_command = [&](const char* word) {
    return std::any_of(commands.begin(), commands.end(), [&](const CLI::App* cmd) { return cmd->get_name() == word; });
  };
  if (argc > 1 && argv[1][0] != '-' && !is_command(argv[1])) {
    std::fprintf(stderr, "nscd: error: unknown command \"%s\" (this version provides: run, validate, solve, compare, collapse; see nscd --help)\n",
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
  return std::nullopt;
}

// the parsed command run under TBB's thread limit; input errors exit with code 2
int run_parsed(Commands& c, const std::shared_ptr<nscd::StatusLineSink>& terminal) {
  try {
    NSCD_THROW_UNLESS(c.threads >= 0, "--threads {}: expected 0 (all cores) or a positive count", c.threads);
    const int workers = c.threads > 0 ? c.threads : tbb::info::default_concurrency();
    tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(workers));
    c.run.threads = workers;
    if (*c.run_cmd) {
      if (!c.out_dir.empty()) c.run.out = c.out_dir;
      if (!c.run.quiet && isatty(fileno(stderr))) c.run.progress = terminal;
      return nscd::app::run_command(c.run);
    }
    if (*c.solve_cmd) {
      if (!c.solution_file.empty()) c.solve.solution = c.solution_file;
      return nscd::app::solve_command(c.solve);
    }
    if (*c.compare_cmd) return nscd::app::compare_command(c.compare);
    if (*c.collapse_cmd) {
      if (!c.collapse_out.empty()) c.collapse.out = c.collapse_out;
      c.collapse.threads = workers;
      return nscd::app::collapse_command(c.collapse);
    }
    return nscd::app::validate_command(c.validate_scene);
  } catch (const nscd::InputError& e) {
    std::fprintf(stderr, "nscd: error: %s\n", e.what());
    return kExitInvalidInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nscd: internal error: %s\n", e.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"nscd: non-smooth contact dynamics of rigid and deformable blocks", "nscd"};
  app.set_version_flag("--version", std::string("nscd ") + NSCD_VERSION);
  app.require_subcommand(1);
  Commands c;
  add_run_command(app, c);
  add_validate_command(app, c);
  add_solve_command(app, c);
  add_compare_command(app, c);
  add_collapse_command(app, c);
  // --threads on every command: TBB's thread limit for the whole command
  for (CLI::App* command : {c.run_cmd, c.validate_cmd, c.solve_cmd, c.compare_cmd, c.collapse_cmd})
    command->add_option("--threads", c.threads, "worker threads, 0 for all cores")->default_val(0);
  if (const std::optional<int> exit_code = parse(app, argc, argv)) return *exit_code;
  const std::shared_ptr<nscd::StatusLineSink> terminal = install_logger(c.run.quiet || c.collapse.quiet);
  return run_parsed(c, terminal);
}
