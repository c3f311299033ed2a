#include "tests/support/lattice_problem.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace nscd::test_support {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using Block = Eigen::Matrix<double, 3, 6>;

// the random numbers of the problem, drawn in a fixed order
struct Draws {
  std::mt19937 rng;
  std::uniform_real_distribution<double> uniform{-1.0, 1.0};

  double operator()() { return uniform(rng); }
};

// a contact between bodies a < b, a = −1 for the ground, and the G blocks of its bodies
struct Contact {
  int a, b;
  Block Ga, Gb;
};

// bodies: centres on the lattice, jittered by 2 %
std::vector<Vector3d> centres(int n, Draws& draw) {
  std::vector<Vector3d> x(static_cast<std::size_t>(n) * n * n);
  std::size_t body = 0;
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) x[body++] = Vector3d(i, j, k) + 0.02 * Vector3d(draw(), draw(), draw());
    }
  }
  return x;
}

// contact at p between a and b, its frame (n, t1, t2) with n ≈ axis from a to b
Contact make_contact(int a, int b, const Vector3d& p, const Vector3d& axis, const std::vector<Vector3d>& x,
                     Draws& draw) {
  const Vector3d normal = (axis + 0.05 * Vector3d(draw(), draw(), draw())).normalized();
  const Vector3d t1 = normal.unitOrthogonal();
  Matrix3d R;
  R << normal, t1, normal.cross(t1);
  const auto G = [&](int body, double sign) {
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
  return c;
}

// every body's contacts with the ground (bottom layer) and its +x, +y and +z neighbours
std::vector<Contact> contacts(int n, const std::vector<Vector3d>& x, Draws& draw) {
  const auto id = [n](int i, int j, int k) { return (k * n + j) * n + i; };
  std::vector<Contact> out;
  const auto add = [&](int a, int b, const Vector3d& p, const Vector3d& axis) {
    out.push_back(make_contact(a, b, p, axis, x, draw));
  };
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        const int a = id(i, j, k);
        if (k == 0) add(-1, a, x[a] - Vector3d(0, 0, 0.5), Vector3d::UnitZ());
        if (i + 1 < n) add(a, id(i + 1, j, k), 0.5 * (x[a] + x[id(i + 1, j, k)]), Vector3d::UnitX());
        if (j + 1 < n) add(a, id(i, j + 1, k), 0.5 * (x[a] + x[id(i, j + 1, k)]), Vector3d::UnitY());
        if (k + 1 < n) add(a, id(i, j, k + 1), 0.5 * (x[a] + x[id(i, j, k + 1)]), Vector3d::UnitZ());
      }
    }
  }
  return out;
}

// W by block rows, W_ij = Σ_b G_ib M_b⁻¹ G_jbᵀ, with unit masses and inertia 0.1 I
solvers::DelassusMatrix delassus(int nb, const std::vector<Contact>& contacts) {
  const int nc = static_cast<int>(contacts.size());
  std::vector<std::vector<std::pair<int, const Block*>>> of_body(nb);
  for (int c = 0; c < nc; ++c) {
    if (contacts[c].a >= 0) of_body[contacts[c].a].push_back({c, &contacts[c].Ga});
    of_body[contacts[c].b].push_back({c, &contacts[c].Gb});
  }
  Eigen::Matrix<double, 6, 1> m_inv;
  m_inv << 1.0, 1.0, 1.0, 10.0, 10.0, 10.0;
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
  return solvers::DelassusMatrix::from_block_rows(std::move(diag), std::move(row_start), std::move(cols),
                                                  std::move(blocks));
}

}  // namespace

solvers::FrictionProblem lattice_problem(int n, unsigned seed) {
  Draws draw{std::mt19937(seed)};
  const std::vector<Vector3d> x = centres(n, draw);
  const std::vector<Contact> all = contacts(n, x, draw);
  const int nc = static_cast<int>(all.size());
  solvers::FrictionProblem p;
  p.W = delassus(n * n * n, all);
  p.q.resize(3 * nc);
  p.mu.resize(nc);
  for (int c = 0; c < nc; ++c) {
    p.q.segment<3>(3 * c) = Vector3d(-0.05 + 0.04 * draw(), 0.02 * draw(), 0.02 * draw());
    p.mu(c) = 0.5;
  }
  return p;
}

}  // namespace nscd::test_support
