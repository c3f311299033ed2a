#pragma once
// A generated frictional contact problem for the solver benchmarks: spheres on a jittered cubic
// lattice of n × n × n bodies, each touching its +x, +y and +z neighbours and, in the bottom layer,
// a fixed ground; about 3n³ + n² contacts, each coupled through W with up to 10 others (a dense
// granular packing has about as many). W is assembled exactly as the stepper does
// (docs/method.md):
//
//   G_ib = ± R_WCᵀ [I | −[p − x_b]×],   W_ij = Σ_b G_ib M_b⁻¹ G_jbᵀ   (bodies b shared by i and j)
//
// with random contact frames (a normal near the lattice axis), unit masses and q_n < 0 (every
// contact closing), so most contacts stick or slide and few open.

#include "solvers/friction_problem.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace nscd::bench {

inline solvers::FrictionProblem lattice_problem(int n, unsigned seed) {
  using Eigen::Matrix3d;
  using Eigen::Vector3d;
  using Block = Eigen::Matrix<double, 3, 6>;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  auto id = [n](int i, int j, int k) { return (k * n + j) * n + i; };

  // bodies: unit mass, inertia 0.1 I, centres jittered by 2 %
  const int nb = n * n * n;
  std::vector<Vector3d> x(nb);
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) x[id(i, j, k)] = Vector3d(i, j, k) + 0.02 * Vector3d(uniform(rng), uniform(rng), uniform(rng));
    }
  }
  const double inv_mass = 1.0;
  const double inv_inertia = 10.0;

  // contacts (a, b) with a < b, b = −1 for the ground; G blocks of the movable bodies
  struct Contact {
    int a, b;
    Block Ga, Gb;
  };
  std::vector<Contact> contacts;
  auto add_contact = [&](int a, int b, const Vector3d& p, const Vector3d& axis) {
    // frame (n, t1, t2) with n ≈ axis from a to b
    const Vector3d normal = (axis + 0.05 * Vector3d(uniform(rng), uniform(rng), uniform(rng))).normalized();
    const Vector3d t1 = normal.unitOrthogonal();
    Matrix3d R;
    R << normal, t1, normal.cross(t1);
    auto G = [&](int body, double sign) {
      Block g;
      g.leftCols<3>() = sign * R.transpose();
      const Vector3d arm = p - x[body];
      Matrix3d cross;
      cross << 0, -arm(2), arm(1), arm(2), 0, -arm(0), -arm(1), arm(0), 0;
      g.rightCols<3>() = -sign * R.transpose() * cross;
      return g;
    };
    Contact c{a, b, Block::Zero(), Block::Zero()};
    if (a >= 0) c.Ga = G(a, -1.0);
    c.Gb = G(b, 1.0);
    contacts.push_back(c);
  };
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        const int a = id(i, j, k);
        if (k == 0) add_contact(-1, a, x[a] - Vector3d(0, 0, 0.5), Vector3d::UnitZ());
        if (i + 1 < n) add_contact(a, id(i + 1, j, k), 0.5 * (x[a] + x[id(i + 1, j, k)]), Vector3d::UnitX());
        if (j + 1 < n) add_contact(a, id(i, j + 1, k), 0.5 * (x[a] + x[id(i, j + 1, k)]), Vector3d::UnitY());
        if (k + 1 < n) add_contact(a, id(i, j, k + 1), 0.5 * (x[a] + x[id(i, j, k + 1)]), Vector3d::UnitZ());
      }
    }
  }
  const int nc = static_cast<int>(contacts.size());

  // contacts of each body, then W by block rows: W_ij = Σ_b G_ib M_b⁻¹ G_jbᵀ
  std::vector<std::vector<std::pair<int, const Block*>>> of_body(nb);
  for (int c = 0; c < nc; ++c) {
    if (contacts[c].a >= 0) of_body[contacts[c].a].push_back({c, &contacts[c].Ga});
    of_body[contacts[c].b].push_back({c, &contacts[c].Gb});
  }
  Eigen::Matrix<double, 6, 1> m_inv;
  m_inv << inv_mass, inv_mass, inv_mass, inv_inertia, inv_inertia, inv_inertia;
  std::vector<Matrix3d> diag(nc, Matrix3d::Zero());
  std::vector<int> row_start{0};
  std::vector<int> cols;
  std::vector<Matrix3d> blocks;
  std::vector<std::pair<int, Matrix3d>> row;
  for (int c = 0; c < nc; ++c) {
    row.clear();
    for (const auto& [body, Gi] : {std::pair{contacts[c].a, &contacts[c].Ga}, std::pair{contacts[c].b, &contacts[c].Gb}}) {
      if (body < 0) continue;
      const Block GiM = *Gi * m_inv.asDiagonal();
      for (const auto& [other, Gj] : of_body[body]) {
        const Matrix3d w = GiM * Gj->transpose();
        if (other == c) {
          diag[c] += w;
        } else {
          row.push_back({other, w});
        }
      }
    }
    std::sort(row.begin(), row.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (!cols.empty() && static_cast<int>(cols.size()) > row_start.back() && cols.back() == row[k].first) {
        blocks.back() += row[k].second;
      } else {
        cols.push_back(row[k].first);
        blocks.push_back(row[k].second);
      }
    }
    row_start.push_back(static_cast<int>(cols.size()));
  }

  solvers::FrictionProblem p;
  p.W = solvers::DelassusMatrix::from_block_rows(std::move(diag), std::move(row_start), std::move(cols), std::move(blocks));
  p.q.resize(3 * nc);
  p.mu.resize(nc);
  for (int c = 0; c < nc; ++c) {
    p.q.segment<3>(3 * c) = Vector3d(-0.05 + 0.04 * uniform(rng), 0.02 * uniform(rng), 0.02 * uniform(rng));
    p.mu(c) = 0.5;
  }
  return p;
}

}  // namespace nscd::bench
