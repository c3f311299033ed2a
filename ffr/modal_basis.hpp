#pragma once
/// @file
/// The k lowest free–free elastic modes of a finite-element mesh, the basis of the modal
/// reduction of an FFR body (component-mode synthesis; the outlook of [Lozovskiy & Dubois 2016]):
///
///  (1) K φ_j = ω_j² M φ_j,   0 < ω_1² ≤ … ≤ ω_k²,   Φ = [φ_1 … φ_k]   (3nn × k),
///  (2) Φᵀ M Φ = I,   Φᵀ K Φ = Λ = diag(ω_j²),
///  (3) Φᵀ M R = 0,   R = [e_d]_k (translations), [e_d × X_k]_k (rotations), X about the centre of mass,
///
/// M, K of linear_elasticity.hpp. (1) is solved by Lanczos with shift and invert [Spectra]
/// (Spectra::SymGEigsShiftSolver on (K − σ M)⁻¹ M, σ < 0 since K is singular) for the 6 + k
/// eigenvalues nearest σ; the 6 smallest, the rigid motions, are dropped. The rest is projected
/// M-orthogonally off R, which makes (3) exact: the modes have zero linear and angular momentum
/// about the frame, the mean-axis conditions of the FFR, so that H̄ Φ = Φ (ffr_body.hpp eq. 20,
/// the mass-weighted mean of every mode is 0). A Rayleigh–Ritz step on the projected Φ then makes
/// (2) hold to round-off.
///
/// The kinetic energy of a body with nodal velocities u_k = v + ω × (X_k + Φ_k ξ) + Φ_k η (body
/// frame, eq. 8 of [Lozovskiy & Dubois 2016] with ψ = Φ ξ, λ = Φ η) needs no nodal field:
///
///  (4) 2T = m |v|² + ωᵀ J_B ω + 2 Σ_a ξ_a (|ω|² tr Q_a − ωᵀ Q_a ω) + Σ_ab ξ_a ξ_b (|ω|² δ_ab − ωᵀ P_ab ω)
///          + 2 ω · Σ_a η_a ax(Q_a) + 2 ω · Σ_ab ξ_a η_b ax(P_ab) + |η|²,
///      P_ab = Σ_kl M_kl Φ_ka Φ_lbᵀ,   Q_a = Σ_kl M_kl X_k Φ_laᵀ,   ax(A) = (A₂₃ − A₃₂, A₃₁ − A₁₃, A₁₂ − A₂₁),
///
/// by (3) (the momentum of the translation v decouples) and (a × b)·c = a·(b × c): the modal
/// inertia invariants of [Pagaimo et al. 2023] eq. (13) with the consistent mass matrix.
///
/// Static correction [Yoo & Haug 1986; Craig & Kurdila 2006, ch. 17]: vibration modes miss the
/// local deformation under concentrated loads, such as contact forces at a block's edges. For
/// unit loads e_j at chosen nodes and directions (e.g. the normals of the faces in contact), the
/// basis is augmented with the static responses of the free body under inertia relief:
///
///  (5) f_j = e_j − M R (Rᵀ M R)⁻¹ Rᵀ e_j   (Rᵀ f_j = 0: the load balanced by the rigid-body inertia),
///  (6) K ψ_j = f_j,  Rᵀ M ψ_j = 0,  solved by (K − σ M) ψ⁽ⁱ⁺¹⁾ = f_j − σ M ψ⁽ⁱ⁾, ψ⁽⁰⁾ = 0
///      (the σ of (1); each pass divides the error by (ω_1² − σ) / |σ| ≳ 1e5), then projected off R,
///  (7) B = [Φ, Ψ̂],  Ψ̂ = the ψ_j projected M-orthogonally off Φ and M-orthonormalised, without
///      the directions that depend on Φ and on each other,
///
/// and Rayleigh–Ritz on B makes (2) and (3) hold for the k + c columns (c ≤ the number of loads):
/// the body runs through the same code with more coordinates, and its static response to any
/// combination of the loads, K⁺ f, lies in the span of the basis exactly (the residual flexibility
/// of the truncated modes is restored at those dofs).
///
/// References: [Lozovskiy & Dubois 2016] Eur. J. Mech. A/Solids 58, eqs. (8), (19)–(20), §5;
///             [Spectra] Y. Qiu, Spectra 1.0, https://spectralib.org (SymGEigsShiftSolver);
///             [Pagaimo et al. 2023] Flexible multibody formulation using finite elements with 3 DoF per
///             node, Multibody Syst. Dyn., eqs. (13), (68)–(75) (component-mode synthesis);
///             [Yoo & Haug 1986] Dynamics of flexible mechanical systems using vibration and static
///             correction modes, J. Mech. Transm. Autom. Des. 108(3);
///             [Craig & Kurdila 2006] Fundamentals of Structural Dynamics, 2nd ed., Wiley, ch. 17
///             (inertia relief, attachment modes, residual flexibility).

#include "ffr/mesh.hpp"
#include "nscd/core/math.hpp"

#include <Eigen/Core>

#include <span>
#include <vector>

namespace nscd::ffr {

/// A unit load of eq. (5): the node and the direction (mesh coordinates, need not be unit).
struct NodalLoad {
  int node = 0;
  Vec3 direction = Vec3::UnitZ();
};

/// Φ stored by rows: the three rows of a node, which a contact point's interpolation reads, are
/// adjacent in memory (3 (k + c) numbers) instead of spread over k + c columns of 3nn.
using ModeMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// The modes (1)–(3) of a mesh and the inertia invariants of (4).
struct ModalBasis {
  ModeMatrix phi;          // Φ (3nn × (k + c)), dof 3 node + d
  Eigen::VectorXd omega2;  // ω_j², ascending [1/s²]
  std::vector<Mat3> P;     // P_ab at a + k b [kg]
  std::vector<Mat3> Q;     // Q_a [kg m]
  int corrections = 0;     // c of eq. (7), the columns the static correction added (0: modes only)

  int size() const { return static_cast<int>(phi.cols()); }
};

/// The k lowest elastic modes of `mesh` (any coordinates) for density ρ [kg/m³], Young's modulus
/// E [Pa] and Poisson's ratio ν, augmented by the static corrections (5)–(7) for `corrections`
/// (none: the modes alone).
/// @pre every load's node is a node of the mesh and its direction is not zero (NSCD_DEMAND).
/// @throws nscd::InputError if k < 1 or k ≥ 3nn − 6, if the eigensolver does not converge, or if
///         a kept mode has ω² ≤ 0 (a mesh in pieces, with more than 6 free motions).
ModalBasis modal_basis(const Mesh& mesh, double density, double young, double poisson, int k,
                       std::span<const NodalLoad> corrections = {});

/// The basis of the mesh turned by the rotation R about its origin (nodes R X_k), for a material
/// without a preferred direction (isotropic): the modes turn with the mesh, Φ_k ↦ R Φ_k for each
/// node's three rows, their ω² stay, and (4)'s invariants turn as P_ab ↦ R P_ab Rᵀ, Q_a ↦ R Q_a Rᵀ.
/// (1)–(3) then hold on the turned mesh to round-off, without a modal analysis.
ModalBasis rotated(const ModalBasis& basis, const Mat3& R);

/// The kinetic energy (4) [J] of a body of mass m [kg] and inertia J_B [kg m²] whose frame moves
/// at v_B [m/s], w_B [rad/s] (body frame), with modal coordinates xi (ψ = Φ ξ) and eta (λ = Φ η).
double modal_kinetic_energy(const ModalBasis& basis, double mass, const Mat3& inertia_B, const Vec3& v_B,
                            const Vec3& w_B, const Eigen::VectorXd& xi, const Eigen::VectorXd& eta);

}  // namespace nscd::ffr
