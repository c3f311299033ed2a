#include "nscd/app/commands.hpp"
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
    std::printf("%s: %s  (%s, status %s)%s\n", label, run->dir.string().c_str(), model_text(*run).c_str(),
                run->status.c_str(), run == &b ? "  reference" : "");
  std::printf("scene: %s\n", b.scene.c_str());
  if (rows.empty()) return;
  const bool interpolated = std::any_of(rows.begin(), rows.end(), [](const HistoryDifference& d) { return d.interpolated; });
  std::printf("compared over the common interval [%g, %g] s at B's %d output times%s\n", rows.front().t_first,
              rows.front().t_last, rows.front().samples,
              interpolated ? "; A's output times differ: A is interpolated linearly onto them" : "");
}

void print_table(const io::RunOutput& a, const io::RunOutput& b, const std::vector<HistoryDifference>& rows) {
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

  std::printf("\n%-13s  %10s  %10s  %8s\n", "wall time [s]", "A", "B", "A/B");
  const auto print_wall = [](const std::string& name, double wall_a, double wall_b) {
    const std::optional<double> r = ratio(wall_a, wall_b);
    const std::string r_text = r ? fmt::format("{:.3g}", *r) : "-";
    std::printf("%-13s  %10.4g  %10.4g  %8s\n", name.c_str(), wall_a, wall_b, r_text.c_str());
  };
  print_wall("total", a.wall_seconds, b.wall_seconds);
  for (std::size_t i = 0; i < b.stage_seconds.size(); ++i)
    print_wall(b.stage_seconds[i].first, a.stage_seconds[i].second, b.stage_seconds[i].second);
}

// compare.csv: one row per probe and body, then the wall times (total and per stage)
void write_csv(const io::RunOutput& a, const io::RunOutput& b, const std::vector<HistoryDifference>& rows) {
  std::string text = "quantity,name,relative_l2_difference,l2_difference,max_abs_difference,samples,a,b,ratio\n";
  auto out = std::back_inserter(text);
  for (const HistoryDifference& d : rows)
    fmt::format_to(out, "{},{},{},{},{},{},{},{},{}\n", d.quantity, d.name, csv_number(d.relative()), d.l2_difference,
                   d.max_abs_difference, d.samples, d.norm_a, d.norm_b, csv_number(ratio(d.norm_a, d.norm_b)));
  const auto wall_row = [&](const std::string& name, double wall_a, double wall_b) {
    fmt::format_to(out, "wall_time,{},,,,,{},{},{}\n", name, wall_a, wall_b, csv_number(ratio(wall_a, wall_b)));
  };
  wall_row("total", a.wall_seconds, b.wall_seconds);
  for (std::size_t i = 0; i < b.stage_seconds.size(); ++i)
    wall_row(b.stage_seconds[i].first, a.stage_seconds[i].second, b.stage_seconds[i].second);
  io::write_file_atomically(kCsvFile, text);
}

// runs `args` (the program searched on PATH) and waits: its exit code, or -1 if it cannot be
// started; `quiet` sends its stdout and stderr to /dev/null
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

// draws compare.png with tools/plot_compare.py; what happened, as one line
std::string plot(const io::RunOutput& a, const io::RunOutput& b) {
  const fs::path script = fs::path(NSCD_SOURCE_DIR) / "tools" / "plot_compare.py";
  if (b.probes.empty()) return "plot skipped: the scene has no probes";
  std::error_code ec;
  if (!fs::is_regular_file(script, ec)) return fmt::format("plot skipped: {} not found", script.string());
  const int import = run_program({"python3", "-c", "import matplotlib"}, true);
  if (import == -1) return "plot skipped: python3 not found";
  if (import != 0) return "plot skipped: python3 cannot import matplotlib (Debian package python3-matplotlib)";
  const int status = run_program({"python3", script.string(), a.dir.string(), b.dir.string(), kPlotFile}, false);
  if (status != 0) return fmt::format("plot skipped: {} failed (exit code {})", script.string(), status);
  return fmt::format("wrote {}", kPlotFile);
}

}  // namespace

int compare_command(const fs::path& run_a, const fs::path& run_b) {
  const io::RunOutput a = io::read_run_output(run_a);
  const io::RunOutput b = io::read_run_output(run_b);
  const std::vector<HistoryDifference> rows = compare_runs(a, b);
  print_header(a, b, rows);
  print_table(a, b, rows);
  write_csv(a, b, rows);
  std::printf("\nwrote %s\n%s\n", kCsvFile, plot(a, b).c_str());
  return 0;
}

}  // namespace nscd::app
