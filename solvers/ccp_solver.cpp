#include "solvers/ccp_solver.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/ccp_apgd.hpp"
#include "solvers/ccp_pgs.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>

namespace nscd::solvers {
namespace {

// the inner CCP tolerance of a correction step: this fraction of the last Coulomb error, at
// least half the final tolerance
constexpr double kInnerFraction = 0.1;

// s_i = μ_i ‖u_T,i‖, eq. (2)
Eigen::VectorXd tangential_shift(const FrictionProblem& p, const Eigen::VectorXd& u) {
  Eigen::VectorXd s(p.nc());
  for (int i = 0; i < p.nc(); ++i) s(i) = p.mu(i) * u.segment<2>(3 * i + 1).norm();
  return s;
}

}  // namespace

std::string_view to_string(CcpMethod method) {
  switch (method) {
    case CcpMethod::Apgd:
      return "apgd";
    case CcpMethod::Pgs:
      return "pgs";
  }
  return "unknown";
}

double ccp_error(const FrictionProblem& p, const Eigen::VectorXd& s, const Eigen::VectorXd& r,
                 const Eigen::VectorXd& u) {
  double sum = 0.0;
  for (int i = 0; i < p.nc(); ++i) {
    const Eigen::Vector3d ri = r.segment<3>(3 * i);
    Eigen::Vector3d x = ri - u.segment<3>(3 * i);
    x(0) -= s(i);
    sum += (ri - project_on_cone(x, p.mu(i))).squaredNorm();
  }
  double denominator = std::max({p.q.norm(), r.norm(), u.norm()});
  if (denominator == 0.0) denominator = 1.0;
  return std::sqrt(sum) / denominator;
}

SolverResult solve_ccp(const FrictionProblem& p, const CcpOptions& options, const Eigen::VectorXd& r0) {
  detail::check_problem(p, "CCP");
  NSCD_THROW_UNLESS(options.max_iterations >= 0 && options.max_corrections >= 1,
                    "CCP needs max_iterations ≥ 0 and max_corrections ≥ 1");
  NSCD_THROW_UNLESS(options.omega > 0.0 && options.omega < 2.0, "CCP relaxation omega must be in (0, 2), got {}",
                    options.omega);
  SolverResult result;
  if (detail::start(p, r0, result)) return result;
  const char* name = options.method == CcpMethod::Apgd ? "ccp-apgd" : "ccp-pgs";
  auto inner = [&](const Eigen::VectorXd& s, double tolerance, bool& converged) {
    const int budget = options.max_iterations - result.iterations;
    result.iterations += options.method == CcpMethod::Apgd
                             ? detail::ccp_apgd(p, s, tolerance, budget, result.r, converged)
                             : detail::ccp_pgs(p, s, options.omega, tolerance, budget, result.r, converged);
  };

  // the relaxation: one CCP with s = 0, status from e_ccp
  if (!options.correction) {
    bool converged = false;
    inner(Eigen::VectorXd::Zero(p.nc()), options.tolerance, converged);
    detail::finish(p, options.tolerance, name, result);
    if (result.status != SolverStatus::NonFinite)
      result.status = converged ? SolverStatus::Converged : SolverStatus::MaxIterations;
    return result;
  }

  // the correction, eq. (2): s from the current u, CCP, until the Coulomb error is small
  Eigen::VectorXd u = p.W.apply(result.r) + p.q;
  double error = error_measure(p, result.r, u);
  for (int k = 0; k < options.max_corrections && error > options.tolerance; ++k) {
    if (result.iterations >= options.max_iterations) break;
    const Eigen::VectorXd s = tangential_shift(p, u);
    bool converged = false;
    inner(s, std::max(0.5 * options.tolerance, kInnerFraction * error), converged);
    if (!result.r.allFinite()) break;
    u = p.W.apply(result.r) + p.q;
    error = error_measure(p, result.r, u);
    nscd::logger().trace("{}: correction {}, {} iterations, error {:.3e}", name, k, result.iterations, error);
  }
  detail::finish(p, options.tolerance, name, result);
  return result;
}

}  // namespace nscd::solvers
