#pragma once
/// @file
/// One Moreau–Jean time step for rigid, FFR, fixed and driven bodies [Jean 1999], end to end:
///
///  1. free motion: v_free, ω_free of every rigid body (rigid_dynamics.hpp eqs. (1)–(3)),
///     prescribed end-of-step velocities of driven bodies;
///  2. detection of contacts within the alert distance, widened by the distance bodies can
///     travel in one step, so that fast bodies are not missed;
///  3. activation from the predicted gap at the end of the step:
///        g_pred = g + h (θ u_n,free + (1 − θ) u_n⁻) ≤ δ  ⇒  the contact is active,
///     with δ a geometric tolerance (Model::step.activation_gap) that keeps resting contacts,
///     whose gap and relative velocity are round-off, active. With the projection on
///     (Model::step.projection), the other detected contacts between rigid, fixed or driven
///     bodies enter as gap rows: the predicted gap written on u_n⁺ (LMGC90's form),
///        g + h (θ u_n⁺ + (1 − θ) u_n⁻) ≥ 0 ⊥ r_n ≥ 0,
///     which the free motion satisfies strictly, so they act only when other contacts' impulses
///     push their bodies together (a grain struck by another strikes a third in the same step);
///  4. W = H M̂⁻¹ Hᵀ (contact_jacobian.hpp) and q = u_free + (e u_n⁻ if u_n⁻ < 0) e_n, so that
///     the solver's u_n = u_n⁺ + e u_n⁻ (Newton restitution) and Signorini reads
///        u_n⁺ + e u_n⁻ ≥ 0 ⊥ r_n ≥ 0,  with Coulomb friction on u_T⁺;
///     gap rows: q_n = u_n,free + ((1 − θ) u_n⁻ + g/h) / θ, no restitution;
///  5. NLGS on (W, q, μ), warm-started from last step's impulses of the same contacts (same
///     bodies, nearby point in body a's frame), or, when most contacts are new, from the stick
///     prediction of solvers/stick_prediction.hpp; with cohesive bonds, on the shifted problem
///     of cohesion.hpp, again while bonds break;
///  6. v⁺ = v_free + M̂⁻¹ Hᵀ r; poses by rigid_dynamics.hpp eqs. (3)–(4); driven bodies
///     follow their prescribed displacement exactly;
///  7. with the projection on, the position projection of position_projection.hpp [Acary 2013]:
///     the poses of rigid bodies move by M̂⁻¹ H_nᵀ P so that the linearised end-of-step gaps of
///     the step's contacts are ≥ 0, and = 0 where r_n > 0; velocities are unchanged. Contacts
///     with an FFR, TL or linear side get neither gap rows nor a projection.
///
/// FFR bodies (ffr_coupling.hpp) follow [Lozovskiy & Dubois 2016] instead: their contacts are
/// found node to surface (mesh_contacts.hpp), their motion obeys the trapezoidal scheme of
/// ffr/ffr_dynamics.hpp, and when a scene has one, stage 5 is Algorithm 1 of the paper: each
/// outer iteration re-linearises W and q at the current rotations (the Rotator), does one NLGS
/// sweep, then iterates the Rotator on the new impulses until ω_{i+1} settles
/// (solver.inner_tolerance). The outer loop stops when the error measure of the sweep
/// (solvers/error_measure.hpp) is below solver.tolerance, the test of every solver of nscd; the
/// paper's test, the relative change of r, stalls on redundant contacts (a flat face on a
/// plane) while the error is already small.
///
/// TL and linear bodies (tl_coupling.hpp) enter the same loop: their contacts are found node to
/// surface, have no rigid part (G = 0), and their inner loop is Newton's method on eq. (1) of
/// ffr/tl_body.hpp with the impulses as nodal forces.
///
/// References: [Jean 1999] The non-smooth contact dynamics method, CMAME 177;
///             [Moreau 1988] Unilateral contact and dry friction in finite freedom dynamics;
///             [Acary 2013] Projected event-capturing time-stepping schemes ..., CMAME 256.

#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"
#include "nscd/step/step_workspace.hpp"

#include <string>
#include <vector>

namespace nscd {

enum class StepStatus { Ok, NonFinite, SolverFailed };

/// "completed", "non_finite", "solver_failed": run.json's `status` (docs/output.md).
const char* to_string(StepStatus status);

/// What one step did.
struct StepReport {
  StepStatus status = StepStatus::Ok;
  int n_contacts = 0;            // active contacts: activated by the predicted gap, or gap rows with r_n > 0
  double max_penetration = 0;    // [m] the deepest overlap −min(g, 0) over the contacts of the problem
                                 // (gap rows included), g their gaps at the start of the step (as detected)
  int solver_iterations = 0;     // NLGS sweeps, plus Newton iterations with auto (FFR scenes: outer
                                 // iterations of Algorithm 1)
  int inner_iterations = 0;      // FE scenes: the largest Rotator count or TL tangent factorisations of one
                                 // outer iteration
  double solver_error = 0;
  bool inner_converged = true;   // TL bodies: every Newton solve of the step met solver.inner_tolerance
  solvers::SolverStatus solver_status = solvers::SolverStatus::Converged;
  solvers::SolverType solver_stage = solvers::SolverType::Nlgs;  // the solver that finished (auto: its stage)
  int solver_factorizations = 0;  // sparse factorisations of the solve (Newton-type solvers)
  std::string message;           // set when status != Ok: which body or contact went bad
};

/// The name of what gave the step's impulses: "penalty" with penalty contact, else the solver
/// (stage of `auto`) that finished it (solvers::to_string): history.csv's `solver_stage`.
std::string_view solver_stage_name(const Model& m, const StepReport& report);

/// The poses of the bodies in `s` and their contact::Mobility, as contact::detect_contacts takes
/// them (FFR bodies in contact on their shapes' faces kOnShape, other FE bodies kMeshed).
void detection_input(const Model& m, const State& s, std::vector<contact::Pose>& poses,
                     std::vector<std::uint8_t>& movable);

/// Stage 2: every contact of `s` with gap ≤ alert_distance [m], those between rigid, fixed or
/// driven bodies in ws.detected, those with an FE body (node to surface, or on the shapes' faces
/// from ws.shape_detected, mesh_contacts.hpp) in ws.mesh_detected, both sorted by (a, b,
/// feature); fills ws.poses and ws.movable (detection_input).
void detect_all(const Model& m, const State& s, double alert_distance, StepWorkspace& ws);

/// Advances `s` by one step of length m.step.h. On a non-finite result or a fatal solver failure
/// `s` is left unchanged (the last finite state) and the report says which body or contact.
StepReport step(const Model& m, State& s, StepWorkspace& ws);

}  // namespace nscd
