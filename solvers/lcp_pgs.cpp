#include "solvers/lcp_lemke.hpp"
#include "solvers/lcp_solver.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace nscd::solvers::detail {
namespace {

// e_lcp is evaluated every so many sweeps
constexpr int kErrorPeriod = 8;
// pivots allowed to a contact's LCP of m unknowns
constexpr int kLocalPivotFactor = 4;

}  // namespace

int lcp_pgs(const FrictionProblem& p, int k, double tolerance, int max_iterations, Eigen::VectorXd& r,
            Eigen::VectorXd& z, bool& converged) {
  converged = false;
  const int nc = p.nc();
  const int m = k + 2;
  if (nc == 0) {
    converged = true;
    return 0;
  }
  const Eigen::MatrixXd B = pyramid_basis(k);
  std::vector<Eigen::MatrixXd> M(static_cast<std::size_t>(nc));
  for (int i = 0; i < nc; ++i) M[i] = pyramid_block(p.W.diag(i), p.mu(i), B);

  // b_i = (Bᵀ q_loc, 0) with q_loc = q_i + Σ_{j≠i} W_ij r_j
  auto local_b = [&](int i) {
    Eigen::Vector3d q_loc = p.q.segment<3>(3 * i);
    p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& W_ij) { q_loc.noalias() += W_ij * r.segment<3>(3 * j); });
    Eigen::VectorXd b = Eigen::VectorXd::Zero(m);
    b.head(k + 1) = B.transpose() * q_loc;
    return b;
  };

  int sweeps = 0;
  while (sweeps < max_iterations) {
    ++sweeps;
    for (int i = 0; i < nc; ++i) {
      // the contact's LCP, exactly; a failed local solve keeps the previous z_i
      const LemkeResult local = lemke(M[i], local_b(i), kLocalPivotFactor * m);
      if (!local.solved) continue;
      z.segment(m * i, m) = local.z;
      r.segment<3>(3 * i) = B * local.z.head(k + 1);
    }
    if (sweeps % kErrorPeriod != 0 && sweeps != max_iterations) continue;
    if (!r.allFinite()) break;

    // e_lcp of eq. (5)
    double sum = 0.0;
    for (int i = 0; i < nc; ++i) {
      const Eigen::VectorXd zi = z.segment(m * i, m);
      const Eigen::VectorXd w = M[i] * zi + local_b(i);
      sum += zi.cwiseMin(w).squaredNorm();
    }
    const Eigen::VectorXd u = p.W.apply(r) + p.q;
    double denominator = std::max({p.q.norm(), r.norm(), u.norm()});
    if (denominator == 0.0) denominator = 1.0;
    if (std::sqrt(sum) / denominator <= tolerance) {
      converged = true;
      break;
    }
  }
  return sweeps;
}

}  // namespace nscd::solvers::detail
