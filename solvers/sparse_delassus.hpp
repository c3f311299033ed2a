#pragma once
/// @file
/// Internal to solvers/: W of delassus.hpp as one Eigen sparse matrix, and the price of its
/// sparse factorisation, for the solvers that factorise it or a matrix of its pattern
/// (stick_prediction.hpp, nsn.hpp through auto_solver.hpp).
///
///  (1) A = W + shift · I   (3nc × 3nc, both triangles)
///  (2) price(A) = Σ_k c_k²  over the column counts c_k of the Cholesky factor L of A after a
///      fill-reducing ordering: the operations of the factorisation, known after Eigen's
///      symbolic analysis alone.

#include "solvers/delassus.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <vector>

namespace nscd::solvers::detail {

/// The sparse (3nc × 3nc) matrix of W's block pattern, both triangles, whose block (i, j) is
/// block(i, j, W_ij) for every stored block of W, the diagonal ones included (j = i, W_ii):
/// eq. (1) and matrices of W's pattern (NSN's Jacobian, nsn.hpp eq. (3)).
template <class Block>
Eigen::SparseMatrix<double> sparse_on_pattern(const DelassusMatrix& W, Block&& block) {
  const int nc = W.nc();
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(9 * static_cast<std::size_t>(nc + W.n_offdiag()));
  auto add_block = [&](int i, int j, const Eigen::Matrix3d& B) {
    for (int k = 0; k < 3; ++k)
      for (int l = 0; l < 3; ++l) entries.emplace_back(3 * i + k, 3 * j + l, B(k, l));
  };
  for (int i = 0; i < nc; ++i) {
    add_block(i, i, block(i, i, W.diag(i)));
    W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& W_ij) { add_block(i, j, block(i, j, W_ij)); });
  }
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(nc);
  Eigen::SparseMatrix<double> A(n, n);
  A.setFromTriplets(entries.begin(), entries.end());
  return A;
}

/// Eq. (1).
Eigen::SparseMatrix<double> to_sparse(const DelassusMatrix& W, double shift);

/// Eigen's LDLᵀ with the price of its factorisation, eq. (2), known after analyzePattern: a
/// caller that factorises A prices it on the same symbolic analysis.
class PricedLdlt : public Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> {
 public:
  /// Eq. (2); valid after analyzePattern.
  double factorization_operations() const;
};

/// Eq. (2); the analysis itself grows faster than the problem (7 s for 3·10⁵ contacts), so
/// callers bound the number of contacts first.
double factorization_operations(const Eigen::SparseMatrix<double>& A);

}  // namespace nscd::solvers::detail
