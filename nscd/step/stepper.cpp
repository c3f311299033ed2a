#include "nscd/step/stepper.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/timer.hpp"
#include "nscd/step/cohesion.hpp"
#include "nscd/step/contact_problem.hpp"
#include "nscd/step/contact_solve.hpp"
#include "nscd/step/shape_contacts.hpp"
#include "nscd/step/warm_start.hpp"


#include <tbb/parallel_for.h>

#include <algorithm>

namespace nscd {
namespace {

// the position projection stops when no sweep changes a gap by more than the activation gap δ
// (10⁻⁶ of the smallest body diameter), or after this many sweeps: an overlap below δ leaves the
// contact active, so that the next step sees it as touching and its velocity law holds it there
constexpr int kProjectionMaxSweeps = 200;

// prescribed velocities of a non-movable body at time t
void prescribed_velocity(const BodyModel& body, double t, Vec3& v, Vec3& w) {
  v = body.linear_motion ? body.linear_motion->velocity(t) : Vec3::Zero();
  w = body.angular_motion ? body.angular_motion->velocity(t) : Vec3::Zero();
}

// stage 1: free velocities of rigid bodies, prescribed ones of driven bodies at t + h
void compute_free_motion(const Model& m, const State& s, StepWorkspace& ws) {
  const double h = m.step.h;
  ws.free.resize(m.nb());
  tbb::parallel_for(0, m.nb(), [&](int b) {
    const BodyModel& body = m.bodies[b];
    switch (body.kind) {
      case BodyKind::Rigid:
        ws.free[b] = free_motion(body.mass, body.inertia_B, body.inv_inertia_B, s.q[b], s.v[b], s.w[b],
                                 m.step.gravity, step_load(m, b, s.t), h, m.step.theta);
        break;
      case BodyKind::Ffr:  // begin_ffr_step below
        break;
      case BodyKind::Tl:
      case BodyKind::Linear:  // no rigid degrees of freedom: G = 0 at their contacts
        ws.free[b] = FreeMotion{};
        break;
      case BodyKind::Fixed:
      case BodyKind::Driven:
        ws.free[b] = FreeMotion{};
        prescribed_velocity(body, s.t + h, ws.free[b].v, ws.free[b].w);
        break;
    }
  });
  if (m.has_meshes()) begin_ffr_step(m, s, ws.ffr, ws.free);
  if (!m.tl_bodies.empty()) begin_tl_step(m, s, ws.tl);
}

// largest distance a point of any body can travel in one step [m]
double travel_bound(const Model& m, const State& s, const StepWorkspace& ws) {
  double bound = 0;
  for (int b = 0; b < m.nb(); ++b) {
    const double speed = std::max(s.v[b].norm(), ws.free[b].v.norm()) +
                         std::max(s.w[b].norm(), ws.free[b].w.norm()) * m.bodies[b].bounding_radius;
    bound = std::max(bound, speed * m.step.h);
  }
  return bound;
}

// stage 6: velocities and poses at the end of the step, into the workspace
void compute_next_state(const Model& m, const State& s, StepWorkspace& ws) {
  const double h = m.step.h, theta = m.step.theta;
  const Eigen::VectorXd& r = ws.contacts.solution.r;
  const std::vector<Vec6> dV = body_velocity_changes(ws.contacts.active.jacobians(), m.nb(), r);

  ws.next_x = s.x;
  ws.next_q = s.q;
  ws.next_v.resize(m.nb());
  ws.next_w.resize(m.nb());
  ws.next_psi.resize(m.ffr_bodies.size());
  ws.next_lambda.resize(m.ffr_bodies.size());
  ws.next_tl_psi.resize(m.tl_bodies.size());
  ws.next_tl_lambda.resize(m.tl_bodies.size());
  const PointsByBody ffr_points = points_by_ffr_body(ws.mesh_points, m.ffr_bodies.size());
  tbb::parallel_for(0, m.nb(), [&](int b) {
    const BodyModel& body = m.bodies[b];
    ws.next_v[b] = ws.free[b].v + dV[b].head<3>();
    ws.next_w[b] = ws.free[b].w + dV[b].tail<3>();
    switch (body.kind) {
      case BodyKind::Rigid:
        integrate_pose(ws.next_x[b], ws.next_q[b], s.v[b], s.w[b], ws.next_v[b], ws.next_w[b], h, theta);
        break;
      case BodyKind::Ffr: {
        // eqs. (15), (16), (24) by the Rotator; (19) and the trapezoidal rule (R3 for unresolved modes)
        const int d = body.ffr_index;
        const FfrStepData& data = ws.ffr[d];
        ws.next_w[b] = data.rotation.w;
        ws.next_q[b] = Quat(data.rotation.O).normalized();
        ws.next_x[b] += 0.5 * h * (s.v[b] + ws.next_v[b]);
        ws.next_lambda[d] = end_of_step_lambda(data, ws.mesh_points, ffr_points, r, d);
        ws.next_psi[d] = ffr::next_deformation(m.ffr_bodies[d], s.psi[d], s.lambda[d], ws.next_lambda[d]);
        break;
      }
      case BodyKind::Tl:
      case BodyKind::Linear: {
        // eq. (1) of tl_body.hpp solved by the inner loop, and the trapezoidal rule
        const int n = body.tl_index;
        end_tl_step(m, s, b, ws.tl[n], ws.next_tl_psi[n], ws.next_tl_lambda[n], ws.next_x[b], ws.next_v[b],
                    ws.next_w[b]);
        break;
      }
      case BodyKind::Fixed:
        break;
      case BodyKind::Driven:
        // exact prescribed displacement, orientation by eq. (3)
        ws.next_x[b] += body.linear_motion->displacement(s.t + h) - body.linear_motion->displacement(s.t);
        integrate_orientation(ws.next_q[b], s.w[b], ws.next_w[b], h, theta);
        break;
    }
  });
}

// the rows of eq. (3) of position_projection.hpp: contacts not is_projected() are skipped, those
// with an FFR side unilateral, the others with a compressive impulse closed
ProjectedRow projected_row(const Model& m, const StepWorkspace& ws, int i) {
  const contact::ContactPoint& c = ws.contacts.active[i].point;
  if (!is_projected(m, c)) return ProjectedRow::Skipped;
  if (has_mesh_side(m, c)) return ProjectedRow::Unilateral;
  return ws.contacts.solution.r[3 * static_cast<Eigen::Index>(i)] > 0 ? ProjectedRow::Closed : ProjectedRow::Unilateral;
}

// stage 7: position_projection.hpp, eqs. (1)–(4), on the next state in the workspace
void project_positions(const Model& m, StepWorkspace& ws) {
  const int nc = ws.contacts.problem.nc();
  ws.gap_end.resize(nc);
  ws.projected_rows.resize(nc);
  for (int i = 0; i < nc; ++i) {
    const ActiveContact& contact = ws.contacts.active[i];
    const contact::ContactPoint& c = contact.point;
    ws.projected_rows[i] = projected_row(m, ws, i);
    if (ws.projected_rows[i] == ProjectedRow::Skipped) continue;
    // eq. (1); an FFR side's deformation is in the solver's u alone (contact_jacobian.hpp eq. (5))
    const double u_next =
        has_mesh_side(m, c) ? ws.contacts.solution.u[3 * static_cast<Eigen::Index>(i)] - normal_velocity_shift(m, contact)
                            : contact_velocity(ws.contacts.active.jacobian(i), body_velocity(ws.next_v[c.a], ws.next_w[c.a]),
                                               body_velocity(ws.next_v[c.b], ws.next_w[c.b]))[0];
    ws.gap_end[i] = end_of_step_gap(m, contact, u_next);
  }
  // eqs. (2)–(4), Δ[x; φ] per body into dq
  std::vector<Vec6>& dq = ws.projection_moves;
  ws.projection = project_gaps(ws.contacts.active.jacobians(), m.nb(), ws.gap_end, ws.projected_rows,
                               {m.step.activation_gap, kProjectionMaxSweeps, m.step.solver.nlgs.anderson_depth}, ws.P, dq);
  for (int b = 0; b < m.nb(); ++b) {
    if (m.bodies[b].kind != BodyKind::Rigid && m.bodies[b].kind != BodyKind::Ffr) continue;
    ws.next_x[b] += dq[b].head<3>();
    ws.next_q[b] = (exp_map(dq[b].tail<3>()) * ws.next_q[b]).normalized();
  }
}

// the contacts activated by stage 3's predicted gap, and the gap rows that carried an impulse
int active_contacts(const StepWorkspace& ws) {
  int n = 0;
  for (int i = 0; i < ws.contacts.problem.nc(); ++i)
    n += !ws.contacts.active[i].gap_row || ws.contacts.solution.r[3 * static_cast<Eigen::Index>(i)] > 0 ? 1 : 0;
  return n;
}

// the first body whose next state is not finite, or −1
int first_non_finite_body(const Model& m, const StepWorkspace& ws) {
  for (int b = 0; b < m.nb(); ++b) {
    const int d = m.bodies[b].ffr_index, n = m.bodies[b].tl_index;
    if (!ws.next_x[b].allFinite() || !ws.next_q[b].coeffs().allFinite() || !ws.next_v[b].allFinite() ||
        !ws.next_w[b].allFinite() || (d >= 0 && !(ws.next_lambda[d].allFinite() && ws.next_psi[d].allFinite())) ||
        (n >= 0 && !(ws.next_tl_lambda[n].allFinite() && ws.next_tl_psi[n].allFinite())))
      return b;
  }
  return -1;
}

// the first contact whose data or impulse is not finite, or −1
int first_non_finite_contact(const StepWorkspace& ws) {
  for (int i = 0; i < ws.contacts.problem.nc(); ++i)
    if (!ws.contacts.problem.q.segment<3>(3 * i).allFinite() || !ws.contacts.problem.W.diag(i).allFinite() ||
        !ws.contacts.solution.r.segment<3>(3 * i).allFinite())
      return i;
  return -1;
}

// moves the next state into s and remembers this step's impulses for the warm start (points in
// body a's frame at the start of the step)
void commit(const Model& m, State& s, StepWorkspace& ws) {
  std::swap(s.x, ws.next_x);
  std::swap(s.q, ws.next_q);
  std::swap(s.v, ws.next_v);
  std::swap(s.w, ws.next_w);
  std::swap(s.psi, ws.next_psi);
  std::swap(s.lambda, ws.next_lambda);
  std::swap(s.tl_psi, ws.next_tl_psi);
  std::swap(s.tl_lambda, ws.next_tl_lambda);
  const ActiveContacts& active = ws.contacts.active;
  s.warm.resize(active.size());
  for (int i = 0; i < active.size(); ++i) {
    const contact::ContactPoint& c = active[i].point;
    s.warm[i] = {c.a, c.b, ws.poses[c.a].q_WB.conjugate() * (c.p_W - ws.poses[c.a].p_WB),
                 c.R_WC * ws.contacts.solution.r.segment<3>(3 * static_cast<Eigen::Index>(i))};
  }
  s.t = m.step.h * static_cast<double>(++s.step);
}

}  // namespace

std::string_view solver_stage_name(const Model& m, const StepReport& report) {
  return m.step.penalty ? "penalty" : solvers::to_string(report.solver_stage);
}

const char* to_string(StepStatus status) {
  switch (status) {
    case StepStatus::Ok: return "completed";
    case StepStatus::NonFinite: return "non_finite";
    case StepStatus::SolverFailed: return "solver_failed";
  }
  return "unknown";
}

void detection_input(const Model& m, const State& s, std::vector<contact::Pose>& poses,
                     std::vector<std::uint8_t>& movable) {
  poses.resize(m.nb());
  movable.resize(m.nb());
  for (int b = 0; b < m.nb(); ++b) {
    poses[b] = {s.x[b], s.q[b]};
    movable[b] = mobility(m, b);
  }
}

void detect_all(const Model& m, const State& s, double alert_distance, StepWorkspace& ws) {
  detection_input(m, s, ws.poses, ws.movable);
  contact::detect_contacts(m.shapes, ws.poses, ws.movable, alert_distance, ws.detection_scratch, ws.detected,
                           &ws.shape_detected);
  ws.mesh_detected.clear();
  if (m.has_meshes()) detect_mesh_contacts(m, s, alert_distance, ws.shape_detected, ws.mesh_detected);
}

StepReport step(const Model& m, State& s, StepWorkspace& ws) {
  StepReport report;
  {
    ScopedTimer timer(&ws.timings.free_motion);
    compute_free_motion(m, s, ws);
  }
  {
    ScopedTimer timer(&ws.timings.detection);
    detect_all(m, s, m.step.alert_distance + 2 * travel_bound(m, s, ws), ws);
  }
  {
    ScopedTimer timer(&ws.timings.assembly);
    build_problem(m, s, ws);
    initial_impulses(m, s, ws);
  }
  {
    ScopedTimer timer(&ws.timings.solve);
    report.inner_iterations = solve_contacts(m, s, ws);
  }
  report.n_contacts = active_contacts(ws);
  for (const ActiveContact& c : ws.contacts.active) report.max_penetration = std::max(report.max_penetration, -c.point.gap);
  for (const TlStepData& data : ws.tl) report.inner_converged = report.inner_converged && data.converged;
  report.solver_iterations = ws.contacts.solution.iterations;
  report.solver_error = ws.contacts.solution.error;
  report.solver_status = ws.contacts.solution.status;
  report.solver_stage = ws.contacts.solution.stage;
  report.solver_factorizations = ws.contacts.solution.factorizations;
  if (ws.contacts.solution.status == solvers::SolverStatus::NonFinite) {
    report.status = StepStatus::NonFinite;
    const int i = std::max(first_non_finite_contact(ws), 0);
    const contact::ContactPoint& c = ws.contacts.active[i].point;
    report.message = fmt::format("the contact solver produced non-finite impulses at t = {}, first at the contact "
                                 "between bodies \"{}\" and \"{}\" at ({:.6g}, {:.6g}, {:.6g})",
                                 s.t, m.bodies[c.a].name, m.bodies[c.b].name, c.p_W.x(), c.p_W.y(), c.p_W.z());
    return report;
  }
  if (ws.contacts.solution.status == solvers::SolverStatus::MaxIterations && m.step.fail_on_divergence) {
    report.status = StepStatus::SolverFailed;
    report.message = fmt::format("the contact solver did not converge at t = {}: error {:.3g} after {} iterations",
                                 s.t, ws.contacts.solution.error, ws.contacts.solution.iterations);
    return report;
  }
  {
    ScopedTimer timer(&ws.timings.update);
    compute_next_state(m, s, ws);
    if (m.step.projection) project_positions(m, ws);
    // a non-finite state is reported and not committed: s stays the last finite state
    if (const int b = first_non_finite_body(m, ws); b >= 0) {
      report.status = StepStatus::NonFinite;
      report.message =
          fmt::format("body \"{}\" would have a non-finite state at t = {}", m.bodies[b].name, s.t + m.step.h);
      return report;
    }
    ws.contacts.bond_breaks.lost = commit_bonds(s, ws.contacts.active);
    commit(m, s, ws);
  }
  return report;
}

}  // namespace nscd
