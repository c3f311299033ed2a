#pragma once
/// @file
/// Internal to solvers/: projected Gauss–Seidel on the cones for the CCP of ccp_solver.hpp
/// eq. (1) [Tasora & Anitescu 2011]. One sweep visits the contacts in the order of a sweep plan
/// (sweep_plan.hpp eq. (1): colour after colour, the chunks of a colour concurrently):
///
///  (1) u_i = q_i + s_i e_n + Σ_j W_ij r_j
///  (2) r_i ← P_K(r_i − η_i u_i),   η_i = ω / λ_max(½(W_ii + W_iiᵀ))
///
/// so its result is bitwise that of the sequential sweep of the problem in plan order, for any
/// number of threads. e_ccp (ccp_solver.hpp eq. (3)) is evaluated every 8 sweeps and after the last.
///
/// Reference: [Tasora & Anitescu 2011] CMAME 200.

#include "solvers/friction_problem.hpp"
#include "solvers/sweep_plan.hpp"

#include <Eigen/Core>

namespace nscd::solvers::detail {

/// Runs at most max_iterations sweeps of plan from r (updated in place) on the shift s (nc), until
/// e_ccp ≤ tolerance. Returns the sweeps done; `converged` tells whether e_ccp ≤ tolerance.
/// @pre p is in plan order (renumbered(p₀, plan.coloring.order) when plan.renumbers()), as s and r.
int ccp_pgs(const FrictionProblem& p, const SweepPlan& plan, const Eigen::VectorXd& s, double omega, double tolerance,
            int max_iterations, Eigen::VectorXd& r, bool& converged);

}  // namespace nscd::solvers::detail
