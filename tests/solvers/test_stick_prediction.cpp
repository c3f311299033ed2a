// The cold-start guess of stick_prediction.hpp: least-norm impulses that stop every contact.

#include "solvers/stick_prediction.hpp"

#include "solvers/error_measure.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>

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

TEST(StickPrediction, EmptyProblemGivesEmptyGuess) {
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(Eigen::MatrixXd(0, 0));
  EXPECT_EQ(stick_prediction(p).value().size(), 0);
}

}  // namespace
}  // namespace nscd::solvers
