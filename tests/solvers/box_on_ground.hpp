#pragma once
// A box resting on a fixed ground through its four bottom corners, pushed sideways, as a body
// form (body_coupling.hpp) and its local problem: W is singular (12 rows, 6 unknowns), r is not
// unique but its resultant is, known in closed form. Shared by the tests of the Newton solvers on
// the bodies' velocities (test_auto_solver.cpp, test_interior_point.cpp).

#include "solvers/body_coupling.hpp"
#include "solvers/friction_problem.hpp"

#include <Eigen/Core>
#include <Eigen/LU>
#include <Eigen/SparseCore>

#include <array>
#include <vector>

namespace nscd::solvers::test_box {

using Matrix36 = Eigen::Matrix<double, 3, 6>;
using Matrix66 = Eigen::Matrix<double, 6, 6>;

// the body form (body_coupling.hpp eq. (1)) of bodies with the mass blocks `mass`, and contacts
// with the blocks G[i][side] on bodies body[i][side] (−1: the fixed ground)
inline BodyCoupling coupling(const std::vector<Matrix66>& mass, const std::vector<std::array<int, 2>>& body,
                             const std::vector<std::array<Matrix36, 2>>& G) {
  const Eigen::Index n = 6 * static_cast<Eigen::Index>(mass.size()), m = 3 * static_cast<Eigen::Index>(body.size());
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n), H = Eigen::MatrixXd::Zero(m, n);
  for (std::size_t b = 0; b < mass.size(); ++b) M.block<6, 6>(6 * b, 6 * b) = mass[b];
  for (std::size_t i = 0; i < body.size(); ++i)
    for (int side = 0; side < 2; ++side)
      if (body[i][side] >= 0) H.block<3, 6>(3 * i, 6 * body[i][side]) += G[i][side];
  return {M.sparseView(), H.sparseView()};
}

// W = H M⁻¹ Hᵀ and the problem of a body form, densely
inline FrictionProblem local_form(const BodyCoupling& c, const Eigen::VectorXd& q, const Eigen::VectorXd& mu) {
  const Eigen::MatrixXd H(c.H), M(c.M);
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(H * M.inverse() * H.transpose());
  p.q = q;
  p.mu = mu;
  return p;
}

// a unit-density box 2a × 2b × 2c at the origin resting on a fixed ground through its four
// bottom corners (normal +z, tangents x and y), with free velocity (push, 0, −g h) at the end of
// the step: W is singular (12 rows, 6 unknowns), r is not unique but the resultant is
struct BoxOnGround {
  BodyCoupling c;
  FrictionProblem p;
  double mass = 0, push = 0, g_h = 0, mu = 0;
};

inline BoxOnGround box_on_ground(double push, double g_h, double mu) {
  const double a = 1.0, b = 0.5, h = 0.5, mass = 8 * a * b * h;
  BoxOnGround box;
  box.mass = mass;
  box.push = push;
  box.g_h = g_h;
  box.mu = mu;
  Matrix66 M = Matrix66::Zero();
  M.topLeftCorner<3, 3>() = mass * Eigen::Matrix3d::Identity();
  M.bottomRightCorner<3, 3>() = (mass / 3.0) * Eigen::Vector3d(b * b + h * h, a * a + h * h, a * a + b * b).asDiagonal();
  std::vector<std::array<int, 2>> body;
  std::vector<std::array<Matrix36, 2>> blocks;
  Eigen::Matrix3d R;  // columns n, t1, t2 in the world frame
  R.col(0) = Eigen::Vector3d::UnitZ();
  R.col(1) = Eigen::Vector3d::UnitX();
  R.col(2) = Eigen::Vector3d::UnitY();
  Eigen::VectorXd q(12);
  for (int i = 0; i < 4; ++i) {
    const Eigen::Vector3d arm((i & 1) ? a : -a, (i & 2) ? b : -b, -h);
    Eigen::Matrix3d cross;
    cross << 0, -arm.z(), arm.y(), arm.z(), 0, -arm.x(), -arm.y(), arm.x(), 0;
    Matrix36 G;
    G << R.transpose(), -R.transpose() * cross;
    body.push_back({-1, 0});
    blocks.push_back({Matrix36::Zero(), G});
    q.segment<3>(3 * i) = R.transpose() * Eigen::Vector3d(push, 0, -g_h);
  }
  box.c = coupling({M}, body, blocks);
  box.p = local_form(box.c, q, Eigen::Vector4d::Constant(mu));
  return box;
}

// Σ_i r_i in the contact frame (n, t1, t2), shared by the four corners
inline Eigen::Vector3d resultant(const Eigen::VectorXd& r) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (int i = 0; i < 4; ++i) sum += r.segment<3>(3 * i);
  return sum;
}

// the box's resultant in closed form: pushed below the friction limit (push < μ g h) it stops,
// Σ r = m (g h, −push, 0); beyond it, it slides along x, Σ r = m g h (1, −μ, 0) (Coulomb's law on
// a flat face)
inline Eigen::Vector3d analytic_resultant(const BoxOnGround& box) {
  if (box.push < box.mu * box.g_h) return box.mass * Eigen::Vector3d(box.g_h, -box.push, 0.0);
  return box.mass * box.g_h * Eigen::Vector3d(1.0, -box.mu, 0.0);
}

// ‖Σ r − analytic_resultant‖ relative to the latter: a solver's error 1e-10 relative to
// ‖r‖ ≈ m g h bounds it, and the tests allow 1e-9 for the sum over four corners
inline double resultant_error(const BoxOnGround& box, const Eigen::VectorXd& r) {
  const Eigen::Vector3d expected = analytic_resultant(box);
  return (resultant(r) - expected).norm() / expected.norm();
}

}  // namespace nscd::solvers::test_box
