#include "solvers/ccp_pgs.hpp"

#include "solvers/ccp_solver.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/local_solver.hpp"

#include <vector>

namespace nscd::solvers::detail {
namespace {

// e_ccp is evaluated every so many sweeps
constexpr int kErrorPeriod = 8;

}  // namespace

int ccp_pgs(const FrictionProblem& p, const SweepPlan& plan, const Eigen::VectorXd& s, double omega, double tolerance,
            int max_iterations, Eigen::VectorXd& r, bool& converged) {
  converged = false;
  const int nc = p.nc();
  if (nc == 0) {
    converged = true;
    return 0;
  }
  // η_i of eq. (2)
  std::vector<double> eta(static_cast<std::size_t>(nc));
  for (int i = 0; i < nc; ++i) eta[i] = omega * fixed_point_rho(p.W.diag(i));
  Eigen::VectorXd u(r.size());

  int sweeps = 0;
  while (sweeps < max_iterations) {
    ++sweeps;
    for_each_chunk_in_color_order(plan, [&](int, int begin, int end) {
      for (int i = begin; i < end; ++i) {
        // u_i + s_i e_n, eq. (1), then the projected step, eq. (2)
        Eigen::Vector3d ui = p.q.segment<3>(3 * i) + p.W.diag(i) * r.segment<3>(3 * i);
        p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& W_ij) { ui.noalias() += W_ij * r.segment<3>(3 * j); });
        ui(0) += s(i);
        r.segment<3>(3 * i) = project_on_cone(r.segment<3>(3 * i) - eta[i] * ui, p.mu(i));
      }
    });
    if (sweeps % kErrorPeriod != 0 && sweeps != max_iterations) continue;
    if (!r.allFinite()) break;
    p.W.apply(r, u);
    u += p.q;
    if (ccp_error(p, s, r, u) <= tolerance) {
      converged = true;
      break;
    }
  }
  return sweeps;
}

}  // namespace nscd::solvers::detail
