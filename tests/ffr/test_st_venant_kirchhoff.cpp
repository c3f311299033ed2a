// Total Lagrangian St Venant–Kirchhoff: invariance under large rigid rotations, homogeneous
// stretch against the closed form, forces = gradient of the energy, tangent = Jacobian of the
// forces, and the small-displacement limit K u.

#include "ffr/linear_elasticity.hpp"
#include "ffr/st_venant_kirchhoff.hpp"
#include "test_meshes.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <random>

namespace nscd::ffr {
namespace {

using Eigen::SparseMatrix;
using Eigen::VectorXd;

constexpr double kYoung = 1e6, kPoisson = 0.3;

template <class Field>
VectorXd nodal(const Mesh& mesh, Field v) {
  VectorXd u(3 * mesh.nn());
  for (int a = 0; a < mesh.nn(); ++a) u.segment<3>(3 * a) = v(mesh.nodes[a]);
  return u;
}

VectorXd random_displacement(const Mesh& mesh, double amplitude, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-amplitude, amplitude);
  VectorXd u(3 * mesh.nn());
  for (Eigen::Index k = 0; k < u.size(); ++k) u(k) = uniform(rng);
  return u;
}

class Svk : public ::testing::TestWithParam<CellType> {
 protected:
  const Vec3 size{1.0, 0.8, 0.6};
  const std::array<int, 3> elements{2, 2, 1};
  Mesh mesh() const {
    const Mesh m =
        GetParam() == CellType::Hex8 ? make_box_mesh(size, elements) : testing::make_box_tet_mesh(size, elements);
    return testing::distorted(m, size, elements, 0.2);
  }
};

TEST_P(Svk, LargeRigidRotationIsStressFree) {
  const Mesh m = mesh();
  // 1 rad about an oblique axis, plus a translation
  const Mat3 R = exp_map(Vec3(1.0, -2.0, 0.5).normalized()).toRotationMatrix();
  const VectorXd u = nodal(m, [&](const Vec3& X) { return Vec3(R * X - X + Vec3(0.3, -0.1, 2.0)); });
  // FᵀF − I is rounding (1e-16) only: U ~ E 1e-32 V, f ~ E 1e-16 × area (~0.1 m²)
  EXPECT_LT(std::abs(svk_strain_energy(m, kYoung, kPoisson, u)), 1e-25 * kYoung);
  VectorXd f;
  SparseMatrix<double> K_T;
  svk_internal_forces(m, kYoung, kPoisson, u, f, &K_T);
  EXPECT_LT(f.cwiseAbs().maxCoeff(), 1e-14 * kYoung);
  // the tangent annihilates the infinitesimal rotations about the rotated configuration
  const VectorXd w = nodal(m, [&](const Vec3& X) { return Vec3(Vec3(0.2, 0.7, -0.4).cross(R * X)); });
  EXPECT_LT((K_T * w).norm(), 1e-12 * kYoung);
}

TEST_P(Svk, HomogeneousStretchGivesTheClosedForm) {
  const Mesh m = mesh();
  const Mat3 F = Vec3(1.1, 0.95, 1.02).asDiagonal();
  const VectorXd u = nodal(m, [&](const Vec3& X) { return Vec3((F - Mat3::Identity()) * X); });
  // E = ½(FᵀF − I), S = λ tr(E) I + 2μE, Ψ = ½ S:E
  const auto [lambda, mu] = lame_constants(kYoung, kPoisson);
  const Mat3 E = 0.5 * (F.transpose() * F - Mat3::Identity());
  const Mat3 S = lambda * E.trace() * Mat3::Identity() + 2.0 * mu * E;
  const double V = size.prod();
  // a linear field is interpolated exactly and F is constant: rounding only
  EXPECT_NEAR(svk_strain_energy(m, kYoung, kPoisson, u), V * 0.5 * (S.array() * E.array()).sum(), 1e-12 * kYoung);

  // f_a = F S ∫∇N_a dV = F S ∮ N_a N dA: the nodal forces are the first Piola traction P N on the
  // boundary, so they vanish at interior nodes and sum, over the nodes of the face x = +a/2,
  // to P e_x × (face area)
  VectorXd f;
  svk_internal_forces(m, kYoung, kPoisson, u, f, nullptr);
  const Mat3 P = F * S;
  Vec3 right = Vec3::Zero();
  const Surface s = boundary_surface(m);
  for (int a = 0; a < m.nn(); ++a) {
    if (!std::binary_search(s.nodes.begin(), s.nodes.end(), a)) {
      EXPECT_LT(f.segment<3>(3 * a).norm(), 1e-9 * kYoung);
    }
    if (m.nodes[a].x() > 0.5 * size.x() - 1e-12) right += f.segment<3>(3 * a);
  }
  // edge nodes of the face x = +a/2 also carry part of the neighbouring faces' tractions, but
  // F S is diagonal, so those are normal to x and leave the x component alone
  EXPECT_NEAR(right.x(), P(0, 0) * size.y() * size.z(), 1e-9 * kYoung);
  EXPECT_LT(f.reshaped(3, m.nn()).rowwise().sum().norm(), 1e-9 * kYoung);
}

TEST_P(Svk, ForcesAreTheEnergyGradient) {
  const Mesh m = mesh();
  // strains of order 0.1: well inside the nonlinear range
  const VectorXd u = random_displacement(m, 0.05, 3);
  VectorXd f;
  svk_internal_forces(m, kYoung, kPoisson, u, f, nullptr);
  // central differences: truncation h² U''' ~ 1e-12 E, rounding 1e-16 U/h ~ 1e-11 E; forces are ~1e4
  const double h = 1e-6;
  VectorXd fd(u.size());
  for (Eigen::Index k = 0; k < u.size(); ++k) {
    VectorXd up = u, um = u;
    up(k) += h;
    um(k) -= h;
    fd(k) = (svk_strain_energy(m, kYoung, kPoisson, up) - svk_strain_energy(m, kYoung, kPoisson, um)) / (2 * h);
  }
  EXPECT_LT((fd - f).cwiseAbs().maxCoeff(), 1e-6 * f.cwiseAbs().maxCoeff());
}

TEST_P(Svk, TangentIsTheForceJacobian) {
  const Mesh m = mesh();
  const VectorXd u = random_displacement(m, 0.05, 5);
  VectorXd f;
  SparseMatrix<double> K_T;
  svk_internal_forces(m, kYoung, kPoisson, u, f, &K_T);
  EXPECT_EQ((K_T - SparseMatrix<double>(K_T.transpose())).norm(), 0.0);
  // f is cubic in u: central differences are exact up to h² f''' ~ 1e-12 relative and
  // rounding 1e-16/h ~ 1e-10 relative to the largest entry
  const double h = 1e-6;
  const Eigen::MatrixXd K = Eigen::MatrixXd(K_T);
  double err = 0.0;
  for (Eigen::Index k = 0; k < u.size(); ++k) {
    VectorXd up = u, um = u, fp, fm;
    up(k) += h;
    um(k) -= h;
    svk_internal_forces(m, kYoung, kPoisson, up, fp, nullptr);
    svk_internal_forces(m, kYoung, kPoisson, um, fm, nullptr);
    err = std::max(err, ((fp - fm) / (2 * h) - K.col(k)).cwiseAbs().maxCoeff());
  }
  EXPECT_LT(err, 1e-7 * K.cwiseAbs().maxCoeff());
}

TEST_P(Svk, TangentProductIsTheAssembledTangentTimesTheVector) {
  const Mesh m = mesh();
  const VectorXd u = random_displacement(m, 0.05, 6), v = random_displacement(m, 1.0, 7);
  VectorXd f;
  SparseMatrix<double> K_T;
  svk_internal_forces(m, kYoung, kPoisson, u, f, &K_T);
  const VectorXd expected = K_T * v;
  // eq. (7) sums the same products in another order: rounding only, 1e-12 of the result
  EXPECT_LT((svk_tangent_product(m, cell_quadrature(m), kYoung, kPoisson, u, v) - expected).norm(),
            1e-12 * expected.norm());
}

TEST_P(Svk, SmallDisplacementsGiveLinearElasticity) {
  const Mesh m = mesh();
  const SparseMatrix<double> K = stiffness(m, kYoung, kPoisson);
  // the tangent at u = 0 is the linear stiffness
  VectorXd f;
  SparseMatrix<double> K0;
  svk_internal_forces(m, kYoung, kPoisson, VectorXd::Zero(3 * m.nn()), f, &K0);
  EXPECT_EQ(f.norm(), 0.0);
  EXPECT_LT(Eigen::MatrixXd(K0 - K).cwiseAbs().maxCoeff(), 1e-12 * Eigen::MatrixXd(K).cwiseAbs().maxCoeff());

  // f(εv) − K εv = O(ε²): the relative gap is proportional to ε (ratio 10 per decade)
  const VectorXd v = random_displacement(m, 1.0, 9);
  double gap[2];
  for (int k = 0; k < 2; ++k) {
    const double eps = k == 0 ? 1e-3 : 1e-4;
    svk_internal_forces(m, kYoung, kPoisson, eps * v, f, nullptr);
    const VectorXd Ku = K * (eps * v);
    gap[k] = (f - Ku).norm() / Ku.norm();
  }
  EXPECT_LT(gap[0], 1e-2);
  EXPECT_NEAR(gap[0] / gap[1], 10.0, 0.1);
}

INSTANTIATE_TEST_SUITE_P(Cells, Svk, ::testing::Values(CellType::Hex8, CellType::Tet4), testing::cell_name);

}  // namespace
}  // namespace nscd::ffr
