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

#include <Eigen/SparseCore>

namespace nscd::solvers::detail {

/// Eq. (1).
Eigen::SparseMatrix<double> to_sparse(const DelassusMatrix& W, double shift);

/// Eq. (2); the analysis itself grows faster than the problem (7 s for 3·10⁵ contacts), so
/// callers bound the number of contacts first.
double factorization_operations(const Eigen::SparseMatrix<double>& A);

}  // namespace nscd::solvers::detail
