// The cold-start guess of stick_prediction.hpp: least-norm impulses that stop every contact.

#include "solvers/stick_prediction.hpp"

#include "solvers/error_measure.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/SparseCore>

#include <vector>

namespace nscd::solvers {
namespace {

// two identical contacts (the same point of the same body twice): W = [A A; A A] is singular
FrictionProblem redundant_pair(const Eigen::Vector3d& q0, double mu) {
  Eigen::Matrix3d A;
  A << 2.0, 0.3, -0.1, 0.3, 1.5, 0.2, -0.1, 0.2, 1.2;
  Eigen::MatrixXd W(6, 6);
  W << A, A, A, A;
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(W);
  p.q.resize(6);
  p.q << q0, q0;
  p.mu = Eigen::Vector2d(mu, mu);
  return p;
}

TEST(StickPrediction, SplitsTheLoadOfRedundantContactsEvenlyAndExactly) {
  const FrictionProblem p = redundant_pair(Eigen::Vector3d(-1.0, 0.1, -0.05), 1.0);
  const Eigen::VectorXd r = stick_prediction(p).value();
  // least norm of r1 + r2 = −A⁻¹ q0: r1 = r2 = −½ A⁻¹ q0 (‖·‖ ≈ 0.4). The split, the null-space
  // part, carries the round-off of the regularised factorisation, about 1e-16 / ε = 1e-8
  // relative with ε = 1e-8 of the mean diagonal
  const Eigen::Vector3d expected = -0.5 * p.W.diag(0).inverse() * p.q.head<3>();
  EXPECT_LT((r.head<3>() - expected).norm(), 1e-8);
  EXPECT_LT((r.tail<3>() - expected).norm(), 1e-8);
  // it solves the frictional contact problem: every contact sticks with u = 0, up to the residual
  // (ε/(λ + ε))⁴ ≈ 1e-32 of four proximal iterations, i.e. round-off
  EXPECT_LT(error_measure(p, r, p.W.apply(r) + p.q), 1e-12);
}

TEST(StickPrediction, ProjectsOnTheConesWhereStickingIsImpossible) {
  // the tangential load is larger than μ times the normal one: the guess lies on the cone
  const double mu = 0.1;
  const FrictionProblem p = redundant_pair(Eigen::Vector3d(-1.0, 2.0, 0.0), mu);
  const Eigen::VectorXd r = stick_prediction(p).value();
  ASSERT_TRUE(r.allFinite());
  for (int i = 0; i < 2; ++i) {
    const Eigen::Vector3d ri = r.segment<3>(3 * i);
    EXPECT_GE(ri[0], 0.0);
    // on or inside the cone, up to round-off of the projection formula
    EXPECT_LE(ri.tail<2>().norm(), mu * ri[0] * (1 + 1e-12) + 1e-15);
  }
}

TEST(StickPrediction, IsNotMadeAboveItsBudget) {
  // the pair's 6 × 6 factorisation costs Σ c_k² = 5² + 4² + … + 0² = 55 operations
  const FrictionProblem p = redundant_pair(Eigen::Vector3d(-1.0, 0.1, -0.05), 1.0);
  EXPECT_FALSE(stick_prediction(p, 54.0).has_value());
  EXPECT_TRUE(stick_prediction(p, 55.0).has_value());
}

// a box of mass 2 (half-sides 1, 0.5, 0.5) resting on its four bottom corners, each contact's
// frame (n, t1, t2) = (z, x, y), u_i = frame (v + ω × c_i); with `single`, a second body of mass 3
// touching by one point, whose 6 unknowns H constrains only in part (Hᵀ H singular)
BodyCoupling box_on_corners(bool single) {
  const int n = single ? 12 : 6;
  std::vector<Eigen::Triplet<double>> m_entries, h_entries;
  const double mass[2] = {2.0, 3.0};
  const double inertia[2][3] = {{1.0 / 3.0, 5.0 / 6.0, 5.0 / 6.0}, {0.4, 0.5, 0.6}};
  for (int b = 0; b < n / 6; ++b)
    for (int k = 0; k < 3; ++k) {
      m_entries.emplace_back(6 * b + k, 6 * b + k, mass[b]);
      m_entries.emplace_back(6 * b + 3 + k, 6 * b + 3 + k, inertia[b][k]);
    }
  std::vector<std::pair<int, Eigen::Vector3d>> points{{0, {-1.0, -0.5, -0.5}}, {0, {1.0, -0.5, -0.5}},
                                                       {0, {1.0, 0.5, -0.5}}, {0, {-1.0, 0.5, -0.5}}};
  if (single) points.push_back({1, {0.2, 0.1, -0.3}});
  Eigen::Matrix3d frame;
  frame << 0, 0, 1, 1, 0, 0, 0, 1, 0;  // rows n, t1, t2
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& [b, c] = points[i];
    Eigen::Matrix<double, 3, 6> G;
    Eigen::Matrix3d cross;
    cross << 0, -c.z(), c.y(), c.z(), 0, -c.x(), -c.y(), c.x(), 0;
    G << frame, -frame * cross;  // v + ω × c = v − [c]× ω
    for (int k = 0; k < 3; ++k)
      for (int l = 0; l < 6; ++l) h_entries.emplace_back(static_cast<int>(3 * i) + k, 6 * b + l, G(k, l));
  }
  BodyCoupling c;
  c.M.resize(n, n);
  c.M.setFromTriplets(m_entries.begin(), m_entries.end());
  c.H.resize(3 * static_cast<Eigen::Index>(points.size()), n);
  c.H.setFromTriplets(h_entries.begin(), h_entries.end());
  return c;
}

// the local form of c with q = H v_free
FrictionProblem local_form(const BodyCoupling& c, const Eigen::VectorXd& v_free, double mu) {
  const Eigen::MatrixXd H(c.H);
  const Eigen::MatrixXd W = H * Eigen::MatrixXd(c.M).inverse() * H.transpose();
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(W);
  p.q = H * v_free;
  p.mu = Eigen::VectorXd::Constant(c.nc(), mu);
  return p;
}

double mean_diagonal(const FrictionProblem& p) {
  double trace = 0;
  for (int i = 0; i < p.nc(); ++i) trace += p.W.diag(i).trace();
  return trace / (3.0 * p.nc());
}

TEST(StickPrediction, OnTheBodyFormSpreadsTheLoadOfACornerSupportedBoxEvenly) {
  const BodyCoupling c = box_on_corners(false);
  Eigen::VectorXd v_free = Eigen::VectorXd::Zero(6);
  v_free[2] = -1.0;  // falling at 1 m/s: stopping it takes the impulse m · 1 = 2, upwards
  const FrictionProblem p = local_form(c, v_free, 0.5);
  const Eigen::VectorXd r = stick_prediction(c, p.q, p.mu, mean_diagonal(p)).value();
  // the least-norm impulses that stop the box: 2/4 = 0.5 normal at each corner, no friction (the
  // four corners are symmetric about the centre of mass). The split carries the round-off of the
  // regularised solve, about 1e-16 λ/ε ≈ 1e-8 relative (stick_prediction.hpp)
  for (int i = 0; i < 4; ++i) EXPECT_LT((r.segment<3>(3 * i) - Eigen::Vector3d(0.5, 0.0, 0.0)).norm(), 1e-8);
}

TEST(StickPrediction, OnTheBodyFormEqualsTheLocalFormWhereHConstrainsABodyInPart) {
  const BodyCoupling c = box_on_corners(true);
  Eigen::VectorXd v_free(12);
  v_free << 0.1, -0.2, -1.0, 0.3, 0.05, -0.1, 0.2, 0.1, -0.7, 0.0, 0.4, 0.1;
  const FrictionProblem p = local_form(c, v_free, 0.8);
  const Eigen::VectorXd on_bodies = stick_prediction(c, p.q, p.mu, mean_diagonal(p)).value();
  const Eigen::VectorXd on_w = stick_prediction(p).value();
  // the same least-norm impulses, both to the round-off of their regularised solves (about 1e-8
  // relative, the null-space part); ‖r‖ is about 1
  EXPECT_LT((on_bodies - on_w).norm(), 1e-7 * on_w.norm());
  EXPECT_GT(on_w.norm(), 0.1);
}

TEST(StickPrediction, OnTheBodyFormIsNotMadeAboveItsBudget) {
  // ε M + Hᵀ H of one body is a dense 6 × 6 block: Σ c_k² = 5² + … + 0² = 55 operations
  const BodyCoupling c = box_on_corners(false);
  const FrictionProblem p = local_form(c, Eigen::VectorXd::Unit(6, 2), 0.5);
  EXPECT_FALSE(stick_prediction(c, p.q, p.mu, mean_diagonal(p), 54.0).has_value());
  EXPECT_TRUE(stick_prediction(c, p.q, p.mu, mean_diagonal(p), 55.0).has_value());
}

TEST(StickPrediction, EmptyProblemGivesEmptyGuess) {
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(Eigen::MatrixXd(0, 0));
  EXPECT_EQ(stick_prediction(p).value().size(), 0);
}

}  // namespace
}  // namespace nscd::solvers
