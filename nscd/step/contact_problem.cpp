#include "nscd/step/contact_problem.hpp"

#include "nscd/core/error.hpp"
#include "nscd/step/cohesion.hpp"
#include "nscd/step/shape_contacts.hpp"
#include "solvers/modal_columns.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <tuple>

namespace nscd {
namespace {

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
        J.Y[side].topRows<3>() = J.G[side].leftCols<3>().transpose() * (1 / m.bodies[b].mass);
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

// contact_jacobian.hpp eq. (5) at side `side` of contact c, a side on a mesh: at the start of the
// step (O_i, λ_i; column 0) and free at its end (O_{i+1}, λ_free; column 1), both interpolated
// in one pass (interpolate); TL and linear sides: tl_coupling.hpp
Eigen::Matrix<double, 3, 2> side_deformation_velocities(const Model& m, const State& s, const StepWorkspace& ws,
                                                        const contact::ContactPoint& c,
                                                        const std::array<MeshSide, 2>& sides, int side) {
  const int b = side == 0 ? c.a : c.b;
  const BodyModel& body = m.bodies[b];
  const Mat3 sigma_C = side == 0 ? Mat3(-c.R_WC) : c.R_WC;
  Eigen::Matrix<double, 3, 2> u = Eigen::Matrix<double, 3, 2>::Zero();
  switch (body.kind) {
    case BodyKind::Ffr: {
      const int d = body.ffr_index;
      const FfrStepData& data = ws.ffr[d];
      const Eigen::Matrix<double, 3, 2> values =
          interpolate<2>(m.ffr_bodies[d], sides[side], {&s.lambda[d], &data.lambda_free});
      u.col(0) = Mat3(data.O_i.transpose() * sigma_C).transpose() * (values.col(0) - data.mean_lambda_i);
      u.col(1) = Mat3(data.rotation.O.transpose() * sigma_C).transpose() * (values.col(1) - data.mean_lambda_free);
      break;
    }
    case BodyKind::Tl:
    case BodyKind::Linear: {
      const TlStepData& data = ws.tl[body.tl_index];
      const Eigen::Matrix<double, 3, 2> values =
          interpolate<2>(m.tl_bodies[body.tl_index].fe, sides[side], {&s.tl_lambda[body.tl_index], &data.lambda_free});
      u.noalias() = tl_orientation(m, b, sigma_C).transpose() * values;
      break;
    }
    case BodyKind::Rigid:
    case BodyKind::Fixed:
    case BodyKind::Driven:
      break;
  }
  return u;
}

// the above summed over the two sides of contact c
Eigen::Matrix<double, 3, 2> deformation_velocities(const Model& m, const State& s, const StepWorkspace& ws,
                                                   const contact::ContactPoint& c,
                                                   const std::array<MeshSide, 2>& sides) {
  return side_deformation_velocities(m, s, ws, c, sides, 0) + side_deformation_velocities(m, s, ws, c, sides, 1);
}

// the free deformation velocity at the end of the step of active contact i, an FFR side's from
// its material point at its current rotation (free_deformable_velocity)
Vec3 free_deformation_velocity(const Model& m, const State& s, const StepWorkspace& ws, int i) {
  const ActiveContact& contact = ws.contacts.active[i];
  const ContactJacobian& J = ws.contacts.active.jacobian(i);
  Vec3 u = Vec3::Zero();
  for (int side = 0; side < 2; ++side) {
    const int p = J.point[side];
    if (p >= 0 && ws.mesh_points[p].ffr_index >= 0) {
      u += free_deformable_velocity(m, ws.ffr, ws.mesh_points[p]);
    } else {
      u += side_deformation_velocities(m, s, ws, contact.point, contact.sides, side).col(1);
    }
  }
  return u;
}

// writes into `point` the material point of side `side` of active contact i, a side on a mesh
void set_mesh_point(const Model& m, StepWorkspace& ws, int i, int side, MeshPoint& point) {
  const ActiveContact& contact = ws.contacts.active[i];
  const int b = side == 0 ? contact.point.a : contact.point.b;
  switch (m.bodies[b].kind) {
    case BodyKind::Ffr:
      set_ffr_point(m, contact.point, i, side, contact.sides[side], ws.ffr, point);
      return;
    case BodyKind::Tl:
    case BodyKind::Linear:
      set_tl_point(m, contact.point, i, side, contact.sides[side], ws.tl, point);
      return;
    case BodyKind::Rigid:
    case BodyKind::Fixed:
    case BodyKind::Driven:
      break;
  }
  NSCD_DEMAND(has_mesh(m.bodies[b].kind));
}

// u_free of active contact i at the current rotations, with Newton restitution on approach
Vec3 free_velocity(const Model& m, const State& s, const StepWorkspace& ws, int i) {
  const ActiveContact& contact = ws.contacts.active[i];
  const contact::ContactPoint& c = contact.point;
  const ContactJacobian& J = ws.contacts.active.jacobian(i);
  Vec3 u = contact_velocity(J, body_velocity(ws.free[c.a].v, ws.free[c.a].w), body_velocity(ws.free[c.b].v, ws.free[c.b].w));
  if (m.has_meshes()) u += free_deformation_velocity(m, s, ws, i);
  u[0] += normal_velocity_shift(m, contact);
  return u;
}

// W of the active contacts at the current rotations
solvers::DelassusMatrix delassus(const Model& m, const StepWorkspace& ws) {
  const std::vector<MeshPoint>& points = ws.mesh_points;
  const Eigen::MatrixXd oriented = orient_modal_points(m, points);
  return assemble_delassus(ws.contacts.active.jacobians(), m.nb(), [&points, &oriented](int p, int q) {
    return mesh_block(oriented, points, p, q);
  });
}

void assemble(const Model& m, StepWorkspace& ws) {
  ws.contacts.problem.W = delassus(m, ws);
  ws.contacts.delassus_assembled = true;
  ++ws.contacts.delassus_assemblies;
}

// the index of each FFR body's first modal unknown, after the frames' 6 per body, in the layout
// of solvers/contact_bodies.hpp (−1 for the other bodies, and for every body when no contact
// point is on a mesh); n_modal their number
std::vector<int> first_modal_unknowns(const Model& m, const StepWorkspace& ws, int& n_modal) {
  std::vector<int> first(static_cast<std::size_t>(m.nb()), -1);
  n_modal = 0;
  for (int b = 0; b < m.nb() && !ws.mesh_points.empty(); ++b) {
    if (m.bodies[b].kind != BodyKind::Ffr) continue;
    first[b] = 6 * m.nb() + n_modal;
    n_modal += m.ffr_bodies[m.bodies[b].ffr_index].ncoordinates();
  }
  return first;
}

}  // namespace

bool sweeps_on_sides(const StepWorkspace& ws) {
  return std::ranges::all_of(ws.mesh_points, [](const MeshPoint& p) { return p.rows_t.size() > 0; });
}

void defer_assembly(const Model& m, StepWorkspace& ws) {
  NSCD_DEMAND(sweeps_on_sides(ws));
  const std::vector<ContactJacobian>& jacobians = ws.contacts.active.jacobians();
  const int nc = static_cast<int>(jacobians.size());
  solvers::ContactBodies& bodies = ws.contacts.bodies;
  bodies.n_bodies = m.nb();
  const std::vector<int> first_mode = first_modal_unknowns(m, ws, bodies.n_modal);
  bodies.modal_rows = orient_modal_points(m, ws.mesh_points);
  bodies.contacts.resize(jacobians.size());
  std::vector<Eigen::Matrix3d> diag(nc);
  tbb::parallel_for(0, nc, [&](int i) {
    const ContactJacobian& J = jacobians[i];
    solvers::ContactSides& sides = bodies.contacts[i];
    for (int side = 0; side < 2; ++side) {
      sides.body[side] = J.movable[side] ? J.body[side] : -1;
      sides.G[side] = J.G[side];
      sides.Y[side] = J.Y[side];
      const int p = J.point[side];
      sides.modal[side] = p >= 0 ? first_mode[J.body[side]] : -1;
      sides.column[side] = 6 * std::max(p, 0);
      sides.modes[side] = p >= 0 ? static_cast<int>(ws.mesh_points[p].rows_t.rows()) : 0;
    }
    diag[i] = solvers::diagonal_block(bodies, i);
  });
  ws.contacts.problem.W = solvers::DelassusMatrix::from_block_rows(std::move(diag), std::vector<int>(nc + 1, 0), {}, {});
  ws.contacts.delassus_assembled = false;
}

namespace {

// stage 3 for one detected contact: added to the active ones when its predicted gap is below
// the activation gap, or as a gap row with the projection on and no side on a mesh; then its
// q_α (free_velocity) is appended to q
void activate(const Model& m, const State& s, StepWorkspace& ws, const contact::ContactPoint& c,
              const std::array<MeshSide, 2>& sides, std::vector<Vec3>& q) {
  const double h = m.step.h, theta = gap_theta(m, c);
  ContactJacobian J;
  linearize(m, s, ws, c, sides, J);
  Vec3 u_old = contact_velocity(J, body_velocity(s.v[c.a], s.w[c.a]), body_velocity(s.v[c.b], s.w[c.b]));
  Vec3 u_free = contact_velocity(J, body_velocity(ws.free[c.a].v, ws.free[c.a].w), body_velocity(ws.free[c.b].v, ws.free[c.b].w));
  if (m.has_meshes()) {
    const Eigen::Matrix<double, 3, 2> u = deformation_velocities(m, s, ws, c, sides);
    u_old += u.col(0);
    u_free += u.col(1);
  }
  const double g_pred = c.gap + h * (theta * u_free[0] + (1 - theta) * u_old[0]);
  const Bond bond = bond_state(m, s, c);  // an intact bond is never a gap row (cohesion.hpp)
  const bool gap_row = bond != Bond::Intact && g_pred > m.step.activation_gap;
  if (gap_row && !(m.step.projection && is_projected(m, c))) return;
  NSCD_DEMAND(m.law(m.bodies[c.a].material, m.bodies[c.b].material).defined);  // io::read_scene refuses
                                                                               // scenes with a missing interaction
  const ActiveContact contact{c, sides, u_old, gap_row, bond};
  ws.contacts.active.add(contact, J);
  Vec3& q_c = q.emplace_back(u_free);
  q_c[0] += normal_velocity_shift(m, contact);
}

}  // namespace

double normal_velocity_shift(const Model& m, const ActiveContact& contact) {
  const contact::ContactPoint& c = contact.point;
  const double theta = gap_theta(m, c);
  // stage 3's gap row: θ u_n⁺ + (1 − θ) u_n⁻ + g/h ≥ 0, the predicted gap kept open
  if (contact.gap_row) return ((1 - theta) * contact.u_old[0] + c.gap / m.step.h) / theta;
  // on a mesh, a contact that closes while it moves apart (u_n⁻ > 0) is held on the step's gap
  // rate: u_n⁺ + u_n⁻ ≥ 0 ⟂ r_n, whose work r_n (u_n⁺ + u_n⁻)/2 is 0, not r_n u_n⁻/2 > 0
  if (contact.u_old[0] > 0 && has_mesh_side(m, c)) return contact.u_old[0];
  const ContactLaw& law = m.law(m.bodies[c.a].material, m.bodies[c.b].material);
  return law.restitution * std::min(contact.u_old[0], 0.0);
}

double end_of_step_gap(const Model& m, const ActiveContact& contact, double u_n_end) {
  const double theta = gap_theta(m, contact.point);
  return contact.point.gap + m.step.h * (theta * u_n_end + (1 - theta) * contact.u_old[0]);
}

namespace {

// whether a corner on body b moves with its frame up to a smooth deformation: b has no mesh, or
// is an FFR body of modes alone (a full mesh or the static correction's joint responses give a
// corner the local compliance of one node)
bool frame_carries_corners(const Model& m, int b) {
  const BodyModel& body = m.bodies[b];
  if (!has_mesh(body.kind)) return true;
  if (body.kind != BodyKind::Ffr) return false;
  const ffr::FfrBody& fe = m.ffr_bodies[body.ffr_index];
  return fe.modes && fe.modes->corrections == 0;
}

}  // namespace

bool is_projected(const Model& m, const contact::ContactPoint& c) {
  return !has_mesh_side(m, c) ||
         (shape_pair(m, c.a, c.b) && frame_carries_corners(m, c.a) && frame_carries_corners(m, c.b));
}

solvers::BodyCoupling body_form(const Model& m, const StepWorkspace& ws) {
  solvers::BodyCoupling form;
  int n_modal = 0;
  const std::vector<int> first_mode = first_modal_unknowns(m, ws, n_modal);
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(18 * static_cast<std::size_t>(m.nb()) + static_cast<std::size_t>(n_modal));
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
  for (int b = 0; b < m.nb(); ++b) {  // Â₊ of each modal body, diagonal (ffr_body.hpp eq. R1)
    if (first_mode[b] < 0) continue;
    const Eigen::VectorXd& inverse = m.ffr_bodies[m.bodies[b].ffr_index].implicit_inverse;
    NSCD_DEMAND(inverse.size() > 0);  // a modal body: a nodal one has no point of sweeps_on_sides
    for (Eigen::Index j = 0; j < inverse.size(); ++j)
      entries.emplace_back(first_mode[b] + j, first_mode[b] + j, 1 / inverse[j]);
  }
  const Eigen::Index n = 6 * static_cast<Eigen::Index>(m.nb()) + n_modal;
  form.M.resize(n, n);
  form.M.setFromTriplets(entries.begin(), entries.end());
  // H row by row, each contact's movable sides by increasing body (columns in order): the frames'
  // blocks G, then on modal bodies T_isᵀ (solvers/contact_bodies.hpp eq. (6)); then stored by
  // columns as BodyCoupling has it
  const std::vector<ContactJacobian>& jacobians = ws.contacts.active.jacobians();
  const solvers::ContactBodies& bodies = ws.contacts.bodies;
  Eigen::SparseMatrix<double, Eigen::RowMajor> H(3 * static_cast<Eigen::Index>(jacobians.size()), n);
  H.reserve(12 * H.rows());
  for (std::size_t i = 0; i < jacobians.size(); ++i) {
    const ContactJacobian& J = jacobians[i];
    const int first = J.body[0] <= J.body[1] ? 0 : 1;
    for (int k = 0; k < 3; ++k) {
      const Eigen::Index row = 3 * static_cast<Eigen::Index>(i) + k;
      H.startVec(row);
      for (const int side : {first, 1 - first})
        if (J.movable[side])
          for (int l = 0; l < 6; ++l) H.insertBack(row, 6 * static_cast<Eigen::Index>(J.body[side]) + l) = J.G[side](k, l);
      if (n_modal == 0) continue;
      const solvers::ContactSides& sides = bodies.contacts[i];
      for (const int side : {first, 1 - first})
        for (int j = 0; j < sides.modes[side]; ++j)
          H.insertBack(row, sides.modal[side] + j) = bodies.modal_rows(j, sides.column[side] + k);
    }
  }
  H.finalize();
  form.H = H;
  return form;
}

void build_problem(const Model& m, const State& s, StepWorkspace& ws) {
  ActiveContacts& active = ws.contacts.active;
  active.clear();
  ws.contacts.delassus_assemblies = 0;
  std::vector<Vec3> q;
  q.reserve(ws.detected.size() + ws.mesh_detected.size());
  for_each_detected(ws, [&](const contact::ContactPoint& c, const std::array<MeshSide, 2>& sides) {
    activate(m, s, ws, c, sides, q);
  });
  const int nc = active.size();
  // the mesh points rewritten in place: their matrices keep their storage from step to step
  std::size_t n_points = 0;
  for (int i = 0; m.has_meshes() && i < nc; ++i)
    for (int side = 0; side < 2; ++side)
      if (active[i].sides[side].on_mesh()) {
        if (n_points == ws.mesh_points.size()) ws.mesh_points.emplace_back();
        active.jacobian(i).point[side] = static_cast<int>(n_points);
        set_mesh_point(m, ws, i, side, ws.mesh_points[n_points++]);
      }
  ws.mesh_points.resize(n_points);
  active.check(m);
  solvers::FrictionProblem& problem = ws.contacts.problem;
  problem.q = Eigen::Map<const Eigen::VectorXd>(q.empty() ? nullptr : q.data()->data(), 3 * nc);
  problem.mu.resize(nc);
  problem.error_scaling = m.step.error_measure;
  for (int i = 0; i < nc; ++i) {
    const contact::ContactPoint& c = active[i].point;
    problem.mu[i] = friction_coefficient(m.law(m.bodies[c.a].material, m.bodies[c.b].material), active[i].bond);
  }
  if (sweeps_on_sides(ws)) {
    defer_assembly(m, ws);
  } else {
    assemble(m, ws);
  }
}

const solvers::FrictionProblem& assembled_problem(const Model& m, StepWorkspace& ws) {
  if (!ws.contacts.delassus_assembled) assemble(m, ws);
  return ws.contacts.problem;
}

solvers::FrictionProblem assembled_copy(const Model& m, const StepWorkspace& ws) {
  solvers::FrictionProblem p = ws.contacts.problem;
  if (!ws.contacts.delassus_assembled) p.W = delassus(m, ws);
  return p;
}

void relinearize(const Model& m, const State& s, StepWorkspace& ws) {
  for (MeshPoint& point : ws.mesh_points) orient_ffr_point(ws.ffr, point);
  ActiveContacts& active = ws.contacts.active;
  for (int i = 0; i < active.size(); ++i) {
    linearize(m, s, ws, active[i].point, active[i].sides, active.jacobian(i));
    ws.contacts.problem.q.segment<3>(3 * i) = free_velocity(m, s, ws, i);
  }
  ws.contacts.delassus_assembled = false;
}

Eigen::VectorXd delassus_product(const Model& m, const StepWorkspace& ws, const Eigen::VectorXd& r) {
  const std::vector<ContactJacobian>& jacobians = ws.contacts.active.jacobians();
  const int nc = static_cast<int>(jacobians.size());
  const std::vector<Vec6> dv = body_velocity_changes(jacobians, m.nb(), r);
  std::vector<Eigen::VectorXd> z(static_cast<std::size_t>(m.nb()));
  std::vector<Vec3> mean(static_cast<std::size_t>(m.nb()), Vec3::Zero());
  for (const MeshPoint& p : ws.mesh_points) {
    const Vec3 c = p.OtC * r.segment<3>(3 * static_cast<Eigen::Index>(p.contact));
    if (z[p.body].size() == 0) z[p.body] = Eigen::VectorXd::Zero(p.Z.rows());
    solvers::add_product(p.Z.data(), c, p.Z.rows(), p.Z.rows(), z[p.body].data());
    mean[p.body] += p.mean_Z * c;
  }
  Eigen::VectorXd u(3 * static_cast<Eigen::Index>(nc));
  for (int i = 0; i < nc; ++i) {
    Vec3 ui = Vec3::Zero();
    for (int side = 0; side < 2; ++side)
      if (jacobians[i].movable[side]) ui.noalias() += jacobians[i].G[side] * dv[jacobians[i].body[side]];
    u.segment<3>(3 * i) = ui;
  }
  for (const MeshPoint& p : ws.mesh_points)
    u.segment<3>(3 * static_cast<Eigen::Index>(p.contact)) +=
        point_deformable_velocity(*finite_element_body(m, p.body), p, z[p.body], mean[p.body]);
  return u;
}

}  // namespace nscd
