// Times solve_nlgs (or, with --solver, another solver of solve.hpp: ccp-pgs, ccp-apgd, lcp-pgs …)
// on stored FCLIB problems and on a generated lattice problem
// (tests/support/lattice_problem.hpp): contact updates per second (iterations × contacts / solve
// time, set-up and error evaluations included; an iteration is a sweep, or an APGD step),
// speed-up over the first thread count, and whether r is bitwise equal for every thread count.
//
//   build/bin/bench_nlgs [FILE.hdf5 ...] [--lattice N] [--threads 1,2] [--sweeps S] [--repeat R]
//                        [--tolerance T] [--max-iterations M] [--solver NAME] [--compare-orders]
//
// With --sweeps S the solver does exactly S iterations (tolerance 0): throughput. Without it, it
// solves to --tolerance (default 1e-8) within --max-iterations iterations (default 100000) and
// prints the iterations and the error: convergence. --solver takes the names of
// `nscd solve --solver` (default nlgs). With --compare-orders (NLGS only) it prints instead, for
// the index order (the sequential NLGS before colouring) and the colour order of solve_nlgs, the
// first sweep after which the error (evaluated after every sweep, one thread) is below --tolerance.
// With --sweeps and --compare-orders it times the sweeps alone (one thread, no error evaluation)
// in index order and in colour order.
//
// Not a test: numbers depend on the machine; docs/performance.md records them with the command.

#include "nscd/io/fclib_file.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/local_solver.hpp"
#include "solvers/nlgs.hpp"
#include "solvers/solve.hpp"
#include "tests/support/lattice_problem.hpp"

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace solvers = nscd::solvers;

struct Named {
  std::string name;
  solvers::FrictionProblem problem;
};

// a problem in the order of a sweep plan, with its local problems and the sweeps' buffers
struct PlannedProblem {
  PlannedProblem(const solvers::FrictionProblem& p0, const solvers::detail::SweepPlan& plan_)
      : plan(plan_), p(solvers::detail::in_plan_order(p0, plan, storage)), local(p.nc()),
        chunk_norms(plan.chunk_start.size() - 1) {
    for (int i = 0; i < p.nc(); ++i) local[i] = solvers::detail::make_local_problem(p.W.diag(i), p.mu(i));
  }
  PlannedProblem(const PlannedProblem&) = delete;
  PlannedProblem& operator=(const PlannedProblem&) = delete;

  void sweep(Eigen::VectorXd& r) { solvers::detail::colored_sweep(p, local, plan, {}, r, chunk_norms); }

  const solvers::detail::SweepPlan& plan;
  solvers::FrictionProblem storage;  // the renumbered problem, if the plan renumbers
  const solvers::FrictionProblem& p;
  std::vector<solvers::detail::LocalProblem> local;
  std::vector<solvers::detail::SweepNorms> chunk_norms;
};

// sweeps of plan from r = 0 until the error is below tolerance (evaluated after every sweep);
// returns the sweeps (max_iterations + 1 if never) and the last error
std::pair<int, double> sweeps_to_tolerance(const solvers::FrictionProblem& p0, const solvers::detail::SweepPlan& plan,
                                           double tolerance, int max_iterations) {
  PlannedProblem planned(p0, plan);
  const solvers::FrictionProblem& p = planned.p;
  Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * p.nc());
  double error = 0.0;
  for (int s = 1; s <= max_iterations; ++s) {
    planned.sweep(r);
    error = solvers::error_measure(p, r, p.W.apply(r) + p.q);
    if (error <= tolerance) return {s, error};
  }
  return {max_iterations + 1, error};
}

struct Options {
  std::vector<std::string> files;
  int lattice = 0;
  std::vector<int> threads{1};
  int sweeps = 0;
  int repeat = 3;
  double tolerance = 1e-8;
  int max_iterations = 100000;
  std::string solver = "nlgs";
  bool compare_orders = false;
};

// the FCLIB problems, then the lattice problem
std::vector<Named> read_problems(const Options& o) {
  std::vector<Named> problems;
  for (const std::string& file : o.files) {
    problems.push_back({std::filesystem::path(file).stem().string(), nscd::io::read_fclib_problem(file).problem});
  }
  if (o.lattice > 0)
    problems.push_back({"lattice-" + std::to_string(o.lattice), nscd::test_support::lattice_problem(o.lattice, 1)});
  return problems;
}

// contact updates per second of --sweeps sweeps of plan from r = 0, the fastest of --repeat
double sweep_rate(const solvers::FrictionProblem& p0, const solvers::detail::SweepPlan& plan, const Options& o) {
  PlannedProblem planned(p0, plan);
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k < std::max(o.repeat, 1); ++k) {
    Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * planned.p.nc());
    const auto start = std::chrono::steady_clock::now();
    for (int s = 0; s < o.sweeps; ++s) planned.sweep(r);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return static_cast<double>(o.sweeps) * planned.p.nc() / best;
}

// --compare-orders --sweeps S: the sweeps alone, one thread, in index order and in colour order
void compare_order_rates(const std::vector<Named>& problems, const Options& o) {
  tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  std::printf("%-40s %7s %16s %16s\n", "problem", "nc", "index updates/s", "colour updates/s");
  for (const Named& named : problems) {
    const solvers::FrictionProblem& p = named.problem;
    std::printf("%-40s %7d %16.4g %16.4g\n", named.name.c_str(), p.nc(),
                sweep_rate(p, solvers::detail::index_order_plan(p.nc()), o),
                sweep_rate(p, solvers::detail::make_sweep_plan(p.W), o));
  }
}

// --compare-orders: the sweeps to --tolerance, one thread, in index order and in colour order
void compare_order_sweeps(const std::vector<Named>& problems, const Options& o) {
  tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  std::printf("%-40s %7s %7s %12s %10s %12s %10s\n", "problem", "nc", "colours", "index order", "error",
              "colour order", "error");
  const auto shown = [&](int sweeps_done) {
    return sweeps_done > o.max_iterations ? std::string("> ") + std::to_string(o.max_iterations)
                                          : std::to_string(sweeps_done);
  };
  for (const Named& named : problems) {
    const solvers::FrictionProblem& p = named.problem;
    const auto colored = solvers::detail::make_sweep_plan(p.W);
    const auto [index_sweeps, index_error] =
        sweeps_to_tolerance(p, solvers::detail::index_order_plan(p.nc()), o.tolerance, o.max_iterations);
    const auto [color_sweeps, color_error] = sweeps_to_tolerance(p, colored, o.tolerance, o.max_iterations);
    std::printf("%-40s %7d %7d %12s %10.3e %12s %10.3e\n", named.name.c_str(), p.nc(), colored.coloring.n_colors(),
                shown(index_sweeps).c_str(), index_error, shown(color_sweeps).c_str(), color_error);
  }
}

// the solver on every problem with each thread count: the fastest of --repeat solves, and whether r
// is bitwise that of the first thread count
void time_solver(const std::vector<Named>& problems, const solvers::SolverOptions& options,
                 const Options& o) {
  std::printf("%-40s %7s %7s %8s %10s %11s %12s %8s %9s\n", "problem", "nc", "threads", "iters", "error",
              "seconds", "updates/s", "speed-up", "same r");
  for (const Named& named : problems) {
    const int nc = named.problem.nc();
    Eigen::VectorXd r_first;
    double seconds_first = 0.0;
    for (std::size_t t = 0; t < o.threads.size(); ++t) {
      tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                      static_cast<std::size_t>(std::max(o.threads[t], 1)));
      solvers::SolverResult result;
      double best = std::numeric_limits<double>::infinity();
      for (int k = 0; k < std::max(o.repeat, 1); ++k) {
        const auto start = std::chrono::steady_clock::now();
        result = solvers::solve(named.problem, options, Eigen::VectorXd());
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      if (t == 0) {
        r_first = result.r;
        seconds_first = best;
      }
      const bool same = result.r.size() == r_first.size() &&
                        std::memcmp(result.r.data(), r_first.data(), sizeof(double) * r_first.size()) == 0;
      std::printf("%-40s %7d %7d %8d %10.3e %11.4g %12.4g %8.2f %9s\n", named.name.c_str(), nc, o.threads[t],
                  result.iterations, result.error, best,
                  static_cast<double>(result.iterations) * nc / best, seconds_first / best, same ? "yes" : "NO");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench_nlgs: time NLGS on FCLIB and generated problems"};
  Options o;
  app.add_option("files", o.files, "FCLIB problems (local or global)");
  app.add_option("--lattice", o.lattice, "also a generated lattice of N³ spheres (about 3N³ contacts)");
  app.add_option("--threads", o.threads, "thread counts, e.g. 1,2")->delimiter(',');
  app.add_option("--sweeps", o.sweeps, "exactly this many sweeps (throughput); 0: solve to --tolerance");
  app.add_option("--repeat", o.repeat, "timed repetitions, the fastest is kept")->default_val(3);
  app.add_option("--tolerance", o.tolerance, "tolerance without --sweeps")->default_val(1e-8);
  app.add_option("--max-iterations", o.max_iterations, "iteration budget without --sweeps")->default_val(100000);
  app.add_option("--solver", o.solver, "the solver, a name of `nscd solve --solver`")->default_val("nlgs");
  app.add_flag("--compare-orders", o.compare_orders, "sweeps to --tolerance in index order and in colour order");
  CLI11_PARSE(app, argc, argv);

  const std::vector<Named> problems = read_problems(o);
  if (o.compare_orders && o.sweeps > 0) {
    compare_order_rates(problems, o);
    return 0;
  }
  if (o.compare_orders) {
    compare_order_sweeps(problems, o);
    return 0;
  }
  std::optional<solvers::SolverOptions> options = solvers::solver_options_from_name(o.solver);
  if (!options) {
    std::fprintf(stderr, "bench_nlgs: unknown solver %s\n", o.solver.c_str());
    return 1;
  }
  options->stopping() = {o.sweeps > 0 ? 0.0 : o.tolerance, o.sweeps > 0 ? o.sweeps : o.max_iterations};
  time_solver(problems, *options, o);
  return 0;
}
