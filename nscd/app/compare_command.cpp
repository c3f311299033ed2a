#include "nscd/app/commands.hpp"
#include "nscd/app/plot_script.hpp"
#include "nscd/app/run_comparison.hpp"
#include "nscd/core/error.hpp"
#include "nscd/io/output_writer.hpp"
#include "nscd/io/run_output.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <iterator>

extern char** environ;

namespace nscd::app {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCsvFile = "compare.csv";
constexpr const char* kPlotFile = "compare.png";

// a / b, or nothing when b = 0
std::optional<double> ratio(double a, double b) {
  if (b == 0) return std::nullopt;
  return a / b;
}

// a number in the shortest form that reads back, as in the output CSV files; empty for nothing
std::string csv_number(std::optional<double> x) { return x ? fmt::format("{}", *x) : std::string(); }

// "--model ffr", or "no --model" when the run had none
std::string model_text(const io::RunOutput& run) {
  return run.model_override ? "--model " + *run.model_override : std::string("no --model");
}

void print_header(const io::RunOutput& a, const io::RunOutput& b, const std::vector<HistoryDifference>& rows) {
  for (const auto& [label, run] : {std::pair{"A", &a}, std::pair{"B", &b}})
    std::printf("%s: %s  (%s, status %s, %g s simulated)%s\n", label, run->dir.string().c_str(),
                model_text(*run).c_str(), run->status.c_str(), run->simulated_time,
                run == &b ? "  reference" : "");
  if (a.scene_sha256 == b.scene_sha256)
    std::printf("scene: %s\n", b.scene.c_str());
  else
    std::printf("scenes differ: A ran %s, B ran %s (SHA-256 %.12s..., %.12s...)\n", a.scene.c_str(), b.scene.c_str(),
                a.scene_sha256.c_str(), b.scene_sha256.c_str());
  if (rows.empty()) return;
  const bool interpolated = std::any_of(rows.begin(), rows.end(), [](const HistoryDifference& d) { return d.interpolated; });
  std::printf("compared over the common interval [%g, %g] s at B's %d output times%s\n", rows.front().t_first,
              rows.front().t_last, rows.front().samples,
              interpolated ? "; A's output times differ: A is interpolated linearly onto them" : "");
}

void print_table(const io::RunOutput& a, const io::RunOutput& b, const std::vector<HistoryDifference>& rows,
                 const std::vector<WallTimeRate>& rates) {
  int width = 4;  // "name"
  for (const HistoryDifference& d : rows) width = std::max(width, static_cast<int>(d.name.size()));
  std::printf("\n%-8s  %-*s  %-13s  %s\n", "quantity", width, "name", "rel. L2 diff", "max abs diff [m]");
  bool any_absolute = false;
  for (const HistoryDifference& d : rows) {
    const std::optional<double> relative = d.relative();
    any_absolute = any_absolute || !relative;
    const std::string l2 = relative ? fmt::format("{:.3e}", *relative) : fmt::format("{:.3e} m*", d.l2_difference);
    std::printf("%-8s  %-*s  %-13s  %.3e\n", d.quantity.c_str(), width, d.name.c_str(), l2.c_str(),
                d.max_abs_difference);
  }
  if (any_absolute)
    std::printf("* B's history is zero (it does not move): the absolute L2 difference [m] is shown\n");

  int stage_width = 5;  // "stage"
  for (const WallTimeRate& rate : rates) stage_width = std::max(stage_width, static_cast<int>(rate.name.size()));
  std::printf("\nwall time per simulated second [s/s] (each run's wall times divided by its simulated time)\n");
  std::printf("%-*s  %10s  %10s  %8s\n", stage_width, "stage", "A", "B", "A/B");
  for (const WallTimeRate& rate : rates) {
    const std::optional<double> r = ratio(rate.a, rate.b);
    const std::string r_text = r ? fmt::format("{:.3g}", *r) : "-";
    std::printf("%-*s  %10.4g  %10.4g  %8s\n", stage_width, rate.name.c_str(), rate.a, rate.b, r_text.c_str());
  }
  for (const auto& [label, run] : {std::pair{"A", &a}, std::pair{"B", &b}})
    if (!has_free_motion(*run))
      std::printf("%s's run.json has no free_motion stage (an older nscd counted it in detection): the free motion "
                  "of both runs is counted in detection\n",
                  label);
}

// compare.csv: one row per probe and body, then the wall times per simulated second (total and
// per stage)
void write_csv(const fs::path& file, const std::vector<HistoryDifference>& rows,
               const std::vector<WallTimeRate>& rates) {
  std::string text = "quantity,name,relative_l2_difference,l2_difference,max_abs_difference,samples,a,b,ratio\n";
  auto out = std::back_inserter(text);
  for (const HistoryDifference& d : rows)
    fmt::format_to(out, "{},{},{},{},{},{},{},{},{}\n", d.quantity, d.name, csv_number(d.relative()), d.l2_difference,
                   d.max_abs_difference, d.samples, d.norm_a, d.norm_b, csv_number(ratio(d.norm_a, d.norm_b)));
  for (const WallTimeRate& rate : rates)
    fmt::format_to(out, "wall_seconds_per_simulated_second,{},,,,,{},{},{}\n", rate.name, rate.a, rate.b,
                   csv_number(ratio(rate.a, rate.b)));
  io::write_file_atomically(file, text);
}

// runs `args` (args[0] a path, or a program searched on PATH) and waits: its exit code, or -1 if
// it cannot be started; `quiet` sends its stdout and stderr to /dev/null
int run_program(const std::vector<std::string>& args, bool quiet) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  }
  std::fflush(stdout);
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

// draws `png` with tools/plot_compare.py run by NSCD_PYTHON, the interpreter CMake found; what
// happened, as one line
std::string plot(const io::RunOutput& a, const io::RunOutput& b, const fs::path& png) {
  if (b.probes.empty()) return "plot skipped: the scene has no probes";
  const std::string python = NSCD_PYTHON;
  if (python.empty()) return "plot skipped: no Python 3 interpreter was found when nscd was built";
  std::error_code ec;
  fs::path executable = fs::read_symlink("/proc/self/exe", ec);
  if (ec) executable.clear();  // its location unknown: the source tree's script only
  const std::optional<fs::path> script = find_plot_script(executable);
  if (!script) {
    std::vector<std::string> places;
    for (const fs::path& candidate : plot_script_candidates(executable)) places.push_back(candidate.string());
    return fmt::format("plot skipped: plot_compare.py not found (looked for {})", fmt::join(places, ", "));
  }
  const int import = run_program({python, "-c", "import matplotlib"}, true);
  if (import == -1) return fmt::format("plot skipped: {} cannot be run", python);
  if (import != 0)
    return fmt::format("plot skipped: {} cannot import matplotlib (Debian package python3-matplotlib)", python);
  const int status = run_program({python, script->string(), a.dir.string(), b.dir.string(), png.string()}, false);
  if (status != 0) return fmt::format("plot skipped: {} failed (exit code {})", script->string(), status);
  return fmt::format("wrote {}", png.string());
}

}  // namespace

int compare_command(const CompareOptions& options) {
  const io::RunOutput a = io::read_run_output(options.run_a);
  const io::RunOutput b = io::read_run_output(options.run_b);
  const std::vector<HistoryDifference> rows = compare_runs(a, b);
  const std::vector<WallTimeRate> rates = wall_time_rates(a, b);
  std::error_code ec;
  fs::create_directories(options.out, ec);
  NSCD_THROW_UNLESS(!ec, "--out {}: cannot create the directory: {}", options.out.string(), ec.message());
  print_header(a, b, rows);
  print_table(a, b, rows, rates);
  const fs::path csv = (options.out / kCsvFile).lexically_normal();
  write_csv(csv, rows, rates);
  std::printf("\nwrote %s\n%s\n", csv.string().c_str(),
              plot(a, b, (options.out / kPlotFile).lexically_normal()).c_str());
  return 0;
}

}  // namespace nscd::app
