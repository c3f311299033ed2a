#include "solvers/delassus.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>

namespace nscd::solvers {

DelassusMatrix DelassusMatrix::from_upper_triplets(int nc, const std::vector<DelassusTriplet>& upper) {
  NSCD_DEMAND(nc >= 0);
  for (const DelassusTriplet& t : upper) NSCD_DEMAND(0 <= t.i && t.i <= t.j && t.j < nc);

  // stable sort by (i, j): repeated blocks keep their input order, so their sum is deterministic
  std::vector<DelassusTriplet> sorted = upper;
  std::stable_sort(sorted.begin(), sorted.end(), [](const DelassusTriplet& a, const DelassusTriplet& b) {
    return a.i != b.i ? a.i < b.i : a.j < b.j;
  });

  // sum repeated (i, j) in order; diagonal blocks go to m_diag, the others to a unique list
  DelassusMatrix W;
  W.m_nc = nc;
  W.m_diag.assign(nc, Eigen::Matrix3d::Zero());
  std::vector<DelassusTriplet> offdiag;
  for (const DelassusTriplet& t : sorted) {
    if (t.i == t.j) {
      W.m_diag[t.i] += t.block;
    } else if (!offdiag.empty() && offdiag.back().i == t.i && offdiag.back().j == t.j) {
      offdiag.back().block += t.block;
    } else {
      offdiag.push_back(t);
    }
  }

  // count per row: W_ij lands in row i (upper part), W_ijᵀ in row j (lower part)
  std::vector<int> n_lower(nc, 0);
  std::vector<int> n_upper(nc, 0);
  for (const DelassusTriplet& t : offdiag) {
    ++n_upper[t.i];
    ++n_lower[t.j];
  }
  W.m_row_start.assign(nc + 1, 0);
  for (int i = 0; i < nc; ++i) W.m_row_start[i + 1] = W.m_row_start[i] + n_lower[i] + n_upper[i];

  // fill: in (i, j) order both the lower columns of row j and the upper columns of row i increase
  const int n_blocks = W.m_row_start[nc];
  W.m_cols.resize(n_blocks);
  W.m_blocks.resize(n_blocks);
  std::vector<int> lower_cursor(W.m_row_start.begin(), W.m_row_start.end() - 1);
  std::vector<int> upper_cursor(nc);
  for (int i = 0; i < nc; ++i) upper_cursor[i] = W.m_row_start[i] + n_lower[i];
  for (const DelassusTriplet& t : offdiag) {
    const int ku = upper_cursor[t.i]++;
    W.m_cols[ku] = t.j;
    W.m_blocks[ku] = t.block;
    const int kl = lower_cursor[t.j]++;
    W.m_cols[kl] = t.i;
    W.m_blocks[kl] = t.block.transpose();
  }
  return W;
}

DelassusMatrix DelassusMatrix::from_block_rows(std::vector<Eigen::Matrix3d> diag, std::vector<int> row_start,
                                               std::vector<int> cols, std::vector<Eigen::Matrix3d> blocks) {
  const int nc = static_cast<int>(diag.size());
  NSCD_DEMAND(static_cast<int>(row_start.size()) == nc + 1 && row_start.front() == 0);
  NSCD_DEMAND(static_cast<int>(cols.size()) == row_start.back() && blocks.size() == cols.size());
  DelassusMatrix W;
  W.m_nc = nc;
  W.m_diag = std::move(diag);
  W.m_row_start = std::move(row_start);
  W.m_cols = std::move(cols);
  W.m_blocks = std::move(blocks);
  return W;
}

DelassusMatrix DelassusMatrix::from_dense(const Eigen::MatrixXd& dense) {
  NSCD_THROW_UNLESS(dense.rows() == dense.cols() && dense.rows() % 3 == 0,
                    "Delassus matrix must be square of size 3nc, got {}x{}", dense.rows(), dense.cols());
  const int nc = static_cast<int>(dense.rows() / 3);
  DelassusMatrix W;
  W.m_nc = nc;
  W.m_diag.resize(nc);
  W.m_row_start.assign(nc + 1, 0);
  // block rows in order; off-diagonal blocks that are exactly zero are skipped
  for (int i = 0; i < nc; ++i) {
    W.m_diag[i] = dense.block<3, 3>(3 * i, 3 * i);
    for (int j = 0; j < nc; ++j) {
      if (j == i) continue;
      const Eigen::Matrix3d block = dense.block<3, 3>(3 * i, 3 * j);
      if (block.isZero(0.0)) continue;
      W.m_cols.push_back(j);
      W.m_blocks.push_back(block);
    }
    W.m_row_start[i + 1] = static_cast<int>(W.m_cols.size());
  }
  return W;
}

Eigen::VectorXd DelassusMatrix::apply(const Eigen::VectorXd& r) const {
  NSCD_DEMAND(r.size() == 3 * static_cast<Eigen::Index>(m_nc));
  Eigen::VectorXd u(r.size());
  // u_i = W_ii r_i + Σ_j W_ij r_j over the stored blocks of row i
  for (int i = 0; i < m_nc; ++i) {
    Eigen::Vector3d ui = m_diag[i] * r.segment<3>(3 * i);
    for (int k = m_row_start[i]; k < m_row_start[i + 1]; ++k) ui += m_blocks[k] * r.segment<3>(3 * m_cols[k]);
    u.segment<3>(3 * i) = ui;
  }
  return u;
}

Eigen::MatrixXd DelassusMatrix::to_dense() const {
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(3 * m_nc, 3 * m_nc);
  for (int i = 0; i < m_nc; ++i) {
    dense.block<3, 3>(3 * i, 3 * i) = m_diag[i];
    for (int k = m_row_start[i]; k < m_row_start[i + 1]; ++k) dense.block<3, 3>(3 * i, 3 * m_cols[k]) = m_blocks[k];
  }
  return dense;
}

}  // namespace nscd::solvers
