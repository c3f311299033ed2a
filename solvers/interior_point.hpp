#pragma once
/// @file
/// Primal–dual interior point method on the bodies' velocities for the convex relaxation of the
/// frictional contact problem, and De Saxcé's fixed point on its shift [Acary, Armand, Nguyen &
/// Shpakovych 2023]. With the body form of body_coupling.hpp (M Δv = Hᵀ r, u = H Δv + q) and a
/// shift s_i ≥ 0 per contact, the relaxed problem is the second-order cone complementarity problem
///
///  (1) M Δv = Hᵀ r,   y_i = u_i + s_i e_n,   K_μi ∋ r_i ⊥ y_i ∈ K_μi*
///
/// (K_μ = {‖r_T‖ ≤ μ r_n}, its dual cone K_μ* = {μ ‖y_T‖ ≤ y_n}), the optimality conditions of
/// min ½ Δvᵀ M Δv subject to H Δv + q + s e_n ∈ K*. Its velocities are unique where W is singular;
/// its impulses are not, and the method converges to the centre of their set, where the proximal
/// and Gauss–Seidel iterations drift along it (docs/performance.md). For s_i = μ_i ‖u_T,i‖, (1) is
/// the Signorini–Coulomb problem itself [De Saxcé & Feng 1991].
///
/// In the variables x_i = √w_i D_i r_i and z_i = D_i⁻¹ y_i / √w_i, with D_i = diag(μ_i, 1, 1)
/// and w_i = tr(W_ii)/3 (1 where it vanishes; x and z are then both velocities over √w), both
/// cones become the second-order cone L = {‖t_T‖ ≤ t_n}, x_iᵀ z_i = r_iᵀ y_i, and with
/// G_i = D_i⁻¹ H_i / √w_i
///
///  (2) M Δv = Gᵀ x,   z = G Δv + z₀ (z₀,i = D_i⁻¹ (q_i + s_i e_n) / √w_i),   L ∋ x_i ⊥ z_i ∈ L.
///
/// The central path replaces complementarity by the Jordan product x_i ∘ z_i = τ e, with
/// a ∘ b = (aᵀb, a_n b_T + b_n a_T) and e = (1, 0, 0). Each iteration scales each cone by its
/// Nesterov–Todd point [Nesterov & Todd 1997], in the form of [Vandenberghe 2010, §4]: with
/// J = diag(1, −1, −1), det t = tᵀJt, x̄ = x/√det x, z̄ = z/√det z, γ = √((1 + x̄ᵀz̄)/2),
/// w̄ = (x̄ + J z̄)/(2γ) and v = (w̄ + e)/√(2 (w̄_n + 1)),
///
///  (3) W_i = β (2 v vᵀ − J),   W_i⁻¹ = (2 J v vᵀ J − J)/β,   β = (det x / det z)^¼,
///
/// so that W_i z_i = W_i⁻¹ x_i = λ_i. The Newton step on (2) and λ ∘ (W⁻¹ δx + W δz) = ξ̂, with the
/// residuals r_d = M Δv − Gᵀ x and r_p = z − G Δv − z₀, is
///
///  (4) (M + Σ_i G_iᵀ W_i² G_i) δv = −r_d + Gᵀ (W ξ + W² r_p),   δz = G δv − r_p,
///      δx = W ξ − W² δz,   ξ_i = λ_i \ ξ̂_i (the inverse of λ_i ∘ ·),
///
/// whose matrix is body_newton_matrix.hpp's with B_i = D_i⁻¹ W_i² D_i⁻¹ / w_i: sparse, of the
/// bodies' unknowns, factorised once per iteration (LDLᵀ: it is symmetric positive definite).
/// Mehrotra's predictor–corrector [Mehrotra 1992] takes ξ̂ = −λ∘λ for the affine step a, then
///
///  (5) ξ̂ = σ τ e − λ∘λ − (W⁻¹ δx_a) ∘ (W δz_a),   σ = (τ_a / τ)³,
///
/// τ = xᵀz / nc and τ_a its value after the affine step; both steps go a fraction 0.99 of the way
/// to the cones' boundary, at most 1. A solve starts from x_i = z_i = t_i e, t_i = (‖q‖/√nc)/√w_i,
/// and ends when τ has fallen by `complementarity` and the residuals by `feasibility` (relative to
/// 1 + ‖z₀‖ and 1 + ‖Gᵀx‖), or when a step is no longer finite or shorter than 1e-10.
///
/// The first solve takes s = 0; each next one the fixed point
///
///  (6) s_i = μ_i ‖u_T,i‖,   u = H Δv + q of the solve before,
///
/// while the error (error_measure.hpp eq. (3), of r_i = D_i⁻¹ x_i / √w_i and W r + q) falls by
/// shift_progress from one solve to the next, up to max_solves solves and the stopping's
/// iterations in all. A change of s moves only z₀, so each solve after the first starts from an
/// iterate of the solve before, well inside the cones and near that solve's central path
/// [Yildirim & Wright 2002]: its first iterate at least two iterations in with
///
///  (7) 10⁻² restart_level · τ₀ ≤ τ ≤ restart_level · τ₀,   τ₀ = τ at the start above
///
/// (a solve that has no such iterate leaves the restart point where it was). On the harder
/// shake's steps this takes the 8 solves from about 195 iterations to 120, the errors after each
/// solve unchanged to two digits (docs/performance.md). The fixed point is not a contraction on
/// every problem: on the harder shake's dump it stalls near 1e-6, and the velocity Newton from its
/// r (auto_solver.hpp) finishes.
///
/// References: [Acary, Armand, Nguyen & Shpakovych 2023] Second-order cone programming for
///             frictional contact mechanics using interior point algorithm, Optim. Methods Softw.;
///             [De Saxcé & Feng 1991] New inequality and functional for contact with friction,
///             Mech. Struct. Mach. 19; [Nesterov & Todd 1997] Self-scaled barriers and
///             interior-point methods for convex programming, Math. Oper. Res. 22;
///             [Vandenberghe 2010] The CVXOPT linear and quadratic cone program solvers;
///             [Mehrotra 1992] On the implementation of a primal-dual interior point method,
///             SIAM J. Optim. 2; [Yildirim & Wright 2002] Warm-start strategies in interior-point
///             methods for linear programming, SIAM J. Optim. 12.

#include "solvers/body_coupling.hpp"
#include "solvers/friction_problem.hpp"
#include "solvers/solver_result.hpp"
#include "solvers/stopping.hpp"

namespace nscd::solvers {

/// Options of solve_interior_point.
struct InteriorPointOptions {
  Stopping stopping{1e-8, 400};   // on error_measure eq. (3); iterations (one factorisation each) of all solves
  int max_solves = 8;             // solves of (1): s = 0, then eq. (6)
  double shift_progress = 0.9;    // a next solve only after the error fell by this factor, in (0, 1]
  double complementarity = 1e-10;  // a solve ends once τ fell by this
  double feasibility = 1e-8;       // and the residuals of (2) by this
  int max_solve_iterations = 60;   // per solve
  double restart_level = 1e-4;     // eq. (7)'s; 0 starts every solve from the start above
};

/// Whether p's contacts all have friction (μ_i > 0), which solve_interior_point needs.
bool interior_point_applies(const FrictionProblem& p);

/// Solves p, whose body form is c, by eqs. (1)–(6) from the start above (no warm start: an
/// interior point method starts inside the cones). Of p's W only the diagonal blocks are read.
/// Status MaxIterations when the tolerance is not reached.
/// @throws nscd::InputError if q, μ or c do not match p's contacts, some μ_i ≤ 0 (the cone of a
///         frictionless contact is not a second-order cone of three dimensions), M is not
///         positive definite, or an option is out of range.
SolverResult solve_interior_point(const FrictionProblem& p, const BodyCoupling& c, const InteriorPointOptions& options);

}  // namespace nscd::solvers
