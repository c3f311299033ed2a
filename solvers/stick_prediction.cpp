#include "solvers/stick_prediction.hpp"

#include "nscd/core/logger.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/sparse_delassus.hpp"

#include <Eigen/SparseCore>

#include <vector>

namespace nscd::solvers {
namespace {
// proximal weight relative to the mean diagonal of W, and the number of proximal iterations: each
// reduces the residual in the range of W by at least ε/(λ_min + ε); the null-space part of the
// first iterate carries round-off of about 1e-16/1e-8 relative
constexpr double kRegularisation = 1e-8;
constexpr int kProximalIterations = 4;

// eq. (2) from r = 0, `solve` b ↦ (W + ε I)⁻¹ b and `apply` r ↦ W r, then eq. (3)
template <class Solve, class Apply>
Eigen::VectorXd proximal_stick(const Eigen::VectorXd& q, const Eigen::VectorXd& mu, Solve&& solve, Apply&& apply) {
  Eigen::VectorXd r = Eigen::VectorXd::Zero(q.size());
  for (int k = 0; k < kProximalIterations; ++k) r += solve(-q - apply(r));
  if (!r.allFinite()) return Eigen::VectorXd::Zero(q.size());
  for (Eigen::Index i = 0; i < mu.size(); ++i) r.segment<3>(3 * i) = project_on_cone(r.segment<3>(3 * i), mu[i]);
  return r;
}

// the factorisation of A priced first: false (and a debug line) above max_operations
bool factorize_within(detail::PricedLdlt& ldlt, const Eigen::SparseMatrix<double>& A, double max_operations, int nc) {
  ldlt.analyzePattern(A);
  const double operations = ldlt.factorization_operations();
  if (operations > max_operations) {
    nscd::logger().debug("stick prediction skipped: its factorisation would take {:.3g} operations ({} contacts)",
                         operations, nc);
    return false;
  }
  ldlt.factorize(A);
  return true;
}

}  // namespace

std::optional<Eigen::VectorXd> stick_prediction(const FrictionProblem& p, double max_operations) {
  const int nc = p.nc();
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(nc);
  if (nc == 0) return Eigen::VectorXd::Zero(n);
  if (nc > kStickPredictionMaxContacts) {
    nscd::logger().debug("stick prediction skipped: {} contacts", nc);
    return std::nullopt;
  }
  // W + ε I and its factorisation, then eqs. (2)–(3)
  double trace = 0;
  for (int i = 0; i < nc; ++i) trace += p.W.diag(i).trace();
  const Eigen::SparseMatrix<double> A = detail::to_sparse(p.W, kRegularisation * trace / static_cast<double>(n));
  detail::PricedLdlt ldlt;
  if (!factorize_within(ldlt, A, max_operations, nc)) return std::nullopt;
  if (ldlt.info() != Eigen::Success) return Eigen::VectorXd::Zero(n);
  return proximal_stick(
      p.q, p.mu, [&](const Eigen::VectorXd& b) -> Eigen::VectorXd { return ldlt.solve(b); },
      [&](const Eigen::VectorXd& r) { return p.W.apply(r); });
}

std::optional<Eigen::VectorXd> stick_prediction(const BodyCoupling& c, const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                                                double mean_diagonal, double max_operations) {
  const int nc = c.nc();
  if (nc == 0) return Eigen::VectorXd::Zero(0);
  if (c.M.rows() > 3 * static_cast<Eigen::Index>(kStickPredictionMaxContacts)) {
    nscd::logger().debug("stick prediction skipped: {} unknowns", c.M.rows());
    return std::nullopt;
  }
  // ε M + Hᵀ H and its factorisation, then eqs. (2)–(4), W r = H M⁻¹ Hᵀ r
  const double epsilon = kRegularisation * mean_diagonal;
  const Eigen::SparseMatrix<double> Ht = c.H.transpose();
  const Eigen::SparseMatrix<double> A = epsilon * c.M + Ht * c.H;
  detail::PricedLdlt ldlt;
  if (!factorize_within(ldlt, A, max_operations, nc)) return std::nullopt;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> mass(c.M);
  if (ldlt.info() != Eigen::Success || mass.info() != Eigen::Success) return Eigen::VectorXd::Zero(3 * nc);
  return proximal_stick(
      q, mu, [&](const Eigen::VectorXd& b) -> Eigen::VectorXd { return (b - c.H * ldlt.solve(Ht * b)) / epsilon; },
      [&](const Eigen::VectorXd& r) -> Eigen::VectorXd { return c.H * mass.solve(Ht * r); });
}

}  // namespace nscd::solvers
