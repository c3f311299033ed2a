#pragma once
/// @file
/// NLGS (nlgs.hpp) on the body form of a rigid problem (contact_bodies.hpp), without W: the bodies'
/// velocity change Δv = M⁻¹ Hᵀ r (contact_bodies.hpp eq. (2)) is kept with r, and for contact i
///
///  (1) q_loc = q_i + Σ_s G_is Δv_b(i,s) − W_ii r_i      (= q_i + Σ_{j≠i} W_ij r_j)
///  (2) r_i ← (1 − ω) r_i + ω · solve_local(W_ii, q_loc, μ_i),  Δr_i the change
///  (3) Δv_b(i,s) += Y_is Δr_i  for each side s
///
/// and on a side on a modal body (contact_bodies.hpp eqs. (5)–(6)) (1) adds T_isᵀ z_b(i,s) and
/// (3) z_b(i,s) += U_is Δr_i.
///
/// This is nlgs.hpp's sweep: the same order (colours of color_contacts of the bodies, which are
/// those of W, then index order; sweep_plan.hpp), the same local solver, the same symmetric first sweep and the same stopping and
/// progress tests (nlgs.hpp, detail::run_sweeps) on u = H Δv + q (contact_bodies.hpp eq. (3)),
/// so the results agree with solve_nlgs on the assembled W to round-off: (1) sums the products
/// in another order. A sweep costs O(nc) with a small constant (two 3 × 6 and two 6 × 3 products
/// per contact), where nlgs.hpp reads W's whole block row (about 40 blocks per contact in a
/// masonry wall) and W must be assembled first. Contacts of one colour share no body, so (3)
/// writes disjoint Δv: the chunks of a colour run concurrently, and the result is bitwise the
/// same for any number of threads; the norms are summed per chunk, then over the chunks in order.
///
/// References: [Jean 1999] CMAME 177; [Tasora & Anitescu 2011] CMAME 200 (the matrix-free sweep).

#include "solvers/contact_bodies.hpp"
#include "solvers/friction_problem.hpp"
#include "solvers/nlgs.hpp"
#include "solvers/solver_result.hpp"

#include <Eigen/Core>

namespace nscd::solvers {

/// Solves p by eqs. (1)–(3) from r0 (wrong size: zero); bodies is p's body form, and p.W need
/// hold its diagonal blocks only (the off-diagonal ones are not read). Status, throws and
/// sweep counts as solve_nlgs; u of the result is H Δv + q.
/// @throws nscd::InputError also if bodies does not have p's contacts.
SolverResult solve_nlgs_bodies(const FrictionProblem& p, const ContactBodies& bodies, const NlgsOptions& options,
                               const Eigen::VectorXd& r0);

}  // namespace nscd::solvers
