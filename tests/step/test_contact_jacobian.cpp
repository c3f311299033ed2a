// Contact Jacobians against finite differences of the material points' motion, and the
// assembled Delassus operator against the dense product H M⁻¹ Hᵀ.

#include "nscd/step/contact_jacobian.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

namespace nscd {
namespace {

contact::ContactPoint make_contact(int a, int b, const Vec3& p, const Vec3& n) {
  contact::ContactPoint c;
  c.a = a;
  c.b = b;
  c.p_W = p;
  c.R_WC = orthonormal_frame(n.normalized());
  return c;
}

TEST(ContactJacobian, MatchesFiniteDifferencesOfTheMaterialPoints) {
  const Vec3 x_a(0.1, -0.2, 0.3), x_b(1.0, 0.5, -0.4), p(0.6, 0.1, 0.0);
  const Vec3 v_a(0.3, -1.0, 0.2), w_a(0.5, 0.1, -0.7), v_b(-0.4, 0.2, 0.9), w_b(-0.2, 0.8, 0.3);
  const contact::ContactPoint c = make_contact(0, 1, p, Vec3(1, 2, 0.5));
  ContactJacobian J;
  fill_jacobian(c, c.p_W - x_a, c.p_W - x_b, J);
  Vec6 V_a, V_b;
  V_a << v_a, w_a;
  V_b << v_b, w_b;
  const Vec3 u = contact_velocity(J, V_a, V_b);

  // rigid motion of the material point at p of each body over ±dt, central difference
  const double dt = 1e-6;
  auto moved = [&](const Vec3& x, const Vec3& v, const Vec3& w, double t) {
    return Vec3(x + v * t + (exp_map(w * t) * (p - x)));
  };
  const Vec3 dp_b = (moved(x_b, v_b, w_b, dt) - moved(x_b, v_b, w_b, -dt)) / (2 * dt);
  const Vec3 dp_a = (moved(x_a, v_a, w_a, dt) - moved(x_a, v_a, w_a, -dt)) / (2 * dt);
  const Vec3 expected = c.R_WC.transpose() * (dp_b - dp_a);
  // central differences: truncation O(dt²) ≈ 1e-12, round-off O(ε/dt) ≈ 1e-10
  EXPECT_LT((u - expected).norm(), 1e-8);
}

TEST(ContactJacobian, DelassusEqualsDenseProductAndIsSymmetric) {
  // three bodies: 0 and 1 movable, 2 fixed; contacts 0–1, 0–2, 1–2, 0–1
  const std::vector<Vec3> x{{0, 0, 0}, {1, 0, 0}, {0, 0, -1}};
  const std::vector<double> mass{2.0, 3.0};
  const std::vector<Mat3> inv_inertia{Vec3(1.0, 2.0, 0.5).asDiagonal(), Vec3(0.3, 0.4, 0.7).asDiagonal()};
  const std::vector<contact::ContactPoint> contacts{
      make_contact(0, 1, {0.5, 0.1, 0.0}, {1, 0.1, 0}), make_contact(0, 2, {0.0, 0.2, -0.5}, {0, 0, -1}),
      make_contact(1, 2, {1.0, 0.0, -0.5}, {0.1, 0, -1}), make_contact(0, 1, {0.5, -0.1, 0.2}, {1, 0, 0.2})};
  std::vector<ContactJacobian> jacobians;
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(12, 12), Minv = Eigen::MatrixXd::Zero(12, 12);
  for (int b = 0; b < 2; ++b) {
    Minv.block<3, 3>(6 * b, 6 * b) = Mat3::Identity() / mass[b];
    Minv.block<3, 3>(6 * b + 3, 6 * b + 3) = inv_inertia[b];
  }
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    ContactJacobian J;
    fill_jacobian(contacts[i], contacts[i].p_W - x[contacts[i].a], contacts[i].p_W - x[contacts[i].b], J);
    for (int side = 0; side < 2; ++side) {
      const int b = J.body[side];
      J.movable[side] = b < 2;
      J.Y[side].setZero();
      if (!J.movable[side]) continue;
      J.Y[side] = Minv.block<6, 6>(6 * b, 6 * b) * J.G[side].transpose();
      H.block<3, 6>(3 * static_cast<Eigen::Index>(i), 6 * b) = J.G[side];
    }
    jacobians.push_back(J);
  }
  const Eigen::MatrixXd W = assemble_delassus(jacobians, 3).to_dense();
  const Eigen::MatrixXd expected = H * Minv * H.transpose();
  // the same products summed in another order: round-off of a few ulps of O(1) entries
  EXPECT_LT((W - expected).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT((W - W.transpose()).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(W).eigenvalues().minCoeff(), -1e-12);
}

}  // namespace
}  // namespace nscd
