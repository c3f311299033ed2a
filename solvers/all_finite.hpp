#pragma once
/// @file
/// Whether n numbers are all finite, tested in one vectorised pass:
///
///  (1) Σ_k 0 · x_k = 0  ⟺  every x_k is finite  (0 · ±∞ and 0 · NaN are NaN, and NaN propagates)
///
/// Eigen's allFinite() compares the numbers one by one; the solvers check their problem's W, q, μ
/// and r₀ before every solve, so on a rigid wall of 900 contacts that test cost 1.5 % of a step.

#include <Eigen/Core>

namespace nscd::solvers {

/// Eq. (1) for the n numbers at x.
inline bool all_finite(const double* x, Eigen::Index n) {
  return n == 0 || (Eigen::Map<const Eigen::ArrayXd>(x, n) * 0.0).sum() == 0.0;
}

/// Eq. (1) for the coefficients of a dense vector or matrix.
template <class Derived>
bool all_finite(const Eigen::PlainObjectBase<Derived>& x) {
  return all_finite(x.data(), x.size());
}

}  // namespace nscd::solvers
