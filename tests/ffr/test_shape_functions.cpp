// Shape functions and Gauss rules: Kronecker property at the nodes, partition of unity,
// derivatives against finite differences, rule weights and exactness.

#include "ffr/shape_functions.hpp"
#include "test_meshes.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace nscd::ffr {
namespace {

// O(1) polynomials evaluated in a few operations: exact to a few ulp
constexpr double kTol = 1e-14;

Vec3 reference_node(CellType type, int a) {
  if (type == CellType::Tet4) return a == 0 ? Vec3(Vec3::Zero()) : Vec3(Vec3::Unit(a - 1));
  const int s[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                       {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  return Vec3(s[a][0], s[a][1], s[a][2]);
}

class ShapeFunctions : public ::testing::TestWithParam<CellType> {};

TEST_P(ShapeFunctions, KroneckerAtNodesAndPartitionOfUnity) {
  const CellType type = GetParam();
  const int n = nodes_per_cell(type);
  for (int a = 0; a < n; ++a) {
    const ShapeValues N = shape_values(type, reference_node(type, a));
    for (int b = 0; b < n; ++b) EXPECT_NEAR(N(b), a == b ? 1.0 : 0.0, kTol);
  }
  const Vec3 xi(0.21, 0.13, 0.37);
  EXPECT_NEAR(shape_values(type, xi).sum(), 1.0, kTol);
  EXPECT_LT(shape_derivatives(type, xi).colwise().sum().norm(), kTol);
}

TEST_P(ShapeFunctions, DerivativesMatchFiniteDifferences) {
  const CellType type = GetParam();
  const Vec3 xi(0.21, 0.13, 0.37);
  const ShapeGradients dN = shape_derivatives(type, xi);
  // N is at most trilinear: the central difference is exact up to rounding 1e-16/h
  const double h = 1e-5;
  for (int j = 0; j < 3; ++j) {
    const ShapeValues fd =
        (shape_values(type, xi + h * Vec3::Unit(j)) - shape_values(type, xi - h * Vec3::Unit(j))) / (2 * h);
    EXPECT_LT((fd - dN.col(j)).norm(), 1e-10);
  }
}

TEST_P(ShapeFunctions, GaussRuleIntegratesProductsExactly) {
  // ∫ N_a N_b over the reference cell: hex (2/3 or 1/3 per matching direction → (8/27)…);
  // check the weights sum to the reference volume and Σ_q w N_0² against the closed forms
  const CellType type = GetParam();
  double volume = 0.0, n00 = 0.0, n01 = 0.0;
  for (const QuadraturePoint& p : gauss_rule(type)) {
    const ShapeValues N = shape_values(type, p.xi);
    volume += p.weight;
    n00 += p.weight * N(0) * N(0);
    n01 += p.weight * N(0) * N(1);
  }
  if (type == CellType::Hex8) {
    // ∫ ((1−ξ)/2)² dξ = 2/3 and ∫ (1−ξ)(1+ξ)/4 dξ = 1/3 over [−1, 1]
    EXPECT_NEAR(volume, 8.0, kTol);
    EXPECT_NEAR(n00, 8.0 / 27.0, kTol);
    EXPECT_NEAR(n01, 4.0 / 27.0, kTol);
  } else {
    // ∫ N_a N_b = (1 + δ_ab) / 120 over the unit tetrahedron (volume 1/6)
    EXPECT_NEAR(volume, 1.0 / 6.0, kTol);
    EXPECT_NEAR(n00, 2.0 / 120.0, kTol);
    EXPECT_NEAR(n01, 1.0 / 120.0, kTol);
  }
}

INSTANTIATE_TEST_SUITE_P(Cells, ShapeFunctions, ::testing::Values(CellType::Hex8, CellType::Tet4),
                         testing::cell_name);

}  // namespace
}  // namespace nscd::ffr
