#include "solvers/stick_prediction.hpp"

#include "nscd/core/logger.hpp"
#include "solvers/error_measure.hpp"

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

using SparseMatrix = Eigen::SparseMatrix<double>;

// Eigen's LDLᵀ with the price of its factorisation, known after the symbolic analysis
class PricedLdlt : public Eigen::SimplicialLDLT<SparseMatrix> {
 public:
  // Σ_k c_k² over the column counts c_k of L (valid after analyzePattern)
  double factorisation_operations() const {
    double operations = 0;
    for (Eigen::Index k = 0; k < m_nonZerosPerCol.size(); ++k)
      operations += static_cast<double>(m_nonZerosPerCol[k]) * static_cast<double>(m_nonZerosPerCol[k]);
    return operations;
  }
};

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

  // W + ε I as a sparse matrix (lower triangle suffices for LDLᵀ; both halves are given)
  double trace = 0;
  for (int i = 0; i < nc; ++i) trace += p.W.diag(i).trace();
  const double epsilon = kRegularisation * trace / static_cast<double>(n);
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(9 * static_cast<std::size_t>(nc + p.W.n_offdiag()));
  auto add_block = [&](int i, int j, const Eigen::Matrix3d& block) {
    for (int k = 0; k < 3; ++k)
      for (int l = 0; l < 3; ++l) entries.emplace_back(3 * i + k, 3 * j + l, block(k, l));
  };
  for (int i = 0; i < nc; ++i) {
    add_block(i, i, p.W.diag(i) + epsilon * Eigen::Matrix3d::Identity());
    p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& block) { add_block(i, j, block); });
  }
  SparseMatrix A(n, n);
  A.setFromTriplets(entries.begin(), entries.end());

  // the price, then eq. (2) from r = 0, then eq. (3)
  PricedLdlt ldlt;
  ldlt.analyzePattern(A);
  const double operations = ldlt.factorisation_operations();
  if (operations > max_operations) {
    nscd::logger().debug("stick prediction skipped: its factorisation would take {:.3g} operations ({} contacts)",
                         operations, nc);
    return std::nullopt;
  }
  ldlt.factorize(A);
  if (ldlt.info() != Eigen::Success) return r;
  for (int k = 0; k < kProximalIterations; ++k) r += ldlt.solve(-p.q - p.W.apply(r));
  if (!r.allFinite()) return Eigen::VectorXd::Zero(n);
  for (int i = 0; i < nc; ++i) r.segment<3>(3 * i) = project_on_cone(r.segment<3>(3 * i), p.mu[i]);
  return r;
}

}  // namespace nscd::solvers
