// The LU of a sequence of sparse matrices with one pattern (solvers/sparse_lu.hpp): the first
// factorisation pivots, the next ones reuse its pivots while they stay sound, and pivot again
// where they do not.

#include "solvers/sparse_lu.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/SparseCore>

#include <random>

namespace nscd::solvers::detail {
namespace {

// a nonsymmetric n × n matrix with the pattern of a 1-D chain of 6 × 6 blocks (each body coupled
// to its neighbours), dominant diagonal blocks, random entries from `rng`
Eigen::SparseMatrix<double> chain(int bodies, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = 6 * bodies;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (int b = 0; b < bodies; ++b)
    for (int c = std::max(0, b - 1); c <= std::min(bodies - 1, b + 1); ++c)
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) A(6 * b + i, 6 * c + j) = u(rng);
  A.diagonal().array() += 20.0;
  Eigen::SparseMatrix<double> S = A.sparseView();
  S.makeCompressed();
  return S;
}

// ‖A x − b‖ / (‖A‖ ‖x‖) of the solution of the last factorisation
double relative_residual(SparseLu& lu, const Eigen::SparseMatrix<double>& A, const Eigen::VectorXd& b) {
  const Eigen::VectorXd x = lu.solve(b);
  return (A * x - b).norm() / (Eigen::MatrixXd(A).norm() * x.norm());
}

TEST(SparseLu, MatricesOfOnePatternReuseTheFirstPivotsAndSolveToRoundOff) {
  std::mt19937 rng(7);
  SparseLu lu;
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(60, -1.0, 2.0);
  for (int k = 0; k < 5; ++k) {
    const Eigen::SparseMatrix<double> A = chain(10, rng);
    ASSERT_TRUE(lu.factorize(A));
    // backward stable to a modest multiple of the unit round-off (60 unknowns, growth ≈ 1 on
    // these diagonally dominant matrices)
    EXPECT_LT(relative_residual(lu, A, b), 1e-14) << "matrix " << k;
  }
  EXPECT_EQ(lu.pivotings(), 1);  // the four after the first were refactorisations
}

TEST(SparseLu, PivotsAgainWhereTheFirstPivotsWouldBeTiny) {
  // the first matrix pivots on its diagonal; the second has the same pattern but a diagonal entry
  // of 1e-14 where the old pivot was: reusing the pivots would give |U_22| ≈ 1e14, the pivots'
  // spread falls by some 28 orders, and the factorisation pivots again (rows swapped)
  Eigen::SparseMatrix<double> A1(2, 2), A2(2, 2);
  A1.insert(0, 0) = 1.0;
  A1.insert(1, 0) = 0.5;
  A1.insert(0, 1) = 0.25;
  A1.insert(1, 1) = 1.0;
  A2.insert(0, 0) = 1e-14;
  A2.insert(1, 0) = 1.0;
  A2.insert(0, 1) = 1.0;
  A2.insert(1, 1) = 1.0;
  A1.makeCompressed();
  A2.makeCompressed();
  const Eigen::Vector2d b(1.0, 2.0);
  SparseLu lu;
  ASSERT_TRUE(lu.factorize(A1));
  ASSERT_TRUE(lu.factorize(A2));
  EXPECT_EQ(lu.pivotings(), 2);
  const Eigen::Vector2d exact = Eigen::Matrix2d(A2).fullPivLu().solve(b);
  // with the rows swapped the solve is backward stable; the old pivots would lose 14 digits
  EXPECT_LT((lu.solve(b) - exact).norm(), 1e-15 * exact.norm());
}

TEST(SparseLu, ANewPatternIsOrderedAgain) {
  std::mt19937 rng(11);
  SparseLu lu;
  const Eigen::SparseMatrix<double> small = chain(3, rng), large = chain(8, rng);
  ASSERT_TRUE(lu.factorize(small));
  ASSERT_TRUE(lu.factorize(large));
  EXPECT_EQ(lu.pivotings(), 2);
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(large.rows());
  EXPECT_LT(relative_residual(lu, large, b), 1e-14);  // as in the first test
}

TEST(SparseLu, SingularAndNumericallySingularMatricesAreRefused) {
  Eigen::SparseMatrix<double> A(2, 2);
  A.insert(0, 0) = 1.0;
  A.insert(1, 0) = 2.0;
  A.insert(0, 1) = 2.0;
  A.insert(1, 1) = 4.0;
  A.makeCompressed();
  SparseLu lu;
  EXPECT_FALSE(lu.factorize(A));
  // numerically singular: the second pivot is 4e-15 against rows of size 4, a spread of 1e-15
  A.coeffRef(1, 1) = 4.0 + 4e-15;
  EXPECT_FALSE(lu.factorize(A));
  A.coeffRef(1, 1) = 4.1;
  EXPECT_TRUE(lu.factorize(A));
}

}  // namespace
}  // namespace nscd::solvers::detail
