// The three local solvers of local_solver.hpp on hand-computed single contacts, alone and
// inside NLGS (NlgsOptions::local_solver).

#include "solvers/local_solver.hpp"
#include "solvers/nlgs.hpp"

#include <gtest/gtest.h>

#include <string>

#include <Eigen/Core>
#include <Eigen/LU>

namespace nscd::solvers {
namespace {

constexpr LocalSolverKind kKinds[] = {LocalSolverKind::AlartCurnier, LocalSolverKind::JeanMoreau,
                                      LocalSolverKind::DeSaxceFixedPoint};

Eigen::Matrix3d general_spd() {
  Eigen::Matrix3d W;
  W << 2.0, 0.3, -0.4, 0.3, 1.5, 0.2, -0.4, 0.2, 1.0;
  return W;
}

class LocalSolverTest : public testing::TestWithParam<LocalSolverKind> {};

TEST_P(LocalSolverTest, OpenGivesZero) {
  const detail::LocalProblem lp = detail::make_local_problem(general_spd(), 0.3, GetParam());
  EXPECT_EQ(detail::solve_local(lp, {0.5, 1.0, -2.0}, Eigen::Vector3d(1.0, 0.0, 0.0)), Eigen::Vector3d::Zero());
}

TEST_P(LocalSolverTest, StickIsMinusWInverseQ) {
  // μ = 1: r = −W⁻¹ q = lies inside the cone, u = 0
  const Eigen::Vector3d q(-1.0, 0.2, 0.1);
  const detail::LocalProblem lp = detail::make_local_problem(general_spd(), 1.0, GetParam());
  const Eigen::Vector3d r = detail::solve_local(lp, q, Eigen::Vector3d::Zero());
  // one 3×3 inverse of a matrix with condition number < 10
  constexpr double kTol = 1e-14;
  EXPECT_LE((r + general_spd().inverse() * q).norm(), kTol);
}

TEST_P(LocalSolverTest, SlideWithIdentityByHand) {
  // W = I, q = (−1, 3, 4), μ = 0.5: u_n = 0 ⇒ r_n = 1; r_T = −μ r_n q_T/‖q_T‖ = (−0.3, −0.4);
  // u_T = q_T + r_T = (2.7, 3.6) is opposite to r_T. For De Saxcé with ρ = 1 this r is the fixed
  // point: r − û = (1 − 2.25, −3, −4) projects on the cone at (1, −0.3, −0.4)
  const detail::LocalProblem lp = detail::make_local_problem(Eigen::Matrix3d::Identity(), 0.5, GetParam());
  const Eigen::Vector3d r = detail::solve_local(lp, {-1.0, 3.0, 4.0}, Eigen::Vector3d::Zero());
  // Newton: ‖Φ‖ ≤ 1e-14 (‖r‖ + ‖q‖); fixed point: steps ≤ 1e-15 relative with contraction ≤ ½
  constexpr double kTol = 1e-13;
  EXPECT_LE((r - Eigen::Vector3d(1.0, -0.3, -0.4)).norm(), kTol) << r.transpose();
}

TEST_P(LocalSolverTest, SlideWithGeneralWSatisfiesCoulomb) {
  // no closed form: u_n = 0, ‖r_T‖ = μ r_n, r_T opposite to u_T, and the local error vanishes
  const Eigen::Vector3d q(-1.0, 3.0, 4.0);
  const detail::LocalProblem lp = detail::make_local_problem(general_spd(), 0.5, GetParam());
  const Eigen::Vector3d r = detail::solve_local(lp, q, Eigen::Vector3d::Zero());
  const Eigen::Vector3d u = general_spd() * r + q;
  // O(1) data: Newton to 1e-14 relative, the fixed point (rate ≈ 1 − λ_min/λ_max ≈ 0.6) to 1e-15
  constexpr double kTol = 1e-12;
  EXPECT_GT(r(0), 0.1);
  EXPECT_NEAR(u(0), 0.0, kTol);
  EXPECT_NEAR(r.tail<2>().norm(), 0.5 * r(0), kTol);
  EXPECT_LE((r.tail<2>() + 0.5 * r(0) * u.tail<2>().normalized()).norm(), kTol);
  EXPECT_LE(detail::local_error(lp, q, r), kTol);
}

TEST_P(LocalSolverTest, InsideNlgsOnTwoCoupledContacts) {
  // W = [I cI; cI I], c = 0.5, μ = 1, both stuck: r = −W⁻¹ q (as NlgsTest.TwoCoupledContacts)
  Eigen::MatrixXd W = Eigen::MatrixXd::Identity(6, 6);
  W.block<3, 3>(0, 3) = W.block<3, 3>(3, 0) = 0.5 * Eigen::Matrix3d::Identity();
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(W);
  p.q.resize(6);
  p.q << -1.0, 0.1, 0.0, -1.0, 0.0, 0.1;
  p.mu = Eigen::Vector2d(1.0, 1.0);
  Eigen::VectorXd expected(6);
  expected << 2.0 / 3, -2.0 / 15, 1.0 / 15, 2.0 / 3, 1.0 / 15, -2.0 / 15;
  NlgsOptions options;
  options.stopping.tolerance = 1e-14;
  options.local_solver = GetParam();
  const SolverResult res = solve_nlgs(p, options, Eigen::VectorXd());
  EXPECT_EQ(res.status, SolverStatus::Converged);
  // Gauss–Seidel contracts by c² = 1/4 per sweep down to 1e-14 on O(1) values
  constexpr double kTol = 1e-13;
  EXPECT_LE((res.r - expected).norm(), kTol);
}

std::string param_name(const testing::TestParamInfo<LocalSolverKind>& info) { return std::string(to_string(info.param)); }

INSTANTIATE_TEST_SUITE_P(Kinds, LocalSolverTest, testing::ValuesIn(kKinds),
                         param_name);

TEST(LocalSolverKindTest, Names) {
  EXPECT_EQ(to_string(LocalSolverKind::AlartCurnier), "alart_curnier");
  EXPECT_EQ(to_string(LocalSolverKind::JeanMoreau), "jean_moreau");
  EXPECT_EQ(to_string(LocalSolverKind::DeSaxceFixedPoint), "de_saxce");
}

}  // namespace
}  // namespace nscd::solvers
