#pragma once
/// @file
/// The exact solver of one contact's Signorini–Coulomb problem (internal to solvers/, except
/// the choice LocalSolverKind, an option of NlgsOptions)
///
///  (1) u = W r + q,   K*_μ ∋ û ⊥ r ∈ K_μ,   û = u + μ‖u_T‖ e_n        (W, q: 3×3, 3)
///
/// used by every Gauss–Seidel sweep. The cases are tried in order:
///  - open:   q_n ≥ 0 ⇒ r = 0 (then û = q + μ‖q_T‖ e_n ∈ K*_μ);
///  - μ = 0:  r = (max(0, −q_n / W_nn), 0, 0);
///  - stick:  r = −W⁻¹ q when W is invertible and that r lies in K_μ (then u = 0);
///  - slip:   Alart–Curnier semismooth Newton on
///      (2) Φ(r) = ( r_n − max(0, x_n),  r_T − P_D(μ max(0, x_n))(x_T) ),
///          x_n = r_n − ρ_n u_n,  x_T = r_T − ρ_t u_T,  ρ_n = 1 / W_nn,  ρ_t = 1 / λ_max(½(W_TT + W_TTᵀ)),
///    with P_D(a) the projection on the disc of radius a, a generalized Jacobian of Φ and an
///    Armijo line search on ½‖Φ‖² [Alart & Curnier 1991];
///  - fallback when Newton stagnates: De Saxcé's projected fixed point
///      (3) r ← P_K(r − ρ (W r + q + μ‖u_T‖ e_n)),  ρ = 1 / λ_max(½(W + Wᵀ))
///    (ρ = 1 / ‖W‖_F if that eigenvalue is not positive), iterated until r stops moving (at most
///    500 times), then Newton again from there; if that fails too, the iterate with the smallest
///    local error of eq. (4) is kept.
///  (4) local error e(r) = ‖r − P_K(r − û)‖ (error_measure.hpp eq. (2) for one contact).
///
/// Three local solvers are selectable (LocalSolverKind); the closed-form cases (open, μ = 0,
/// stick) are the same for all three, they differ in the slip case:
///  - AlartCurnier (default): Newton on eq. (2) as above;
///  - JeanMoreau: the same semismooth Newton, line search and fallback on the Jean–Moreau
///    function, whose disc radius is the current normal impulse instead of its prediction:
///      (5) Φ(r) = ( r_n − max(0, x_n),  r_T − P_D(μ max(0, r_n))(x_T) )   [Jean & Moreau 1987,
///          Acary et al. 2018 §3.2];
///  - DeSaxceFixedPoint: eq. (3) alone with ρ = 1 / λ_max(½(W_ii + W_iiᵀ)) from the diagonal
///    block, from the better (on eq. (2)) of r_guess and the cone projection of −W⁻¹q, until r
///    stops moving or 500
///    iterations; no Newton. Cheap per iteration, slow (linear rate 1 − λ_min/λ_max) on
///    badly conditioned blocks.
///
/// References: [Alart & Curnier 1991] CMAME 92; [De Saxcé & Feng 1998] Math. Comput. Model. 28;
///             [Jean & Moreau 1987] Dynamics in the presence of unilateral contacts and dry
///             friction: a numerical approach, Unilateral Problems in Structural Analysis 2;
///             [Acary, Brémond, Huber 2018] On solving contact problems with Coulomb friction.

#include <Eigen/Core>

#include <string_view>

namespace nscd::solvers {

/// The local solver of a Gauss–Seidel sweep (see the file comment).
enum class LocalSolverKind { AlartCurnier, JeanMoreau, DeSaxceFixedPoint };

/// "alart_curnier", "jean_moreau", "de_saxce".
std::string_view to_string(LocalSolverKind kind);

}  // namespace nscd::solvers

namespace nscd::solvers::detail {

/// What the local solver needs of one contact, computed once per solve (outside the sweeps).
/// The ρ of eq. (3) (a 3×3 eigenvalue problem) is only computed where it is used: by the
/// fallback, and for ρ_n, ρ_t when W_nn or λ_max(½(W_TT + W_TTᵀ)) is not positive.
struct LocalProblem {
  Eigen::Matrix3d W;      // diagonal block W_ii
  Eigen::Matrix3d W_inv;  // W_ii⁻¹ when has_inverse
  Eigen::Vector3d rho;    // Newton step sizes (ρ_n, ρ_t, ρ_t) of eq. (2)
  double mu = 0.0;
  bool has_inverse = false;
  LocalSolverKind kind = LocalSolverKind::AlartCurnier;
};

/// Precomputes the data of eq. (2) for the block W (3×3) and friction coefficient μ ≥ 0, for the
/// local solver `kind`.
LocalProblem make_local_problem(const Eigen::Matrix3d& W, double mu,
                                LocalSolverKind kind = LocalSolverKind::AlartCurnier);

/// ρ of eq. (3) for the block W (3×3).
double fixed_point_rho(const Eigen::Matrix3d& W);

/// Solves eq. (1) for q (3) with the local solver lp.kind, starting from r_guess (3). The result
/// is finite whenever W, q and r_guess are.
Eigen::Vector3d solve_local(const LocalProblem& lp, const Eigen::Vector3d& q, const Eigen::Vector3d& r_guess);

/// Local error of eq. (4).
double local_error(const LocalProblem& lp, const Eigen::Vector3d& q, const Eigen::Vector3d& r);

}  // namespace nscd::solvers::detail
