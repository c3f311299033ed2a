#pragma once
/// @file
/// Semismooth Newton on the whole frictional contact problem (NSN, [Alart & Curnier 1991],
/// Siconos's fc3d_nonsmooth_Newton_AlartCurnier, [Acary, Brémond & Huber 2018] §4). With the
/// problem of friction_problem.hpp, shifted by σ ≥ 0 for the proximal point method (prox.hpp),
///
///  (1) u = (W + σ I) r + q'                      (σ = 0, q' = q: the problem itself)
///
/// the Alart–Curnier function of every contact i,
///
///  (2) Φ_i(r) = r_i − P_i(x_i),   x_i = r_i − ρ_i ∘ u_i,
///      P_i(x) = ( max(0, x_n),  P_D(μ_i max(0, x_n))(x_T) )
///
/// with P_D(a) the projection on the disc of radius a and ρ_i = (1/W_nn, 1/λ_t, 1/λ_t) from the
/// diagonal block (λ_t the largest eigenvalue of the symmetric part of its tangential 2×2 block,
/// as the local solver), vanishes exactly at the solutions of the Signorini–Coulomb problem.
/// Newton's iteration uses a generalized Jacobian, block-sparse with the pattern of W:
///
///  (3) J = I − D (I − diag(ρ) (W + σ I)),   D = blockdiag(∂P_i/∂x_i),
///  (4) J d = −Φ(r),   r ← r + t d,
///
/// solved by a sparse LU factorisation (sparse_lu.hpp: the pattern ordered once, the pivots
/// reused), with t the largest of 1, ½, ¼, … for which ½‖Φ‖² decreases by the Armijo factor
/// (after max_halvings the smallest is taken anyway; with min_step > 0, no t ≥ min_step
/// decreasing it ends the iteration without a step, stalled). J is singular where W is
/// (redundant contacts all sticking), or numerically so (sparse_lu.hpp's kSingular): the
/// factorisation then adds ε I, ε growing from 1e-12 of the largest |J_kk| until it succeeds.
/// NSN converges quadratically near a solution, where Gauss–Seidel is linear and stalls on badly
/// conditioned W; far from it the line search may stall, which prox.hpp cures by the shift σ.
///
/// References: [Alart & Curnier 1991] CMAME 92; [Acary, Brémond, Huber 2018] On solving contact
///             problems with Coulomb friction: formulations and numerical comparisons, Advanced
///             Topics in Nonsmooth Dynamics, Springer.

#include "solvers/friction_problem.hpp"
#include "solvers/solver_result.hpp"
#include "solvers/stopping.hpp"

#include <Eigen/Core>

namespace nscd::solvers {

/// Options of solve_nsn.
struct NsnOptions {
  Stopping stopping{1e-8, 200};  // on error_measure eq. (3); Newton iterations (one sparse LU each)
  double armijo = 1e-4;      // sufficient decrease of ½‖Φ‖² along the Newton direction, in (0, ½)
  int max_halvings = 30;     // line-search step halvings before the step is taken anyway
  double min_step = 0.0;     // where no t ≥ min_step decreases ½‖Φ‖², no step: the iteration stalls (0: never)
};

/// Solves p by eq. (2)–(4) with σ = 0 from r0 (wrong size: zero). Status MaxIterations when the
/// tolerance is not reached within options.max_iterations Newton iterations, NonFinite on
/// non-finite data or iterates. The returned error is error_measure eq. (3) of (r, u).
/// @throws nscd::InputError if q, μ have the wrong sizes or some μ < 0.
SolverResult solve_nsn(const FrictionProblem& p, const NsnOptions& options, const Eigen::VectorXd& r0);

namespace detail {

/// What nsn_iterate did.
struct NewtonReport {
  int iterations = 0;      // Newton iterations
  int factorizations = 0;  // sparse LU factorisations (more than iterations where J needed a shift)
  bool stalled = false;    // the line search failed to decrease ‖Φ‖, or J could not be factorised
};

/// Newton on the shifted problem (1) from r (updated in place): at most max_iterations
/// iterations, stopping when ‖Φ‖ ≤ phi_tolerance · max(‖r‖, ‖ρ ∘ q'‖, tiny) or, if
/// stop_on_error, when error_measure of the unshifted p at r is ≤ error_tolerance.
NewtonReport nsn_iterate(const FrictionProblem& p, double sigma, const Eigen::VectorXd& q_shifted,
                         const NsnOptions& options, int max_iterations, double phi_tolerance, bool stop_on_error,
                         double error_tolerance, Eigen::VectorXd& r);

}  // namespace detail
}  // namespace nscd::solvers
