#pragma once
/// @file
/// The frictional contact problem with the Coulomb cone replaced by a pyramid of k facets,
/// written as a linear complementarity problem [Stewart & Trinkle 1996; Anitescu & Potra 1997].
/// Contact i has the unknowns z_i = (r_n, β_1 … β_k, λ) (k + 2 of them), the tangent directions
/// d_j = (cos 2πj/k, sin 2πj/k) and
///
///  (1) r_i = B z_i = r_n e_n + Σ_j β_j (0, d_j),        B = [e_n | (0, d_1) … (0, d_k)]  (3 × (k+1))
///  (2) 0 ≤ r_n ⊥ u_n ≥ 0
///  (3) 0 ≤ β_j ⊥ λ + d_jᵀ u_T ≥ 0                       (j = 1 … k)
///  (4) 0 ≤ λ   ⊥ μ r_n − Σ_j β_j ≥ 0
///
/// with u = W r + q: the LCP w = M z + b with M_ij = Bᵀ W_ij B (plus, for i = j, the column of λ
/// and the row (μ, −1 … −1, 0)), b_i = (Bᵀ q_i, 0). λ is the sliding speed max_j(−d_jᵀ u_T) and
/// r_T lies in the polygon of vertices μ r_n d_j, inscribed in the disc of radius μ r_n: the
/// friction of a sliding contact is underestimated by up to a factor cos(π/k), so the error of
/// the cone problem (error_measure.hpp eq. (3)) of the LCP solution is O(1 − cos(π/k)) = O(1/k²)
/// where contacts slide, and can be zero where they all stick or open.
///
/// Methods:
///  - Lemke (lcp_lemke.hpp) on the dense LCP of size (k + 2) nc: exact, O(((k+2) nc)³);
///  - projected (block) Gauss–Seidel: one sweep solves, contact by contact, the LCP (2)–(4) of
///    contact i with q_loc = q_i + Σ_{j≠i} W_ij r_j, exactly by Lemke (k + 2 unknowns), as NLGS
///    does for the cone (nlgs.hpp), in the same order (sweep_plan.hpp: colour by colour, the
///    contacts of a colour in parallel, bitwise the same for any number of threads); it stops on
///    the LCP residual
///      (5) e_lcp = sqrt(Σ_i ‖min(S_i z_i, T_i w_i)‖²) / max(‖q‖, ‖r̃‖, ‖u‖),
///    evaluated every 8 sweeps and after the last, with the impulses weighed as the error measure
///    weighs them (error_measure.hpp eq. (1), s_i, r̃): S_i scales r_n and β by s_i (λ is a
///    velocity), T_i the last row μ r_n − Σ β by s_i (the others are velocities); for FCLIB's
///    convention s_i = 1 and S_i = T_i = I;
///  - Auto: Lemke when (k + 2) nc ≤ lemke_max_variables, else Gauss–Seidel.
///
/// References: [Stewart & Trinkle 1996] An implicit time-stepping scheme for rigid body dynamics
///             with inelastic collisions and Coulomb friction, IJNME 39; [Anitescu & Potra 1997]
///             Formulating dynamic multi-rigid-body contact problems with friction as solvable
///             linear complementarity problems, Nonlinear Dynamics 14; [Lemke 1965].

#include "solvers/friction_problem.hpp"
#include "solvers/solver_result.hpp"
#include "solvers/stopping.hpp"
#include "solvers/sweep_plan.hpp"

#include <Eigen/Core>

#include <string_view>

namespace nscd::solvers {

enum class LcpMethod { Auto, Lemke, Pgs };

/// "auto", "lemke", "pgs".
std::string_view to_string(LcpMethod method);

/// Options of solve_lcp.
struct LcpOptions {
  LcpMethod method = LcpMethod::Auto;
  int facets = 8;                    // k, facets of the friction pyramid, ≥ 3
  Stopping stopping{1e-6, 10000};    // Gauss–Seidel: on e_lcp eq. (5), sweeps; Lemke: exact, pivots
  int lemke_max_variables = 600;     // Auto: Lemke up to this LCP size (k + 2) nc
};

/// Solves the pyramid LCP eq. (1)–(4) from r0 (used by Gauss–Seidel, wrong size: zero) and maps
/// the solution back to r by eq. (1). The returned error is error_measure eq. (3) of (r, u), the
/// error on the cone problem. Status: Converged when the LCP is solved (Lemke: z₀ left the
/// basis; Gauss–Seidel: e_lcp ≤ tolerance), MaxIterations otherwise (Lemke: pivot budget or ray
/// termination), NonFinite on non-finite data. iterations counts sweeps or pivots.
/// @throws nscd::InputError if q, μ have the wrong sizes, some μ < 0 or facets < 3.
SolverResult solve_lcp(const FrictionProblem& p, const LcpOptions& options, const Eigen::VectorXd& r0);

namespace detail {

/// B of eq. (1) for k facets (3 × (k+1)).
Eigen::MatrixXd pyramid_basis(int k);

/// The diagonal LCP block of a contact: Bᵀ W_ii B with the λ column and row of eq. (3)–(4).
Eigen::MatrixXd pyramid_block(const Eigen::Matrix3d& W_ii, double mu, const Eigen::MatrixXd& B);

/// Block Gauss–Seidel of the file comment from r (updated in place), sweeping in the order of plan
/// (sweep_plan.hpp eq. (1)): bitwise the sequential sweep of p in plan order, for any number of
/// threads. z (nc (k+2)) holds the LCP unknowns. Returns the sweeps done; `converged` tells
/// whether e_lcp ≤ tolerance. @pre p is in plan order (renumbered(p₀, plan.coloring.order) when
/// plan.renumbers()), as r and z.
int lcp_pgs(const FrictionProblem& p, const SweepPlan& plan, int k, double tolerance, int max_iterations,
            Eigen::VectorXd& r, Eigen::VectorXd& z, bool& converged);

}  // namespace detail
}  // namespace nscd::solvers
