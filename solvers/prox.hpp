#pragma once
/// @file
/// Proximal point method on the frictional contact problem (PROX, [Acary, Brémond & Huber 2018]
/// §5, Siconos's fc3d_proximal), with the semismooth Newton of nsn.hpp as inner solver. Each
/// outer iteration solves the regularised problem
///
///  (1) u = (W + σ_k I) r + (q − σ_k r_k),   K*_μ ∋ û ⊥ r ∈ K_μ   per contact,
///
/// whose solution is r_{k+1}; a fixed point r_{k+1} = r_k solves the problem itself
/// [Rockafellar 1976]. W + σ I is positive definite even where W is singular (redundant
/// contacts), so Newton's Jacobian (nsn.hpp eq. (3)) stays regular and its line search does not
/// stall; the proximal iteration itself contracts by about σ/(λ + σ) on each eigenvalue λ of W,
/// and leaves unchanged the part of r in the null space of W (which does not affect u).
///
/// σ adapts: σ_0 = sigma_initial × mean(diag W); after an inner solve that reached its
/// tolerance σ ← σ × sigma_decrease (down to sigma_min × mean(diag W)), after one that did not
/// (its Newton stalled, nsn.hpp, or used inner_max_iterations) σ ← σ × sigma_increase. The inner
/// solve stops at ‖Φ‖ ≤ 0.1 × (the last outer error), so that the inexact proximal steps still
/// converge [Rockafellar 1976], or as soon as the error of the problem itself (error_measure.hpp
/// eq. (3)) is below the tolerance. r_{k+1} is the inner solve's last iterate, or, with
/// reject_failed, r_k after a failed inner solve (unless its iterate already meets the tolerance):
/// the next step retries from r_k at the larger σ.
/// The safeguarded rule of auto_solver.hpp's stage 4 (AutoOptions::prox_restart) rejects failed
/// solves, ends Newton's line search at t = 1/16 (NsnOptions::min_step) and uses the factors ½ and
/// 10; with the default rule, where the inner Newton fails at small σ, the failed r it keeps and σ
/// can cycle without converging (RockPile_tob1).
///
/// References: [Acary, Brémond, Huber 2018] On solving contact problems with Coulomb friction:
///             formulations and numerical comparisons, Advanced Topics in Nonsmooth Dynamics;
///             [Rockafellar 1976] Monotone operators and the proximal point algorithm, SIAM J.
///             Control Optim. 14(5).

#include "solvers/friction_problem.hpp"
#include "solvers/nsn.hpp"
#include "solvers/stopping.hpp"

#include <Eigen/Core>

namespace nscd::solvers {

/// Options of solve_prox.
struct ProxOptions {
  Stopping stopping{1e-8, 500};    // on error_measure eq. (3); Newton iterations over all outer iterations
  int inner_max_iterations = 20;   // Newton iterations per proximal step
  double sigma_initial = 1.0;      // σ_0 relative to mean(diag W), unitless (σ itself is in W's units)
  double sigma_decrease = 0.2;     // factor on σ after a successful inner solve, in (0, 1)
  double sigma_min = 1e-8;         // lower bound on σ relative to mean(diag W)
  double sigma_increase = 25.0;    // factor on σ after a failed inner solve, > 1 (= 1 / 0.2²)
  bool reject_failed = false;      // a failed inner solve leaves r_k unchanged
  NsnOptions newton;               // line-search settings of the inner Newton (its stopping is unused)
};

/// Solves p by eq. (1) from r0 (wrong size: zero). Status MaxIterations when the tolerance is not
/// reached within options.max_iterations Newton iterations; NonFinite on non-finite data or
/// iterates. iterations counts Newton iterations.
/// @throws nscd::InputError if q, μ have the wrong sizes, some μ < 0 or an option is out of range.
SolverResult solve_prox(const FrictionProblem& p, const ProxOptions& options, const Eigen::VectorXd& r0);

}  // namespace nscd::solvers
