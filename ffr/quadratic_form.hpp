#pragma once
/// @file
/// The quadratic form of a symmetric sparse matrix, for the energies of deformable bodies
/// (½ ψᵀ K ψ, ½ uᵀ M u, h λᵀ C λ), evaluated on A's upper triangle in one pass:
///
///  (1) xᵀ A x = Σ_k x_k (A_kk x_k + 2 Σ_{j<k} A_jk x_j)     (A = Aᵀ, column-major storage),
///
/// which reads half of A's entries and writes no temporary, where x.dot(A * x) reads them all and
/// fills a vector of A's size. The energies are evaluated at every step, as often as the free
/// motion's own products with K and M.

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace nscd::ffr {

/// Eq. (1). A must be symmetric (its lower triangle is not read) with sorted inner indices, as
/// after makeCompressed() or assembly from triplets; x of A's size.
inline double symmetric_quadratic_form(const Eigen::SparseMatrix<double>& A, const Eigen::VectorXd& x) {
  double sum = 0;
  for (Eigen::Index k = 0; k < A.outerSize(); ++k) {
    double off_diagonal = 0, diagonal = 0;
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, k); it && it.index() <= k; ++it) {
      if (it.index() == k)
        diagonal = it.value() * x[k];
      else
        off_diagonal += it.value() * x[it.index()];
    }
    sum += x[k] * (diagonal + 2 * off_diagonal);
  }
  return sum;
}

}  // namespace nscd::ffr
