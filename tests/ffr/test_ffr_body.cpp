// The constants of an FFR body (ffr_body.hpp) and its free motion (ffr_dynamics.hpp) on hexahedral
// and tetrahedral meshes: mass properties against the analytic box, the node response against a
// dense solve of eq. (19)–(20), the Cayley update (24), and the Rotator without impulses.

#include "ffr/ffr_body.hpp"
#include "ffr/ffr_dynamics.hpp"
#include "test_meshes.hpp"

#include <gtest/gtest.h>

#include <array>

#include <Eigen/Dense>

namespace nscd::ffr {
namespace {

const Vec3 kSize(1.0, 0.6, 1.4);
const FfrMaterial kStone{2500, 35e9, 0.2, 0.0, 1e-4};
constexpr double kH = 1e-4;

class FfrBodyOnMesh : public ::testing::TestWithParam<bool> {
 protected:
  Mesh mesh() const {
    Mesh m = GetParam() ? testing::make_box_tet_mesh(kSize, {2, 2, 3}) : make_box_mesh(kSize, {2, 2, 3});
    for (Vec3& X : m.nodes) X += Vec3(3, -1, 2);  // given off-centre: the body frame moves to C
    return m;
  }
};

TEST_P(FfrBodyOnMesh, MassPropertiesAreThoseOfTheBox) {
  const FfrBody body = make_ffr_body(mesh(), kStone, kH);
  const double m = 2500 * kSize.prod();
  // consistent mass integrals are exact for these affine meshes: round-off only
  EXPECT_NEAR(body.mass, m, 1e-12 * m);
  EXPECT_TRUE(body.centre_in_input.isApprox(Vec3(3, -1, 2), 1e-12));
  const Vec3 diagonal(m / 12 * (kSize.y() * kSize.y() + kSize.z() * kSize.z()),
                      m / 12 * (kSize.x() * kSize.x() + kSize.z() * kSize.z()),
                      m / 12 * (kSize.x() * kSize.x() + kSize.y() * kSize.y()));
  EXPECT_TRUE(body.inertia_B.isApprox(Mat3(diagonal.asDiagonal()), 1e-12));
}

TEST_P(FfrBodyOnMesh, NodeResponseSolvesTheDeformationEquation) {
  const FfrBody body = make_ffr_body(mesh(), kStone, kH);
  const int n = body.ndof(), node = body.surface.nodes[3];
  // A₊ = M + h/2 C + h²/4 K with C = β K, and H̄_kᵀ of eq. (20), dense
  const Eigen::MatrixXd M = body.mass_matrix, K = body.stiffness;
  const Eigen::MatrixXd A = M + (0.5 * kH * kStone.damping_stiffness + 0.25 * kH * kH) * K;
  Eigen::MatrixXd Hbar_t = Eigen::MatrixXd::Zero(n, 3);
  for (int k = 0; k < body.nn(); ++k) Hbar_t.block<3, 3>(3 * k, 0) = -body.nodal_mass[k] / body.mass * Mat3::Identity();
  Hbar_t.block<3, 3>(3 * node, 0) += Mat3::Identity();
  const Eigen::MatrixXd Z = A.ldlt().solve(Hbar_t);
  // two factorisations of the same SPD matrix (condition ~1e6): 1e-8 relative
  EXPECT_LT((node_response(body, node) - Z).norm(), 1e-8 * Z.norm());
}

INSTANTIATE_TEST_SUITE_P(HexAndTet, FfrBodyOnMesh, ::testing::Values(false, true));

// modal_point_values against the dense Σ_i w_i Φ_{k_i} v, for an even and an odd number of
// columns (the two-lane loop and its last odd column), for one vector and for two at once;
// round-off of 12 to 13 terms of order 1
TEST(ModalPointValues, AreTheWeightedRowsOfPhiTimesV) {
  for (const int k : {12, 13}) {
    const ModeMatrix phi = ModeMatrix::Random(3 * 5, k);
    const Eigen::VectorXd v = Eigen::VectorXd::Random(k), u = Eigen::VectorXd::Random(k);
    const std::array<int, 3> nodes = {4, 0, 2};
    const std::array<double, 3> weights = {0.2, 0.5, 0.3};
    Eigen::Matrix<double, 3, 2> expected = Eigen::Matrix<double, 3, 2>::Zero();
    for (int i = 0; i < 3; ++i) {
      expected.col(0) += weights[i] * phi.middleRows<3>(3 * nodes[i]) * v;
      expected.col(1) += weights[i] * phi.middleRows<3>(3 * nodes[i]) * u;
    }
    EXPECT_LT((modal_point_values<3>(phi, v, nodes, weights) - expected.col(0)).norm(), 1e-14) << k;
    EXPECT_LT((modal_point_values<3, 2>(phi, {v.data(), u.data()}, nodes, weights) - expected).norm(), 1e-14) << k;
    EXPECT_LT((modal_node_values(phi, v, 4) - phi.middleRows<3>(12) * v).norm(), 1e-14) << k;
  }
}

TEST(FfrDynamics, CayleyUpdateAtConstantRateIsARotation) {
  const Vec3 w(0.3, -1.2, 2.0);
  const Mat3 O = cayley_rotation(Mat3::Identity(), w, w, 0.01);
  // (I − A)⁻¹(I + A) is orthogonal for skew A: round-off only
  EXPECT_TRUE((O.transpose() * O).isIdentity(1e-14));
  EXPECT_NEAR(O.determinant(), 1.0, 1e-14);
  // the rotation angle is 2 atan(h ‖ω‖ / 2)
  EXPECT_NEAR(Eigen::AngleAxisd(O).angle(), 2 * std::atan(0.005 * w.norm()), 1e-14);
}

TEST(FfrDynamics, FreeRotatorConservesTheWorldAngularMomentum) {
  const FfrBody body = make_ffr_body(make_box_mesh(kSize, {1, 1, 1}), kStone, kH);
  const Mat3 O_i = Eigen::AngleAxisd(0.4, Vec3(1, 1, 0).normalized()).toRotationMatrix();
  const Vec3 w_i(1.0, 3.0, -2.0);
  const Vec3 L_i = O_i * body.inertia_B * O_i.transpose() * w_i;
  const Rotation r = rotate(body, O_i, w_i, L_i, {}, {}, {O_i, w_i, 0, true}, 1e-14, 100);
  ASSERT_TRUE(r.converged);
  EXPECT_LT(r.iterations, 10);  // contraction ≈ h ‖ω‖ = 4e-4 per iteration
  // eq. (16) without impulses: J_{i+1} ω_{i+1} = L_i; O_{i+1} of eq. (24) is orthogonal only up
  // to O(h² ‖ω_{i+1} − ω_i‖ ‖ω‖) ≈ 1e-11 here, which bounds the match
  const Vec3 L_next = r.O * body.inertia_B * r.O.transpose() * r.w;
  EXPECT_LT((L_next - L_i).norm(), 1e-10 * L_i.norm());
  EXPECT_GT((r.w - w_i).norm(), 1e-6);  // the free asymmetric body's ω does change (precession)
}

}  // namespace
}  // namespace nscd::ffr
