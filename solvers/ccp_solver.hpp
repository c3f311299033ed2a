#pragma once
/// @file
/// Anitescu's cone complementarity problem (CCP) on (W, q, μ), and the fixed point that turns it
/// back into exact Coulomb friction. For a vector s ≥ 0 (nc), the CCP is
///
///  (1) u = W r + q,   K*_μ ∋ u + s_i e_n ⊥ r ∈ K_μ   per contact,
///
/// the optimality condition of the convex problem min ½ rᵀ W r + (q + s e_n)ᵀ r over r ∈ K_μ
/// [Anitescu 2006; Anitescu & Tasora 2010]. With s = 0 it is a convex relaxation of
/// Signorini–Coulomb: a sliding contact gets u_n = μ‖u_T‖ > 0, a normal separation velocity (the
/// "artificial dilatancy"; the bodies drift apart while sliding). With s_i = μ_i ‖u_T,i‖ it is
/// exactly the problem of friction_problem.hpp eq. (2) (û = u + μ‖u_T‖ e_n), hence the
/// correction [De Saxcé & Feng 1998; Acary, Brémond & Huber 2018 §3.4]:
///
///  (2) s⁰ = 0 (or μ‖u_T‖ of the initial guess);  r^{k+1} = CCP(s^k);  s^{k+1}_i = μ_i ‖u^{k+1}_T,i‖,
///
/// repeated until the error of error_measure.hpp eq. (3) is below the tolerance. The CCP itself
/// is solved by
///  - APGD, Nesterov's accelerated projected gradient with an adaptive step (backtracking on the
///    Lipschitz estimate L, then L ← 0.9 L) and a gradient restart [Mazhar et al. 2015,
///    Algorithm 2] (ccp_apgd.hpp), its products, projections and sums parallel over fixed blocks
///    of contacts (contact_blocks.hpp), or
///  - projected Gauss–Seidel on the cones: r_i ← P_K(r_i − ω/λ_max(W_ii) (u_i + s_i e_n))
///    [Tasora & Anitescu 2011] (ccp_pgs.hpp), in the colour order of sweep_plan.hpp, the
///    contacts of a colour in parallel, on the problem renumbered in that order,
/// both stopping on the CCP residual
///
///  (3) e_ccp = sqrt(Σ_i ‖r̃_i − P_K(r̃_i − (u_i + s_i e_n))‖²) / max(‖q‖, ‖r̃‖, ‖u‖),
///      r̃_i = σ_i r_i with σ_i the impulse scale of error_measure.hpp eq. (1),
///
/// which for s = μ‖u_T‖ equals the common error eq. (3) of error_measure.hpp.
///
/// References: [Anitescu 2006] Optimization-based simulation of nonsmooth rigid multibody
///             dynamics, Math. Program. 105; [Anitescu & Tasora 2010] An iterative approach for
///             cone complementarity problems for nonsmooth dynamics, Comput. Optim. Appl. 47;
///             [Tasora & Anitescu 2011] A matrix-free cone complementarity approach for solving
///             large-scale, nonsmooth, rigid body dynamics, CMAME 200; [Mazhar, Heyn, Negrut,
///             Tasora 2015] Using Nesterov's method to accelerate multibody dynamics with friction
///             and contact, ACM TOG 34(3); [De Saxcé & Feng 1998]; [Acary et al. 2018].

#include "solvers/friction_problem.hpp"
#include "solvers/solver_result.hpp"
#include "solvers/stopping.hpp"

#include <Eigen/Core>

#include <string_view>

namespace nscd::solvers {

enum class CcpMethod { Apgd, Pgs };

/// "apgd", "pgs".
std::string_view to_string(CcpMethod method);

/// Options of solve_ccp.
struct CcpOptions {
  CcpMethod method = CcpMethod::Apgd;
  bool correction = true;       // eq. (2): exact Coulomb; false: the CCP relaxation (s = 0)
  Stopping stopping{1e-6, 10000};  // on error_measure eq. (3) (correction), else on e_ccp eq. (3);
                                   // APGD steps or PGS sweeps, in total over the corrections
  int max_corrections = 200;    // updates of s in eq. (2)
  double omega = 1.0;           // PGS relaxation, in (0, 2)
};

/// Solves the CCP eq. (1) (s = 0), or with options.correction Signorini–Coulomb by eq. (2), from
/// r0 (wrong size: zero). The returned error is always error_measure eq. (3) of (r, u), the
/// error on the Coulomb problem. Status: with the correction, Converged when that error is below
/// the tolerance; without it, Converged when e_ccp is (the CCP is solved; the Coulomb error then
/// measures the dilatancy). iterations counts APGD steps or PGS sweeps. Bitwise the same result
/// for any number of threads (those of the current TBB arena).
/// @throws nscd::InputError if q, μ have the wrong sizes, some μ < 0 or an option is out of range.
SolverResult solve_ccp(const FrictionProblem& p, const CcpOptions& options, const Eigen::VectorXd& r0);

/// e_ccp of eq. (3) for the shift s (nc) and u = W r + q (not recomputed); its sums are over the
/// fixed blocks of contacts of contact_blocks.hpp, so the same bits for any number of threads.
double ccp_error(const FrictionProblem& p, const Eigen::VectorXd& s, const Eigen::VectorXd& r,
                 const Eigen::VectorXd& u);

}  // namespace nscd::solvers
