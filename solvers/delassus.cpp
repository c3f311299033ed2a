#include "solvers/delassus.hpp"

#include "nscd/core/error.hpp"
#include "solvers/all_finite.hpp"
#include "solvers/contact_blocks.hpp"

#include <map>

namespace nscd::solvers {

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

DelassusMatrix DelassusMatrix::from_sparse(const Eigen::SparseMatrix<double, Eigen::RowMajor>& sparse) {
  NSCD_THROW_UNLESS(sparse.rows() == sparse.cols() && sparse.rows() % 3 == 0,
                    "Delassus matrix must be square of size 3nc, got {}x{}", sparse.rows(), sparse.cols());
  const int nc = static_cast<int>(sparse.rows() / 3);
  DelassusMatrix W;
  W.m_nc = nc;
  W.m_diag.assign(nc, Eigen::Matrix3d::Zero());
  W.m_row_start.assign(nc + 1, 0);
  std::map<int, Eigen::Matrix3d> row;  // the blocks of block row i, by column
  for (int i = 0; i < nc; ++i) {
    row.clear();
    for (int k = 0; k < 3; ++k)
      for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(sparse, 3 * i + k); it; ++it) {
        const int j = static_cast<int>(it.col());
        row.try_emplace(j / 3, Eigen::Matrix3d::Zero()).first->second(k, j % 3) += it.value();
      }
    for (const auto& [j, block] : row) {
      if (j == i) {
        W.m_diag[i] = block;
      } else if (!block.isZero(0.0)) {
        W.m_cols.push_back(j);
        W.m_blocks.push_back(block);
      }
    }
    W.m_row_start[i + 1] = static_cast<int>(W.m_cols.size());
  }
  return W;
}

Eigen::VectorXd DelassusMatrix::apply(const Eigen::VectorXd& r) const {
  Eigen::VectorXd u(r.size());
  apply(r, u);
  return u;
}

void DelassusMatrix::apply(const Eigen::VectorXd& r, Eigen::VectorXd& u) const {
  NSCD_DEMAND(r.size() == 3 * static_cast<Eigen::Index>(m_nc) && u.size() == r.size());
  NSCD_DEMAND(m_nc == 0 || u.data() != r.data());
  // u_i = W_ii r_i + Σ_j W_ij r_j over the stored blocks of row i
  detail::for_each_contact_block(m_nc, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      Eigen::Vector3d ui = m_diag[i] * r.segment<3>(3 * i);
      for (int k = m_row_start[i]; k < m_row_start[i + 1]; ++k) ui += m_blocks[k] * r.segment<3>(3 * m_cols[k]);
      u.segment<3>(3 * i) = ui;
    }
  });
}

// the blocks of a std::vector<Matrix3d> are one array of 9 numbers each
static_assert(sizeof(Eigen::Matrix3d) == 9 * sizeof(double));

bool DelassusMatrix::diagonal_finite() const {
  return all_finite(m_diag.empty() ? nullptr : m_diag.front().data(), 9 * static_cast<Eigen::Index>(m_diag.size()));
}

bool DelassusMatrix::offdiagonal_finite() const {
  return all_finite(m_blocks.empty() ? nullptr : m_blocks.front().data(), 9 * static_cast<Eigen::Index>(m_blocks.size()));
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
