#include "nscd/app/commands.hpp"
#include "nscd/core/error.hpp"
#include "nscd/io/fclib_file.hpp"
#include "solvers/solve.hpp"

#include <chrono>
#include <cstdio>

namespace nscd::app {

int solve_command(const SolveOptions& o) {
  // the solver variant by name; an unknown name lists the valid ones
  solvers::SolverOptions options = solvers::parse_solver_variant(o.solver, "--solver");
  NSCD_THROW_UNLESS(o.tolerance > 0, "--tolerance {}: expected a positive number", o.tolerance);
  NSCD_THROW_UNLESS(o.max_iterations >= 1, "--max-iterations {}: expected a positive count", o.max_iterations);
  NSCD_THROW_UNLESS(o.anderson_depth >= 0 && o.anderson_depth <= solvers::NlgsOptions::max_anderson_depth,
                    "--anderson-depth {}: expected an integer in [0, {}]", o.anderson_depth,
                    solvers::NlgsOptions::max_anderson_depth);
  options.nlgs.anderson_depth = options.automatic.nlgs.anderson_depth = o.anderson_depth;
  NSCD_THROW_UNLESS(o.error_measure == "siconos" || o.error_measure == "velocity",
                    "--error-measure {}: expected siconos or velocity", o.error_measure);
  io::FclibProblem read = io::read_fclib_problem(o.problem);
  // a step's problem dumped by `solver.dump_every` is measured as the step measured it with "velocity"
  read.problem.error_scaling =
      o.error_measure == "velocity" ? solvers::ErrorScaling::Velocity : solvers::ErrorScaling::Siconos;

  // solve from r = 0, timed
  options.stopping() = {o.tolerance, o.max_iterations};
  const auto start = std::chrono::steady_clock::now();
  const solvers::BodyCoupling* body = read.body ? &*read.body : nullptr;
  const solvers::SolverResult result = solvers::solve(read.problem, options, Eigen::VectorXd(), body);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("contacts %d  solver %s  iterations %d  error %.3e  seconds %.4g  status %s  stage %s\n",
              read.problem.nc(), o.solver.c_str(), result.iterations, result.error, seconds,
              std::string(solvers::to_string(result.status)).c_str(),
              std::string(solvers::to_string(result.stage)).c_str());
  if (o.solution) io::write_fclib_solution(*o.solution, read.problem, result.r, result.u, body);
  return 0;
}

}  // namespace nscd::app
