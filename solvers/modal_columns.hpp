#pragma once
/// @file
/// Products with k × 3 blocks stored as three columns of stride ld (the rows and responses of a
/// modal body's contact points turned to their contact frames, T and U of contact_bodies.hpp eqs.
/// (5)–(7)), for the small k of modal reduction (a dozen modes): the sums over even and odd rows
/// are kept apart (the two lanes of an Eigen::Array2d) and added at the end, so that a product
/// costs about k/2 vector operations per entry and no set-up of a dynamic-size Eigen product.

#include <Eigen/Core>

#include <array>

namespace nscd::solvers {

/// Tᵀ U (3 × 3) for T and U of k rows in columns of stride ld.
inline Eigen::Matrix3d transposed_product(const double* T, const double* U, Eigen::Index k, Eigen::Index ld) {
  using Lanes = Eigen::Array2d;
  std::array<Lanes, 9> sum;
  sum.fill(Lanes::Zero());
  Eigen::Index j = 0;
  for (; j + 1 < k; j += 2) {
    const Lanes t[3] = {Lanes::Map(T + j), Lanes::Map(T + ld + j), Lanes::Map(T + 2 * ld + j)};
    const Lanes u[3] = {Lanes::Map(U + j), Lanes::Map(U + ld + j), Lanes::Map(U + 2 * ld + j)};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) sum[3 * a + b] += t[a] * u[b];
  }
  Eigen::Matrix3d G;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) G(a, b) = sum[3 * a + b].sum() + (j < k ? T[a * ld + j] * U[b * ld + j] : 0.0);
  return G;
}

/// Tᵀ z (3) for T of k rows in columns of stride ld and z of k entries.
inline Eigen::Vector3d transposed_times(const double* T, const double* z, Eigen::Index k, Eigen::Index ld) {
  using Lanes = Eigen::Array2d;
  Lanes sum[3] = {Lanes::Zero(), Lanes::Zero(), Lanes::Zero()};
  Eigen::Index j = 0;
  for (; j + 1 < k; j += 2) {
    const Lanes z_j = Lanes::Map(z + j);
    for (int a = 0; a < 3; ++a) sum[a] += Lanes::Map(T + a * ld + j) * z_j;
  }
  Eigen::Vector3d out;
  for (int a = 0; a < 3; ++a) out[a] = sum[a].sum() + (j < k ? T[a * ld + j] * z[j] : 0.0);
  return out;
}

/// z += U x for U of k rows in columns of stride ld, x of 3 entries and z of k.
inline void add_product(const double* U, const Eigen::Vector3d& x, Eigen::Index k, Eigen::Index ld, double* z) {
  using Lanes = Eigen::Array2d;
  Eigen::Index j = 0;
  for (; j + 1 < k; j += 2)
    Lanes::Map(z + j) += Lanes::Map(U + j) * x[0] + Lanes::Map(U + ld + j) * x[1] + Lanes::Map(U + 2 * ld + j) * x[2];
  if (j < k) z[j] += U[j] * x[0] + U[ld + j] * x[1] + U[2 * ld + j] * x[2];
}

}  // namespace nscd::solvers
