// CCP (ccp_solver.hpp): the artificial dilatancy of a sliding contact, and its removal by the
// correction s = μ‖u_T‖, against analytic values; APGD and projected Gauss–Seidel.

#include "solvers/ccp_solver.hpp"
#include "solvers/error_measure.hpp"

#include <gtest/gtest.h>

#include <string>

#include <Eigen/Core>

#include <cmath>

namespace nscd::solvers {
namespace {

// a block of unit mass sliding on a plane at 2 m/s along t1, pressed by 0.1 N·s of gravity
// impulse over the step: one contact, W = I / m, q = (−0.1, 2, 0), μ = 0.3
FrictionProblem sliding_block() {
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(Eigen::MatrixXd::Identity(3, 3));
  p.q = Eigen::Vector3d(-0.1, 2.0, 0.0);
  p.mu = Eigen::VectorXd::Constant(1, 0.3);
  return p;
}

// four corner contacts of the same block (4 rows of a rigid body's Jacobian) sliding along t1:
// W = G M⁻¹ Gᵀ with m = 1, J = I, corners at (±0.5, ±0.5) in the plane, normal along z
FrictionProblem sliding_block_four_corners() {
  Eigen::MatrixXd G(12, 6);
  const double corners[4][2] = {{0.5, 0.5}, {-0.5, 0.5}, {-0.5, -0.5}, {0.5, -0.5}};
  for (int i = 0; i < 4; ++i) {
    // contact frame (n, t1, t2) = (z, x, y); u = v + ω × p, p = (x, y, −0.5) from the centre
    const Eigen::Vector3d pc(corners[i][0], corners[i][1], -0.5);
    Eigen::Matrix3d R;
    R << 0, 0, 1, 1, 0, 0, 0, 1, 0;  // rows n, t1, t2 in world coordinates
    Eigen::Matrix3d skew;
    skew << 0, -pc(2), pc(1), pc(2), 0, -pc(0), -pc(1), pc(0), 0;
    G.block<3, 3>(3 * i, 0) = R;
    G.block<3, 3>(3 * i, 3) = -R * skew;
  }
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(G * G.transpose());
  // free velocity: v = (2, 0, −0.1), ω = 0 ⇒ q_i = R v
  p.q.resize(12);
  for (int i = 0; i < 4; ++i) p.q.segment<3>(3 * i) = Eigen::Vector3d(-0.1, 2.0, 0.0);
  p.mu = Eigen::VectorXd::Constant(4, 0.3);
  return p;
}

class CcpTest : public testing::TestWithParam<CcpMethod> {};

TEST_P(CcpTest, RelaxationSeparatesASlidingBlockAtMuTimesSlidingSpeed) {
  // CCP with W = I: r = P_K(−q). −q = (0.1, −2, 0): r_n = (μ‖q_T‖ − q_n)/(μ² + 1) = 0.7/1.09,
  // r_T = −μ r_n e_1; u = r + q has u_n = μ‖u_T‖ > 0 (the dilatancy), u_T = 2 − μ r_n
  const FrictionProblem p = sliding_block();
  CcpOptions options;
  options.method = GetParam();
  options.correction = false;
  options.stopping.tolerance = 1e-12;
  const SolverResult res = solve_ccp(p, options, Eigen::VectorXd());
  EXPECT_EQ(res.status, SolverStatus::Converged);
  const double rn = 0.7 / 1.09;
  // solved to e_ccp 1e-12 relative on O(1) values
  constexpr double kTol = 1e-10;
  EXPECT_NEAR(res.r(0), rn, kTol);
  EXPECT_NEAR(res.r(1), -0.3 * rn, kTol);
  EXPECT_NEAR(res.u(1), 2.0 - 0.3 * rn, kTol);
  EXPECT_NEAR(res.u(0), 0.3 * std::abs(res.u(1)), kTol);
  EXPECT_GT(res.u(0), 0.5);
  // the Coulomb error is that of the dilatancy, not small
  EXPECT_GT(res.error, 0.1);
}

TEST_P(CcpTest, CorrectionRecoversCoulomb) {
  // exact Coulomb: u_n = 0 ⇒ r_n = 0.1, r_T = −μ r_n = −0.03, u_T = 1.97 (slides)
  const FrictionProblem p = sliding_block();
  CcpOptions options;
  options.method = GetParam();
  options.stopping.tolerance = 1e-12;
  const SolverResult res = solve_ccp(p, options, Eigen::VectorXd());
  EXPECT_EQ(res.status, SolverStatus::Converged) << res.error;
  constexpr double kTol = 1e-10;
  EXPECT_NEAR(res.r(0), 0.1, kTol);
  EXPECT_NEAR(res.r(1), -0.03, kTol);
  EXPECT_NEAR(res.u(0), 0.0, kTol);
  EXPECT_NEAR(res.u(1), 1.97, kTol);
  EXPECT_LE(res.error, 1e-12);
}

TEST_P(CcpTest, FourCornersDilatancyAndCorrection) {
  // a sliding block on four corners: the CCP lifts the block (every u_n = μ‖u_T‖ > 0, the same
  // at the four corners by symmetry... of the sliding speed), the correction keeps it on the plane
  const FrictionProblem p = sliding_block_four_corners();
  CcpOptions options;
  options.method = GetParam();
  options.correction = false;
  options.stopping.tolerance = 1e-10;
  options.stopping.max_iterations = 100000;
  const SolverResult relaxed = solve_ccp(p, options, Eigen::VectorXd());
  ASSERT_EQ(relaxed.status, SolverStatus::Converged);
  constexpr double kTol = 1e-7;  // e_ccp 1e-10 relative, W of condition ~ 10 on its range
  double mean_un = 0.0;
  for (int i = 0; i < 4; ++i) {
    const double ut = relaxed.u.segment<2>(3 * i + 1).norm();
    // every loaded corner separates at μ‖u_T‖
    if (relaxed.r(3 * i) > kTol) {
      EXPECT_NEAR(relaxed.u(3 * i), 0.3 * ut, kTol);
    }
    mean_un += relaxed.u(3 * i) / 4;
  }
  EXPECT_GT(mean_un, 0.1);

  options.correction = true;
  const SolverResult exact = solve_ccp(p, options, Eigen::VectorXd());
  EXPECT_EQ(exact.status, SolverStatus::Converged) << exact.error;
  // total normal impulse 0.1 (the gravity impulse), every corner closed, friction −μ r_n
  EXPECT_NEAR(exact.r(0) + exact.r(3) + exact.r(6) + exact.r(9), 0.1, kTol);
  EXPECT_NEAR(exact.r(1) + exact.r(4) + exact.r(7) + exact.r(10), -0.03, kTol);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(exact.u(3 * i), 0.0, kTol);
}

std::string param_name(const testing::TestParamInfo<CcpMethod>& info) { return std::string(to_string(info.param)); }

INSTANTIATE_TEST_SUITE_P(Methods, CcpTest, testing::Values(CcpMethod::Apgd, CcpMethod::Pgs),
                         param_name);

TEST(CcpErrorTest, EqualsTheCommonErrorForTheCoulombShift) {
  const FrictionProblem p = sliding_block();
  const Eigen::Vector3d r(0.2, -0.01, 0.03);
  const Eigen::VectorXd u = p.W.apply(r) + p.q;
  const Eigen::VectorXd s = Eigen::VectorXd::Constant(1, 0.3 * u.tail<2>().norm());
  EXPECT_EQ(ccp_error(p, s, r, u), error_measure(p, r, u));
}

}  // namespace
}  // namespace nscd::solvers
