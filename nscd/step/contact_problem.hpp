#pragma once
/// @file
/// Stages 3–4 of a step (stepper.hpp): the active contacts among the detected ones, their
/// Jacobians, and the problem (W, q, μ) on which stage 5 solves, into ws.contacts.
///
/// Activation by the predicted gap at the end of the step (θ = gap_theta: 1/2 on a mesh side),
///  (1) g_pred = g + h (θ u_n,free + (1 − θ) u_n⁻) ≤ δ  ⇒  active,
/// else, with the position projection on and is_projected(), a gap row
///  (2) g + h (θ u_n⁺ + (1 − θ) u_n⁻) ≥ 0 ⊥ r_n ≥ 0,  i.e.  q_n = u_n,free + ((1 − θ) u_n⁻ + g/h) / θ;
/// the others are dropped. The Jacobians are contact_jacobian.hpp eqs. (2)–(3) at the current
/// rotations (lever arm O_{i+1} X_α for a side on an FFR body, [Lozovskiy & Dubois 2016] eq. 22),
/// u adds the deformation velocity of eq. (5) on sides on a mesh, and
///  (3) q = u_free + e min(u_n⁻, 0) e_n   (Newton restitution, not on gap rows nor on a mesh side
///      moving apart: normal_velocity_shift),
///  (4) W = H M̂⁻¹ Hᵀ (contact_jacobian.hpp eq. (4), with eq. (6) between sides on one mesh).
/// On a rigid scene, and on one whose deformable points are all on modal FFR bodies, W is
/// assembled only when something reads it whole (assembled_problem()): the NLGS sweeps
/// (solvers/nlgs_bodies.hpp) and the position projection work on the contacts' sides
/// (ws.contacts.bodies, solvers/contact_bodies.hpp, with a modal body's k deformation unknowns)
/// and W's diagonal blocks, which are always there.
///
/// References: [Jean 1999] CMAME 177; [Lozovskiy & Dubois 2016] Eur. J. Mech. A/Solids 58.

#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"
#include "nscd/step/step_workspace.hpp"

namespace nscd {

/// Eqs. (1)–(4) for the contacts detected in ws (ws.detected, ws.mesh_detected), after the free
/// motion of stage 1; fills ws.contacts.active, ws.mesh_points and ws.contacts.problem, and where
/// sweeps_on_sides() ws.contacts.bodies, with W's diagonal blocks only (defer_assembly()).
void build_problem(const Model& m, const State& s, StepWorkspace& ws);

/// Whether the sweeps can work on the contacts' sides: every deformable point of ws (none on a
/// rigid scene) is on a modal FFR body, whose W blocks between points solvers/contact_bodies.hpp
/// eqs. (5)–(7) replace.
bool sweeps_on_sides(const StepWorkspace& ws);

/// ws.contacts.bodies at the current linearisation: the contacts' movable sides, a modal side's
/// T and U (orient_modal_points, ffr_coupling.hpp) and the index of its body's deformation
/// unknowns; and W's diagonal blocks alone (eqs. (4) and (7) of solvers/contact_bodies.hpp),
/// the rest of W left to assembled_problem(). Only where sweeps_on_sides().
void defer_assembly(const Model& m, StepWorkspace& ws);

/// ws.contacts.problem with W whole, assembled now by eq. (4) if build_problem left it to its
/// diagonal blocks (the same W build_problem assembles otherwise).
const solvers::FrictionProblem& assembled_problem(const Model& m, StepWorkspace& ws);

/// A copy of ws.contacts.problem with W whole, for readers of a finished step (the FCLIB dump).
solvers::FrictionProblem assembled_copy(const Model& m, const StepWorkspace& ws);

/// Algorithm 1's outer loop [Lozovskiy & Dubois 2016]: the Jacobians and q again at the rotations
/// of the last Rotator pass (ws.ffr), for the same active contacts; W is left to
/// assembled_problem(), since the outer loop often ends on this linearisation's error test
/// (delassus_product) without another solve.
void relinearize(const Model& m, const State& s, StepWorkspace& ws);

/// W r of eq. (4) at the current linearisation without W (eq. (4) summed body by body): the
/// frames' velocity change Δv_b = Σ Y r of solvers/contact_bodies.hpp eq. (2), and on each
/// deformable body the deformation velocity z_b = Σ_q Z_q OtC_q r_q of its points (with its
/// translational-inertia part Σ_q mean_Z_q OtC_q r_q), which eq. (6)'s blocks sum pair by pair;
/// then (W r)_α = Σ_s G_αs Δv_b(α,s) + Σ_p OtC_pᵀ (H̄_p z_b(p)), O(points × coordinates) where W
/// has a block for every pair of points on a body.
Eigen::VectorXd delassus_product(const Model& m, const StepWorkspace& ws, const Eigen::VectorXd& r);

/// The body form (solvers/body_coupling.hpp eq. (1)) of the problem of the active contacts of ws,
/// on a rigid scene or one whose deformable points are all on modal FFR bodies (sweeps_on_sides),
/// with the unknowns of solvers/contact_bodies.hpp: M = blockdiag(m I, J_W) per body, J_W the
/// inverse of the free motion's R̃ J_B⁻¹ R̃ᵀ (rigid_dynamics.hpp, FreeMotion::inv_inertia_W; the
/// frame of an FFR body too, as contact_jacobian.hpp eq. (3); identity blocks for the bodies
/// without unknowns, which no contact touches), then Â₊ on each modal body's coordinates
/// (diagonal, ffr/ffr_body.hpp eq. R1); H made of the blocks G of each movable side and, on a
/// modal body, of T_isᵀ (solvers/contact_bodies.hpp eq. (6), so that Â₊⁻¹ T_is = U_is), read from
/// ws.contacts.bodies: with deformable points, after the defer_assembly() of the linearisation.
solvers::BodyCoupling body_form(const Model& m, const StepWorkspace& ws);

/// What q adds to contact i's normal velocity beyond its free velocity: for a gap row,
/// ((1 − θ) u_n⁻ + g/h)/θ, so that u_n ≥ 0 keeps θ u_n⁺ + (1 − θ) u_n⁻ + g/h ≥ 0 (θ = gap_theta);
/// on a mesh side, u_n⁻ when u_n⁻ > 0: a contact active while it moves apart is held on
/// u_n⁺ + u_n⁻ ≥ 0, so that its gap g + h (u_n⁺ + u_n⁻)/2 does not decrease over the step and its
/// impulse does no work, r_n (u_n⁺ + u_n⁻)/2 = 0 (held on u_n⁺ ≥ 0 it does r_n u_n⁻/2 > 0, which
/// the vibration of modes above 1/h turns into a blow-up); otherwise Newton's restitution
/// e min(u_n⁻, 0). The end-of-step normal velocity is u_n − this shift.
double normal_velocity_shift(const Model& m, const ActiveContact& contact);

/// Contact i's gap at the end of the step, linearised for the end-of-step normal velocity u_n⁺
/// (position_projection.hpp eq. (1)): g + h (θ u_n⁺ + (1 − θ) u_n⁻), θ = gap_theta.
double end_of_step_gap(const Model& m, const ActiveContact& contact, double u_n_end);

/// Whether contact c has a side on an FFR, TL or linear body.
inline bool has_mesh_side(const Model& m, const contact::ContactPoint& c) {
  return m.has_meshes() && (has_mesh(m.bodies[c.a].kind) || has_mesh(m.bodies[c.b].kind));
}

/// The θ by which contact c's gap moves over a step in (1), (2) and end_of_step_gap: 1/2 when a
/// side is on a mesh, whose positions follow the trapezoidal rule whatever the scene's θ
/// (x_{i+1} = x_i + h/2 (v_i + v_{i+1}) and ψ_{i+1} = ψ_i + h/2 (λ_i + λ_{i+1}) of
/// [Lozovskiy & Dubois 2016] eq. (19), ffr/ffr_dynamics.hpp; tl_body.hpp), the scene's θ
/// otherwise. A rigid body's side of a contact with a mesh moves by its θ: for θ ≠ 1/2 the
/// linearised gap of such a contact is then off by h (θ − 1/2) times the change of the rigid
/// side's normal velocity over the step.
inline double gap_theta(const Model& m, const contact::ContactPoint& c) {
  return has_mesh_side(m, c) ? 0.5 : m.step.theta;
}

/// Whether contact c gets a gap row (2) and the position projection (position_projection.hpp):
/// its sides are rigid, fixed or driven bodies, or it is on the shapes' faces (shape_contacts.hpp)
/// and its FE sides are FFR bodies of modes alone, whose frames carry the corners of their joints
/// up to a smooth deformation. Node-to-surface contacts are not: their gaps follow the mesh's
/// local deformation, which no pose correction moves. Nor are corners on a full mesh or with the
/// static correction of the joints (modal_basis.hpp), a point load on one node with that node's
/// local compliance: their overlaps come and go with its vibration, and moving the frames out of
/// them at every step fed the undamped arch energy (docs/performance.md, "FFR blocks on their
/// faces, projected").
bool is_projected(const Model& m, const contact::ContactPoint& c);

}  // namespace nscd
