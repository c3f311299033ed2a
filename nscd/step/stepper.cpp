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
    if (body.kind == BodyKind::Rigid) {
      ws.free[b] = free_motion(body.inertia_B, body.inv_inertia_B, s.q[b], s.v[b], s.w[b], m.step.gravity, h,
                               m.step.theta);
    } else if (is_nodal(body.kind)) {
      ws.free[b] = FreeMotion{};  // no rigid degrees of freedom: G = 0 at their contacts
    } else if (body.kind != BodyKind::Ffr) {
      ws.free[b] = FreeMotion{};
      prescribed_velocity(body, s.t + h, ws.free[b].v, ws.free[b].w);
    }
  });
  if (m.has_deformable()) begin_ffr_step(m, s, ws.ffr, ws.free);
  if (!m.tl_bodies.empty()) begin_tl_step(m, s, ws.tl);
}

// the node-to-surface contacts merged into the detected ones, both sorted by (a, b, feature)
void merge_deformable_contacts(StepWorkspace& ws) {
  const DeformableContacts& extra = ws.deformable_detected;
  std::vector<contact::ContactPoint> merged;
  std::vector<std::array<DeformableSide, 2>> sides;
  merged.reserve(ws.detected.size() + extra.points.size());
  sides.reserve(merged.capacity());
  auto key = [](const contact::ContactPoint& c) { return std::tie(c.a, c.b, c.feature); };
  std::size_t i = 0, j = 0;
  while (i < ws.detected.size() || j < extra.points.size()) {
    if (j == extra.points.size() || (i < ws.detected.size() && key(ws.detected[i]) < key(extra.points[j]))) {
      merged.push_back(ws.detected[i++]);
      sides.emplace_back();
    } else {
      merged.push_back(extra.points[j]);
      sides.push_back(extra.sides[j++]);
    }
  }
  ws.detected = std::move(merged);
  ws.detected_sides = std::move(sides);
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

// lever arm of side `side` of contact c: p − x, or O_{i+1} X_α on an FFR body
Vec3 lever_arm(const Model& m, const State& s, const StepWorkspace& ws, const contact::ContactPoint& c,
               const std::array<DeformableSide, 2>* sides, int side) {
  const int b = side == 0 ? c.a : c.b;
  if (sides != nullptr && (*sides)[side].deformable() && m.bodies[b].kind == BodyKind::Ffr)
    return ws.ffr[m.bodies[b].deformable].rotation.O * (*sides)[side].X_B;
  return c.p_W - s.x[b];
}

// eqs. (2)–(3) of contact_jacobian.hpp for contact c at the current rotations (J.point kept)
void linearize(const Model& m, const State& s, const StepWorkspace& ws, const contact::ContactPoint& c,
               const std::array<DeformableSide, 2>* sides, ContactJacobian& J) {
  fill_jacobian(c, lever_arm(m, s, ws, c, sides, 0), lever_arm(m, s, ws, c, sides, 1), J);
  for (int side = 0; side < 2; ++side) {
    const int b = J.body[side];
    J.movable[side] = ws.movable[b] != 0;
    if (is_nodal(m.bodies[b].kind)) J.G[side].setZero();  // nodal unknowns only: W from eq. (6) alone
    if (!J.movable[side] || is_nodal(m.bodies[b].kind)) {
      J.Y[side].setZero();
      continue;
    }
    // eq. (3): M̂⁻¹ Gᵀ with M̂⁻¹ = diag(I/m, R̃ J_B⁻¹ R̃ᵀ)
    J.Y[side].topRows<3>() = J.G[side].leftCols<3>().transpose() / m.bodies[b].mass;
    J.Y[side].bottomRows<3>() = ws.free[b].inv_inertia_W * J.G[side].rightCols<3>().transpose();
  }
}

// contact_jacobian.hpp eq. (5) summed over the deformable sides: at the start of the step
// (O_i, λ_i), or free at its end (O_{i+1}, λ_free); TL and linear sides: tl_coupling.hpp
Vec3 deformation_velocity(const Model& m, const State& s, const StepWorkspace& ws, const contact::ContactPoint& c,
                          const std::array<DeformableSide, 2>& sides, bool at_end) {
  Vec3 u = Vec3::Zero();
  for (int side = 0; side < 2; ++side) {
    if (!sides[side].deformable()) continue;
    const int b = side == 0 ? c.a : c.b;
    const int d = m.bodies[b].deformable;
    const Mat3 sigma_C = side == 0 ? Mat3(-c.R_WC) : c.R_WC;
    if (const int n = m.bodies[b].nodal; n >= 0) {
      u += deformable_velocity(sides[side], tl_orientation(m, b, sigma_C),
                               at_end ? ws.tl[n].lambda_free : s.tl_lambda[n], Vec3::Zero());
      continue;
    }
    const Mat3& O = at_end ? ws.ffr[d].rotation.O : ws.ffr[d].O_i;
    const FfrStepData& data = ws.ffr[d];
    u += at_end ? deformable_velocity(sides[side], O.transpose() * sigma_C, data.lambda_free, data.mean_lambda_free)
                : deformable_velocity(sides[side], O.transpose() * sigma_C, s.lambda[d], data.mean_lambda_i);
  }
  return u;
}

// whether contact c has an FFR, TL or linear side
bool has_deformable_side(const Model& m, const contact::ContactPoint& c) {
  return is_deformable(m.bodies[c.a].kind) || is_deformable(m.bodies[c.b].kind);
}

// u_free of active contact i at the current rotations, with Newton restitution on approach
Vec3 free_velocity(const Model& m, const State& s, const StepWorkspace& ws, int i) {
  const contact::ContactPoint& c = ws.active[i];
  const ContactJacobian& J = ws.jacobians[i];
  Vec3 u = contact_velocity(J, stack(ws.free[c.a].v, ws.free[c.a].w), stack(ws.free[c.b].v, ws.free[c.b].w));
  if (m.has_deformable()) u += deformation_velocity(m, s, ws, c, ws.active_sides[i], true);
  if (ws.gap_rows[i] != 0) {
    // stage 3's gap row: θ u_n⁺ + (1 − θ) u_n⁻ + g/h ≥ 0, the predicted gap kept open
    u[0] += ((1 - m.step.theta) * ws.u_old[i][0] + c.gap / m.step.h) / m.step.theta;
    return u;
  }
  const ContactLaw& law = m.law(m.bodies[c.a].material, m.bodies[c.b].material);
  u[0] += law.restitution * std::min(ws.u_old[i][0], 0.0);
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
  ws.coupling.M.resize(n, n);
  ws.coupling.M.setFromTriplets(entries.begin(), entries.end());
  entries.clear();
  for (std::size_t i = 0; i < ws.jacobians.size(); ++i)
    for (int side = 0; side < 2; ++side) {
      if (!ws.jacobians[i].movable[side]) continue;
      const int b = ws.jacobians[i].body[side];
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 6; ++l)
          entries.emplace_back(3 * static_cast<int>(i) + k, 6 * b + l, ws.jacobians[i].G[side](k, l));
    }
  ws.coupling.H.resize(3 * static_cast<Eigen::Index>(ws.jacobians.size()), n);
  ws.coupling.H.setFromTriplets(entries.begin(), entries.end());
}

// W of the active contacts at the current rotations
void assemble(const Model& m, StepWorkspace& ws) {
  const std::vector<DeformablePoint>& points = ws.deformable_points;
  ws.problem.W = assemble_delassus(ws.jacobians, m.nb(),
                                   [&points](int p, int q) { return deformable_block(points[p], points[q]); });
}

// stage 3–4: active contacts, their Jacobians and the problem (W, q, μ)
void build_problem(const Model& m, const State& s, StepWorkspace& ws) {
  const double h = m.step.h, theta = m.step.theta;
  const bool deformable = m.has_deformable();
  ws.active.clear();
  ws.active_sides.clear();
  ws.jacobians.clear();
  ws.u_old.clear();
  ws.gap_rows.clear();
  ws.deformable_points.clear();
  std::vector<double> mu;
  for (std::size_t k = 0; k < ws.detected.size(); ++k) {
    const contact::ContactPoint& c = ws.detected[k];
    const std::array<DeformableSide, 2>* sides = deformable ? &ws.detected_sides[k] : nullptr;
    ContactJacobian J;
    linearize(m, s, ws, c, sides, J);
    Vec3 u_old = contact_velocity(J, stack(s.v[c.a], s.w[c.a]), stack(s.v[c.b], s.w[c.b]));
    Vec3 u_free = contact_velocity(J, stack(ws.free[c.a].v, ws.free[c.a].w), stack(ws.free[c.b].v, ws.free[c.b].w));
    if (sides != nullptr) {
      u_old += deformation_velocity(m, s, ws, c, *sides, false);
      u_free += deformation_velocity(m, s, ws, c, *sides, true);
    }
    const double g_pred = c.gap + h * (theta * u_free[0] + (1 - theta) * u_old[0]);
    const bool gap_row = g_pred > m.step.activation_gap;
    if (gap_row && !(m.step.projection && !has_deformable_side(m, c))) continue;
    NSCD_DEMAND(m.law(m.bodies[c.a].material, m.bodies[c.b].material).defined);  // io::read_scene refuses
                                                                                 // scenes with a missing interaction
    mu.push_back(m.law(m.bodies[c.a].material, m.bodies[c.b].material).friction);
    ws.active.push_back(c);
    if (sides != nullptr) ws.active_sides.push_back(*sides);
    ws.jacobians.push_back(J);
    ws.u_old.push_back(u_old);
    ws.gap_rows.push_back(gap_row ? 1 : 0);
  }
  const int nc = static_cast<int>(ws.active.size());
  for (int i = 0; deformable && i < nc; ++i)
    for (int side = 0; side < 2; ++side)
      if (ws.active_sides[i][side].deformable()) {
        ws.jacobians[i].point[side] = static_cast<int>(ws.deformable_points.size());
        const int b = side == 0 ? ws.active[i].a : ws.active[i].b;
        ws.deformable_points.push_back(
            is_nodal(m.bodies[b].kind)
                ? make_tl_point(m, ws.active[i], i, side, ws.active_sides[i][side], ws.tl)
                : make_deformable_point(m, ws.active[i], i, side, ws.active_sides[i][side], ws.ffr));
      }
  ws.problem.q.resize(3 * nc);
  for (int i = 0; i < nc; ++i) ws.problem.q.segment<3>(3 * i) = free_velocity(m, s, ws, i);
  ws.problem.mu = Eigen::Map<Eigen::VectorXd>(mu.data(), static_cast<Eigen::Index>(mu.size()));
  assemble(m, ws);
}

// W and q again at the rotations of the last Rotator pass (Algorithm 1, outer loop)
void relinearize(const Model& m, const State& s, StepWorkspace& ws) {
  for (DeformablePoint& point : ws.deformable_points) orient_deformable_point(ws.ffr, point);
  const int nc = static_cast<int>(ws.active.size());
  for (int i = 0; i < nc; ++i) {
    linearize(m, s, ws, ws.active[i], &ws.active_sides[i], ws.jacobians[i]);
    ws.problem.q.segment<3>(3 * i) = free_velocity(m, s, ws, i);
  }
  assemble(m, ws);
}

// the inner loop of Algorithm 1 for impulses r: the Rotator of FFR bodies, Newton for TL bodies;
// returns the largest count of either
int solve_inner(const Model& m, const State& s, const Eigen::VectorXd& r, StepWorkspace& ws) {
  const int rotations = rotate_ffr_bodies(m, s, ws.deformable_points, r, ws.ffr, ws.free);
  return std::max(rotations, solve_tl_bodies(m, s, ws.deformable_points, r, ws.tl));
}

// Algorithm 1 by NLGS sweeps, one per outer iteration as in the paper, on W and q relinearised
// before each; from r, after the inner loop's count `inner`; returns the largest inner count
int sweep_coupled(const Model& m, const State& s, const solvers::NlgsOptions& options, Eigen::VectorXd r, int inner,
                  StepWorkspace& ws) {
  solvers::PreparedNlgs nlgs(ws.problem, options);  // relinearize() keeps W's pattern
  while (nlgs.sweeps_left() > 0) {
    relinearize(m, s, ws);
    ws.result = nlgs.sweep(r);
    if (ws.result.status == solvers::SolverStatus::NonFinite) return inner;
    r = ws.result.r;
    inner = std::max(inner, solve_inner(m, s, r, ws));
    if (ws.result.status == solvers::SolverStatus::Converged) break;
  }
  return inner;
}

// Algorithm 1 by full solves, one per outer iteration, until the impulses of the last solve
// already satisfy the relinearised problem to the tolerance (on eq. (3) of error_measure.hpp,
// whatever the solver's own measure); from r, after the inner count `inner`
int solve_coupled_fully(const Model& m, const State& s, Eigen::VectorXd r, int inner, StepWorkspace& ws) {
  const solvers::Stopping& stopping = m.step.solver.stopping();
  for (int j = 1; j <= stopping.max_iterations; ++j) {
    relinearize(m, s, ws);
    const solvers::FrictionProblem& p = ws.problem;
    if (j > 1 && solvers::error_measure(p, r, p.W.apply(r) + p.q) <= stopping.tolerance) break;
    ws.result = solvers::solve(ws.problem, m.step.solver, r);
    ws.result.iterations = j;
    if (ws.result.status == solvers::SolverStatus::NonFinite) return inner;
    r = ws.result.r;
    inner = std::max(inner, solve_inner(m, s, r, ws));
    ws.result.status = ws.result.error <= stopping.tolerance ? solvers::SolverStatus::Converged
                                                             : solvers::SolverStatus::MaxIterations;
  }
  return inner;
}

// stage 5 with FE bodies: Algorithm 1 of [Lozovskiy & Dubois 2016], outer iterations on R, each
// followed by the inner loop (solve_inner); returns the largest inner count. With NLGS an outer
// iteration is one sweep, as in the paper (also with auto, whose first stage is NLGS); with the
// other solvers it is a full solve at the current linearisation.
int solve_coupled(const Model& m, const State& s, StepWorkspace& ws) {
  const Eigen::VectorXd& r = ws.r0;
  int inner = solve_inner(m, s, r, ws);
  for (const TlStepData& data : ws.tl) inner = std::max(inner, data.iterations);  // and the free solves
  ws.result = solvers::SolverResult{r, r, solvers::SolverStatus::Converged, 0, 0.0};
  if (ws.problem.nc() == 0) return inner;
  if (const std::optional<solvers::NlgsOptions> nlgs = solvers::nlgs_sweeps(m.step.solver))
    return sweep_coupled(m, s, *nlgs, r, inner, ws);
  return solve_coupled_fully(m, s, r, inner, ws);
}

// r0 = the stick prediction of the contacts activated by the predicted gap; gap rows start at 0.
// Gap rows are left out of it: "stop every contact" would make them pull (their q_n holds g/h),
// and the other contacts would take huge impulses to balance the pull.
void stick_start(StepWorkspace& ws) {
  const int nc = ws.problem.nc();
  std::vector<int> activated;  // the sub-problem's contacts, in index order
  for (int i = 0; i < nc; ++i)
    if (ws.gap_rows[i] == 0) activated.push_back(i);
  if (static_cast<int>(activated.size()) == nc) {
    if (std::optional<Eigen::VectorXd> r = solvers::stick_prediction(ws.problem)) ws.r0 = std::move(*r);
    return;
  }
  const std::optional<Eigen::VectorXd> r = solvers::stick_prediction(solvers::renumbered(ws.problem, activated));
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
  if (2 * matched < nc) stick_start(ws);
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
  ws.next_psi.resize(m.ffr_bodies.size());
  ws.next_lambda.resize(m.ffr_bodies.size());
  ws.next_tl_psi.resize(m.tl_bodies.size());
  ws.next_tl_lambda.resize(m.tl_bodies.size());
  tbb::parallel_for(0, m.nb(), [&](int b) {
    const BodyModel& body = m.bodies[b];
    ws.next_v[b] = ws.free[b].v + dV[b].head<3>();
    ws.next_w[b] = ws.free[b].w + dV[b].tail<3>();
    if (body.kind == BodyKind::Ffr) {
      // eqs. (15), (16), (24) by the Rotator; (19) and the trapezoidal rule
      const int d = body.deformable;
      const FfrStepData& data = ws.ffr[d];
      ws.next_w[b] = data.rotation.w;
      ws.next_q[b] = Quat(data.rotation.O).normalized();
      ws.next_x[b] += 0.5 * h * (s.v[b] + ws.next_v[b]);
      ws.next_lambda[d] = end_of_step_lambda(data, ws.deformable_points, r, d);
      ws.next_psi[d] = s.psi[d] + 0.5 * h * (s.lambda[d] + ws.next_lambda[d]);
    } else if (is_nodal(body.kind)) {
      // eq. (1) of tl_body.hpp solved by the inner loop, and the trapezoidal rule
      const int n = body.nodal;
      end_tl_step(m, s, b, ws.tl[n], ws.next_tl_psi[n], ws.next_tl_lambda[n], ws.next_x[b], ws.next_v[b],
                  ws.next_w[b]);
    } else if (body.kind == BodyKind::Driven) {
      // exact prescribed displacement, orientation by eq. (3)
      ws.next_x[b] += body.linear_motion->displacement(s.t + h) - body.linear_motion->displacement(s.t);
      integrate_orientation(ws.next_q[b], s.w[b], ws.next_w[b], h, theta);
    } else if (body.kind == BodyKind::Rigid) {
      integrate_pose(ws.next_x[b], ws.next_q[b], s.v[b], s.w[b], ws.next_v[b], ws.next_w[b], h, theta);
    }
  });
}

// the rows of eq. (3) of position_projection.hpp: contacts with a deformable side are skipped,
// those with a compressive impulse are closed
ProjectedRow projected_row(const Model& m, const StepWorkspace& ws, int i) {
  if (has_deformable_side(m, ws.active[i])) return ProjectedRow::Skipped;
  return ws.result.r[3 * static_cast<Eigen::Index>(i)] > 0 ? ProjectedRow::Closed : ProjectedRow::Unilateral;
}

// stage 7: position_projection.hpp, eqs. (1)–(4), on the next state in the workspace
void project_positions(const Model& m, StepWorkspace& ws) {
  const double h = m.step.h, theta = m.step.theta;
  const int nc = ws.problem.nc();
  ws.gap_end.resize(nc);
  ws.projected_rows.resize(nc);
  for (int i = 0; i < nc; ++i) {
    const contact::ContactPoint& c = ws.active[i];
    ws.projected_rows[i] = projected_row(m, ws, i);
    if (ws.projected_rows[i] == ProjectedRow::Skipped) continue;
    // eq. (1)
    const double u_next = contact_velocity(ws.jacobians[i], stack(ws.next_v[c.a], ws.next_w[c.a]),
                                           stack(ws.next_v[c.b], ws.next_w[c.b]))[0];
    ws.gap_end[i] = c.gap + h * (theta * u_next + (1 - theta) * ws.u_old[i][0]);
  }
  ws.projection = project_gaps(ws.problem.W, ws.gap_end, ws.projected_rows,
                               kProjectionToleranceFraction * m.step.activation_gap, kProjectionMaxSweeps, ws.P);
  // eq. (4), summed per body in contact order (deterministic)
  std::vector<Vec6> dq(m.nb(), Vec6::Zero());
  for (int i = 0; i < nc; ++i)
    for (int side = 0; side < 2; ++side)
      if (ws.P[i] != 0 && ws.jacobians[i].movable[side])
        dq[ws.jacobians[i].body[side]] += ws.jacobians[i].Y[side].col(0) * ws.P[i];
  for (int b = 0; b < m.nb(); ++b) {
    if (m.bodies[b].kind != BodyKind::Rigid) continue;
    ws.next_x[b] += dq[b].head<3>();
    ws.next_q[b] = (exp_map(dq[b].tail<3>()) * ws.next_q[b]).normalized();
  }
}

// the contacts activated by stage 3's predicted gap, and the gap rows that carried an impulse
int active_contacts(const StepWorkspace& ws) {
  int n = 0;
  for (int i = 0; i < ws.problem.nc(); ++i)
    n += ws.gap_rows[i] == 0 || ws.result.r[3 * static_cast<Eigen::Index>(i)] > 0 ? 1 : 0;
  return n;
}

// the first body whose next state is not finite, or −1
int first_non_finite_body(const Model& m, const StepWorkspace& ws) {
  for (int b = 0; b < m.nb(); ++b) {
    const int d = m.bodies[b].deformable, n = m.bodies[b].nodal;
    if (!ws.next_x[b].allFinite() || !ws.next_q[b].coeffs().allFinite() || !ws.next_v[b].allFinite() ||
        !ws.next_w[b].allFinite() || (d >= 0 && !(ws.next_lambda[d].allFinite() && ws.next_psi[d].allFinite())) ||
        (n >= 0 && !(ws.next_tl_lambda[n].allFinite() && ws.next_tl_psi[n].allFinite())))
      return b;
  }
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
  std::swap(s.psi, ws.next_psi);
  std::swap(s.lambda, ws.next_lambda);
  std::swap(s.tl_psi, ws.next_tl_psi);
  std::swap(s.tl_lambda, ws.next_tl_lambda);
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
    const BodyKind kind = m.bodies[b].kind;
    movable[b] = kind == BodyKind::Rigid ? contact::kRigid : is_deformable(kind) ? contact::kDeformable : contact::kStatic;
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
    if (m.has_deformable()) {
      detect_deformable_contacts(m, s, alert, ws.deformable_detected);
      merge_deformable_contacts(ws);
    }
  }
  {
    ScopedTimer timer(&ws.timings.assembly);
    build_problem(m, s, ws);
    initial_impulses(m, s, ws);
  }
  {
    ScopedTimer timer(&ws.timings.solve);
    if (m.has_deformable()) report.inner_iterations = solve_coupled(m, s, ws);
    else if (m.step.solver.type != solvers::SolverType::Auto ||
             !solvers::newton_stage_possible(m.step.solver.automatic, 6 * static_cast<Eigen::Index>(m.nb()))) {
      ws.coupling = {};
      ws.result = solvers::solve(ws.problem, m.step.solver, ws.r0);
    } else {
      build_coupling(m, ws);
      ws.result = solvers::solve(ws.problem, m.step.solver, ws.r0, &ws.coupling);
    }
  }
  report.n_contacts = active_contacts(ws);
  for (const contact::ContactPoint& c : ws.active) report.max_penetration = std::max(report.max_penetration, -c.gap);
  for (const TlStepData& data : ws.tl) report.inner_converged = report.inner_converged && data.converged;
  report.solver_iterations = ws.result.iterations;
  report.solver_error = ws.result.error;
  report.solver_status = ws.result.status;
  report.solver_stage = ws.result.stage;
  report.solver_factorizations = ws.result.factorizations;
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
  const int i = m.bodies[b].deformable;
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
      energy += 0.5 * s.tl_lambda[body.nodal].dot(m.tl_bodies[body.nodal].fe.mass_matrix * s.tl_lambda[body.nodal]);
  }
  return energy;
}

double potential_energy(const Model& m, const State& s) {
  double energy = 0;
  for (int b = 0; b < m.nb(); ++b) {
    const BodyModel& body = m.bodies[b];
    energy -= body.mass * m.step.gravity.dot(s.x[b]);
    if (body.kind == BodyKind::Ffr)
      energy += 0.5 * s.psi[body.deformable].dot(m.ffr_bodies[body.deformable].stiffness * s.psi[body.deformable]);
    if (is_nodal(body.kind)) energy += ffr::strain_energy(m.tl_bodies[body.nodal], s.tl_psi[body.nodal]);
  }
  return energy;
}

}  // namespace nscd
