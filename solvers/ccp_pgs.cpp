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

int ccp_pgs(const FrictionProblem& p, const Eigen::VectorXd& s, double omega, double tolerance, int max_iterations,
            Eigen::VectorXd& r, bool& converged) {
  converged = false;
  const int nc = p.nc();
  if (nc == 0) {
    converged = true;
    return 0;
  }
  // η_i of eq. (2)
  std::vector<double> eta(static_cast<std::size_t>(nc));
  for (int i = 0; i < nc; ++i) eta[i] = omega * fixed_point_rho(p.W.diag(i));

  int sweeps = 0;
  while (sweeps < max_iterations) {
    ++sweeps;
    for (int i = 0; i < nc; ++i) {
      // u_i + s_i e_n, eq. (1), then the projected step, eq. (2)
      Eigen::Vector3d u = p.q.segment<3>(3 * i) + p.W.diag(i) * r.segment<3>(3 * i);
      p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& W_ij) { u.noalias() += W_ij * r.segment<3>(3 * j); });
      u(0) += s(i);
      r.segment<3>(3 * i) = project_on_cone(r.segment<3>(3 * i) - eta[i] * u, p.mu(i));
    }
    if (sweeps % kErrorPeriod != 0 && sweeps != max_iterations) continue;
    if (!r.allFinite()) break;
    if (ccp_error(p, s, r, p.W.apply(r) + p.q) <= tolerance) {
      converged = true;
      break;
    }
  }
  return sweeps;
}

}  // namespace nscd::solvers::detail
