#pragma once
/// @file
/// What every solver of the family returns (solve.hpp): the impulses r, the local velocities
/// u = W r + q of that r, the error of error_measure.hpp eq. (3) on (r, u), a status, and the
/// work done: iterations in the solver's own unit (sweeps, Newton iterations, APGD steps or
/// pivots), the sparse factorisations, and the solver that finished (the stage of `auto`,
/// auto_solver.hpp).

#include <Eigen/Core>

#include <string_view>

namespace nscd::solvers {

enum class SolverStatus { Converged, MaxIterations, NonFinite };

/// Name for logs and output files: "converged", "max_iterations", "non_finite".
std::string_view to_string(SolverStatus status);

/// The solvers of the family; Auto is the policy of auto_solver.hpp, VelocityProx (velocity_prox.hpp),
/// InteriorPoint (interior_point.hpp) and ProxRestart (PROX from r = 0 by the rule of
/// auto_solver.hpp's stage 4) three of its stages.
enum class SolverType { Auto, Nlgs, Nsn, Prox, VelocityProx, InteriorPoint, ProxRestart, Ccp, Lcp };

/// "auto", "nlgs", "nsn", "prox", "vprox", "ipm", "prox-restart", "ccp", "lcp".
std::string_view to_string(SolverType type);

/// What every solver returns.
struct SolverResult {
  Eigen::VectorXd r;  // (3nc) impulses [N·s]
  Eigen::VectorXd u;  // (3nc) u = W r + q [m/s]
  SolverStatus status = SolverStatus::Converged;
  int iterations = 0;      // sweeps, Newton iterations, APGD steps or pivots (auto: all of its stages)
  double error = 0.0;      // error_measure eq. (3) of (r, u)
  int factorizations = 0;  // sparse factorisations (Newton-type solvers)
  SolverType stage = SolverType::Nlgs;  // the solver whose r is returned
};

}  // namespace nscd::solvers
