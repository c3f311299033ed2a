#pragma once
/// @file
/// Internal to solvers/: the checks and bookkeeping every solver of the family shares, so that
/// each returns the same SolverResult (solver_result.hpp): u = W r + q of the returned r, the error of
/// error_measure.hpp eq. (3), status Converged when that error is below the tolerance.

#include "solvers/friction_problem.hpp"
#include "solvers/solver_result.hpp"

#include <Eigen/Core>

namespace nscd::solvers::detail {

/// Throws nscd::InputError naming `solver` if q, μ do not have sizes 3nc, nc or some μ < 0.
void check_problem(const FrictionProblem& p, const char* solver);

/// Which blocks of W the finiteness checks read: all of them, or the diagonal ones only, for a
/// solver whose first iteration reads every off-diagonal block and checks what it computed from
/// them (NLGS's q_loc), then calls is_finite(p, ...) for all blocks only if that was not finite.
enum class BlockCheck { All, Diagonal };

/// Whether W (its `blocks`), q, μ and r0 are all finite.
bool is_finite(const FrictionProblem& p, const Eigen::VectorXd& r0, BlockCheck blocks = BlockCheck::All);

/// Sets result.r to r0 (zero if r0 has the wrong size). If the data are not finite, completes
/// result (give_up) and returns true: nothing to solve.
bool start(const FrictionProblem& p, const Eigen::VectorXd& r0, const char* solver, SolverResult& result,
           BlockCheck blocks = BlockCheck::All);

/// The result for non-finite data: result.u = W r + q of result.r, its error, status NonFinite,
/// 0 iterations (logged at debug level).
void give_up(const FrictionProblem& p, const char* solver, SolverResult& result);

/// Computes result.u = W r + q and result.error, then conclude().
void finish(const FrictionProblem& p, double tolerance, const char* solver, SolverResult& result);

/// The status of result from its r and error: NonFinite if it is already (the solver met a
/// non-finite iterate) or r or the error is not finite, else Converged if error ≤ tolerance, else
/// MaxIterations (logged at debug level, with the nc contacts).
void conclude(int nc, double tolerance, const char* solver, SolverResult& result);

}  // namespace nscd::solvers::detail
