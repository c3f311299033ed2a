#include "solvers/sparse_delassus.hpp"

#include <Eigen/SparseCholesky>

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
