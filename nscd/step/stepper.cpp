#include "nscd/step/stepper.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/timer.hpp"

#include "solvers/stick_prediction.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

namespace nscd {
namespace {

// a contact inherits last step's impulse of the nearest contact of the same pair within this
// fraction of the smaller body's bounding radius
constexpr double kWarmMatchFraction = 0.05;

Vec6 stack(const Vec3& v, const Vec3& w) {
  Vec6 V;
  V << v, w;
  return V;
}

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
    if (body.kind == BodyKind::Rigid) {
      ws.free[b] = free_motion(body.inertia_B, body.inv_inertia_B, s.q[b], s.v[b], s.w[b], m.step.gravity, h,
                               m.step.theta);
    } else {
      ws.free[b] = FreeMotion{};
      prescribed_velocity(body, s.t + h, ws.free[b].v, ws.free[b].w);
    }
  });
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

// stage 3–4: active contacts, their Jacobians and the problem (W, q, μ)
void build_problem(const Model& m, const State& s, StepWorkspace& ws) {
  const double h = m.step.h, theta = m.step.theta;
  ws.active.clear();
  ws.jacobians.clear();
  std::vector<double> q, mu;
  for (const contact::ContactPoint& c : ws.detected) {
    ContactJacobian J;
    fill_jacobian(c, s.x[c.a], s.x[c.b], J);
    const Eigen::Vector3d u_old = contact_velocity(J, stack(s.v[c.a], s.w[c.a]), stack(s.v[c.b], s.w[c.b]));
    const Eigen::Vector3d u_free =
        contact_velocity(J, stack(ws.free[c.a].v, ws.free[c.a].w), stack(ws.free[c.b].v, ws.free[c.b].w));
    const double g_pred = c.gap + h * (theta * u_free[0] + (1 - theta) * u_old[0]);
    if (g_pred > m.step.activation_gap) continue;
    const ContactLaw& law = m.law(m.bodies[c.a].material, m.bodies[c.b].material);
    NSCD_DEMAND(law.defined);  // io::read_scene refuses scenes with a missing interaction
    for (int side = 0; side < 2; ++side) {
      const int b = J.body[side];
      J.movable[side] = ws.movable[b] != 0;
      if (!J.movable[side]) {
        J.Y[side].setZero();
        continue;
      }
      // eq. (3): M̂⁻¹ Gᵀ with M̂⁻¹ = diag(I/m, R̃ J_B⁻¹ R̃ᵀ)
      J.Y[side].topRows<3>() = J.G[side].leftCols<3>().transpose() / m.bodies[b].mass;
      J.Y[side].bottomRows<3>() = ws.free[b].inv_inertia_W * J.G[side].rightCols<3>().transpose();
    }
    // Newton restitution on approaching contacts
    Eigen::Vector3d q_c = u_free;
    q_c[0] += law.restitution * std::min(u_old[0], 0.0);
    q.insert(q.end(), q_c.data(), q_c.data() + 3);
    mu.push_back(law.friction);
    ws.active.push_back(c);
    ws.jacobians.push_back(J);
  }
  ws.problem.W = assemble_delassus(ws.jacobians, m.nb());
  ws.problem.q = Eigen::Map<Eigen::VectorXd>(q.data(), static_cast<Eigen::Index>(q.size()));
  ws.problem.mu = Eigen::Map<Eigen::VectorXd>(mu.data(), static_cast<Eigen::Index>(mu.size()));
}

// initial impulses: last step's impulse of the same contact (same bodies, point within a small
// distance in body a's frame; features are not used, as the clipping of coincident faces may
// relabel them), turned into the new contact frame; when most contacts are new, the stick
// prediction instead. Not extrapolated from two steps: impulses of redundant contacts are not
// unique, and an extrapolation would make their drift grow without bound.
void initial_impulses(const Model& m, const State& s, StepWorkspace& ws) {
  const int nc = static_cast<int>(ws.active.size());
  ws.r0.setZero(3 * nc);
  int matched = 0;
  std::size_t first = 0;  // first remembered contact of the current pair
  for (int i = 0; i < nc; ++i) {
    const contact::ContactPoint& c = ws.active[i];
    const auto pair = std::make_pair(c.a, c.b);
    while (first < s.warm.size() && std::make_pair(s.warm[first].a, s.warm[first].b) < pair) ++first;
    const Vec3 p_A = s.q[c.a].conjugate() * (c.p_W - s.x[c.a]);
    double best = kWarmMatchFraction * std::min(m.bodies[c.a].bounding_radius, m.bodies[c.b].bounding_radius);
    const WarmContact* match = nullptr;
    for (std::size_t k = first; k < s.warm.size() && s.warm[k].a == c.a && s.warm[k].b == c.b; ++k) {
      const double distance = (s.warm[k].p_A - p_A).norm();
      if (distance < best) {
        best = distance;
        match = &s.warm[k];
      }
    }
    if (match == nullptr) continue;
    ws.r0.segment<3>(3 * i) = c.R_WC.transpose() * match->r_W;
    ++matched;
  }
  if (2 * matched < nc) ws.r0 = solvers::stick_prediction(ws.problem);
}

// stage 6: velocities and poses at the end of the step, into the workspace
void compute_next_state(const Model& m, const State& s, StepWorkspace& ws) {
  const double h = m.step.h, theta = m.step.theta;
  // generalised impulses per body, summed in contact order (deterministic)
  std::vector<Vec6> dV(m.nb(), Vec6::Zero());
  const Eigen::VectorXd& r = ws.result.r;
  for (std::size_t i = 0; i < ws.jacobians.size(); ++i)
    for (int side = 0; side < 2; ++side)
      if (ws.jacobians[i].movable[side])
        dV[ws.jacobians[i].body[side]] += ws.jacobians[i].Y[side] * r.segment<3>(3 * static_cast<Eigen::Index>(i));

  ws.next_x = s.x;
  ws.next_q = s.q;
  ws.next_v.resize(m.nb());
  ws.next_w.resize(m.nb());
  tbb::parallel_for(0, m.nb(), [&](int b) {
    const BodyModel& body = m.bodies[b];
    ws.next_v[b] = ws.free[b].v + dV[b].head<3>();
    ws.next_w[b] = ws.free[b].w + dV[b].tail<3>();
    if (body.kind == BodyKind::Driven) {
      // exact prescribed displacement, orientation by eq. (3)
      ws.next_x[b] += body.linear_motion->displacement(s.t + h) - body.linear_motion->displacement(s.t);
      integrate_orientation(ws.next_q[b], s.w[b], ws.next_w[b], h, theta);
    } else if (body.kind == BodyKind::Rigid) {
      integrate_pose(ws.next_x[b], ws.next_q[b], s.v[b], s.w[b], ws.next_v[b], ws.next_w[b], h, theta);
    }
  });
}

// the first body whose next state is not finite, or −1
int first_non_finite_body(const StepWorkspace& ws) {
  for (std::size_t b = 0; b < ws.next_x.size(); ++b)
    if (!ws.next_x[b].allFinite() || !ws.next_q[b].coeffs().allFinite() || !ws.next_v[b].allFinite() ||
        !ws.next_w[b].allFinite())
      return static_cast<int>(b);
  return -1;
}

// the first contact whose data or impulse is not finite, or −1
int first_non_finite_contact(const StepWorkspace& ws) {
  for (int i = 0; i < ws.problem.nc(); ++i)
    if (!ws.problem.q.segment<3>(3 * i).allFinite() || !ws.problem.W.diag(i).allFinite() ||
        !ws.result.r.segment<3>(3 * i).allFinite())
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
  s.warm.resize(ws.active.size());
  for (std::size_t i = 0; i < ws.active.size(); ++i) {
    const contact::ContactPoint& c = ws.active[i];
    s.warm[i] = {c.a, c.b, ws.poses[c.a].q_WB.conjugate() * (c.p_W - ws.poses[c.a].p_WB),
                 c.R_WC * ws.result.r.segment<3>(3 * static_cast<Eigen::Index>(i))};
  }
  s.t = m.step.h * static_cast<double>(++s.step);
}

}  // namespace

void detection_input(const Model& m, const State& s, std::vector<contact::Pose>& poses,
                     std::vector<std::uint8_t>& movable) {
  poses.resize(m.nb());
  movable.resize(m.nb());
  for (int b = 0; b < m.nb(); ++b) {
    poses[b] = {s.x[b], s.q[b]};
    movable[b] = m.bodies[b].kind == BodyKind::Rigid;
  }
}

StepReport step(const Model& m, State& s, StepWorkspace& ws) {
  StepReport report;
  {
    ScopedTimer timer(&ws.timings.detection);
    detection_input(m, s, ws.poses, ws.movable);
    compute_free_motion(m, s, ws);
    contact::detect_contacts(m.shapes, ws.poses, ws.movable, m.step.alert_distance + 2 * travel_bound(m, s, ws),
                             ws.detected);
  }
  {
    ScopedTimer timer(&ws.timings.assembly);
    build_problem(m, s, ws);
    initial_impulses(m, s, ws);
  }
  {
    ScopedTimer timer(&ws.timings.solve);
    ws.result = solvers::solve_nlgs(ws.problem, m.step.nlgs, ws.r0);
  }
  report.n_contacts = ws.problem.nc();
  report.solver_iterations = ws.result.iterations;
  report.solver_error = ws.result.error;
  report.solver_status = ws.result.status;
  if (ws.result.status == solvers::SolverStatus::NonFinite) {
    report.status = StepStatus::NonFinite;
    const int i = std::max(first_non_finite_contact(ws), 0);
    const contact::ContactPoint& c = ws.active[i];
    report.message = fmt::format("the contact solver produced non-finite impulses at t = {}, first at the contact "
                                 "between bodies \"{}\" and \"{}\" at ({:.6g}, {:.6g}, {:.6g})",
                                 s.t, m.bodies[c.a].name, m.bodies[c.b].name, c.p_W.x(), c.p_W.y(), c.p_W.z());
    return report;
  }
  if (ws.result.status == solvers::SolverStatus::MaxIterations && m.step.fail_on_divergence) {
    report.status = StepStatus::SolverFailed;
    report.message = fmt::format("the contact solver did not converge at t = {}: error {:.3g} after {} iterations",
                                 s.t, ws.result.error, ws.result.iterations);
    return report;
  }
  {
    ScopedTimer timer(&ws.timings.update);
    compute_next_state(m, s, ws);
    // a non-finite state is reported and not committed: s stays the last finite state
    if (const int b = first_non_finite_body(ws); b >= 0) {
      report.status = StepStatus::NonFinite;
      report.message =
          fmt::format("body \"{}\" would have a non-finite state at t = {}", m.bodies[b].name, s.t + m.step.h);
      return report;
    }
    commit(m, s, ws);
  }
  return report;
}

double kinetic_energy(const Model& m, const State& s) {
  double energy = 0;
  for (int b = 0; b < m.nb(); ++b)
    if (m.bodies[b].kind == BodyKind::Rigid)
      energy += kinetic_energy(m.bodies[b].mass, m.bodies[b].inertia_B, s.q[b], s.v[b], s.w[b]);
  return energy;
}

double potential_energy(const Model& m, const State& s) {
  double energy = 0;
  for (int b = 0; b < m.nb(); ++b) energy -= m.bodies[b].mass * m.step.gravity.dot(s.x[b]);
  return energy;
}

}  // namespace nscd
