#include "solvers/sparse_delassus.hpp"

#include <Eigen/SparseCholesky>

#include <vector>

namespace nscd::solvers::detail {
namespace {

// Eigen's LDLᵀ with the price of its factorisation, known after the symbolic analysis
class PricedLdlt : public Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> {
 public:
  // Σ_k c_k² over the column counts c_k of L (valid after analyzePattern)
  double factorization_operations() const {
    double operations = 0;
    for (Eigen::Index k = 0; k < m_nonZerosPerCol.size(); ++k)
      operations += static_cast<double>(m_nonZerosPerCol[k]) * static_cast<double>(m_nonZerosPerCol[k]);
    return operations;
  }
};

}  // namespace

Eigen::SparseMatrix<double> to_sparse(const DelassusMatrix& W, double shift) {
  const int nc = W.nc();
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(9 * static_cast<std::size_t>(nc + W.n_offdiag()));
  auto add_block = [&](int i, int j, const Eigen::Matrix3d& block) {
    for (int k = 0; k < 3; ++k)
      for (int l = 0; l < 3; ++l) entries.emplace_back(3 * i + k, 3 * j + l, block(k, l));
  };
  for (int i = 0; i < nc; ++i) {
    add_block(i, i, W.diag(i) + shift * Eigen::Matrix3d::Identity());
    W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& block) { add_block(i, j, block); });
  }
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(nc);
  Eigen::SparseMatrix<double> A(n, n);
  A.setFromTriplets(entries.begin(), entries.end());
  return A;
}

double factorization_operations(const Eigen::SparseMatrix<double>& A) {
  PricedLdlt ldlt;
  ldlt.analyzePattern(A);
  return ldlt.factorization_operations();
}

}  // namespace nscd::solvers::detail
