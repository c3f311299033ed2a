#pragma once
/// @file
/// The Delassus operator W = H M̂⁻¹ Hᵀ (3nc × 3nc), stored as a symmetric block-CSR matrix of
/// 3×3 blocks: both W_ij and W_ji = W_ijᵀ are stored so that a Gauss–Seidel sweep over row i
/// visits only the stored blocks of that row. Diagonal blocks are kept apart for the local
/// solvers. W is never formed densely except on request (tests, small FCLIB problems).
///
///  (1) u = W r + q                       (local problem of FCLIB, [Acary et al. 2018])
///  (2) W_ij = Σ_b G_ib M̂_b⁻¹ G_jbᵀ       (sum over the bodies shared by contacts i and j)
///
/// References: [Jean 1999] The non-smooth contact dynamics method, CMAME 177.
///             [Acary, Brémond, Huber 2018] On solving contact problems with Coulomb friction.

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <vector>

namespace nscd::solvers {

/// Symmetric block-sparse W of 3×3 blocks.
class DelassusMatrix {
 public:
  DelassusMatrix() = default;

  /// Builds W from its block rows: the diagonal blocks W_ii (nc), and for row i the
  /// off-diagonal blocks cols[k], blocks[k] for k in [row_start[i], row_start[i + 1]), columns
  /// increasing. The caller provides both W_ij and W_ji.
  /// @pre row_start.size() == nc + 1, row_start[0] == 0, cols.size() == blocks.size() == row_start[nc].
  static DelassusMatrix from_block_rows(std::vector<Eigen::Matrix3d> diag, std::vector<int> row_start,
                                        std::vector<int> cols, std::vector<Eigen::Matrix3d> blocks);

  /// Builds W from a dense (3nc × 3nc) matrix; 3×3 blocks that are exactly zero are not stored.
  /// The matrix is used as given (not symmetrised), so FCLIB problems are replayed unchanged.
  static DelassusMatrix from_dense(const Eigen::MatrixXd& W);

  /// The same W as from_dense of the sparse matrix's dense copy (blocks absent or exactly zero
  /// are not stored), without forming it.
  static DelassusMatrix from_sparse(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W);

  int nc() const { return m_nc; }
  /// Diagonal block W_ii.
  const Eigen::Matrix3d& diag(int i) const { return m_diag[i]; }
  /// Off-diagonal blocks of block row i: columns and values, in increasing column order.
  const int* row_cols_begin(int i) const { return m_cols.data() + m_row_start[i]; }
  const int* row_cols_end(int i) const { return m_cols.data() + m_row_start[i + 1]; }
  const Eigen::Matrix3d* row_blocks_begin(int i) const { return m_blocks.data() + m_row_start[i]; }
  /// The same blocks, writable: new values on W's pattern (a W re-assembled, a problem renumbered again).
  Eigen::Matrix3d& diag(int i) { return m_diag[i]; }
  Eigen::Matrix3d* row_blocks_begin(int i) { return m_blocks.data() + m_row_start[i]; }
  /// Calls f(j, W_ij) for every stored off-diagonal block of row i, in increasing j.
  template <class F>
  void for_each_offdiag(int i, F&& f) const {
    for (int k = m_row_start[i]; k < m_row_start[i + 1]; ++k) f(m_cols[k], m_blocks[k]);
  }
  /// u = W r. @pre r.size() == 3 nc.
  Eigen::VectorXd apply(const Eigen::VectorXd& r) const;
  /// u = W r into u, without allocating: u_i = W_ii r_i + Σ_j W_ij r_j summed in increasing j,
  /// rows in parallel over the fixed blocks of contact_blocks.hpp, so the same bits for any number
  /// of threads. @pre r.size() == u.size() == 3 nc, u is not r.
  void apply(const Eigen::VectorXd& r, Eigen::VectorXd& u) const;
  /// Dense copy (3nc × 3nc), for tests and small problems.
  Eigen::MatrixXd to_dense() const;
  /// Number of stored off-diagonal blocks.
  int n_offdiag() const { return static_cast<int>(m_cols.size()); }
  /// Whether every diagonal block is finite; every stored off-diagonal block.
  bool diagonal_finite() const;
  bool offdiagonal_finite() const;

 private:
  int m_nc = 0;
  std::vector<Eigen::Matrix3d> m_diag;    // nc
  std::vector<int> m_row_start{0};        // nc + 1
  std::vector<int> m_cols;                // off-diagonal column indices, row-major
  std::vector<Eigen::Matrix3d> m_blocks;  // off-diagonal blocks, aligned with m_cols
};

}  // namespace nscd::solvers
