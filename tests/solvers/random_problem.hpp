#pragma once
// Random dense data for the solvers' tests, from one seeded generator: the Delassus operator of nc
// contacts W = A Aᵀ + shift I (A with uniform entries in [−1, 1]: symmetric, positive definite
// for shift > 0) and vectors of uniform entries in [−1, 1].

#include <Eigen/Core>

#include <random>

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

}  // namespace nscd::solvers::random_problem
