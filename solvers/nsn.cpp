#include "solvers/nsn.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/alart_curnier_projection.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solver_common.hpp"
#include "solvers/sparse_delassus.hpp"
#include "solvers/sparse_lu.hpp"

#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace nscd::solvers {
namespace detail {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using Eigen::VectorXd;

// first regularisation of a singular J, relative to its largest diagonal entry, and its growth
constexpr double kFirstShift = 1e-12;
constexpr double kShiftGrowth = 100.0;
constexpr int kMaxShifts = 8;

// ρ_i of eq. (2) from the diagonal block shifted by σ
Vector3d newton_rho(const Matrix3d& W, double sigma) {
  const double w_mean = 0.5 * (W(1, 1) + W(2, 2)) + sigma;
  const double w_half_gap = 0.5 * (W(1, 1) - W(2, 2));
  const double w_off = 0.5 * (W(1, 2) + W(2, 1));
  const double lambda_t = w_mean + std::sqrt(w_half_gap * w_half_gap + w_off * w_off);
  const double w_nn = W(0, 0) + sigma;
  const double scale = std::max(W.norm(), std::numeric_limits<double>::min());
  return {w_nn > 0.0 ? 1.0 / w_nn : 1.0 / scale, lambda_t > 0.0 ? 1.0 / lambda_t : 1.0 / scale,
          lambda_t > 0.0 ? 1.0 / lambda_t : 1.0 / scale};
}

struct Evaluation {
  VectorXd phi;              // Φ of eq. (2)
  std::vector<Matrix3d> D;   // ∂P_i/∂x_i
};

// Φ(r) of eq. (2) and the blocks D_i, for u = (W + σI) r + q'
void evaluate(const FrictionProblem& p, double sigma, const VectorXd& q_shifted, const std::vector<Vector3d>& rho,
              const VectorXd& r, Evaluation& ev) {
  const VectorXd u = p.W.apply(r) + sigma * r + q_shifted;
  ev.phi.resize(r.size());
  ev.D.resize(static_cast<std::size_t>(p.nc()));
  for (int i = 0; i < p.nc(); ++i) {
    const Vector3d ri = r.segment<3>(3 * i);
    const Vector3d x = ri - rho[i].cwiseProduct(u.segment<3>(3 * i));
    ev.phi.segment<3>(3 * i) = ri - ac_projection(x, p.mu(i), ev.D[i]);
  }
}

// J of eq. (3) as a sparse matrix with the block pattern of W (explicit zeros kept)
Eigen::SparseMatrix<double> jacobian(const FrictionProblem& p, double sigma, const std::vector<Vector3d>& rho,
                                     const Evaluation& ev, double shift) {
  return detail::sparse_on_pattern(p.W, [&](int i, int j, const Matrix3d& W_ij) -> Matrix3d {
    const Matrix3d D_rho = ev.D[i] * rho[i].asDiagonal();
    if (i != j) return D_rho * W_ij;
    Matrix3d W_ii = W_ij;
    W_ii.diagonal().array() += sigma;
    return Matrix3d::Identity() - ev.D[i] + D_rho * W_ii + shift * Matrix3d::Identity();
  });
}

}  // namespace

NewtonReport nsn_iterate(const FrictionProblem& p, double sigma, const VectorXd& q_shifted, const NsnOptions& options,
                         int max_iterations, double phi_tolerance, bool stop_on_error, double error_tolerance,
                         VectorXd& r) {
  NewtonReport report;
  const int nc = p.nc();
  if (nc == 0) return report;
  std::vector<Vector3d> rho(static_cast<std::size_t>(nc));
  VectorXd rho_q(3 * nc);
  for (int i = 0; i < nc; ++i) {
    rho[i] = newton_rho(p.W.diag(i), sigma);
    rho_q.segment<3>(3 * i) = rho[i].cwiseProduct(q_shifted.segment<3>(3 * i));
  }
  const double phi_scale = std::max({rho_q.norm(), 1e-300});

  Evaluation ev, trial;
  evaluate(p, sigma, q_shifted, rho, r, ev);
  SparseLu lu;  // one pattern: the pivots of the first J reused
  int it = 0;
  for (; it < max_iterations; ++it) {
    // stopping tests: ‖Φ‖ small, or the error of the unshifted problem
    if (it > 0 && ev.phi.norm() <= phi_tolerance * std::max(phi_scale, r.norm())) break;
    if (stop_on_error && error_measure(p, r, p.W.apply(r) + p.q) <= error_tolerance) break;

    // Newton direction, eq. (4); a singular J is shifted by ε I
    VectorXd d;
    double shift = 0.0;
    for (int attempt = 0; attempt <= kMaxShifts; ++attempt) {
      const Eigen::SparseMatrix<double> J = jacobian(p, sigma, rho, ev, shift);
      ++report.factorizations;
      if (lu.factorize(J)) {
        d = lu.solve(-ev.phi);
        if (d.allFinite()) break;
      }
      d.resize(0);
      const double diag_max = std::max(J.diagonal().cwiseAbs().maxCoeff(), 1.0);
      shift = shift == 0.0 ? kFirstShift * diag_max : shift * kShiftGrowth;
    }
    if (d.size() == 0) {
      report.stalled = true;
      break;
    }

    // Armijo backtracking on ½‖Φ‖²; after max_halvings the smallest step is taken anyway
    const double psi0 = ev.phi.squaredNorm();
    double t = 1.0;
    bool decreased = false;
    VectorXd r_try;
    for (int h = 0; h <= options.max_halvings && t >= options.min_step; ++h, t *= 0.5) {
      r_try = r + t * d;
      evaluate(p, sigma, q_shifted, rho, r_try, trial);
      if (trial.phi.squaredNorm() <= (1.0 - 2.0 * options.armijo * t) * psi0) {
        decreased = true;
        break;
      }
    }
    if (!decreased && t < options.min_step) {
      report.stalled = true;
      break;
    }
    if (!r_try.allFinite()) {
      report.stalled = true;
      break;
    }
    r = r_try;
    std::swap(ev, trial);
    if (!decreased) report.stalled = true;
  }
  report.iterations = it;
  return report;
}

}  // namespace detail

SolverResult solve_nsn(const FrictionProblem& p, const NsnOptions& options, const Eigen::VectorXd& r0) {
  detail::check_problem(p, "NSN");
  NSCD_THROW_UNLESS(options.stopping.max_iterations >= 0, "NSN max_iterations must be ≥ 0, got {}",
                    options.stopping.max_iterations);
  SolverResult result;
  result.stage = SolverType::Nsn;
  if (detail::start(p, r0, "nsn", result)) return result;

  // Newton until the error of eq. (3) reaches the tolerance (‖Φ‖ = 0 exactly is also a solution)
  const detail::NewtonReport newton =
      detail::nsn_iterate(p, 0.0, p.q, options, options.stopping.max_iterations, 0.0, true,
                          options.stopping.tolerance, result.r);
  result.iterations = newton.iterations;
  result.factorizations = newton.factorizations;
  detail::finish(p, options.stopping.tolerance, "nsn", result);
  return result;
}

}  // namespace nscd::solvers
