// The body form's products and Newton matrix (solvers/body_newton_matrix.hpp), by the dense
// blocks of its groups of contacts, against the same products with H and M written out densely.

#include "solvers/body_newton_matrix.hpp"

#include "box_on_ground.hpp"

#include <gtest/gtest.h>

#include <random>

namespace nscd::solvers::detail {
namespace {

using test_box::Matrix36;
using test_box::Matrix66;

// three bodies and six contacts: two on the pair (0, 1), one of each on (1, ground), (ground, 2),
// (2, 0), and one more on (1, 0), which joins the group of the first two
struct ThreeBodies {
  BodyCoupling c;
  FrictionProblem p;
};

ThreeBodies three_bodies(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Matrix66> mass(3);
  for (Matrix66& m : mass) {
    const Matrix66 a = Matrix66::NullaryExpr([&] { return u(rng); });
    m = a * a.transpose() + 6.0 * Matrix66::Identity();
  }
  const std::vector<std::array<int, 2>> body = {{0, 1}, {0, 1}, {1, -1}, {-1, 2}, {2, 0}, {1, 0}};
  std::vector<std::array<Matrix36, 2>> G(body.size());
  for (auto& g : G)
    for (Matrix36& side : g) side = Matrix36::NullaryExpr([&] { return u(rng); });
  ThreeBodies t;
  t.c = test_box::coupling(mass, body, G);
  t.p = test_box::local_form(t.c, Eigen::VectorXd::NullaryExpr(18, [&] { return u(rng); }),
                             Eigen::VectorXd::Constant(6, 0.5));
  return t;
}

TEST(BodyNewtonMatrix, ProductsAndMatrixMatchTheDenseForm) {
  std::mt19937 rng(3);
  const ThreeBodies t = three_bodies(rng);
  const BodyNewtonMatrix form(t.p, t.c);
  const Eigen::MatrixXd H(t.c.H), M(t.c.M);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Eigen::VectorXd dv = Eigen::VectorXd::NullaryExpr(18, [&] { return u(rng); });
  const Eigen::VectorXd r = Eigen::VectorXd::NullaryExpr(18, [&] { return u(rng); });
  // sums of at most 12 products of entries below 1 in magnitude, in another order than the
  // dense product's: a few units of round-off
  EXPECT_LT((form.velocities(dv) - (H * dv + t.p.q)).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LT((form.generalized(r) - H.transpose() * r).cwiseAbs().maxCoeff(), 1e-14);

  std::vector<Eigen::Matrix3d> blocks(6);
  Eigen::MatrixXd expected = M;
  for (int i = 0; i < 6; ++i) {
    blocks[static_cast<std::size_t>(i)] = Eigen::Matrix3d::NullaryExpr([&] { return u(rng); });
    expected += H.middleRows(3 * i, 3).transpose() * blocks[static_cast<std::size_t>(i)] * H.middleRows(3 * i, 3);
  }
  // entries of M up to about 12 plus sums of a few dozen products below 1: round-off of 1e-14
  EXPECT_LT((Eigen::MatrixXd(form.matrix(blocks)) - expected).cwiseAbs().maxCoeff(), 1e-13);
}

}  // namespace
}  // namespace nscd::solvers::detail
