#pragma once
/// @file
/// Internal to solvers/: the LU factorisation P A Q = L U of a sequence of sparse matrices A that
/// share one pattern (the Newton matrices of a solve, velocity_prox.hpp eq. (3)), by KLU
/// [Davis & Palamadai Natarajan 2010] (Debian's libsuitesparse-dev). The pattern is ordered once
/// (block triangular form, then AMD on each block); the first matrix is factorised with partial
/// pivoting, the next ones with the same pivots (KLU's refactorisation, about half the time of a
/// pivoting factorisation on the harder shake's Newton matrices, docs/performance.md), unless that
/// fails or the pivots' spread, min_k |U_kk| / max_k |U_kk| (KLU's rcond, a crude estimate of the
/// reciprocal condition number), falls below kRepivot times that of the last pivoting
/// factorisation: the matrix is then factorised with pivoting again. A matrix whose pivots'
/// spread stays below kSingular with pivoting is refused as singular: its solution would keep at
/// most two digits, and the Newton solvers shift such a matrix instead (nsn.hpp). The same
/// matrices give the same factors and solutions, bit for bit.
///
/// References: [Davis & Palamadai Natarajan 2010] Algorithm 907: KLU, a direct sparse solver for
///             circuit simulation problems, ACM TOMS 37(3).

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <memory>

namespace nscd::solvers::detail {

class SparseLu {
 public:
  /// a refactorisation whose pivots' spread falls below this factor of the last pivoting
  /// factorisation's is done again with pivoting
  static constexpr double kRepivot = 1e-3;
  /// a matrix whose pivots' spread stays below this with pivoting is taken as singular
  static constexpr double kSingular = 1e-14;

  SparseLu();
  ~SparseLu();
  SparseLu(const SparseLu&) = delete;
  SparseLu& operator=(const SparseLu&) = delete;

  /// Factorises A (square, compressed); its pattern is ordered at the first call and whenever it
  /// differs from the last one's. False if A is singular or numerically singular (kSingular).
  bool factorize(const Eigen::SparseMatrix<double>& A);
  /// x of A x = b for the last A factorised (which factorize accepted).
  Eigen::VectorXd solve(const Eigen::VectorXd& b);
  /// Pivoting factorisations so far (the first and the repivoted ones).
  int pivotings() const { return m_pivotings; }

 private:
  struct Klu;  // KLU's settings, ordering and factors
  bool factorize_pivoting(const Eigen::SparseMatrix<double>& A);

  std::unique_ptr<Klu> m_klu;
  Eigen::VectorXi m_outer, m_inner;  // the pattern ordered
  double m_pivoting_rcond = 0.0;     // the pivots' spread in the last pivoting factorisation
  int m_pivotings = 0;
};

}  // namespace nscd::solvers::detail
