#pragma once
/// @file
/// Proximal point method on the frictional contact problem in body coordinates (rigid bodies, the
/// frames and modal coordinates of modal FFR bodies), with semismooth
/// Newton on the bodies' velocity change (body_coupling.hpp) as inner solver. With the anchor
/// r_k of outer iteration k and ρ_i = 1 / σ_i per contact, σ_i = sigma · tr(W_ii)/3, the proximal
/// problem (prox.hpp eq. (1), shift σ_i) in Alart–Curnier form with the step ρ_i = 1/σ_i reads
///
///  (1) r_i = P_i(r_k,i − ρ_i u_i),   u = H Δv + q,   M Δv = Hᵀ r
///
/// (P_i the projection of alart_curnier_projection.hpp eq. (1)), since the shifted velocity
/// u_i + σ_i (r_i − r_k,i) makes r_i cancel inside P_i. r is then a function of Δv, and (1) is
///
///  (2) F(Δv) = M Δv − Hᵀ P(r_k − ρ ∘ (H Δv + q)) = 0,
///  (3) J = M + Σ_i ρ_i H_iᵀ D_i H_i    (D_i of alart_curnier_projection.hpp eq. (2)),
///
/// a sparse system of the bodies' unknowns (6 per rigid body) whatever the number of contacts,
/// where the Newton of nsn.hpp factorises 3 per contact with the fill of W. Each Newton step J δ = −F is damped by Armijo
/// backtracking on ψ = ½ Fᵀ M⁻¹ F. A proximal step ends when ψ has fallen by a reduction factor
/// (or after inner_max_iterations), and its r becomes the next anchor: an inexact proximal step,
/// ‖F‖ down by 10⁻³ from its value at the step's start with the first factor, inner_reduction,
/// which shrinks with the anchors' moves (the kind of bound of [Rockafellar 1976]'s criteria (A)
/// and (B)). Solving each step further only repeats the same r (ψ from 1e-12 to 1e-25 in two more
/// Newton iterations on the shaking wall's dump, the error unchanged) and, since ρ grows back only
/// after steps solved in at most two iterations, keeps ρ soft: the proximal steps then contract
/// by a few per cent each. A proximal step after which the lowest error is no lower than at its
/// start makes the factor 100 times smaller, down to 1e-12: on Siconos's spheres-in-a-box problem
/// the steps solved to 1e-6 stall at 2.9e-6, where the tighter ones converge.
/// Where backtracking finds no descent within max_halvings (the nonsmooth Coulomb law, far from
/// the solution), the step ends at once, ρ is divided by 10, a softer proximal problem, and the
/// next anchor is the r of lowest error so far, with Δv = M⁻¹ Hᵀ r: a step that failed at a stiff
/// ρ may have thrown r far from where the steps before had brought it (on the arch's dump, from
/// an error of 6e-8 to 2e-4). A step that descends, however heavily damped, is kept: treating
/// steps damped below 1/16 as failures too cost the harder shake's steps (docs/performance.md)
/// 157 factorisations in the median against 28, and 64 of its first 100 steps ended short of
/// 1e-8 against 21. A step solved in at most two Newton iterations lets ρ
/// grow back by 10, up to 10⁶ times its initial value. A fixed point r = r_k
/// solves the Alart–Curnier equations, that is the Signorini–Coulomb problem itself. Where
/// redundant contacts make W singular, J stays regular (M is), and r converges to one of the
/// equivalent solutions [Rockafellar 1976]. The returned r is that of the lowest error
/// (error_measure.hpp eq. (3)) met, which is checked after every Newton step.
///
/// References: [Alart & Curnier 1991] CMAME 92; [Rockafellar 1976] Monotone operators and the
///             proximal point algorithm, SIAM J. Control Optim. 14(5); [Acary, Brémond & Huber
///             2018] On solving contact problems with Coulomb friction: formulations and numerical
///             comparisons, §5 (the proximal method on the local form).

#include "solvers/body_coupling.hpp"
#include "solvers/friction_problem.hpp"
#include "solvers/solver_result.hpp"
#include "solvers/stopping.hpp"

#include <Eigen/Core>

namespace nscd::solvers {

/// Options of solve_velocity_prox.
struct VelocityProxOptions {
  Stopping stopping{1e-8, 100};    // on error_measure eq. (3); Newton iterations (one LU each) and anchor updates
  double sigma = 1e-3;             // σ_i relative to tr(W_ii)/3, > 0
  int inner_max_iterations = 8;    // Newton iterations per proximal step
  double inner_reduction = 1e-6;   // ψ ≤ inner_reduction · ψ(start of the step) ends a proximal step, at first
  double armijo = 1e-4;            // sufficient decrease of ψ, in (0, ½)
  int max_halvings = 30;           // backtracking halvings before the smallest step is taken anyway
};

/// Solves p, whose body form is c (W = H M⁻¹ Hᵀ), by eqs. (1)–(3) from r0 (wrong size: zero).
/// Of p's W only the diagonal blocks are read (for ρ_i): the error of each iterate takes W r as
/// H M⁻¹ Hᵀ r, so W need not be assembled. Status MaxIterations when the tolerance is not reached
/// within options.max_iterations.
/// @throws nscd::InputError if q, μ or c do not match p's contacts, some μ < 0, or sigma ≤ 0.
SolverResult solve_velocity_prox(const FrictionProblem& p, const BodyCoupling& c, const VelocityProxOptions& options,
                                 const Eigen::VectorXd& r0);

}  // namespace nscd::solvers
