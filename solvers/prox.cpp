#include "solvers/prox.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>

namespace nscd::solvers {
namespace {

// the inner ‖Φ‖ tolerance never goes below a few ulps
constexpr double kInnerFloor = 1e-14;
// and is this fraction of the last outer error
constexpr double kInnerFraction = 0.1;

}  // namespace

SolverResult solve_prox(const FrictionProblem& p, const ProxOptions& options, const Eigen::VectorXd& r0) {
  detail::check_problem(p, "PROX");
  NSCD_THROW_UNLESS(options.stopping.max_iterations >= 0 && options.inner_max_iterations >= 1,
                    "PROX needs max_iterations ≥ 0 and inner_max_iterations ≥ 1");
  NSCD_THROW_UNLESS(options.sigma_initial > 0.0 && options.sigma_min > 0.0 && options.sigma_decrease > 0.0 &&
                        options.sigma_decrease < 1.0 && options.sigma_increase > 1.0,
                    "PROX needs sigma_initial, sigma_min > 0, sigma_decrease in (0, 1) and sigma_increase > 1");
  SolverResult result;
  result.stage = SolverType::Prox;
  if (detail::start(p, r0, "prox", result)) return result;
  const int nc = p.nc();
  if (nc == 0) {
    detail::finish(p, options.stopping.tolerance, "prox", result);
    return result;
  }

  // σ relative to the mean diagonal entry of W
  double diag_mean = 0.0;
  for (int i = 0; i < nc; ++i) diag_mean += p.W.diag(i).trace();
  diag_mean /= 3.0 * nc;
  if (!(diag_mean > 0.0)) diag_mean = 1.0;
  double sigma = options.sigma_initial * diag_mean;
  const double sigma_min = options.sigma_min * diag_mean;

  double error = error_measure(p, result.r, p.W.apply(result.r) + p.q);
  while (error > options.stopping.tolerance && result.iterations < options.stopping.max_iterations) {
    // one proximal step, eq. (1), solved by Newton from r_k
    const Eigen::VectorXd q_shifted = p.q - sigma * result.r;
    const int budget = std::min(options.inner_max_iterations, options.stopping.max_iterations - result.iterations);
    const double inner_tolerance = std::max(kInnerFloor, kInnerFraction * error);
    Eigen::VectorXd r = result.r;
    const detail::NewtonReport newton =
        detail::nsn_iterate(p, sigma, q_shifted, options.newton, budget, inner_tolerance, true,
                            options.stopping.tolerance, r);
    const int done = newton.iterations;
    result.iterations += std::max(done, 1);
    result.factorizations += newton.factorizations;
    const bool solved = !newton.stalled && done < budget;
    // rejected: a failed inner solve, unless its iterate already meets the tolerance (Newton may
    // reach it on the last iteration of its budget)
    const bool rejected = !solved && options.reject_failed &&
                          !(r.allFinite() && error_measure(p, r, p.W.apply(r) + p.q) <= options.stopping.tolerance);
    if (!rejected) {
      if (!r.allFinite()) break;
      result.r = r;
      error = error_measure(p, result.r, p.W.apply(result.r) + p.q);
    }
    nscd::logger().trace("prox: σ {:.3e}, {} Newton iterations{}, error {:.3e}", sigma, done,
                         solved ? "" : " (failed)", error);

    // σ smaller after a solved step (faster outer contraction), larger after a failed one
    sigma = solved ? std::max(sigma * options.sigma_decrease, sigma_min) : sigma * options.sigma_increase;
  }
  detail::finish(p, options.stopping.tolerance, "prox", result);
  return result;
}

}  // namespace nscd::solvers
