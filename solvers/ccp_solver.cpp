#include "solvers/ccp_solver.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/ccp_apgd.hpp"
#include "solvers/ccp_pgs.hpp"
#include "solvers/contact_blocks.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solver_common.hpp"
#include "solvers/sweep_plan.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

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
  // sums over the fixed blocks of contact_blocks.hpp: the same bits for any number of threads
  const double sum = detail::sum_over_contact_blocks(p.nc(), [&](int begin, int end) {
    double block = 0.0;
    for (int i = begin; i < end; ++i) {
      const Eigen::Vector3d ri = impulse_scale(p, i) * r.segment<3>(3 * i);
      Eigen::Vector3d x = ri - u.segment<3>(3 * i);
      x(0) -= s(i);
      block += (ri - project_on_cone(x, p.mu(i))).squaredNorm();
    }
    return block;
  });
  auto norm = [&](const Eigen::VectorXd& v) {
    return std::sqrt(detail::sum_over_contact_blocks(
        p.nc(), [&](int begin, int end) { return detail::contacts_of(v, begin, end).squaredNorm(); }));
  };
  const double r_norm = std::sqrt(detail::sum_over_contact_blocks(p.nc(), [&](int begin, int end) {
    double block = 0.0;
    for (int i = begin; i < end; ++i) block += (impulse_scale(p, i) * r.segment<3>(3 * i)).squaredNorm();
    return block;
  }));
  double denominator = std::max({norm(p.q), r_norm, norm(u)});
  if (denominator == 0.0) denominator = 1.0;
  return std::sqrt(sum) / denominator;
}

SolverResult solve_ccp(const FrictionProblem& p, const CcpOptions& options, const Eigen::VectorXd& r0) {
  detail::check_problem(p, "CCP");
  NSCD_THROW_UNLESS(options.stopping.max_iterations >= 0 && options.max_corrections >= 1,
                    "CCP needs max_iterations ≥ 0 and max_corrections ≥ 1");
  NSCD_THROW_UNLESS(options.omega > 0.0 && options.omega < 2.0, "CCP relaxation omega must be in (0, 2), got {}",
                    options.omega);
  SolverResult result;
  result.stage = SolverType::Ccp;
  if (detail::start(p, r0, "CCP", result)) return result;
  const char* name = options.method == CcpMethod::Apgd ? "ccp-apgd" : "ccp-pgs";
  // PGS sweeps in the order of a sweep plan, on the problem P renumbered in that order (p itself
  // in index order, and for APGD); r, u and s below are in P's numbering
  const detail::SweepPlan plan =
      options.method == CcpMethod::Pgs ? detail::make_sweep_plan(p.W) : detail::index_order_plan(p.nc());
  const std::vector<int>& order = plan.coloring.order;
  FrictionProblem renumbered_problem;
  const FrictionProblem& P = detail::in_plan_order(p, plan, renumbered_problem);
  Eigen::VectorXd r(result.r.size());
  detail::to_order(result.r, order, 3, r);
  auto inner = [&](const Eigen::VectorXd& s, double tolerance, bool& converged) {
    const int budget = options.stopping.max_iterations - result.iterations;
    result.iterations += options.method == CcpMethod::Apgd
                             ? detail::ccp_apgd(P, s, tolerance, budget, r, converged)
                             : detail::ccp_pgs(P, plan, s, options.omega, tolerance, budget, r, converged);
  };

  // the relaxation: one CCP with s = 0, status from e_ccp
  if (!options.correction) {
    bool converged = false;
    inner(Eigen::VectorXd::Zero(p.nc()), options.stopping.tolerance, converged);
    detail::from_order(r, order, 3, result.r);
    detail::finish(p, options.stopping.tolerance, name, result);
    if (result.status != SolverStatus::NonFinite)
      result.status = converged ? SolverStatus::Converged : SolverStatus::MaxIterations;
    return result;
  }

  // the correction, eq. (2): s from the current u, CCP, until the Coulomb error is small
  Eigen::VectorXd u = P.W.apply(r) + P.q;
  double error = error_measure(P, r, u);
  for (int k = 0; k < options.max_corrections && error > options.stopping.tolerance; ++k) {
    if (result.iterations >= options.stopping.max_iterations) break;
    const Eigen::VectorXd s = tangential_shift(P, u);
    bool converged = false;
    inner(s, std::max(0.5 * options.stopping.tolerance, kInnerFraction * error), converged);
    if (!r.allFinite()) break;
    u = P.W.apply(r) + P.q;
    error = error_measure(P, r, u);
    nscd::logger().trace("{}: correction {}, {} iterations, error {:.3e}", name, k, result.iterations, error);
  }
  detail::from_order(r, order, 3, result.r);
  detail::finish(p, options.stopping.tolerance, name, result);
  return result;
}

}  // namespace nscd::solvers
