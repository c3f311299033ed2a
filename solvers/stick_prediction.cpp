#include "solvers/stick_prediction.hpp"

#include "nscd/core/logger.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/sparse_delassus.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <vector>

namespace nscd::solvers {
namespace {
// proximal weight relative to the mean diagonal of W, and the number of proximal iterations: each
// reduces the residual in the range of W by at least ε/(λ_min + ε); the null-space part of the
// first iterate carries round-off of about 1e-16/1e-8 relative
constexpr double kRegularisation = 1e-8;
constexpr int kProximalIterations = 4;

}  // namespace

std::optional<Eigen::VectorXd> stick_prediction(const FrictionProblem& p, double max_operations) {
  const int nc = p.nc();
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(nc);
  Eigen::VectorXd r = Eigen::VectorXd::Zero(n);
  if (nc == 0) return r;
  if (nc > kStickPredictionMaxContacts) {
    nscd::logger().debug("stick prediction skipped: {} contacts", nc);
    return std::nullopt;
  }

  // W + ε I, the price of its factorisation, then eq. (2) from r = 0, then eq. (3)
  double trace = 0;
  for (int i = 0; i < nc; ++i) trace += p.W.diag(i).trace();
  const Eigen::SparseMatrix<double> A = detail::to_sparse(p.W, kRegularisation * trace / static_cast<double>(n));
  const double operations = detail::factorization_operations(A);
  if (operations > max_operations) {
    nscd::logger().debug("stick prediction skipped: its factorisation would take {:.3g} operations ({} contacts)",
                         operations, nc);
    return std::nullopt;
  }
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt;
  ldlt.compute(A);
  if (ldlt.info() != Eigen::Success) return r;
  for (int k = 0; k < kProximalIterations; ++k) r += ldlt.solve(-p.q - p.W.apply(r));
  if (!r.allFinite()) return Eigen::VectorXd::Zero(n);
  for (int i = 0; i < nc; ++i) r.segment<3>(3 * i) = project_on_cone(r.segment<3>(3 * i), p.mu[i]);
  return r;
}

}  // namespace nscd::solvers
