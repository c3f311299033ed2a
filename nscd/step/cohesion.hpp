#pragma once
/// @file
/// Cohesive Mohr–Coulomb joints (docs/method.md, "Cohesive joints"): bonded contacts that carry
/// tension up to f_t A_i and shear up to c A_i + μ N, and become frictional (μ_res) for good once
/// they break.
///
/// Bonds. A contact is bonded when it touches (gap ≤ the activation gap) at the first step
/// (t = 0) between two bodies whose interaction has c > 0 or f_t > 0 (rigid scenes only: the
/// scene reader refuses cohesion in a scene with a finite-element body); State::bonds keeps the intact ones, keyed by (a, b, feature). Contacts formed
/// later are never bonded, and a broken bond never heals. A bonded contact is never a gap row
/// (contact_problem.hpp eq. (2)): a bond holds its bodies together whatever their free motion.
/// Contact i of a joint (joints.hpp) carries the strength of its tributary area A_i (joints.hpp
/// eq. (2)).
///
/// Law, in impulses over the step h. An intact contact i obeys the Coulomb cone of μ shifted by
///  (1) s_i = h c A_i / μ:  r̃_i = r_i + s_i e_N and u_i obey the Signorini–Coulomb law of μ
/// (the IQS_MOHR_DS_CLB family of LMGC90 [Dubois et al. 2018]), so that its shear limit is
///  (2) ‖r_T‖ ≤ μ (r_N + s_i) = h (c A_i + μ N_i),   N_i = r_N / h,
/// and the cone's apex puts a tension limit of c A_i / μ. Since u = W r + q = W r̃ + (q − W s),
///  (3) the problem (W, q − W s, μ) is an ordinary Signorini–Coulomb problem in r̃,
/// solved by any solver of solvers/solve.hpp unchanged (nlgs, nsn, prox, auto, ccp, lcp: ccp and
/// lcp with their own cone approximations). μ = 0 with c > 0 has no such cone: the scene reader
/// refuses it. Broken contacts have s_i = 0 and μ_res; contacts never bonded keep μ.
///
/// Rupture, checked after each solve on the real r = r̃ − s and u:
///  (4) opening:  u_N > kBondBreakVelocity (at the apex of the shifted cone: tension above c A_i/μ);
///      shear:    ‖u_T‖ > kBondBreakVelocity (on the cone's boundary: shear above eq. (2));
///  (5) tension:  σ_i < −f_t, with σ the linear (Navier) normal stress over the joint statically
///      equivalent to the normal forces F_k = r_N,k / h of its intact contacts with an area:
///        σ_i = N/A + g · d_i,  N = Σ F_k,  A = Σ A_k,  I g = Σ F_k d_k,  I = Σ A_k d_k d_kᵀ,
///      d_k the contact's offset in the joint's plane from the centroid Σ A_k x_k / A (I⁺ when
///      the contacts are on a line). The tension test goes through the joint's resultant force
///      and moment because, between rigid bodies, only they are determined: how the solver
///      spreads them over the contacts of one face is not (four corners under a centred load may
///      come out unequal). The velocities of eq. (4) are determined.
/// The effective tensile strength is therefore min(f_t, c/μ). A contact with no tributary area
/// (inside the polygon, an edge) has no shift and no tensile strength. When bonds break, the step
/// is solved again from the same initial impulses with them frictional, until no new bond
/// breaks, at most kMaxBondPasses solves (a break found by the last pass takes effect the next
/// step). Broken bonds keep μ_res for the rest of the run; bonds whose contact is no longer
/// detected count as broken.
///
/// What the step leaves: ws.contacts.problem is the problem (3) solved (μ per contact as used),
/// ws.contacts.cohesion_shift the vector s (empty when the step had no intact bond), and
/// ws.contacts.solution the real r and u: the velocity update, the output and the warm start use
/// the real r. The FCLIB dump (`solver.dump_every`) writes the problem (3) with its solution
/// r̃ = r + s and u, so that it replays as any frictional contact problem.
///
/// References: [Jean 1999] CMAME 177; [Dubois, Acary, Jean 2018] The contact dynamics method:
/// a nonsmooth story, C. R. Mécanique 346 (cohesive laws of LMGC90).

#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"
#include "nscd/step/step_workspace.hpp"

#include <functional>
#include <string>

namespace nscd {

/// The relative velocity [m/s] above which a bonded contact counts as opening or sliding, eq. (4):
/// far above the solvers' residual velocities at rest (≈ tolerance × |q|), far below the
/// velocity a step gives a broken block (≈ 1e-3 m/s for a net force of 0.1 m g over 1 ms).
constexpr double kBondBreakVelocity = 1e-5;

/// Solves of a step with bonds, eq. (4)'s bound.
constexpr int kMaxBondPasses = 10;

/// The bond of detected contact c for the step starting at s: at the first step, Intact when it
/// touches and its law is cohesive (see "Bonds" above); later, from s.bonds and s.broken_bonds.
Bond bond_state(const Model& m, const State& s, const contact::ContactPoint& c);

/// The friction coefficient of a contact of law `law`: μ_res once its bond broke, else μ.
double friction_coefficient(const ContactLaw& law, Bond bond);

/// Stage 5 with bonds: eqs. (1)–(5), `solve` solving ws.contacts.problem from ws.r0 into
/// ws.contacts.solution; marks the broken contacts Bond::Broken; returns the breaks by mode.
/// Without intact contacts, one call to `solve` and nothing else.
BondBreaks solve_cohesive(const Model& m, StepWorkspace& ws, const std::function<void()>& solve);

/// After the step of s, before it is committed: s.bonds becomes the intact contacts of `active`,
/// s.broken_bonds gains the bonds broken in the step and those no longer detected; returns how
/// many were no longer detected.
int commit_bonds(State& s, const ActiveContacts& active);

/// One log line for the breaks of a step ending at time t: how many, by mode, and between
/// which bodies.
std::string describe_breaks(const Model& m, double t, const ActiveContacts& active, const BondBreaks& breaks);

}  // namespace nscd
