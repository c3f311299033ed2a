#include "solvers/lcp_lemke.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace nscd::solvers {
namespace {

// row-major: a pivot updates whole rows
using Tableau = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// entries below this (relative to the column's largest) are zero in the ratio test, and ratios
// this close (relative) are ties
constexpr double kPivotTolerance = 1e-11;
constexpr double kTieTolerance = 1e-12;

// the row leaving when column c enters: minimum ratio rhs_i / T_ic over T_ic > 0, ties broken on
// z₀'s row, then lexicographically on the rows of B⁻¹ / T_ic; -1 if the column has no positive entry
int ratio_test(const Tableau& T, int c, int rhs, int n, const std::vector<int>& basis, int z0) {
  const double scale = T.col(c).cwiseAbs().maxCoeff();
  std::vector<int> rows;
  double best = 0.0;
  for (int i = 0; i < n; ++i) {
    if (T(i, c) <= kPivotTolerance * scale) continue;
    const double ratio = T(i, rhs) / T(i, c);
    if (rows.empty() || ratio < best - kTieTolerance * (std::abs(best) + 1e-300)) {
      rows.assign(1, i);
      best = ratio;
    } else if (ratio <= best + kTieTolerance * (std::abs(best) + 1e-300)) {
      rows.push_back(i);
    }
  }
  if (rows.size() <= 1) return rows.empty() ? -1 : rows[0];
  for (int i : rows)
    if (basis[i] == z0) return i;
  // lexicographic minimum of the rows of B⁻¹ divided by T_ic
  for (int j = 0; j < n && rows.size() > 1; ++j) {
    double lex_min = T(rows[0], j) / T(rows[0], c);
    for (int i : rows) lex_min = std::min(lex_min, T(i, j) / T(i, c));
    std::vector<int> kept;
    for (int i : rows)
      if (T(i, j) / T(i, c) <= lex_min + kTieTolerance * (std::abs(lex_min) + 1e-300)) kept.push_back(i);
    rows.swap(kept);
  }
  return rows[0];
}

void pivot(Tableau& T, int row, int col) {
  T.row(row) /= T(row, col);
  const Eigen::RowVectorXd pivot_row = T.row(row);
  for (int i = 0; i < T.rows(); ++i) {
    if (i == row) continue;
    const double factor = T(i, col);
    if (factor != 0.0) T.row(i) -= factor * pivot_row;
  }
}

}  // namespace

LemkeResult lemke(const Eigen::MatrixXd& M, const Eigen::VectorXd& b, int max_pivots) {
  const int n = static_cast<int>(b.size());
  NSCD_DEMAND(M.rows() == n && M.cols() == n);
  LemkeResult result;
  result.z = Eigen::VectorXd::Zero(n);
  // z = 0 when b ≥ 0
  if (n == 0 || b.minCoeff() >= 0.0) {
    result.solved = true;
    return result;
  }

  // tableau [I | −M | −e | b]: variables w_0..w_{n−1}, z_0..z_{n−1} (columns n..2n−1), z₀ (2n)
  const int z0 = 2 * n;
  const int rhs = 2 * n + 1;
  Tableau T(n, 2 * n + 2);
  T.leftCols(n).setIdentity();
  T.middleCols(n, n) = -M;
  T.col(z0).setConstant(-1.0);
  T.col(rhs) = b;
  std::vector<int> basis(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) basis[i] = i;

  // z₀ enters at the most negative b_i (lexicographic ties as in ratio_test, on −T)
  int row = 0;
  for (int i = 1; i < n; ++i) {
    if (b(i) < b(row)) row = i;
  }
  int entering = z0;
  while (result.pivots < max_pivots) {
    const int leaving = basis[row];
    pivot(T, row, entering);
    basis[row] = entering;
    ++result.pivots;
    if (leaving == z0) {
      result.solved = true;
      break;
    }
    // the complement of the leaving variable enters
    entering = leaving < n ? leaving + n : leaving - n;
    row = ratio_test(T, entering, rhs, n, basis, z0);
    if (row < 0) break;  // ray termination
  }
  if (!result.solved) return result;
  for (int i = 0; i < n; ++i) {
    if (basis[i] >= n && basis[i] < 2 * n) result.z(basis[i] - n) = std::max(T(i, rhs), 0.0);
  }
  return result;
}

}  // namespace nscd::solvers
