#pragma once
/// @file
/// Consistent mass and small-strain isotropic linear elasticity on a Mesh (Hex8 or Tet4).
/// Degrees of freedom are numbered 3·node + direction everywhere (u = nodal displacements,
/// 3nn); ∇N_a = ∂N_a/∂X and dV come from shape_functions.hpp eq. (3).
///
///  (1) M = ∫ ρ N_a N_b dV ⊗ I₃                                   (3nn × 3nn)
///  (2) λ = E ν / ((1 + ν)(1 − 2ν)),   μ = E / (2(1 + ν))           (Lamé constants)
///  (3) σ = λ tr(ε) I + 2μ ε,   ε = ½(∇u + ∇uᵀ),   ∇u = Σ_a u_a ⊗ ∇N_a
///  (4) K = ∫ Bᵀ D B dV, i.e. the 3×3 block of nodes (a, b):
///      K_ab = ∫ [λ ∇N_a ∇N_bᵀ + μ ∇N_b ∇N_aᵀ + μ (∇N_a · ∇N_b) I₃] dV   (3nn × 3nn)
///  (5) σ_vM = √(½[(σxx−σyy)² + (σyy−σzz)² + (σzz−σxx)²] + 3(σxy² + σyz² + σzx²))
///
/// Both matrices use the full Gauss rules (2×2×2 for Hex8, 4 points for Tet4), which are exact
/// for (1) and (4) on parallelepipeds and tetrahedra; they are symmetric (K exactly, M exactly),
/// assembled from triplets in cell order and compressed.
///
/// References: [Hughes 2000] The Finite Element Method, Dover, §2.7–2.8 (eq. 4), §7.3 (eq. 1);
///             [Zienkiewicz, Taylor, Zhu 2013] The Finite Element Method: Its Basis and
///             Fundamentals, 7th ed., §6.2 (eqs. 2–3).

#include "ffr/mesh.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <utility>
#include <vector>

namespace nscd::ffr {

/// Lamé constants (λ, μ) [Pa] of Young's modulus `young` [Pa] and Poisson's ratio, eq. (2).
/// @pre young > 0, −1 < poisson < ½.
std::pair<double, double> lame_constants(double young, double poisson);

/// Consistent mass matrix, eq. (1) (3nn × 3nn) [kg].
/// @param density ρ [kg/m³].
Eigen::SparseMatrix<double> consistent_mass(const Mesh& mesh, double density);

/// Small-strain stiffness matrix, eq. (4) (3nn × 3nn) [N/m].
/// @param young E [Pa]; @param poisson ν [-], @pre −1 < ν < ½.
Eigen::SparseMatrix<double> stiffness(const Mesh& mesh, double young, double poisson);

/// Von Mises stress, eq. (5), of a symmetric stress tensor s [Pa].
double von_mises_of(const Mat3& s);

/// Small strain ε of eq. (3) at the centre of each cell for nodal displacements u (3nn) [m].
std::vector<Mat3> centre_strains(const Mesh& mesh, const Eigen::VectorXd& u);

/// Stress σ of eq. (3) at the centre of each cell for nodal displacements u (3nn) [m].
/// @return one symmetric tensor per cell, in the mesh's frame [Pa].
std::vector<Mat3> centre_stresses(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u);

/// Von Mises stress, eq. (5), of centre_stresses.
/// @return one value per cell [Pa].
std::vector<double> von_mises(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u);

}  // namespace nscd::ffr
