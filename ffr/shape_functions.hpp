#pragma once
/// @file
/// Shape functions, Gauss rules and reference gradients of the cells of mesh.hpp (internal
/// helpers of linear_elasticity and st_venant_kirchhoff).
///
/// Hex8, reference cube ξ ∈ [−1, 1]³, node a at ξ_a ∈ {±1}³ in VTK order:
///  (1) N_a(ξ) = ⅛ (1 + ξ_a ξ)(1 + η_a η)(1 + ζ_a ζ),
///      rule: 2×2×2 Gauss–Legendre, points ±1/√3, weights 1 (exact to degree 3 per direction).
/// Tet4, reference tetrahedron ξ, η, ζ ≥ 0, ξ + η + ζ ≤ 1 (volume 1/6):
///  (2) N_0 = 1 − ξ − η − ζ, N_1 = ξ, N_2 = η, N_3 = ζ,
///      rule: 4 points (a, b, b) and permutations, a = (5 + 3√5)/20, b = (5 − √5)/20,
///      weights 1/24 (exact to degree 2, hence for the consistent mass ∫ N_a N_b).
/// Isoparametric map X(ξ) = Σ_a N_a(ξ) X_a:
///  (3) J = ∂X/∂ξ = Σ_a X_a ⊗ ∂N_a/∂ξ,   ∂N_a/∂X = J⁻ᵀ ∂N_a/∂ξ,   dV = det J w.
///
/// References: [Hughes 2000] The Finite Element Method, Dover, §3.5, §3.8 (eqs. 1, 3);
///             [Zienkiewicz, Taylor, Zhu 2013] The Finite Element Method: Its Basis and
///             Fundamentals, 7th ed., table 6.3 (eq. 2's rule).

#include "ffr/mesh.hpp"

#include <Eigen/Core>

#include <span>
#include <vector>

namespace nscd::ffr {

inline constexpr int kMaxNodesPerCell = 8;

/// N_a at one point, one row per node (npc × 1, npc ≤ 8, no heap allocation).
using ShapeValues = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxNodesPerCell, 1>;
/// Gradients of N_a at one point, row a = ∂N_a/∂ξ or ∂N_a/∂X (npc × 3).
using ShapeGradients = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor, kMaxNodesPerCell, 3>;

/// One point of a Gauss rule, in reference coordinates.
struct QuadraturePoint {
  Vec3 xi;
  double weight = 0.0;
};

/// Gauss rule of eq. (1) (8 points) or eq. (2) (4 points).
std::span<const QuadraturePoint> gauss_rule(CellType type);

/// Reference coordinates of the cell centre: ξ = 0 (Hex8), ξ = (¼, ¼, ¼) (Tet4).
Vec3 reference_centre(CellType type);

/// Shape functions at ξ, eqs. (1)–(2).
ShapeValues shape_values(CellType type, const Vec3& xi);

/// Reference derivatives ∂N_a/∂ξ at ξ (npc × 3).
ShapeGradients shape_derivatives(CellType type, const Vec3& xi);

/// Jacobian J = ∂X/∂ξ of cell `c` from the reference derivatives dN_dxi, eq. (3).
Mat3 jacobian(const Mesh& mesh, int c, const ShapeGradients& dN_dxi);

/// Physical gradients and volume weights at every quadrature point of every cell, eq. (3),
/// computed once and reused (allocate-once friendly).
struct CellQuadrature {
  CellType type = CellType::Hex8;
  int nq = 0;                         // points per cell
  std::vector<ShapeValues> N;         // (nq) shape functions, the same for every cell
  std::vector<ShapeGradients> dN_dX;  // (ncells·nq) ∂N_a/∂X, index c·nq + q [1/m]
  std::vector<double> dV;             // (ncells·nq) det J · w [m³]
};

/// Eq. (3) at every quadrature point of `mesh`.
/// @throws nscd::Error if a cell has det J <= 0 (the mesh was not checked, see check_cells).
CellQuadrature cell_quadrature(const Mesh& mesh);

}  // namespace nscd::ffr
