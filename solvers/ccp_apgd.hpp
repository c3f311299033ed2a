#pragma once
/// @file
/// Internal to solvers/: APGD on the CCP of ccp_solver.hpp eq. (1) [Mazhar et al. 2015,
/// Algorithm 2], with f(r) = ½ rᵀ W r + q_sᵀ r, q_s = q + s e_n, P the projection on the cones:
///
///  (1) γ_{k+1} = P(y_k − t ∇f(y_k)),  with L ← 2L, t = 1/L until
///      f(γ_{k+1}) ≤ f(y_k) + ∇f(y_k)ᵀ(γ_{k+1} − y_k) + ½ L ‖γ_{k+1} − y_k‖²
///  (2) θ_{k+1} = (−θ_k² + θ_k sqrt(θ_k² + 4)) / 2,  β = θ_k (1 − θ_k) / (θ_k² + θ_{k+1})
///  (3) y_{k+1} = γ_{k+1} + β (γ_{k+1} − γ_k);  restart (y = γ_{k+1}, θ = 1) when
///      ∇f(y_k)ᵀ(γ_{k+1} − γ_k) > 0;  then L ← 0.9 L
///
/// with L₀ = ‖W (γ₀ − 1)‖ / ‖γ₀ − 1‖. The iterate of smallest e_ccp (ccp_solver.hpp eq. (3)) is
/// returned. The products W x (DelassusMatrix::apply), the projections and the vector operations
/// run in parallel over the fixed blocks of contacts of contact_blocks.hpp, and the scalar
/// products and norms are sums of per-block partial sums in a fixed tree: the iterates are
/// bitwise the same for any number of threads (and, for one block, 1024 contacts or fewer, the
/// same as those of the sequential vector operations).
///
/// Reference: [Mazhar, Heyn, Negrut, Tasora 2015] ACM TOG 34(3).

#include "solvers/friction_problem.hpp"

#include <Eigen/Core>

namespace nscd::solvers::detail {

/// Runs at most max_iterations steps of eq. (1)–(3) from r (updated in place) on the shift s (nc),
/// until e_ccp ≤ tolerance. Returns the steps done; `converged` tells whether e_ccp ≤ tolerance.
int ccp_apgd(const FrictionProblem& p, const Eigen::VectorXd& s, double tolerance, int max_iterations,
             Eigen::VectorXd& r, bool& converged);

}  // namespace nscd::solvers::detail
