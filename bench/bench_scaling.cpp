// Scaling with the number of bodies (issue 6): for each scene given, a few untimed steps, then
// --steps timed steps, and one markdown table row per scene: bodies, contacts and NLGS sweeps per
// step, wall time per step of each stage (detection, assembly, solve, update; the median over the
// timed steps, "total" their sum), and the growth of the resident memory per body. A second
// table gives each stage per body [µs] and per n log₂ n [ns] (n = bodies), and the solve time per
// contact and sweep [ns], so that the growth with n can be read off rows of different sizes. The
// first step, the only one that starts from the stick prediction where most contacts are new, is
// timed alone ("step 1"); --zero-start starts it from r = 0 instead.
//
//   python3 scenes/gen_pile.py --packed --count 10000 --out /tmp/packed_1e4.json
//   build/bin/bench_scaling /tmp/packed_1e3.json /tmp/packed_1e4.json --zero-start --warmup 5 --steps 10
//
// The solver's stopping rule is replaced so that every size does the same work per contact:
// by default exactly --sweeps NLGS sweeps per step (tolerance 1e-12, which no step meets), or,
// with --sweeps 0, the scene's rule replaced by --tolerance and --max-iterations.
//
// Each scene runs in a child process of its own (fork), so that its memory figure starts from a
// fresh heap: memory/body = (resident memory after the timed steps − resident memory before
// reading the scene) / bodies, the scene being destroyed and the freed memory handed back to the
// system (malloc_trim) once the model and initial state are built: the model, state and step
// workspace per body. "RSS read" is the resident memory with the scene read, "RSS end" after the
// timed steps, "peak RSS" VmHWM (the reader's and the first step's transient memory included).
// The stage times are wall times (nscd::StepTimings); CPU/wall is the process CPU time over the
// wall time of the timed steps, about 1 per thread on an idle machine, lower when other
// processes take the cores. Not a test: numbers depend on the machine (docs/performance.md).

#include "nscd/core/resident_memory.hpp"
#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/stepper.hpp"

#include <CLI/CLI.hpp>
#include <malloc.h>
#include <sys/wait.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace {

struct Options {
  long warmup = 5, steps = 10;
  int threads = 1, sweeps = 20, max_iterations = 300;
  double tolerance = 1e-3;
  bool zero_start = false;
};

/// The peak resident memory of this process [bytes] (VmHWM of /proc/self/status); 0 if unknown.
std::int64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      std::int64_t kib = 0;
      status >> kib;
      return kib * 1024;
    }
    status.ignore(4096, '\n');
  }
  return 0;
}

/// CPU time of this process [s] (all threads).
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// Reads the scene and builds the model and the initial state, the scene then freed; returns the
/// resident memory with the scene read.
std::int64_t load_scene(const std::string& file, std::optional<nscd::Model>& model, nscd::State& s) {
  const nscd::io::Scene scene = nscd::io::read_scene(file);
  const std::int64_t rss_read = nscd::resident_bytes();
  model.emplace(nscd::io::build_model(scene));
  s = nscd::io::initial_state(*model, scene);
  return rss_read;
}

/// Every contact of the initial state remembered with a zero impulse: the first step starts
/// NLGS from r = 0 instead of the stick prediction (a sparse factorisation of W).
void start_from_zero(const nscd::Model& m, nscd::State& s, nscd::StepWorkspace& ws) {
  nscd::detection_input(m, s, ws.poses, ws.movable);
  std::vector<nscd::contact::ContactPoint> initial;
  nscd::contact::detect_contacts(m.shapes, ws.poses, ws.movable, m.step.alert_distance, initial);
  s.warm.clear();
  for (const nscd::contact::ContactPoint& c : initial)
    s.warm.push_back({c.a, c.b, s.q[c.a].conjugate() * (c.p_W - s.x[c.a]), nscd::Vec3::Zero()});
}

/// The untimed steps, the first timed alone.
struct WarmUp {
  long first_contacts = -1;
  double first_step = 0;  // [s]
};

/// One step; false, with a message, if it failed.
bool step_ok(const std::string& file, const nscd::Model& m, nscd::State& s, nscd::StepWorkspace& ws,
             nscd::StepReport& report) {
  report = nscd::step(m, s, ws);
  if (report.status == nscd::StepStatus::Ok) return true;
  std::fprintf(stderr, "bench_scaling: %s: %s\n", file.c_str(), report.message.c_str());
  return false;
}

std::optional<WarmUp> warm_up(const std::string& file, const Options& o, const nscd::Model& m, nscd::State& s,
                              nscd::StepWorkspace& ws) {
  WarmUp w;
  nscd::StepReport report;
  for (long n = 0; n < o.warmup; ++n) {
    const auto before = std::chrono::steady_clock::now();
    const bool ok = step_ok(file, m, s, ws, report);
    if (n == 0) w.first_step = std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
    if (!ok) return std::nullopt;
    if (w.first_contacts < 0) w.first_contacts = report.n_contacts;
  }
  return w;
}

/// The timed steps: stage times of each, sums over them, and wall and CPU time.
struct Timed {
  std::vector<std::array<double, 4>> per_step;  // detection, assembly, solve, update [s]
  long sweeps = 0, contacts = 0, non_converged = 0;
  double wall = 0, cpu = 0;  // [s]
};

std::optional<Timed> time_steps(const std::string& file, const Options& o, const nscd::Model& m, nscd::State& s,
                                nscd::StepWorkspace& ws) {
  Timed timed;
  ws.timings = {};
  const double cpu_start = cpu_seconds();
  const auto wall_start = std::chrono::steady_clock::now();
  nscd::StepReport report;
  for (long n = 0; n < o.steps; ++n) {
    if (!step_ok(file, m, s, ws, report)) return std::nullopt;
    const nscd::StepTimings& t = ws.timings;
    // the "detection" column keeps the free motion, as in the tables of docs/performance.md measured
    // before the free-motion stage had its own timer
    timed.per_step.push_back({t.free_motion + t.detection, t.assembly, t.solve, t.update});
    ws.timings = {};
    timed.sweeps += report.solver_iterations;
    timed.contacts += report.n_contacts;
    timed.non_converged += report.solver_status != nscd::solvers::SolverStatus::Converged;
  }
  timed.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  timed.cpu = cpu_seconds() - cpu_start;
  return timed;
}

/// Median over the timed steps of each stage: robust to the steps that other processes slowed.
std::array<double, 4> median_stages(const std::vector<std::array<double, 4>>& per_step) {
  std::array<double, 4> stage{};
  for (std::size_t i = 0; i < 4; ++i) {
    std::vector<double> times;
    for (const auto& step_times : per_step) times.push_back(step_times[i]);
    std::sort(times.begin(), times.end());
    const std::size_t h = times.size() / 2;
    stage[i] = times.size() % 2 ? times[h] : 0.5 * (times[h - 1] + times[h]);
  }
  return stage;
}

/// Memory figures of one scene [bytes].
struct Memory {
  std::int64_t before = 0, read = 0, after = 0;
};

/// Prints the scene's row of the first table and returns its row of the second.
std::string print_rows(const std::string& file, int n_threads, const nscd::Model& m, const WarmUp& w,
                       const Timed& timed, const Memory& rss) {
  const std::array<double, 4> stage = median_stages(timed.per_step);
  const double k = static_cast<double>(timed.per_step.size());
  const double n = m.nb();
  const double nlogn = n * std::log2(n);
  const double total = stage[0] + stage[1] + stage[2] + stage[3];
  const double contacts_per_step = static_cast<double>(timed.contacts) / k;
  const double sweeps_per_step = static_cast<double>(timed.sweeps) / k;
  std::string name = file.substr(file.find_last_of('/') + 1);
  std::printf("| %s | %d | %d | %.0f | %.1f | %.0f | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.0f | %.0f |\n",
              name.c_str(), m.nb(), n_threads, static_cast<double>(w.first_contacts), 1e3 * w.first_step,
              contacts_per_step, sweeps_per_step, 1e3 * total, 1e3 * stage[0], 1e3 * stage[1], 1e3 * stage[2],
              1e3 * stage[3], timed.cpu / timed.wall, static_cast<double>(rss.after - rss.before) / n / 1024,
              static_cast<double>(rss.read) / (1 << 20), static_cast<double>(rss.after) / (1 << 20),
              static_cast<double>(peak_resident_bytes()) / (1 << 20));
  char row[512];
  std::snprintf(row, sizeof row, "| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                name.c_str(), m.nb(), n_threads, 1e6 * stage[0] / n, 1e6 * stage[1] / n, 1e6 * stage[2] / n,
                1e6 * stage[3] / n, 1e9 * stage[0] / nlogn, 1e9 * stage[1] / nlogn, 1e9 * stage[2] / nlogn,
                1e9 * stage[3] / nlogn,
                timed.contacts > 0 && timed.sweeps > 0 ? 1e9 * stage[2] / (contacts_per_step * sweeps_per_step)
                                                       : 0.0);
  return row;
}

/// Runs one scene, prints its row of the first table and returns the row of the second in
/// `normalised`. Returns the exit code.
int run_scene(const std::string& file, const Options& o, std::string& normalised) {
  const int n_threads = o.threads > 0 ? o.threads : tbb::info::default_concurrency();
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(n_threads));
  Memory rss;
  rss.before = nscd::resident_bytes();
  std::optional<nscd::Model> model;
  nscd::State s;
  rss.read = load_scene(file, model, s);
  malloc_trim(0);  // the scene and the reader's scratch go back to the system
  nscd::Model& m = *model;
  nscd::solvers::Stopping& stopping = m.step.solver.stopping();
  stopping.tolerance = o.sweeps > 0 ? 1e-12 : o.tolerance;
  stopping.max_iterations = o.sweeps > 0 ? o.sweeps : o.max_iterations;
  nscd::StepWorkspace ws;
  if (o.zero_start) start_from_zero(m, s, ws);
  const std::optional<WarmUp> w = warm_up(file, o, m, s, ws);
  if (!w) return 3;
  const std::optional<Timed> timed = time_steps(file, o, m, s, ws);
  if (!timed) return 3;
  rss.after = nscd::resident_bytes();
  normalised = print_rows(file, n_threads, m, *w, *timed, rss);
  if (timed->non_converged > 0 && o.sweeps <= 0)
    std::fprintf(stderr, "bench_scaling: %s: %ld of %ld timed steps not converged\n", file.c_str(),
                 timed->non_converged, o.steps);
  std::fflush(stdout);
  return 0;
}

/// run_scene in a child process of its own, so that its memory figure starts from a fresh heap;
/// returns its exit code (1 if it did not exit, −1 if it could not be started), and its second row in
/// `normalised`.
int run_in_child(const std::string& file, const Options& o, std::string& normalised) {
  int pipe_fd[2];
  if (pipe(pipe_fd) != 0) return -1;
  const pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    // the row of the first table to stdout, that of the second through the pipe
    close(pipe_fd[0]);
    std::string row;
    int code = 0;
    try {
      code = run_scene(file, o, row);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench_scaling: %s: %s\n", file.c_str(), e.what());
      code = 2;
    }
    std::fflush(stdout);
    if (!row.empty() && write(pipe_fd[1], row.data(), row.size()) < 0) code = 2;
    close(pipe_fd[1]);
    _exit(code);
  }
  close(pipe_fd[1]);
  char chunk[4096];
  for (ssize_t got; (got = read(pipe_fd[0], chunk, sizeof chunk)) > 0;)
    normalised.append(chunk, static_cast<std::size_t>(got));
  close(pipe_fd[0]);
  int child_status = 0;
  waitpid(child, &child_status, 0);
  return WIFEXITED(child_status) ? WEXITSTATUS(child_status) : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench_scaling: time per step per stage and memory per body against the number of bodies"};
  std::vector<std::string> scenes;
  Options o;
  app.add_option("scenes", scenes)->required();
  app.add_option("--warmup", o.warmup, "untimed steps first (the first is timed alone)")
      ->default_val(5)
      ->check(CLI::PositiveNumber);
  app.add_option("--steps", o.steps, "timed steps")->default_val(10)->check(CLI::PositiveNumber);
  app.add_option("--threads", o.threads, "worker threads (0: all cores)")->default_val(1);
  app.add_option("--sweeps", o.sweeps, "exactly this many NLGS sweeps per step (0: use --tolerance)")
      ->default_val(20)
      ->check(CLI::NonNegativeNumber);
  app.add_option("--tolerance", o.tolerance, "with --sweeps 0: solver tolerance")->default_val(1e-3);
  app.add_option("--max-iterations", o.max_iterations, "with --sweeps 0: sweep budget per step")->default_val(300);
  app.add_flag("--zero-start", o.zero_start,
               "first step from r = 0 instead of the stick prediction (its sparse factorisation of W "
               "is the most costly part of the first step of a large pile)");
  CLI11_PARSE(app, argc, argv);

  if (o.sweeps > 0)
    std::printf("solver: exactly %d NLGS sweeps per step (tolerance 1e-12); ", o.sweeps);
  else
    std::printf("solver: tolerance %g, at most %d sweeps per step; ", o.tolerance, o.max_iterations);
  std::printf("%ld warm-up steps (the first from %s), %ld timed steps; stage times: median over the timed "
              "steps [ms]\n\n",
              o.warmup,
              o.zero_start ? "r = 0" : "the stick prediction where most contacts are new", o.steps);
  std::printf("| scene | bodies | threads | contacts at step 1 | step 1 [ms] | contacts/step | sweeps/step | total | detection "
              "| assembly | solve | update | CPU/wall | memory/body [KiB] | RSS read [MiB] | RSS end [MiB] "
              "| peak RSS [MiB] |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  std::vector<std::string> normalised;
  int status = 0;
  for (const std::string& file : scenes) {
    std::string row;
    const int code = run_in_child(file, o, row);
    if (code < 0) return 2;
    if (code != 0) status = 1;
    if (!row.empty()) normalised.push_back(row);
  }
  std::printf("\nper body [µs] and per n log₂ n [ns] (n = bodies), solve per contact and sweep [ns]\n\n");
  std::printf("| scene | bodies | threads | detection/n | assembly/n | solve/n | update/n | detection/(n log n) "
              "| assembly/(n log n) | solve/(n log n) | update/(n log n) | solve/(contact·sweep) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& row : normalised) std::fputs(row.c_str(), stdout);
  return status;
}
