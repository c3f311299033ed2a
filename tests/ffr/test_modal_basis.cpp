// The free–free elastic modes of modal_basis.hpp and the modal FFR body of ffr_body.hpp (R1–R2):
// orthonormality, orthogonality to the rigid motions, the frequencies against a dense
// generalised eigensolver, the slender beam's first bending mode against Euler–Bernoulli, the
// kinetic energy (4) against the nodal sum, and the reduced matrices against the projection of
// the full ones.

#include "ffr/ffr_body.hpp"
#include "ffr/ffr_dynamics.hpp"
#include "ffr/linear_elasticity.hpp"
#include "nscd/core/error.hpp"
#include "test_meshes.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <numbers>

namespace nscd::ffr {
namespace {

const Vec3 kSize(1.0, 0.6, 1.4);
const FfrMaterial kStone{2500, 35e9, 0.2, 0.0, 1e-4};
constexpr double kH = 1e-4;
constexpr int kModes = 8;

class ModalBasisOnMesh : public ::testing::TestWithParam<bool> {
 protected:
  Mesh mesh() const {
    Mesh m = GetParam() ? testing::make_box_tet_mesh(kSize, {2, 2, 3}) : make_box_mesh(kSize, {2, 2, 3});
    for (Vec3& X : m.nodes) X += Vec3(3, -1, 2);  // off-centre: the rigid rotations are about C
    return m;
  }
  ModalBasis basis(const Mesh& m) const { return modal_basis(m, kStone.density, kStone.young, kStone.poisson, kModes); }
};

// eq. (2) of b on mesh m. Rayleigh–Ritz makes it exact up to the round-off of products of 3nn
// terms: 1e-10 relative
void expect_mass_orthonormal(const Mesh& m, const ModalBasis& b) {
  const Eigen::MatrixXd M = consistent_mass(m, kStone.density), K = stiffness(m, kStone.young, kStone.poisson);
  const Eigen::MatrixXd Mr = b.phi.transpose() * M * b.phi, Kr = b.phi.transpose() * K * b.phi;
  EXPECT_LT((Mr - Eigen::MatrixXd::Identity(kModes, kModes)).norm(), 1e-10);
  EXPECT_LT((Kr - Eigen::MatrixXd(b.omega2.asDiagonal())).norm(), 1e-10 * b.omega2.maxCoeff());
}

// eq. (3) of b with the mass matrix M of body's mesh: Σ_kl M_kl Φ_l = 0 and Σ_kl M_kl X_k × Φ_l = 0
// about the centre of mass (body.mesh's origin), relative to m ‖φ‖ and m L ‖φ‖ with ‖φ‖ ~ m^(-1/2);
// round-off of the projection only
void expect_no_momentum(const Eigen::MatrixXd& M, const ModalBasis& b, const FfrBody& body) {
  const Eigen::MatrixXd MPhi = M * b.phi;
  const double scale = std::sqrt(body.mass);
  for (int a = 0; a < kModes; ++a) {
    Vec3 momentum = Vec3::Zero(), angular = Vec3::Zero();
    for (int k = 0; k < body.nn(); ++k) {
      momentum += MPhi.block<3, 1>(3 * k, a);
      angular += body.mesh.nodes[k].cross(MPhi.block<3, 1>(3 * k, a));
    }
    EXPECT_LT(momentum.norm(), 1e-12 * scale) << "mode " << a;
    EXPECT_LT(angular.norm(), 1e-12 * scale * kSize.norm()) << "mode " << a;
  }
}

// the kinetic energy (4) of b against the nodal sum ½ uᵀ M u on body's mesh, for one motion of the
// frame and the modes: the same sums in another order, round-off, 1e-12 relative
void expect_kinetic_energy_is_the_nodal_sum(const ModalBasis& b, const FfrBody& body) {
  const Eigen::MatrixXd M = consistent_mass(body.mesh, kStone.density);
  const Vec3 v(0.3, -1.1, 0.4), w(2.0, -0.7, 1.3);
  const Eigen::VectorXd xi = 1e-3 * Eigen::VectorXd::LinSpaced(kModes, -1.0, 2.0);
  const Eigen::VectorXd eta = 0.1 * Eigen::VectorXd::LinSpaced(kModes, 1.5, -0.5);
  const Eigen::VectorXd psi = b.phi * xi, lambda = b.phi * eta;
  Eigen::VectorXd u(body.ndof());
  for (int k = 0; k < body.nn(); ++k)
    u.segment<3>(3 * k) = v + w.cross(body.mesh.nodes[k] + psi.segment<3>(3 * k)) + lambda.segment<3>(3 * k);
  const double nodal = 0.5 * u.dot(M * u);
  EXPECT_NEAR(modal_kinetic_energy(b, body.mass, body.inertia_B, v, w, xi, eta), nodal, 1e-12 * nodal);
}

TEST_P(ModalBasisOnMesh, ModesAreMassOrthonormalAndDiagonaliseTheStiffness) {
  const Mesh m = mesh();
  const ModalBasis b = basis(m);
  expect_mass_orthonormal(m, b);
  for (int j = 1; j < kModes; ++j) EXPECT_LE(b.omega2[j - 1], b.omega2[j]);
}

TEST_P(ModalBasisOnMesh, ModesHaveNoMomentumAboutTheCentreOfMass) {
  const Mesh m = mesh();
  const ModalBasis b = basis(m);
  expect_no_momentum(consistent_mass(m, kStone.density), b, make_ffr_body(m, kStone, kH));
}

TEST_P(ModalBasisOnMesh, FrequenciesAreThoseOfTheDenseGeneralisedProblem) {
  const Mesh m = mesh();
  const ModalBasis b = basis(m);
  const Eigen::MatrixXd M = consistent_mass(m, kStone.density), K = stiffness(m, kStone.young, kStone.poisson);
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> dense(K, M);
  // the 6 rigid eigenvalues (≈ 0) first; Lanczos converged to 1e-12 and dense QR: 1e-8 relative
  for (int j = 0; j < kModes; ++j)
    EXPECT_NEAR(b.omega2[j], dense.eigenvalues()[6 + j], 1e-8 * dense.eigenvalues()[6 + j]) << "mode " << j;
}

// rotated(): the basis of a mesh, turned, is one of the turned mesh, eqs. (1)–(4), without a
// modal analysis of its own
TEST_P(ModalBasisOnMesh, TurnedBasisIsABasisOfTheTurnedMesh) {
  const Mesh m = mesh();
  const Mat3 R = Eigen::AngleAxisd(2.1, Vec3(0.3, -0.8, 0.5).normalized()).toRotationMatrix();
  Mesh turned_mesh = m;
  for (Vec3& X : turned_mesh.nodes) X = R * X;
  const auto turned = std::make_shared<const ModalBasis>(rotated(basis(m), R));
  // eqs. (2)–(4) on the turned mesh, about its centre of mass (make_ffr_body puts it at the
  // origin), within the bounds of the tests above
  expect_mass_orthonormal(turned_mesh, *turned);
  const FfrBody body = make_ffr_body(turned_mesh, kStone, kH, turned);
  expect_no_momentum(consistent_mass(turned_mesh, kStone.density), *turned, body);
  expect_kinetic_energy_is_the_nodal_sum(*turned, body);
}

INSTANTIATE_TEST_SUITE_P(HexAndTet, ModalBasisOnMesh, ::testing::Values(false, true));

TEST(ModalBasis, SlenderBeamBendsAtTheEulerBernoulliFrequency) {
  // a free–free beam 10 × 0.5 × 0.5 m, 80 × 2 × 2 trilinear hexahedra: the first bending
  // frequency ω₁ = (4.730 / L)² √(E I / (ρ A)). Hexahedra are stiff in bending (shear locking:
  // +1.2 % with these 0.125 × 0.25 × 0.25 m cells, +5 % with 0.25 m cubes) and Euler–Bernoulli
  // neglects shear and rotary inertia (≈ −(r/L)², −0.2 %): 3 %
  constexpr double L = 10, a = 0.5;
  const ModalBasis b = modal_basis(make_box_mesh(Vec3(L, a, a), {80, 2, 2}), kStone.density, kStone.young,
                                   kStone.poisson, 2);
  const double omega = std::pow(4.730 / L, 2) * std::sqrt(kStone.young * a * a / 12 / kStone.density);
  // the square section bends alike in y and z: two equal lowest modes
  EXPECT_NEAR(std::sqrt(b.omega2[0]), omega, 0.03 * omega);
  EXPECT_NEAR(std::sqrt(b.omega2[1]), std::sqrt(b.omega2[0]), 1e-6 * omega);
}

TEST(ModalBasis, KineticEnergyEqualsTheNodalSum) {
  const Mesh m = testing::make_box_tet_mesh(kSize, {2, 2, 3});
  auto basis = std::make_shared<const ModalBasis>(modal_basis(m, kStone.density, kStone.young, kStone.poisson, kModes));
  expect_kinetic_energy_is_the_nodal_sum(*basis, make_ffr_body(m, kStone, kH, basis));
}

TEST(ModalBasis, ReducedMatricesAreTheProjectionsOfTheFullOnes) {
  const Mesh m = make_box_mesh(kSize, {2, 2, 3});
  auto basis = std::make_shared<const ModalBasis>(modal_basis(m, kStone.density, kStone.young, kStone.poisson, kModes));
  const FfrBody full = make_ffr_body(m, kStone, kH), modal = make_ffr_body(m, kStone, kH, basis);
  const ffr::ModeMatrix& phi = basis->phi;
  const Eigen::MatrixXd K = full.stiffness;
  const Eigen::MatrixXd A_plus = Eigen::MatrixXd(full.mass_matrix) + (0.5 * kH * kStone.damping_stiffness + 0.25 * kH * kH) * K;
  const Eigen::MatrixXd A_hat = phi.transpose() * A_plus * phi;
  // eq. (R1): Â₊ = Φᵀ A₊ Φ, diagonal; round-off of eq. (2), 1e-10 relative
  const Eigen::MatrixXd modal_A = 2 * Eigen::MatrixXd::Identity(kModes, kModes) - Eigen::MatrixXd(modal.explicit_matrix);
  EXPECT_LT((modal_A - A_hat).norm(), 1e-10 * A_hat.norm());  // A₊ + A₋ = 2 M
  // eq. (R2): Â₊ (Â₊⁻¹ Φᵀ E_ij) = Φᵀ A₊ (A₊⁻¹ E_ij), two solves of condition ~1e6: 1e-8 relative;
  // Φᵀ 𝔸 x = x · Σ_kl M_kl X_k × Φ_l is the modes' angular momentum, 0 by eq. (3): round-off
  EXPECT_LT(modal.euler_response.norm(), 1e-12 * modal.centrifugal_response.norm());
  const Eigen::MatrixXd centrifugal = A_hat * modal.centrifugal_response;
  const Eigen::MatrixXd centrifugal_full = phi.transpose() * A_plus * full.centrifugal_response;
  EXPECT_LT((centrifugal - centrifugal_full).norm(), 1e-8 * centrifugal_full.norm());
  const int node = full.surface.nodes[5];
  const Eigen::MatrixXd z = A_hat * node_response(modal, node);
  EXPECT_LT((z - phi.middleRows<3>(3 * node).transpose()).norm(), 1e-10 * z.norm());
  EXPECT_TRUE(modal.mean_response.isZero(0.0));
  EXPECT_EQ(mass_weighted_mean(modal, Eigen::VectorXd::Ones(kModes)), Vec3::Zero());
  // nodal values Φ_k ξ
  const Eigen::VectorXd xi = Eigen::VectorXd::LinSpaced(kModes, 1.0, 2.0);
  EXPECT_TRUE(node_rows(modal, xi, node).isApprox(Vec3((phi * xi).segment<3>(3 * node)), 1e-14));
  EXPECT_TRUE(nodal_field(modal, xi).isApprox(phi * xi, 1e-14));
}

// eq. (R3): under a constant load, from rest, the modes the step does not resolve (ω_j h > 2) come
// to their static deflection ξ_j = F_j / (h ω_j²) with backward Euler, whose error shrinks by
// 1 / √(1 + ω_j² h²) ≤ 0.45 a step (60 steps: below 1e-20, so round-off sets the bound, 1e-9
// relative); the trapezoidal rule keeps them ringing about it with the amplitude of the start,
// the deviation coming back above half the deflection within any 20 steps (the phase advances
// by 2 atan(ω_j h / 2) > 90° a step). The resolved modes take θ = ½ in both bodies, bit for bit.
TEST(ModalBasis, UnresolvedModesSettleOnTheirStaticDeflectionWithBackwardEuler) {
  const Mesh m = make_box_mesh(kSize, {2, 2, 3});
  auto basis = std::make_shared<const ModalBasis>(modal_basis(m, kStone.density, kStone.young, kStone.poisson, kModes));
  const Eigen::VectorXd& omega2 = basis->omega2;
  ASSERT_LT(omega2[3], omega2[4]);
  const double h = 2.0 / std::sqrt(std::sqrt(omega2[3] * omega2[4]));  // ω₃ h < 2 < ω₄ h
  const FfrMaterial undamped{kStone.density, kStone.young, kStone.poisson, 0.0, 0.0};
  const FfrBody trapezoidal = make_ffr_body(m, undamped, h, basis);
  const FfrBody euler = make_ffr_body(m, undamped, h, basis, UnresolvedModes::BackwardEuler);
  EXPECT_EQ(trapezoidal.theta.size(), 0);
  ASSERT_EQ(euler.theta.size(), kModes);
  const Eigen::VectorXd F = 1e-3 * Eigen::VectorXd::LinSpaced(kModes, 1.0, 2.0);  // impulse per step
  const Eigen::VectorXd response_t = trapezoidal.implicit->solve(F), response_e = euler.implicit->solve(F);
  for (int j = 0; j < kModes; ++j) {
    EXPECT_EQ(euler.theta[j], j < 4 ? 0.5 : 1.0) << j;
    // Â₊ of eq. (R3), 1 + h² ω² for θ = 1: one division, round-off
    if (j >= 4) {
      EXPECT_NEAR(response_e[j], F[j] / (1 + h * h * omega2[j]), 1e-14 * F[j]) << j;
    }
  }
  Eigen::VectorXd psi_t = Eigen::VectorXd::Zero(kModes), lambda_t = psi_t, psi_e = psi_t, lambda_e = psi_t;
  Eigen::VectorXd deviation = Eigen::VectorXd::Zero(kModes);  // the trapezoidal rule's, largest over steps 40–60
  for (int n = 0; n < 60; ++n) {
    const Eigen::VectorXd next_t = deformation_base(trapezoidal, psi_t, lambda_t) + response_t;
    const Eigen::VectorXd next_e = deformation_base(euler, psi_e, lambda_e) + response_e;
    psi_t = next_deformation(trapezoidal, psi_t, lambda_t, next_t);
    psi_e = next_deformation(euler, psi_e, lambda_e, next_e);
    lambda_t = next_t;
    lambda_e = next_e;
    if (n >= 40)
      for (int j = 0; j < kModes; ++j)
        deviation[j] = std::max(deviation[j], std::abs(psi_t[j] - F[j] / (h * omega2[j])));
  }
  for (int j = 0; j < kModes; ++j) {
    const double statics = F[j] / (h * omega2[j]);
    if (j < 4) {
      EXPECT_EQ(psi_e[j], psi_t[j]) << j;
      EXPECT_EQ(lambda_e[j], lambda_t[j]) << j;
      continue;
    }
    EXPECT_NEAR(psi_e[j], statics, 1e-9 * statics) << j;
    EXPECT_GT(deviation[j], 0.5 * statics) << j;
  }
}

TEST_P(ModalBasisOnMesh, StaticCorrectionHoldsTheStaticResponseToLoadsAtItsNodes) {
  const Mesh m = mesh();
  // three directions at a corner, the normal at a node of a face, a slanted load at the far corner
  const std::vector<NodalLoad> loads{{0, Vec3::UnitX()}, {0, Vec3::UnitY()}, {0, Vec3::UnitZ()}, {5, Vec3::UnitZ()},
                                     {m.nn() - 1, Vec3(1, -2, 0.5)}};
  const ModalBasis b = modal_basis(m, kStone.density, kStone.young, kStone.poisson, kModes, loads);
  const Eigen::MatrixXd M = consistent_mass(m, kStone.density), K = stiffness(m, kStone.young, kStone.poisson);
  const int n = b.size();
  const Eigen::MatrixXd Mr = b.phi.transpose() * M * b.phi, Kr = b.phi.transpose() * K * b.phi;
  EXPECT_EQ(n, kModes + 5);
  EXPECT_LT((Mr - Eigen::MatrixXd::Identity(n, n)).norm(), 1e-10);
  EXPECT_LT((Kr - Eigen::MatrixXd(b.omega2.asDiagonal())).norm(), 1e-10 * b.omega2.maxCoeff());
  // dense reference: the elastic part of K⁺ f
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> dense(K, M);
  const Eigen::MatrixXd V = dense.eigenvectors().rightCols(3 * m.nn() - 6);
  const Eigen::VectorXd w2 = dense.eigenvalues().tail(3 * m.nn() - 6);
  for (const NodalLoad& load : loads) {
    Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * m.nn());
    f.segment<3>(3 * load.node) = load.direction;
    const Eigen::VectorXd u = V * (V.transpose() * f).cwiseQuotient(w2);
    const Eigen::VectorXd r = u - b.phi * (b.phi.transpose() * (M * u));
    EXPECT_LT(r.norm(), 1e-8 * u.norm()) << "node " << load.node;
  }
}

TEST(ModalBasis, RejectsAnImpossibleNumberOfModes) {
  const Mesh m = make_box_mesh(kSize, {1, 1, 1});  // 8 nodes: 24 − 6 = 18 elastic modes
  EXPECT_THROW(modal_basis(m, kStone.density, kStone.young, kStone.poisson, 0), InputError);
  EXPECT_THROW(modal_basis(m, kStone.density, kStone.young, kStone.poisson, 18), InputError);
  EXPECT_NO_THROW(modal_basis(m, kStone.density, kStone.young, kStone.poisson, 17));
}

TEST(ModalBasis, RejectsAMeshInPieces) {
  // two separate cubes: 12 free motions, so the 7th mode is rigid
  Mesh m = make_box_mesh(Vec3(1, 1, 1), {1, 1, 1});
  const Mesh other = make_box_mesh(Vec3(1, 1, 1), {1, 1, 1});
  for (const Vec3& X : other.nodes) m.nodes.push_back(X + Vec3(3, 0, 0));
  for (const int c : other.cells) m.cells.push_back(c + 8);
  EXPECT_THROW(modal_basis(m, kStone.density, kStone.young, kStone.poisson, 3), InputError);
}

}  // namespace
}  // namespace nscd::ffr
