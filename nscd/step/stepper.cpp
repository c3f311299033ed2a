#include "nscd/step/stepper.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/timer.hpp"

#include "solvers/error_measure.hpp"
#include "solvers/stick_prediction.hpp"
#include "solvers/sweep_plan.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <optional>
#include <cmath>
#include <tuple>

namespace nscd {
namespace {

// a contact inherits last step's impulse of the nearest contact of the same pair within this
// fraction of the smaller body's bounding radius
constexpr double kWarmMatchFraction = 0.05;

// the position projection stops when no sweep changes a gap by more than this fraction of the
// activation gap δ (10⁻⁹ of the smallest body diameter), or after this many sweeps
constexpr double kProjectionToleranceFraction = 1e-3;
constexpr int kProjectionMaxSweeps = 200;

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
    switch (body.kind) {
      case BodyKind::Rigid:
        ws.free[b] = free_motion(body.inertia_B, body.inv_inertia_B, s.q[b], s.v[b], s.w[b], m.step.gravity, h,
                                 m.step.theta);
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

// calls visit(point, sides) for the detected contacts between shapes and node to surface, in
// the order of (a, b, feature); sides on rigid, fixed and driven bodies have no material point
template <class Visit>
void for_each_detected(const StepWorkspace& ws, Visit&& visit) {
  const std::array<MeshSide, 2> no_mesh{};
  auto key = [](const contact::ContactPoint& c) { return std::tie(c.a, c.b, c.feature); };
  std::size_t i = 0, j = 0;
  while (i < ws.detected.size() || j < ws.mesh_detected.size()) {
    if (j == ws.mesh_detected.size() ||
        (i < ws.detected.size() && key(ws.detected[i]) < key(ws.mesh_detected[j].point))) {
      visit(ws.detected[i++], no_mesh);
    } else {
      visit(ws.mesh_detected[j].point, ws.mesh_detected[j].sides);
      ++j;
    }
  }
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

// lever arm of side `side` of contact c: O_{i+1} X_α on an FFR body, else p − x
Vec3 lever_arm(const Model& m, const State& s, const StepWorkspace& ws, const contact::ContactPoint& c,
               const std::array<MeshSide, 2>& sides, int side) {
  const int b = side == 0 ? c.a : c.b;
  switch (m.bodies[b].kind) {
    case BodyKind::Ffr:
      return ws.ffr[m.bodies[b].ffr_index].rotation.O * sides[side].X_B;
    case BodyKind::Rigid:
    case BodyKind::Tl:
    case BodyKind::Linear:
    case BodyKind::Fixed:
    case BodyKind::Driven:
      break;
  }
  return c.p_W - s.x[b];
}

// eqs. (2)–(3) of contact_jacobian.hpp for contact c at the current rotations (J.point kept)
void linearize(const Model& m, const State& s, const StepWorkspace& ws, const contact::ContactPoint& c,
               const std::array<MeshSide, 2>& sides, ContactJacobian& J) {
  fill_jacobian(c, lever_arm(m, s, ws, c, sides, 0), lever_arm(m, s, ws, c, sides, 1), J);
  for (int side = 0; side < 2; ++side) {
    const int b = J.body[side];
    J.movable[side] = ws.movable[b] != 0;
    switch (m.bodies[b].kind) {
      case BodyKind::Rigid:
      case BodyKind::Ffr:
        // eq. (3): M̂⁻¹ Gᵀ with M̂⁻¹ = diag(I/m, R̃ J_B⁻¹ R̃ᵀ)
        J.Y[side].topRows<3>() = J.G[side].leftCols<3>().transpose() / m.bodies[b].mass;
        J.Y[side].bottomRows<3>() = ws.free[b].inv_inertia_W * J.G[side].rightCols<3>().transpose();
        break;
      case BodyKind::Tl:
      case BodyKind::Linear:  // nodal unknowns only: W from eq. (6) alone
        J.G[side].setZero();
        J.Y[side].setZero();
        break;
      case BodyKind::Fixed:
      case BodyKind::Driven:
        J.Y[side].setZero();
        break;
    }
  }
}

// contact_jacobian.hpp eq. (5) summed over the sides on a mesh: at the start of the step
// (O_i, λ_i), or free at its end (O_{i+1}, λ_free); TL and linear sides: tl_coupling.hpp
Vec3 deformation_velocity(const Model& m, const State& s, const StepWorkspace& ws, const contact::ContactPoint& c,
                          const std::array<MeshSide, 2>& sides, bool at_end) {
  Vec3 u = Vec3::Zero();
  for (int side = 0; side < 2; ++side) {
    const int b = side == 0 ? c.a : c.b;
    const BodyModel& body = m.bodies[b];
    const Mat3 sigma_C = side == 0 ? Mat3(-c.R_WC) : c.R_WC;
    switch (body.kind) {
      case BodyKind::Ffr: {
        const FfrStepData& data = ws.ffr[body.ffr_index];
        const Mat3& O = at_end ? data.rotation.O : data.O_i;
        u += at_end ? deformable_velocity(sides[side], O.transpose() * sigma_C, data.lambda_free, data.mean_lambda_free)
                    : deformable_velocity(sides[side], O.transpose() * sigma_C, s.lambda[body.ffr_index],
                                          data.mean_lambda_i);
        break;
      }
      case BodyKind::Tl:
      case BodyKind::Linear:
        u += deformable_velocity(sides[side], tl_orientation(m, b, sigma_C),
                                 at_end ? ws.tl[body.tl_index].lambda_free : s.tl_lambda[body.tl_index], Vec3::Zero());
        break;
      case BodyKind::Rigid:
      case BodyKind::Fixed:
      case BodyKind::Driven:
        break;
    }
  }
  return u;
}

// the material point of side `side` of active contact i, a side on a mesh
MeshPoint mesh_point(const Model& m, StepWorkspace& ws, int i, int side) {
  const ActiveContact& contact = ws.contacts.active[i];
  const int b = side == 0 ? contact.point.a : contact.point.b;
  switch (m.bodies[b].kind) {
    case BodyKind::Ffr:
      return make_ffr_point(m, contact.point, i, side, contact.sides[side], ws.ffr);
    case BodyKind::Tl:
    case BodyKind::Linear:
      return make_tl_point(m, contact.point, i, side, contact.sides[side], ws.tl);
    case BodyKind::Rigid:
    case BodyKind::Fixed:
    case BodyKind::Driven:
      break;
  }
  NSCD_DEMAND(has_mesh(m.bodies[b].kind));
  return {};
}

// whether contact c has an FFR, TL or linear side
bool has_mesh_side(const Model& m, const contact::ContactPoint& c) {
  return has_mesh(m.bodies[c.a].kind) || has_mesh(m.bodies[c.b].kind);
}

// u_free of active contact i at the current rotations, with Newton restitution on approach
Vec3 free_velocity(const Model& m, const State& s, const StepWorkspace& ws, int i) {
  const ActiveContact& contact = ws.contacts.active[i];
  const contact::ContactPoint& c = contact.point;
  const ContactJacobian& J = ws.contacts.active.jacobian(i);
  Vec3 u = contact_velocity(J, stack(ws.free[c.a].v, ws.free[c.a].w), stack(ws.free[c.b].v, ws.free[c.b].w));
  if (m.has_meshes()) u += deformation_velocity(m, s, ws, c, contact.sides, true);
  if (contact.gap_row) {
    // stage 3's gap row: θ u_n⁺ + (1 − θ) u_n⁻ + g/h ≥ 0, the predicted gap kept open
    u[0] += ((1 - m.step.theta) * contact.u_old[0] + c.gap / m.step.h) / m.step.theta;
    return u;
  }
  const ContactLaw& law = m.law(m.bodies[c.a].material, m.bodies[c.b].material);
  u[0] += law.restitution * std::min(contact.u_old[0], 0.0);
  return u;
}

// the body form of the problem of rigid bodies (solvers/body_coupling.hpp): M = blockdiag(m I,
// J_W) with J_W the inverse of linearize's R̃ J_B⁻¹ R̃ᵀ (identity blocks for the bodies without
// unknowns, which no contact touches), and H of the blocks G of each movable side
void build_coupling(const Model& m, StepWorkspace& ws) {
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(18 * static_cast<std::size_t>(m.nb()));
  for (int b = 0; b < m.nb(); ++b) {
    Mat3 inertia = Mat3::Identity();
    double mass = 1.0;
    if (ws.movable[b] != 0) {
      inertia = ws.free[b].inv_inertia_W.inverse();
      mass = m.bodies[b].mass;
    }
    for (int k = 0; k < 3; ++k) {
      entries.emplace_back(6 * b + k, 6 * b + k, mass);
      for (int l = 0; l < 3; ++l) entries.emplace_back(6 * b + 3 + k, 6 * b + 3 + l, inertia(k, l));
    }
  }
  const Eigen::Index n = 6 * static_cast<Eigen::Index>(m.nb());
  ws.contacts.body_form.M.resize(n, n);
  ws.contacts.body_form.M.setFromTriplets(entries.begin(), entries.end());
  entries.clear();
  const std::vector<ContactJacobian>& jacobians = ws.contacts.active.jacobians();
  for (std::size_t i = 0; i < jacobians.size(); ++i)
    for (int side = 0; side < 2; ++side) {
      if (!jacobians[i].movable[side]) continue;
      const int b = jacobians[i].body[side];
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 6; ++l) entries.emplace_back(3 * static_cast<int>(i) + k, 6 * b + l, jacobians[i].G[side](k, l));
    }
  solvers::BodyCoupling& body_form = ws.contacts.body_form;
  body_form.H.resize(3 * static_cast<Eigen::Index>(jacobians.size()), n);
  body_form.H.setFromTriplets(entries.begin(), entries.end());
}

// W of the active contacts at the current rotations
void assemble(const Model& m, StepWorkspace& ws) {
  const std::vector<MeshPoint>& points = ws.mesh_points;
  ws.contacts.problem.W = assemble_delassus(ws.contacts.active.jacobians(), m.nb(),
                                            [&points](int p, int q) { return mesh_block(points[p], points[q]); });
}

// stage 3 for one detected contact: added to the active ones when its predicted gap is below
// the activation gap, or as a gap row with the projection on and no side on a mesh
void activate(const Model& m, const State& s, StepWorkspace& ws, const contact::ContactPoint& c,
              const std::array<MeshSide, 2>& sides) {
  const double h = m.step.h, theta = m.step.theta;
  ContactJacobian J;
  linearize(m, s, ws, c, sides, J);
  Vec3 u_old = contact_velocity(J, stack(s.v[c.a], s.w[c.a]), stack(s.v[c.b], s.w[c.b]));
  Vec3 u_free = contact_velocity(J, stack(ws.free[c.a].v, ws.free[c.a].w), stack(ws.free[c.b].v, ws.free[c.b].w));
  if (m.has_meshes()) {
    u_old += deformation_velocity(m, s, ws, c, sides, false);
    u_free += deformation_velocity(m, s, ws, c, sides, true);
  }
  const double g_pred = c.gap + h * (theta * u_free[0] + (1 - theta) * u_old[0]);
  const bool gap_row = g_pred > m.step.activation_gap;
  if (gap_row && !(m.step.projection && !has_mesh_side(m, c))) return;
  NSCD_DEMAND(m.law(m.bodies[c.a].material, m.bodies[c.b].material).defined);  // io::read_scene refuses
                                                                               // scenes with a missing interaction
  ws.contacts.active.add({c, sides, u_old, gap_row}, J);
}

// stages 3–4: active contacts, their Jacobians and the problem (W, q, μ)
void build_problem(const Model& m, const State& s, StepWorkspace& ws) {
  ActiveContacts& active = ws.contacts.active;
  active.clear();
  ws.mesh_points.clear();
  for_each_detected(ws, [&](const contact::ContactPoint& c, const std::array<MeshSide, 2>& sides) {
    activate(m, s, ws, c, sides);
  });
  const int nc = active.size();
  for (int i = 0; m.has_meshes() && i < nc; ++i)
    for (int side = 0; side < 2; ++side)
      if (active[i].sides[side].on_mesh()) {
        active.jacobian(i).point[side] = static_cast<int>(ws.mesh_points.size());
        ws.mesh_points.push_back(mesh_point(m, ws, i, side));
      }
  active.check(m);
  solvers::FrictionProblem& problem = ws.contacts.problem;
  problem.q.resize(3 * nc);
  problem.mu.resize(nc);
  for (int i = 0; i < nc; ++i) {
    const contact::ContactPoint& c = active[i].point;
    problem.q.segment<3>(3 * i) = free_velocity(m, s, ws, i);
    problem.mu[i] = m.law(m.bodies[c.a].material, m.bodies[c.b].material).friction;
  }
  assemble(m, ws);
}

// W and q again at the rotations of the last Rotator pass (Algorithm 1, outer loop)
void relinearize(const Model& m, const State& s, StepWorkspace& ws) {
  for (MeshPoint& point : ws.mesh_points) orient_ffr_point(ws.ffr, point);
  ActiveContacts& active = ws.contacts.active;
  for (int i = 0; i < active.size(); ++i) {
    linearize(m, s, ws, active[i].point, active[i].sides, active.jacobian(i));
    ws.contacts.problem.q.segment<3>(3 * i) = free_velocity(m, s, ws, i);
  }
  assemble(m, ws);
}

// the inner loop of Algorithm 1 for impulses r: the Rotator of FFR bodies, Newton for TL bodies;
// returns the largest count of either
int solve_inner(const Model& m, const State& s, const Eigen::VectorXd& r, StepWorkspace& ws) {
  const int rotations = rotate_ffr_bodies(m, s, ws.mesh_points, r, ws.ffr, ws.free);
  return std::max(rotations, solve_tl_bodies(m, s, ws.mesh_points, r, ws.tl));
}

// stage 5 with FE bodies: Algorithm 1 of [Lozovskiy & Dubois 2016], outer iterations on R, each
// followed by the inner loop (solve_inner); returns the largest inner count. With NLGS an outer
// iteration is one sweep, as in the paper (also with auto, whose first stage is NLGS); with the
// other solvers it is a full solve at the current linearisation, and the loop stops when the
// impulses of the last solve already satisfy the relinearised problem to the tolerance.
int solve_coupled(const Model& m, const State& s, StepWorkspace& ws) {
  Eigen::VectorXd r = ws.r0;
  int inner = solve_inner(m, s, r, ws);
  for (const TlStepData& data : ws.tl) inner = std::max(inner, data.iterations);  // and the free solves
  ws.contacts.solution = solvers::SolverResult{r, r, solvers::SolverStatus::Converged, 0, 0.0};
  if (ws.contacts.problem.nc() == 0) return inner;
  const double tolerance = solvers::tolerance(m.step.solver);
  const bool sweeps = m.step.solver.type == solvers::SolverType::Nlgs || m.step.solver.type == solvers::SolverType::Auto;
  solvers::SolverOptions outer = m.step.solver;
  if (sweeps) solvers::set_stopping(outer, tolerance, 1);
  for (int j = 1; j <= solvers::max_iterations(m.step.solver); ++j) {
    relinearize(m, s, ws);
    if (!sweeps && j > 1) {
      const Eigen::VectorXd u = ws.contacts.problem.W.apply(r) + ws.contacts.problem.q;
      if (solvers::error_measure(ws.contacts.problem, r, u) <= tolerance) break;
    }
    ws.contacts.solution = solvers::solve(ws.contacts.problem, outer, r);
    ws.contacts.solution.iterations = j;
    if (ws.contacts.solution.status == solvers::SolverStatus::NonFinite) return inner;
    r = ws.contacts.solution.r;
    inner = std::max(inner, solve_inner(m, s, r, ws));
    ws.contacts.solution.status = ws.contacts.solution.error <= tolerance ? solvers::SolverStatus::Converged
                                                    : solvers::SolverStatus::MaxIterations;
    if (sweeps && ws.contacts.solution.status == solvers::SolverStatus::Converged) break;
  }
  return inner;
}

// r0 = the stick prediction of the contacts activated by the predicted gap; gap rows start at 0.
// Gap rows are left out of it: "stop every contact" would make them pull (their q_n holds g/h),
// and the other contacts would take huge impulses to balance the pull.
void stick_start(StepWorkspace& ws) {
  const int nc = ws.contacts.problem.nc();
  std::vector<int> activated;  // the sub-problem's contacts, in index order
  for (int i = 0; i < nc; ++i)
    if (!ws.contacts.active[i].gap_row) activated.push_back(i);
  if (static_cast<int>(activated.size()) == nc) {
    if (std::optional<Eigen::VectorXd> r = solvers::stick_prediction(ws.contacts.problem)) ws.r0 = std::move(*r);
    return;
  }
  const std::optional<Eigen::VectorXd> r = solvers::stick_prediction(solvers::renumbered(ws.contacts.problem, activated));
  if (!r) return;
  ws.r0.setZero(3 * nc);
  for (std::size_t k = 0; k < activated.size(); ++k)
    ws.r0.segment<3>(3 * activated[k]) = r->segment<3>(3 * static_cast<Eigen::Index>(k));
}

// initial impulses: last step's impulse of the same contact (same bodies, point within a small
// distance in body a's frame; features are not used, as the clipping of coincident faces may
// relabel them), turned into the new contact frame; when most contacts are new, the stick
// prediction instead. Not extrapolated from two steps: impulses of redundant contacts are not
// unique, and an extrapolation would make their drift grow without bound.
void initial_impulses(const Model& m, const State& s, StepWorkspace& ws) {
  const int nc = ws.contacts.active.size();
  ws.r0.setZero(3 * nc);
  int matched = 0;
  std::size_t first = 0;  // first remembered contact of the current pair
  for (int i = 0; i < nc; ++i) {
    const contact::ContactPoint& c = ws.contacts.active[i].point;
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
  if (2 * matched < nc) stick_start(ws);
}

// stage 6: velocities and poses at the end of the step, into the workspace
void compute_next_state(const Model& m, const State& s, StepWorkspace& ws) {
  const double h = m.step.h, theta = m.step.theta;
  // generalised impulses per body, summed in contact order (deterministic)
  std::vector<Vec6> dV(m.nb(), Vec6::Zero());
  const Eigen::VectorXd& r = ws.contacts.solution.r;
  const std::vector<ContactJacobian>& jacobians = ws.contacts.active.jacobians();
  for (std::size_t i = 0; i < jacobians.size(); ++i)
    for (int side = 0; side < 2; ++side)
      if (jacobians[i].movable[side])
        dV[jacobians[i].body[side]] += jacobians[i].Y[side] * r.segment<3>(3 * static_cast<Eigen::Index>(i));

  ws.next_x = s.x;
  ws.next_q = s.q;
  ws.next_v.resize(m.nb());
  ws.next_w.resize(m.nb());
  ws.next_psi.resize(m.ffr_bodies.size());
  ws.next_lambda.resize(m.ffr_bodies.size());
  ws.next_tl_psi.resize(m.tl_bodies.size());
  ws.next_tl_lambda.resize(m.tl_bodies.size());
  tbb::parallel_for(0, m.nb(), [&](int b) {
    const BodyModel& body = m.bodies[b];
    ws.next_v[b] = ws.free[b].v + dV[b].head<3>();
    ws.next_w[b] = ws.free[b].w + dV[b].tail<3>();
    switch (body.kind) {
      case BodyKind::Rigid:
        integrate_pose(ws.next_x[b], ws.next_q[b], s.v[b], s.w[b], ws.next_v[b], ws.next_w[b], h, theta);
        break;
      case BodyKind::Ffr: {
        // eqs. (15), (16), (24) by the Rotator; (19) and the trapezoidal rule
        const int d = body.ffr_index;
        const FfrStepData& data = ws.ffr[d];
        ws.next_w[b] = data.rotation.w;
        ws.next_q[b] = Quat(data.rotation.O).normalized();
        ws.next_x[b] += 0.5 * h * (s.v[b] + ws.next_v[b]);
        ws.next_lambda[d] = end_of_step_lambda(data, ws.mesh_points, r, d);
        ws.next_psi[d] = s.psi[d] + 0.5 * h * (s.lambda[d] + ws.next_lambda[d]);
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

// the rows of eq. (3) of position_projection.hpp: contacts with a deformable side are skipped,
// those with a compressive impulse are closed
ProjectedRow projected_row(const Model& m, const StepWorkspace& ws, int i) {
  if (has_mesh_side(m, ws.contacts.active[i].point)) return ProjectedRow::Skipped;
  return ws.contacts.solution.r[3 * static_cast<Eigen::Index>(i)] > 0 ? ProjectedRow::Closed : ProjectedRow::Unilateral;
}

// stage 7: position_projection.hpp, eqs. (1)–(4), on the next state in the workspace
void project_positions(const Model& m, StepWorkspace& ws) {
  const double h = m.step.h, theta = m.step.theta;
  const int nc = ws.contacts.problem.nc();
  ws.gap_end.resize(nc);
  ws.projected_rows.resize(nc);
  for (int i = 0; i < nc; ++i) {
    const ActiveContact& contact = ws.contacts.active[i];
    const contact::ContactPoint& c = contact.point;
    ws.projected_rows[i] = projected_row(m, ws, i);
    if (ws.projected_rows[i] == ProjectedRow::Skipped) continue;
    // eq. (1)
    const double u_next = contact_velocity(ws.contacts.active.jacobian(i), stack(ws.next_v[c.a], ws.next_w[c.a]),
                                           stack(ws.next_v[c.b], ws.next_w[c.b]))[0];
    ws.gap_end[i] = c.gap + h * (theta * u_next + (1 - theta) * contact.u_old[0]);
  }
  ws.projection = project_gaps(ws.contacts.problem.W, ws.gap_end, ws.projected_rows,
                               kProjectionToleranceFraction * m.step.activation_gap, kProjectionMaxSweeps, ws.P);
  // eq. (4), summed per body in contact order (deterministic)
  std::vector<Vec6> dq(m.nb(), Vec6::Zero());
  for (int i = 0; i < nc; ++i)
    for (int side = 0; side < 2; ++side)
      if (const ContactJacobian& J = ws.contacts.active.jacobian(i); ws.P[i] != 0 && J.movable[side])
        dq[J.body[side]] += J.Y[side].col(0) * ws.P[i];
  for (int b = 0; b < m.nb(); ++b) {
    if (m.bodies[b].kind != BodyKind::Rigid) continue;
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

void detection_input(const Model& m, const State& s, std::vector<contact::Pose>& poses,
                     std::vector<std::uint8_t>& movable) {
  poses.resize(m.nb());
  movable.resize(m.nb());
  for (int b = 0; b < m.nb(); ++b) {
    poses[b] = {s.x[b], s.q[b]};
    const BodyKind kind = m.bodies[b].kind;
    movable[b] = kind == BodyKind::Rigid ? contact::kRigid : has_mesh(kind) ? contact::kMeshed : contact::kStatic;
  }
}

StepReport step(const Model& m, State& s, StepWorkspace& ws) {
  StepReport report;
  {
    ScopedTimer timer(&ws.timings.free_motion);
    compute_free_motion(m, s, ws);
  }
  {
    ScopedTimer timer(&ws.timings.detection);
    detection_input(m, s, ws.poses, ws.movable);
    const double alert = m.step.alert_distance + 2 * travel_bound(m, s, ws);
    contact::detect_contacts(m.shapes, ws.poses, ws.movable, alert, ws.detection_scratch, ws.detected);
    if (m.has_meshes()) {
      detect_mesh_contacts(m, s, alert, ws.mesh_detected);
    }
  }
  {
    ScopedTimer timer(&ws.timings.assembly);
    build_problem(m, s, ws);
    initial_impulses(m, s, ws);
  }
  {
    ScopedTimer timer(&ws.timings.solve);
    if (m.has_meshes()) report.inner_iterations = solve_coupled(m, s, ws);
    else if (m.step.solver.type != solvers::SolverType::Auto ||
             !solvers::newton_stage_possible(m.step.solver.automatic, 6 * static_cast<Eigen::Index>(m.nb()))) {
      ws.contacts.body_form = {};
      ws.contacts.solution = solvers::solve(ws.contacts.problem, m.step.solver, ws.r0);
    } else {
      build_coupling(m, ws);
      ws.contacts.solution = solvers::solve(ws.contacts.problem, m.step.solver, ws.r0, &ws.contacts.body_form);
    }
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
    commit(m, s, ws);
  }
  return report;
}

namespace {

// ½ uᵀ M u of FFR body b, u_k = Oᵀ v + Oᵀ ω × (X_k + ψ_k) + λ_k its nodal velocities in the body
// frame (eq. 8)
double ffr_kinetic_energy(const Model& m, const State& s, int b) {
  const int i = m.bodies[b].ffr_index;
  const ffr::FfrBody& f = m.ffr_bodies[i];
  const Mat3 O_T = s.q[b].toRotationMatrix().transpose();
  const Vec3 v_B = O_T * s.v[b], w_B = O_T * s.w[b];
  Eigen::VectorXd u(f.ndof());
  for (int k = 0; k < f.nn(); ++k)
    u.segment<3>(3 * k) =
        v_B + w_B.cross(f.mesh.nodes[k] + s.psi[i].segment<3>(3 * k)) + s.lambda[i].segment<3>(3 * k);
  return 0.5 * u.dot(f.mass_matrix * u);
}

}  // namespace

double kinetic_energy(const Model& m, const State& s) {
  double energy = 0;
  for (int b = 0; b < m.nb(); ++b) {
    const BodyModel& body = m.bodies[b];
    if (body.kind == BodyKind::Rigid) energy += kinetic_energy(body.mass, body.inertia_B, s.q[b], s.v[b], s.w[b]);
    if (body.kind == BodyKind::Ffr) energy += ffr_kinetic_energy(m, s, b);
    if (is_nodal(body.kind))
      energy += 0.5 * s.tl_lambda[body.tl_index].dot(m.tl_bodies[body.tl_index].fe.mass_matrix * s.tl_lambda[body.tl_index]);
  }
  return energy;
}

double potential_energy(const Model& m, const State& s) {
  double energy = 0;
  for (int b = 0; b < m.nb(); ++b) {
    const BodyModel& body = m.bodies[b];
    energy -= body.mass * m.step.gravity.dot(s.x[b]);
    if (body.kind == BodyKind::Ffr)
      energy += 0.5 * s.psi[body.ffr_index].dot(m.ffr_bodies[body.ffr_index].stiffness * s.psi[body.ffr_index]);
    if (is_nodal(body.kind)) energy += ffr::strain_energy(m.tl_bodies[body.tl_index], s.tl_psi[body.tl_index]);
  }
  return energy;
}

}  // namespace nscd
