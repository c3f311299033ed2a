#pragma once
/// @file
/// Internal to solvers/: the checks and bookkeeping every solver of the family shares, so that
/// each returns the same SolverResult (nlgs.hpp): u = W r + q of the returned r, the error of
/// error_measure.hpp eq. (3), status Converged when that error is below the tolerance.

#include "solvers/friction_problem.hpp"
#include "solvers/solver_result.hpp"

#include <Eigen/Core>

namespace nscd::solvers::detail {

/// Throws nscd::InputError naming `solver` if q, μ do not have sizes 3nc, nc or some μ < 0.
void check_problem(const FrictionProblem& p, const char* solver);

/// Whether W, q, μ and r0 are all finite (W block by block).
bool is_finite(const FrictionProblem& p, const Eigen::VectorXd& r0);

/// Sets result.r to r0 (zero if r0 has the wrong size). If the data are not finite, completes
/// result (u, error, status NonFinite, 0 iterations) and returns true: nothing to solve.
bool start(const FrictionProblem& p, const Eigen::VectorXd& r0, SolverResult& result);

/// Computes result.u = W r + q and result.error; status Converged if error ≤ tolerance,
/// NonFinite if r or the error is not finite, else MaxIterations (logged at debug level).
void finish(const FrictionProblem& p, double tolerance, const char* solver, SolverResult& result);

}  // namespace nscd::solvers::detail
