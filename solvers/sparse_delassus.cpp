#include "solvers/sparse_delassus.hpp"

namespace nscd::solvers::detail {

double PricedLdlt::factorization_operations() const {
  double operations = 0;
  for (Eigen::Index k = 0; k < m_nonZerosPerCol.size(); ++k)
    operations += static_cast<double>(m_nonZerosPerCol[k]) * static_cast<double>(m_nonZerosPerCol[k]);
  return operations;
}

Eigen::SparseMatrix<double> to_sparse(const DelassusMatrix& W, double shift) {
  return sparse_on_pattern(W, [&](int i, int j, const Eigen::Matrix3d& W_ij) -> Eigen::Matrix3d {
    if (i != j) return W_ij;
    return W_ij + shift * Eigen::Matrix3d::Identity();
  });
}

double factorization_operations(const Eigen::SparseMatrix<double>& A) {
  PricedLdlt ldlt;
  ldlt.analyzePattern(A);
  return ldlt.factorization_operations();
}

}  // namespace nscd::solvers::detail
