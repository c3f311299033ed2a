#include "solvers/delassus.hpp"

#include "solvers/all_finite.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <limits>
#include <vector>

namespace nscd::solvers {
namespace {

Eigen::Matrix3d block_from(double base) {
  Eigen::Matrix3d b;
  b << base, base + 1, base + 2, base + 3, base + 4, base + 5, base + 6, base + 7, base + 8;
  return b;
}

// three contacts; blocks (0, 1) and (1, 0) zero, so absent from the block rows
Eigen::MatrixXd sample_dense() {
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(9, 9);
  dense.block<3, 3>(0, 0) = 4.0 * Eigen::Matrix3d::Identity();
  dense.block<3, 3>(3, 3) = block_from(10) + 2.0 * Eigen::Matrix3d::Identity();
  dense.block<3, 3>(6, 6) = block_from(3);
  dense.block<3, 3>(0, 6) = block_from(1) + block_from(0.5);
  dense.block<3, 3>(6, 0) = (block_from(1) + block_from(0.5)).transpose();
  dense.block<3, 3>(3, 6) = block_from(-5);
  dense.block<3, 3>(6, 3) = block_from(-5).transpose();
  return dense;
}

TEST(DelassusTest, BlockRowsHoldTheNonZeroBlocksInColumnOrder) {
  const Eigen::MatrixXd expected = sample_dense();
  const DelassusMatrix W = DelassusMatrix::from_dense(expected);
  EXPECT_EQ(W.to_dense(), expected);

  // block-CSR layout: row 2 holds columns 0 and 1 in increasing order, row 0 only column 2
  EXPECT_EQ(W.nc(), 3);
  EXPECT_EQ(W.n_offdiag(), 4);
  EXPECT_EQ(std::vector<int>(W.row_cols_begin(0), W.row_cols_end(0)), std::vector<int>({2}));
  EXPECT_EQ(std::vector<int>(W.row_cols_begin(1), W.row_cols_end(1)), std::vector<int>({2}));
  EXPECT_EQ(std::vector<int>(W.row_cols_begin(2), W.row_cols_end(2)), std::vector<int>({0, 1}));
  std::vector<int> visited;
  W.for_each_offdiag(2, [&](int j, const Eigen::Matrix3d& block) {
    visited.push_back(j);
    EXPECT_EQ(block, (expected.block<3, 3>(6, 3 * j)));
  });
  EXPECT_EQ(visited, std::vector<int>({0, 1}));
}

TEST(DelassusTest, ApplyEqualsDenseProduct) {
  const DelassusMatrix W = DelassusMatrix::from_dense(sample_dense());
  Eigen::VectorXd r(9);
  r << 0.3, -1.2, 2.5, 0.7, 0.1, -0.4, 1.9, -2.2, 0.05;
  const Eigen::VectorXd expected = W.to_dense() * r;
  // entries O(10), ≤ 9 terms of size O(30) per row: both sums agree to a few ulps of 300
  constexpr double kTol = 1e-12;
  EXPECT_LE((W.apply(r) - expected).cwiseAbs().maxCoeff(), kTol);
}

TEST(DelassusTest, FromDenseRoundTripAndSkipsZeroBlocks) {
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(9, 9);
  dense.block<3, 3>(0, 0) = block_from(1);
  dense.block<3, 3>(3, 3) = block_from(2);
  dense(1, 7) = 3.5;  // one non-zero entry in block (0, 2), not mirrored: used as given
  const DelassusMatrix W = DelassusMatrix::from_dense(dense);
  EXPECT_EQ(W.to_dense(), dense);
  EXPECT_EQ(W.n_offdiag(), 1);
  EXPECT_EQ(W.diag(2), Eigen::Matrix3d::Zero());
}

TEST(DelassusTest, FromSparseStoresTheBlocksOfFromDense) {
  // the sample with an explicit zero entry in the zero block (0, 1): stored by the sparse matrix,
  // left out of W as from_dense leaves it out
  Eigen::MatrixXd dense = sample_dense();
  dense(5, 1) = 0.25;  // a lone non-zero in block (1, 0), not mirrored
  Eigen::SparseMatrix<double, Eigen::RowMajor> sparse = dense.sparseView();
  sparse.coeffRef(0, 4) = 0.0;
  const DelassusMatrix from_sparse = DelassusMatrix::from_sparse(sparse);
  const DelassusMatrix from_dense = DelassusMatrix::from_dense(dense);
  EXPECT_EQ(from_sparse.to_dense(), dense);
  EXPECT_EQ(from_sparse.n_offdiag(), from_dense.n_offdiag());
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(std::vector<int>(from_sparse.row_cols_begin(i), from_sparse.row_cols_end(i)),
              std::vector<int>(from_dense.row_cols_begin(i), from_dense.row_cols_end(i)));
  EXPECT_THROW(DelassusMatrix::from_sparse(Eigen::SparseMatrix<double, Eigen::RowMajor>(4, 4)), std::exception);
}

TEST(DelassusTest, FromDenseRejectsBadSize) {
  EXPECT_THROW(DelassusMatrix::from_dense(Eigen::MatrixXd::Zero(4, 4)), std::exception);
}

// all_finite.hpp eq. (1): any NaN or infinity anywhere, and only those, makes it false
TEST(AllFinite, FindsEveryNonFiniteNumberAnywhere) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const double odd[] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf};
  for (int n = 0; n <= 37; ++n) {
    // the largest and smallest magnitudes and a negative zero are finite: 0 · x stays 0
    Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(n, -1.0, 1.0);
    if (n > 2) x.head<3>() << std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min(), -0.0;
    EXPECT_TRUE(all_finite(x)) << n;
    for (int k = 0; k < n; ++k)
      for (const double value : odd) {
        Eigen::VectorXd y = x;
        y[k] = value;
        EXPECT_FALSE(all_finite(y)) << n << " numbers, " << value << " at " << k;
      }
  }
}

TEST(DelassusTest, FinitenessOfTheDiagonalAndOffDiagonalBlocks) {
  DelassusMatrix W = DelassusMatrix::from_dense(sample_dense());
  EXPECT_TRUE(W.diagonal_finite());
  EXPECT_TRUE(W.offdiagonal_finite());
  W.diag(2)(1, 2) = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(W.diagonal_finite());
  EXPECT_TRUE(W.offdiagonal_finite());
  W.diag(2)(1, 2) = 1.0;
  W.row_blocks_begin(2)[1](2, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(W.diagonal_finite());
  EXPECT_FALSE(W.offdiagonal_finite());
}

TEST(DelassusTest, EmptyMatrix) {
  const DelassusMatrix W = DelassusMatrix::from_dense(Eigen::MatrixXd(0, 0));
  EXPECT_EQ(W.nc(), 0);
  EXPECT_EQ(W.apply(Eigen::VectorXd()).size(), 0);
}

}  // namespace
}  // namespace nscd::solvers
