#pragma once
/// @file
/// A deformable block in absolute nodal coordinates: the Total Lagrangian (TL) model and the
/// small-deformation (linear) model with which [Lozovskiy & Dubois 2016, §4] compare the
/// floating frame of reference. The unknowns are the nodal displacements ψ and velocities λ
/// (3nn, dof 3 k + d) in an inertial frame that never moves (the body's frame at t = 0: origin
/// at the centre of mass of the mesh, axes q₀), so that a node X is at x₀ + R(q₀) (X + ψ).
/// With consistent mass M, Rayleigh damping forces d(ψ, λ) = α M λ + β K_T(ψ) λ and nodal
/// impulses P of the step (contacts, body frame), the trapezoidal rule reads
///
///  (1) M (λ₊ − λ) + h/2 (d(ψ, λ) + d(ψ₊, λ₊)) + h/2 (f(ψ) + f(ψ₊)) = h F_g + P,
///      ψ₊ = ψ + h/2 (λ + λ₊)
///
/// with F_g = M [g, g, …] (gravity g in the body frame: (F_g)_k = m_k g, m_k = Σ_l M_kl) and
///  - TL:     f(ψ) = St Venant–Kirchhoff internal forces (st_venant_kirchhoff.hpp eq. 4), i.e.
///            f = K ψ + n(ψ): (1) is eq. (28) of the paper with damping, gravity and impulses.
///            The stiffness part of the damping uses the tangent K_T(ψ) (st_venant_kirchhoff.hpp
///            eq. 7), the TL counterpart of the FFR bodies' β K in their floating frame: β K with
///            the reference K would resist the rigid rotation of a turned body;
///  - linear: f(ψ) = K ψ and d = C λ, C = α M + β K, eq. (28) without n:
///            A₊ λ₊ = A₋ λ − h K ψ + h F_g + P (A± of ffr_body.hpp), one solve with the
///            factorisation of A₊ made once.
/// TL solves (1) by Newton's method on λ₊ with the tangent
///  (2) A_T = (1 + h α/2) M + (h β/2 + h²/4) K_T(ψ₊),   λ₊ ← λ₊ − A_T⁻¹ R(λ₊),
///      R = left − right of (1),
/// consistent but for the derivative of K_T in the damping term, h²β/4 (∂K_T/∂ψ · λ₊), of the
/// order of β times the strain rate relative to h/2,
/// until the residual, as a velocity, is small:
///  (3) ‖D⁻¹ R(λ₊)‖ ≤ max(tolerance · max(‖λ₊‖, ‖λ‖, √(3nn) · 1 mm/s), √(3nn) · 8 ε L / h),
///      D = diag(M + h/2 (α M + β K) + h²/4 K), L the diagonal of the mesh's bounding box,
/// tested before each factorisation, so that a converged guess costs none; the accepted λ₊ still
/// gets the correction −A_T⁻¹ R with the tangent last factorised (one solve), so that what is
/// left of R, which would accumulate over the steps as a momentum error, is second order. The last term is the
/// rounding of R: SVK's strain ½(FᵀF − I) is rounded by ~ε, which D⁻¹ h/2 f turns into ~ε Δx / h.
/// Linear momentum is conserved exactly by (1) without P and F_g (Σ_k f_k = 0); angular
/// momentum up to the trapezoidal rule's O(h²) error.
///
/// References: [Lozovskiy & Dubois 2016] Eur. J. Mech. A/Solids 58, §4.1, eq. (28);
///             [Belytschko, Liu, Moran 2000] Nonlinear Finite Elements for Continua and
///             Structures, §4.9 (total Lagrangian formulation), §6.3 (Newmark, trapezoidal rule).

#include "ffr/ffr_body.hpp"
#include "ffr/shape_functions.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

namespace nscd::ffr {

/// The constants of a TL or linear body.
struct TlBody {
  FfrBody fe;               // mesh centred on its centre of mass, M, K, A± and m_k of ffr_body.hpp
  bool nonlinear = true;    // true: TL (St Venant–Kirchhoff); false: linear, f = K ψ
  CellQuadrature quadrature;  // reference gradients of the mesh (TL)
  SparseMatrix mass_damping;  // the constant part of A_T: (1 + h α/2) M (TL, eq. 2), M + h/2 C (linear)
  SparseMatrix damping;       // C = α M + β K (linear)
  Eigen::VectorXd inverse_diagonal;  // D⁻¹ of eq. (3)
  double size = 0.0;          // L of eq. (3): the diagonal of the mesh's bounding box [m]

  int nn() const { return fe.nn(); }
  int ndof() const { return fe.ndof(); }
};

/// The constants of a TL (nonlinear = true) or linear body for the time step h [s].
/// @throws nscd::InputError as make_ffr_body.
TlBody make_tl_body(Mesh mesh, const FfrMaterial& material, double h, bool nonlinear);

/// f(ψ) of eq. (1) (3nn) [N], and its tangent K_T (SVK eq. 5, or K) when K_T is not null.
void internal_forces(const TlBody& body, const Eigen::VectorXd& psi, Eigen::VectorXd& f, SparseMatrix* K_T);

/// Damping forces d(ψ, λ) of eq. (1) (3nn) [N]: α M λ + β K_T(ψ) λ (TL) or C λ (linear).
Eigen::VectorXd damping_forces(const TlBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda);

/// Strain energy [J]: SVK's U(ψ) (TL) or ½ ψᵀ K ψ (linear).
double strain_energy(const TlBody& body, const Eigen::VectorXd& psi);

/// The part of eq. (1) known at the start of a step, right minus left without λ₊ and P:
///  b = M λ − h/2 d(ψ, λ) − h/2 f(ψ) + h F_g     (g_B: gravity in the body frame [m/s²]).
Eigen::VectorXd step_base(const TlBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda,
                          const Vec3& g_B);

/// Whether the first correction of solve_velocity uses the factorisation `tangent` already holds
/// (a chord step, no factorisation when it already passes the test) or a fresh tangent.
enum class FirstTangent { Fresh, Reuse };

/// The Newton iteration of eq. (2) and its outcome.
struct TlSolve {
  Eigen::VectorXd lambda;   // λ₊
  int iterations = 0;       // tangent factorisations (TL; 0 when the guess passes (3)), or 1 (linear)
  bool converged = true;
};

/// Solves eq. (1) for λ₊ from the guess `start` with the nodal impulses P (3nn, body frame).
/// TL: Newton's method, eq. (2), at most max_iterations corrections, until (3); `tangent` holds
/// on return the factorisation of the last tangent (its symbolic analysis is done on first use
/// and kept); with FirstTangent::Reuse the first correction uses the factorisation it holds.
/// Linear: the exact solve, `tangent` untouched.
TlSolve solve_velocity(const TlBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda,
                       const Eigen::VectorXd& base, const Eigen::VectorXd& P, const Eigen::VectorXd& start,
                       double tolerance, int max_iterations, FirstTangent first,
                       Eigen::SimplicialLDLT<SparseMatrix>& tangent);

/// (1/m) Σ_k m_k v_k: the velocity of the centre of mass for v = λ, its displacement for v = ψ.
Vec3 centre_of_mass_motion(const TlBody& body, const Eigen::VectorXd& v);

/// Linear momentum Σ_k (M λ)_k and angular momentum about the origin Σ_k p_k × (M λ)_k of the
/// nodes at p_k = X_k + ψ_k, body frame [kg m/s, kg m²/s].
std::pair<Vec3, Vec3> momenta(const TlBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda);

/// Angular velocity of the mean rigid motion, body frame: ω = J⁻¹ L about the centre of mass,
/// J = Σ_kl M_kl (y_k·y_l I − y_k y_lᵀ), y the nodes' positions relative to the centre of mass.
Vec3 mean_angular_velocity(const TlBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda);

}  // namespace nscd::ffr
