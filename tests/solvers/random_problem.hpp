#pragma once
// Random dense data for the solvers' tests, from one seeded generator: the Delassus operator of nc
// contacts W = A Aᵀ + shift I (A with uniform entries in [−1, 1]: symmetric, positive definite
// for shift > 0) and vectors of uniform entries in [−1, 1]; and a problem written in two units
// of impulse.

#include "solvers/friction_problem.hpp"

#include <Eigen/Core>

#include <random>
#include <utility>

namespace nscd::solvers::random_problem {

inline Eigen::VectorXd uniform_vector(std::mt19937& rng, Eigen::Index n) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v(i) = d(rng);
  return v;
}

inline Eigen::MatrixXd delassus(std::mt19937& rng, int nc, double shift) {
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(nc);
  const Eigen::MatrixXd A = uniform_vector(rng, n * n).reshaped(n, n);
  return A * A.transpose() + shift * Eigen::MatrixXd::Identity(n, n);
}

/// The problem (W, q, μ) measured with `scaling`, and the same problem in an impulse unit c times
/// smaller: W/c, whose impulses c r give the same velocities.
inline std::pair<FrictionProblem, FrictionProblem> in_two_units(const Eigen::MatrixXd& W, const Eigen::VectorXd& q,
                                                                double mu, double c, ErrorScaling scaling) {
  FrictionProblem a, b;
  a.W = DelassusMatrix::from_dense(W);
  b.W = DelassusMatrix::from_dense(W / c);
  a.q = b.q = q;
  a.mu = b.mu = Eigen::VectorXd::Constant(a.W.nc(), mu);
  a.error_scaling = b.error_scaling = scaling;
  return {std::move(a), std::move(b)};
}

}  // namespace nscd::solvers::random_problem
