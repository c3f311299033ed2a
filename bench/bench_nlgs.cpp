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

struct Named {
  std::string name;
  nscd::solvers::FrictionProblem problem;
};

// sweeps of plan from r = 0 until the error is below tolerance (evaluated after every sweep);
// returns the sweeps (max_iterations + 1 if never) and the last error
std::pair<int, double> sweeps_to_tolerance(const nscd::solvers::FrictionProblem& p0,
                                           const nscd::solvers::detail::SweepPlan& plan, double tolerance,
                                           int max_iterations) {
  using namespace nscd::solvers;
  FrictionProblem storage;
  const FrictionProblem& p = detail::in_plan_order(p0, plan, storage);
  std::vector<detail::LocalProblem> local(p.nc());
  for (int i = 0; i < p.nc(); ++i) local[i] = detail::make_local_problem(p.W.diag(i), p.mu(i));
  std::vector<detail::SweepNorms> chunk_norms(plan.chunk_start.size() - 1);
  Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * p.nc());
  double error = 0.0;
  for (int s = 1; s <= max_iterations; ++s) {
    detail::colored_sweep(p, local, plan, {}, r, chunk_norms);
    error = error_measure(p, r, p.W.apply(r) + p.q);
    if (error <= tolerance) return {s, error};
  }
  return {max_iterations + 1, error};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench_nlgs: time NLGS on FCLIB and generated problems"};
  std::vector<std::string> files;
  int lattice = 0;
  std::vector<int> threads{1};
  int sweeps = 0;
  int repeat = 3;
  double tolerance = 1e-8;
  int max_iterations = 100000;
  app.add_option("files", files, "FCLIB problems (local or global)");
  app.add_option("--lattice", lattice, "also a generated lattice of N³ spheres (about 3N³ contacts)");
  app.add_option("--threads", threads, "thread counts, e.g. 1,2")->delimiter(',');
  app.add_option("--sweeps", sweeps, "exactly this many sweeps (throughput); 0: solve to --tolerance");
  app.add_option("--repeat", repeat, "timed repetitions, the fastest is kept")->default_val(3);
  app.add_option("--tolerance", tolerance, "tolerance without --sweeps")->default_val(1e-8);
  app.add_option("--max-iterations", max_iterations, "iteration budget without --sweeps")->default_val(100000);
  std::string solver = "nlgs";
  app.add_option("--solver", solver, "the solver, a name of `nscd solve --solver`")->default_val("nlgs");
  bool compare_orders = false;
  app.add_flag("--compare-orders", compare_orders, "sweeps to --tolerance in index order and in colour order");
  CLI11_PARSE(app, argc, argv);

  std::vector<Named> problems;
  for (const std::string& file : files) {
    problems.push_back({std::filesystem::path(file).stem().string(), nscd::io::read_fclib_problem(file).problem});
  }
  if (lattice > 0) problems.push_back({"lattice-" + std::to_string(lattice), nscd::test_support::lattice_problem(lattice, 1)});

  if (compare_orders && sweeps > 0) {
    tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
    std::printf("%-40s %7s %16s %16s\n", "problem", "nc", "index updates/s", "colour updates/s");
    for (const Named& named : problems) {
      auto rate = [&](const nscd::solvers::detail::SweepPlan& plan) {
        nscd::solvers::FrictionProblem storage;
        const nscd::solvers::FrictionProblem& p = nscd::solvers::detail::in_plan_order(named.problem, plan, storage);
        std::vector<nscd::solvers::detail::LocalProblem> local(p.nc());
        for (int i = 0; i < p.nc(); ++i) local[i] = nscd::solvers::detail::make_local_problem(p.W.diag(i), p.mu(i));
        std::vector<nscd::solvers::detail::SweepNorms> chunk_norms(plan.chunk_start.size() - 1);
        double best = std::numeric_limits<double>::infinity();
        for (int k = 0; k < std::max(repeat, 1); ++k) {
          Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * p.nc());
          const auto start = std::chrono::steady_clock::now();
          for (int s = 0; s < sweeps; ++s) nscd::solvers::detail::colored_sweep(p, local, plan, {}, r, chunk_norms);
          best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        return static_cast<double>(sweeps) * p.nc() / best;
      };
      const nscd::solvers::FrictionProblem& p = named.problem;
      std::printf("%-40s %7d %16.4g %16.4g\n", named.name.c_str(), p.nc(),
                  rate(nscd::solvers::detail::index_order_plan(p.nc())), rate(nscd::solvers::detail::make_sweep_plan(p.W)));
    }
    return 0;
  }
  if (compare_orders) {
    tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
    std::printf("%-40s %7s %7s %12s %10s %12s %10s\n", "problem", "nc", "colours", "index order", "error",
                "colour order", "error");
    for (const Named& named : problems) {
      const nscd::solvers::FrictionProblem& p = named.problem;
      const auto colored = nscd::solvers::detail::make_sweep_plan(p.W);
      const auto [index_sweeps, index_error] =
          sweeps_to_tolerance(p, nscd::solvers::detail::index_order_plan(p.nc()), tolerance, max_iterations);
      const auto [color_sweeps, color_error] = sweeps_to_tolerance(p, colored, tolerance, max_iterations);
      auto shown = [&](int sweeps_done) { return sweeps_done > max_iterations ? std::string("> ") + std::to_string(max_iterations) : std::to_string(sweeps_done); };
      std::printf("%-40s %7d %7d %12s %10.3e %12s %10.3e\n", named.name.c_str(), p.nc(), colored.coloring.n_colors(),
                  shown(index_sweeps).c_str(), index_error, shown(color_sweeps).c_str(), color_error);
    }
    return 0;
  }

  std::optional<nscd::solvers::SolverOptions> options = nscd::solvers::solver_options_from_name(solver);
  if (!options) {
    std::fprintf(stderr, "bench_nlgs: unknown solver %s\n", solver.c_str());
    return 1;
  }
  nscd::solvers::set_stopping(*options, sweeps > 0 ? 0.0 : tolerance, sweeps > 0 ? sweeps : max_iterations);
  std::printf("%-40s %7s %7s %8s %10s %11s %12s %8s %9s\n", "problem", "nc", "threads", "iters", "error",
              "seconds", "updates/s", "speed-up", "same r");
  for (const Named& named : problems) {
    const int nc = named.problem.nc();
    Eigen::VectorXd r_first;
    double seconds_first = 0.0;
    for (std::size_t t = 0; t < threads.size(); ++t) {
      tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                      static_cast<std::size_t>(std::max(threads[t], 1)));
      nscd::solvers::SolverResult result;
      double best = std::numeric_limits<double>::infinity();
      for (int k = 0; k < std::max(repeat, 1); ++k) {
        const auto start = std::chrono::steady_clock::now();
        result = nscd::solvers::solve(named.problem, *options, Eigen::VectorXd());
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      if (t == 0) {
        r_first = result.r;
        seconds_first = best;
      }
      const bool same = result.r.size() == r_first.size() &&
                        std::memcmp(result.r.data(), r_first.data(), sizeof(double) * r_first.size()) == 0;
      std::printf("%-40s %7d %7d %8d %10.3e %11.4g %12.4g %8.2f %9s\n", named.name.c_str(), nc, threads[t],
                  result.iterations, result.error, best,
                  static_cast<double>(result.iterations) * nc / best, seconds_first / best, same ? "yes" : "NO");
    }
  }
  return 0;
}
