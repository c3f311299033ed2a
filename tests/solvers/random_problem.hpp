#pragma once
// Random dense data for the solvers' tests, from one seeded generator: the Delassus operator of nc
// contacts W = A Aᵀ + shift I (A with uniform entries in [−1, 1]: symmetric, positive definite
// for shift > 0) and vectors of uniform entries in [−1, 1]; a problem written in two units of
// impulse; and a problem whose W comes from a random contact Jacobian.

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

/// W = G Gᵀ + 0.01 I with G a random contact Jacobian (each contact touches 2 of nb = nc/2 + 10
/// bodies, 6 dofs each, entries uniform in [−1, 1]): symmetric positive definite and sparse like a
/// real Delassus matrix; q_n uniform in [−1, 0.2] (mostly < 0), q_t in [−1, 1], μ in [0.2, 1].
inline FrictionProblem jacobian_problem(int nc, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const int nb = nc / 2 + 10;
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(3 * nc, 6 * nb);
  FrictionProblem p;
  p.q.resize(3 * nc);
  p.mu.resize(nc);
  for (int i = 0; i < nc; ++i) {
    const int a = static_cast<int>(rng() % nb);
    const int b = (a + 1 + static_cast<int>(rng() % (nb - 1))) % nb;
    for (int body : {a, b})
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 6; ++c) G(3 * i + r, 6 * body + c) = uniform(rng);
    p.q.segment<3>(3 * i) = Eigen::Vector3d(0.6 * uniform(rng) - 0.4, uniform(rng), uniform(rng));
    p.mu(i) = 0.6 + 0.4 * uniform(rng);
  }
  p.W = DelassusMatrix::from_dense(G * G.transpose() + 0.01 * Eigen::MatrixXd::Identity(3 * nc, 3 * nc));
  return p;
}

}  // namespace nscd::solvers::random_problem
