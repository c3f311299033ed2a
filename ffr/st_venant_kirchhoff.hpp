#pragma once
/// @file
/// Total Lagrangian St Venant–Kirchhoff hyperelasticity on a Mesh (the geometrically exact
/// reference model). ∇N_a = ∂N_a/∂X, dV0 from shape_functions.hpp eq. (3); dofs 3·node + dir.
///
///  (1) F = I + ∇u = I + Σ_a u_a ⊗ ∇N_a,   E = ½(FᵀF − I)
///  (2) S = λ tr(E) I + 2μ E   (second Piola–Kirchhoff; λ, μ of linear_elasticity.hpp eq. 2)
///  (3) Ψ = ½ λ tr(E)² + μ E:E,   U = ∫ Ψ dV0                      (strain energy)
///  (4) f_a = ∫ F S ∇N_a dV0 = ∂U/∂u_a                             (internal nodal forces)
///  (5) K_ab = ∂f_a/∂u_b = ∫ [(∇N_aᵀ S ∇N_b) I₃                     (geometric)
///                          + λ (F∇N_a)(F∇N_b)ᵀ + μ (F∇N_b)(F∇N_a)ᵀ + μ (∇N_a·∇N_b) F Fᵀ] dV0
///                                                                 (material)
///  (6) σ = J⁻¹ F S Fᵀ, J = det F                                  (Cauchy stress)
///  (7) K_T v = ∫ [∇v S + F (λ tr(dE) I + 2μ dE)] ∇N_a dV0,  dE = sym(Fᵀ ∇v),  ∇v = Σ_b v_b ⊗ ∇N_b
///      (the derivative of f along v, eq. 5 applied to v without assembling K_T)
/// At u = 0, (5) is the small-strain stiffness of linear_elasticity.hpp eq. (4), and
/// f(u) = K u + O(|u|²). Integration uses the full Gauss rules of shape_functions.hpp.
///
/// References: [Bonet & Wood 2008] Nonlinear Continuum Mechanics for Finite Element
///             Analysis, 2nd ed., §6.4.3 (eq. 2), §9.3–9.4 (eqs. 4–5);
///             [Belytschko, Liu, Moran 2000] Nonlinear Finite Elements for Continua and
///             Structures, §4.9 (total Lagrangian formulation).

#include "ffr/mesh.hpp"
#include "ffr/shape_functions.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <vector>

namespace nscd::ffr {

/// Internal forces f (3nn) [N], eq. (4), for nodal displacements u (3nn) [m], and the
/// consistent tangent K_T (3nn × 3nn, symmetric, compressed) [N/m], eq. (5), when K_T is not
/// null. f is resized; a K_T already of size (3nn × 3nn) with the mesh's pattern keeps its
/// storage (the cells are summed into it, in the same order, so the values are the same).
/// @param young E [Pa]; @param poisson ν, @pre −1 < ν < ½.
void svk_internal_forces(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u,
                         Eigen::VectorXd& f, Eigen::SparseMatrix<double>* K_T);

/// Strain energy U [J], eq. (3), for nodal displacements u (3nn) [m].
double svk_strain_energy(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u);

/// The same as above with the reference gradients `cq` = cell_quadrature(mesh) computed once
/// by the caller (the two functions above build it on each call).
void svk_internal_forces(const Mesh& mesh, const CellQuadrature& cq, double young, double poisson,
                         const Eigen::VectorXd& u, Eigen::VectorXd& f, Eigen::SparseMatrix<double>* K_T);

/// Strain energy with cached reference gradients, see above.
double svk_strain_energy(const Mesh& mesh, const CellQuadrature& cq, double young, double poisson,
                         const Eigen::VectorXd& u);

/// K_T(u) v (3nn) [N], eq. (7), with cached reference gradients.
Eigen::VectorXd svk_tangent_product(const Mesh& mesh, const CellQuadrature& cq, double young, double poisson,
                                    const Eigen::VectorXd& u, const Eigen::VectorXd& v);

/// Cauchy stress (6) at the centre of each cell for nodal displacements u (3nn) [m]: one
/// symmetric tensor per cell, in the mesh's frame [Pa].
std::vector<Mat3> svk_centre_stresses(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u);

/// Von Mises stress (linear_elasticity.hpp eq. 5) of svk_centre_stresses: one value per cell
/// [Pa], unchanged by rigid rotations of the deformed mesh.
std::vector<double> svk_von_mises(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u);

}  // namespace nscd::ffr
