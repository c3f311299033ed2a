#include "solvers/lcp_solver.hpp"

#include "nscd/core/error.hpp"
#include "solvers/lcp_lemke.hpp"
#include "solvers/solver_common.hpp"
#include "solvers/sweep_plan.hpp"

#include <cmath>
#include <numbers>

namespace nscd::solvers {
namespace detail {

Eigen::MatrixXd pyramid_basis(int k) {
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(3, k + 1);
  B(0, 0) = 1.0;
  for (int j = 0; j < k; ++j) {
    const double angle = 2.0 * std::numbers::pi * j / k;
    B(1, j + 1) = std::cos(angle);
    B(2, j + 1) = std::sin(angle);
  }
  return B;
}

Eigen::MatrixXd pyramid_block(const Eigen::Matrix3d& W_ii, double mu, const Eigen::MatrixXd& B) {
  const int k = static_cast<int>(B.cols()) - 1;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(k + 2, k + 2);
  M.topLeftCorner(k + 1, k + 1) = B.transpose() * W_ii * B;
  // λ + d_jᵀ u_T, eq. (3), and μ r_n − Σ β_j, eq. (4)
  M.block(1, k + 1, k, 1).setOnes();
  M(k + 1, 0) = mu;
  M.block(k + 1, 1, 1, k).setConstant(-1.0);
  return M;
}

}  // namespace detail

std::string_view to_string(LcpMethod method) {
  switch (method) {
    case LcpMethod::Auto:
      return "auto";
    case LcpMethod::Lemke:
      return "lemke";
    case LcpMethod::Pgs:
      return "pgs";
  }
  return "unknown";
}

SolverResult solve_lcp(const FrictionProblem& p, const LcpOptions& options, const Eigen::VectorXd& r0) {
  detail::check_problem(p, "LCP");
  NSCD_THROW_UNLESS(options.facets >= 3, "LCP needs at least 3 pyramid facets, got {}", options.facets);
  NSCD_THROW_UNLESS(options.stopping.max_iterations >= 0, "LCP max_iterations must be ≥ 0, got {}",
                    options.stopping.max_iterations);
  SolverResult result;
  result.stage = SolverType::Lcp;
  if (detail::start(p, r0, "LCP", result)) return result;
  const int nc = p.nc();
  const int k = options.facets;
  const int m = k + 2;
  const bool use_lemke = options.method == LcpMethod::Lemke ||
                         (options.method == LcpMethod::Auto && m * nc <= options.lemke_max_variables);
  bool converged = false;
  const char* name = use_lemke ? "lcp-lemke" : "lcp-pgs";

  if (use_lemke) {
    // the dense LCP: M_ij = Bᵀ W_ij B, the λ rows and columns on the diagonal blocks
    const Eigen::MatrixXd B = detail::pyramid_basis(k);
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(m * nc, m * nc);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(m * nc);
    for (int i = 0; i < nc; ++i) {
      M.block(m * i, m * i, m, m) = detail::pyramid_block(p.W.diag(i), p.mu(i), B);
      p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& W_ij) {
        M.block(m * i, m * j, k + 1, k + 1) = B.transpose() * W_ij * B;
      });
      b.segment(m * i, k + 1) = B.transpose() * p.q.segment<3>(3 * i);
    }
    const LemkeResult lcp = lemke(M, b, options.stopping.max_iterations);
    result.iterations = lcp.pivots;
    converged = lcp.solved;
    if (converged) {
      for (int i = 0; i < nc; ++i) result.r.segment<3>(3 * i) = B * lcp.z.segment(m * i, k + 1);
    }
  } else {
    // sweeps in the order of a sweep plan, on p renumbered in that order (p itself in index order)
    const detail::SweepPlan plan = detail::make_sweep_plan(p.W);
    FrictionProblem renumbered_problem;
    const FrictionProblem& P = detail::in_plan_order(p, plan, renumbered_problem);
    Eigen::VectorXd r(3 * nc);
    detail::to_order(result.r, plan.coloring.order, 3, r);
    Eigen::VectorXd z = Eigen::VectorXd::Zero(m * nc);
    result.iterations = detail::lcp_pgs(P, plan, k, options.stopping.tolerance,
                                        options.stopping.max_iterations, r, z, converged);
    detail::from_order(r, plan.coloring.order, 3, result.r);
  }
  detail::finish(p, options.stopping.tolerance, name, result);
  if (result.status != SolverStatus::NonFinite)
    result.status = converged ? SolverStatus::Converged : SolverStatus::MaxIterations;
  return result;
}

}  // namespace nscd::solvers
