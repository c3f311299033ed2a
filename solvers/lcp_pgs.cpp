#include "solvers/error_measure.hpp"
#include "solvers/lcp_lemke.hpp"
#include "solvers/lcp_solver.hpp"

#include <cmath>
#include <vector>

namespace nscd::solvers::detail {
namespace {

// e_lcp is evaluated every so many sweeps
constexpr int kErrorPeriod = 8;
// pivots allowed to a contact's LCP of m unknowns
constexpr int kLocalPivotFactor = 4;

}  // namespace

int lcp_pgs(const FrictionProblem& p, const SweepPlan& plan, int k, double tolerance, int max_iterations,
            Eigen::VectorXd& r, Eigen::VectorXd& z, bool& converged) {
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

  // b = (Bᵀ q_loc, 0) of contact i with q_loc = q_i + Σ_{j≠i} W_ij r_j, into b (m)
  auto local_b = [&](int i, Eigen::VectorXd& b) {
    Eigen::Vector3d q_loc = p.q.segment<3>(3 * i);
    p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& W_ij) { q_loc.noalias() += W_ij * r.segment<3>(3 * j); });
    b.head(k + 1).noalias() = B.transpose() * q_loc;
    b(k + 1) = 0.0;
  };
  // b of each chunk of plan, and b, z_i, w_i of e_lcp: allocated once
  std::vector<Eigen::VectorXd> chunk_b(static_cast<std::size_t>(plan.n_chunks()), Eigen::VectorXd(m));
  Eigen::VectorXd b(m), zi(m), w(m);

  int sweeps = 0;
  while (sweeps < max_iterations) {
    ++sweeps;
    for_each_chunk_in_color_order(plan, [&](int chunk, int begin, int end) {
      for (int i = begin; i < end; ++i) {
        // the contact's LCP, exactly; a failed local solve keeps the previous z_i
        local_b(i, chunk_b[chunk]);
        const LemkeResult local = lemke(M[i], chunk_b[chunk], kLocalPivotFactor * m);
        if (!local.solved) continue;
        z.segment(m * i, m) = local.z;
        r.segment<3>(3 * i) = B * local.z.head(k + 1);
      }
    });
    if (sweeps % kErrorPeriod != 0 && sweeps != max_iterations) continue;
    if (!r.allFinite()) break;

    // e_lcp of eq. (5), summed in plan order, the impulses and their slack scaled by s_i
    double sum = 0.0;
    for (int i = 0; i < nc; ++i) {
      zi = z.segment(m * i, m);
      local_b(i, b);
      w.noalias() = M[i] * zi;
      w += b;
      const double s = impulse_scale(p, i);
      zi.head(k + 1) *= s;
      w(k + 1) *= s;
      sum += zi.cwiseMin(w).squaredNorm();
    }
    const Eigen::VectorXd u = p.W.apply(r) + p.q;
    if (std::sqrt(sum) / error_denominator(p, r, u) <= tolerance) {
      converged = true;
      break;
    }
  }
  return sweeps;
}

}  // namespace nscd::solvers::detail
