#include "solvers/solver_common.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/all_finite.hpp"
#include "solvers/error_measure.hpp"

#include <cmath>

namespace nscd::solvers::detail {

void check_problem(const FrictionProblem& p, const char* solver) {
  const int nc = p.nc();
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(nc);
  NSCD_THROW_UNLESS(p.q.size() == n && p.mu.size() == nc,
                    "{}: friction problem with {} contacts needs q of size {} and mu of size {}, got {} and {}",
                    solver, nc, n, nc, p.q.size(), p.mu.size());
  NSCD_THROW_UNLESS(!(p.mu.array() < 0.0).any(), "{}: friction coefficients must be ≥ 0", solver);
}

bool is_finite(const FrictionProblem& p, const Eigen::VectorXd& r0, BlockCheck blocks) {
  return all_finite(p.q) && all_finite(p.mu) && all_finite(r0) && p.W.diagonal_finite() &&
         (blocks == BlockCheck::Diagonal || p.W.offdiagonal_finite());
}

bool start(const FrictionProblem& p, const Eigen::VectorXd& r0, const char* solver, SolverResult& result,
           BlockCheck blocks) {
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(p.nc());
  result.r = r0.size() == n ? r0 : Eigen::VectorXd::Zero(n);
  result.iterations = 0;
  if (is_finite(p, result.r, blocks)) return false;
  give_up(p, solver, result);
  return true;
}

void give_up(const FrictionProblem& p, const char* solver, SolverResult& result) {
  result.u = p.W.apply(result.r) + p.q;
  result.error = error_measure(p, result.r, result.u);
  result.status = SolverStatus::NonFinite;
  result.iterations = 0;
  nscd::logger().debug("{}: non-finite problem data or initial guess ({} contacts)", solver, p.nc());
}

void finish(const FrictionProblem& p, double tolerance, const char* solver, SolverResult& result) {
  result.u = p.W.apply(result.r) + p.q;
  result.error = error_measure(p, result.r, result.u);
  conclude(p.nc(), tolerance, solver, result);
}

void conclude(int nc, double tolerance, const char* solver, SolverResult& result) {
  if (result.status == SolverStatus::NonFinite || !all_finite(result.r) || !std::isfinite(result.error)) {
    result.status = SolverStatus::NonFinite;
  } else {
    result.status = result.error <= tolerance ? SolverStatus::Converged : SolverStatus::MaxIterations;
  }
  if (result.status != SolverStatus::Converged) {
    nscd::logger().debug("{}: {} after {} iterations, error {:.3e} (tolerance {:.1e}, {} contacts)", solver,
                         to_string(result.status), result.iterations, result.error, tolerance, nc);
  }
}

}  // namespace nscd::solvers::detail
