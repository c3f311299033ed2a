#pragma once
/// @file
/// Nonlinear Gauss–Seidel (NLGS, [Jean 1999], Siconos's NSGS) on the problem of
/// friction_problem.hpp. One sweep visits the contacts in index order; for contact i
///
///  (1) q_loc = q_i + Σ_{j≠i} W_ij r_j
///  (2) r_i ← (1 − ω) r_i + ω · solve_local(W_ii, q_loc, μ_i)
///
/// where solve_local solves the 3-dimensional Signorini–Coulomb problem exactly (local_solver.hpp):
/// open (q_loc,n ≥ 0 ⇒ 0), frictionless, stick (−W_ii⁻¹ q_loc when inside the cone), otherwise
/// Alart–Curnier semismooth Newton with an Armijo line search on ½‖Φ‖² and step sizes
/// ρ_n = 1 / (W_ii)_nn, ρ_t = 1 / λ_max of the symmetric part of the tangential 2×2 block of W_ii,
/// falling back, when Newton stagnates, to De Saxcé's projected fixed point
///  (3) r ← P_K(r − ρ (W_ii r + q_loc + μ‖u_T‖ e_n)),  ρ = 1 / λ_max(½(W_ii + W_iiᵀ)),
/// followed by Newton from its result.
///
/// The stopping test is the error measure of error_measure.hpp eq. (3) on u = W r + q, evaluated
/// after the first and the last sweep, every 16 sweeps, and whenever the cheap estimate
/// ‖Δr‖/‖r‖ of the sweep, scaled by the ratio (error / estimate) of the last evaluation, is below
/// the tolerance. The returned error is always that of the returned (r, u).
///
/// References: [Jean 1999] CMAME 177; [Alart & Curnier 1991] CMAME 92;
///             [De Saxcé & Feng 1998] Math. Comput. Model. 28; [Acary et al. 2018].

#include "solvers/friction_problem.hpp"

#include <Eigen/Core>

#include <string_view>

namespace nscd::solvers {

enum class SolverStatus { Converged, MaxIterations, NonFinite };

/// Name for logs and output files: "converged", "max_iterations", "non_finite".
std::string_view to_string(SolverStatus status);

/// Options of solve_nlgs.
struct NlgsOptions {
  int max_iterations = 1000;  // sweeps
  double tolerance = 1e-6;    // on error_measure eq. (3), unitless
  double omega = 1.0;         // relaxation, in (0, 2)
};

/// What every solver returns.
struct SolverResult {
  Eigen::VectorXd r;  // (3nc) impulses [N·s]
  Eigen::VectorXd u;  // (3nc) u = W r + q [m/s]
  SolverStatus status = SolverStatus::Converged;
  int iterations = 0;   // sweeps done
  double error = 0.0;   // error_measure eq. (3) of (r, u)
};

/// Solves p by NLGS from the initial guess r0 (warm start); r0 of the wrong size means zero.
/// Status NonFinite when W, q, μ or r0 hold a NaN or an infinity, or when r becomes non-finite;
/// MaxIterations when the tolerance is not reached within options.max_iterations sweeps (then
/// logged at debug level). Sequential and deterministic; allocates only before the sweeps.
/// @throws nscd::InputError if q, μ do not have sizes 3nc, nc, if some μ < 0, if ω ∉ (0, 2)
///         or if max_iterations < 0.
SolverResult solve_nlgs(const FrictionProblem& p, const NlgsOptions& options, const Eigen::VectorXd& r0);

}  // namespace nscd::solvers
