#include "nscd/io/output_frames.hpp"

#include "ffr/linear_elasticity.hpp"
#include "ffr/st_venant_kirchhoff.hpp"
#include "nscd/core/error.hpp"
#include "nscd/step/joint_forces.hpp"

namespace nscd::io {
namespace {
constexpr int kVtkPolygon = 7, kVtkTetra = 10, kVtkHexahedron = 12;
// relative slack on ‖r_T‖ < μ r_n below which a contact counts as sticking (solver tolerance)
constexpr double kStickSlack = 1e-6;

// the cells of body b's mesh, whose nodes start at `offset`, with the von Mises stresses of `stress`
void append_cells(const ffr::Mesh& mesh, int b, const nscd::BodyModel& body, const std::vector<Mat3>& stress,
                  int offset, BodyMeshFrame& frame) {
  const int type = mesh.type == ffr::CellType::Hex8 ? kVtkHexahedron : kVtkTetra;
  for (int c = 0; c < mesh.ncells(); ++c) {
    std::vector<int> cell(mesh.cell(c).begin(), mesh.cell(c).end());
    for (int& index : cell) index += offset;
    frame.cells.push_back(std::move(cell));
    frame.cell_types.push_back(type);
    frame.cell_body_id.push_back(b);
    frame.cell_model.push_back(static_cast<int>(body.kind));
    frame.von_mises.push_back(ffr::von_mises_of(stress[c]));
  }
}

// an FFR body's mesh in the current configuration x + O (X + ψ), with velocity
// v + ω × O (X + ψ) + O λ ([Lozovskiy & Dubois 2016] eq. 8), ψ and cell von Mises stresses; the
// nodal fields of a modal body's ξ, η
void append_ffr_body(const Model& m, const State& s, int b, BodyMeshFrame& frame) {
  const nscd::BodyModel& body = m.bodies[b];
  const ffr::FfrBody& f = m.ffr_bodies[body.ffr_index];
  const Eigen::VectorXd psi = ffr::nodal_field(f, s.psi[body.ffr_index]);
  const Eigen::VectorXd lambda = ffr::nodal_field(f, s.lambda[body.ffr_index]);
  const Mat3 O = s.q[b].toRotationMatrix();
  const int offset = static_cast<int>(frame.points.size());
  for (int k = 0; k < f.nn(); ++k) {
    const Vec3 local = f.mesh.nodes[k] + psi.segment<3>(3 * k);
    const Vec3 p_W = s.x[b] + O * local;
    frame.points.push_back(p_W);
    frame.velocity.push_back(s.v[b] + s.w[b].cross(O * local) + O * lambda.segment<3>(3 * k));
    frame.displacement.push_back(p_W - (body.x0 + body.q0 * f.mesh.nodes[k]));
    frame.local_displacement.push_back(psi.segment<3>(3 * k));
  }
  append_cells(f.mesh, b, body, cell_stresses(m, s, b), offset, frame);
}

// a TL or linear body's mesh at x₀ + R(q₀) (X + ψ), velocity R(q₀) λ, ψ, and cell von Mises
// stresses of SVK's Cauchy stress (TL) or of the small strain (linear)
void append_tl_body(const Model& m, const State& s, int b, BodyMeshFrame& frame) {
  const nscd::BodyModel& body = m.bodies[b];
  const ffr::TlBody& tl = m.tl_bodies[body.tl_index];
  const ffr::FfrBody& f = tl.fe;
  const Eigen::VectorXd& psi = s.tl_psi[body.tl_index];
  const Eigen::VectorXd& lambda = s.tl_lambda[body.tl_index];
  const int offset = static_cast<int>(frame.points.size());
  for (int k = 0; k < f.nn(); ++k) {
    frame.points.push_back(body.x0 + body.q0 * (f.mesh.nodes[k] + psi.segment<3>(3 * k)));
    frame.velocity.push_back(body.q0 * Vec3(lambda.segment<3>(3 * k)));
    frame.displacement.push_back(body.q0 * Vec3(psi.segment<3>(3 * k)));
    frame.local_displacement.push_back(psi.segment<3>(3 * k));
  }
  append_cells(f.mesh, b, body, cell_stresses(m, s, b), offset, frame);
}

// a rigid, driven or fixed body's display polygons at x + q p_B, with velocity v + ω × (p − x);
// with `fe_fields`, zero local displacement and von Mises stress on its points and cells, so that
// these fields stay aligned with the points and cells of the finite-element bodies
void append_rigid_body(const Model& m, const State& s, int b, bool fe_fields, BodyMeshFrame& frame) {
  const nscd::BodyModel& body = m.bodies[b];
  const int offset = static_cast<int>(frame.points.size());
  for (const Vec3& vertex : m.display[b].mesh->vertices_B) {
    const Vec3 p_B = m.display[b].scale * vertex;
    const Vec3 p_W = s.x[b] + s.q[b] * p_B;
    frame.points.push_back(p_W);
    frame.velocity.push_back(s.v[b] + s.w[b].cross(p_W - s.x[b]));
    frame.displacement.push_back(p_W - (body.x0 + body.q0 * p_B));
    if (fe_fields) frame.local_displacement.push_back(Vec3::Zero());
  }
  for (const std::vector<int>& polygon : m.display[b].mesh->polygons) {
    std::vector<int> cell(polygon);
    for (int& index : cell) index += offset;
    frame.cells.push_back(std::move(cell));
    frame.cell_types.push_back(kVtkPolygon);
    frame.cell_body_id.push_back(b);
    frame.cell_model.push_back(static_cast<int>(body.kind));
    if (fe_fields) frame.von_mises.push_back(0.0);
  }
}

// the numbers of points and cells body b adds to a frame
std::pair<std::size_t, std::size_t> body_mesh_size(const Model& m, int b) {
  const nscd::BodyModel& body = m.bodies[b];
  if (body.kind == BodyKind::Ffr) {
    const ffr::Mesh& mesh = m.ffr_bodies[body.ffr_index].mesh;
    return {mesh.nodes.size(), static_cast<std::size_t>(mesh.ncells())};
  }
  if (is_nodal(body.kind)) {
    const ffr::Mesh& mesh = m.tl_bodies[body.tl_index].fe.mesh;
    return {mesh.nodes.size(), static_cast<std::size_t>(mesh.ncells())};
  }
  return {m.display[b].mesh->vertices_B.size(), m.display[b].mesh->polygons.size()};
}

// room in `frame` for the points and cells of the bodies it will hold, which it then fills without
// reallocating
void reserve(const Model& m, bool fixed_only, bool fe_fields, BodyMeshFrame& frame) {
  std::size_t np = 0, nc = 0;
  for (int b = 0; b < m.nb(); ++b)
    if ((m.bodies[b].kind == BodyKind::Fixed) == fixed_only) {
      const auto [points, cells] = body_mesh_size(m, b);
      np += points;
      nc += cells;
    }
  for (std::vector<Vec3>* field : {&frame.points, &frame.velocity, &frame.displacement}) field->reserve(np);
  for (std::vector<int>* field : {&frame.cell_types, &frame.cell_body_id, &frame.cell_model}) field->reserve(nc);
  frame.cells.reserve(nc);
  if (fe_fields) {
    frame.local_displacement.reserve(np);
    frame.von_mises.reserve(nc);
  }
}

}  // namespace

std::vector<Mat3> cell_stresses(const Model& m, const State& s, int b) {
  const nscd::BodyModel& body = m.bodies[b];
  if (body.kind == BodyKind::Ffr) {
    const ffr::FfrBody& f = m.ffr_bodies[body.ffr_index];
    return ffr::centre_stresses(f.mesh, f.material.young, f.material.poisson,
                                ffr::nodal_field(f, s.psi[body.ffr_index]));
  }
  NSCD_DEMAND(is_nodal(body.kind));
  const ffr::TlBody& tl = m.tl_bodies[body.tl_index];
  const ffr::FfrBody& f = tl.fe;
  const Eigen::VectorXd& psi = s.tl_psi[body.tl_index];
  return tl.nonlinear ? ffr::svk_centre_stresses(f.mesh, f.material.young, f.material.poisson, psi)
                      : ffr::centre_stresses(f.mesh, f.material.young, f.material.poisson, psi);
}

BodyMeshFrame body_mesh_frame(const Model& m, const State& s, bool fixed_only) {
  BodyMeshFrame frame;
  // finite-element fields are written when some body has them, zero on the other bodies
  const bool with_fe_fields = m.has_meshes() && !fixed_only;
  reserve(m, fixed_only, with_fe_fields, frame);
  for (int b = 0; b < m.nb(); ++b) {
    const nscd::BodyModel& body = m.bodies[b];
    if ((body.kind == BodyKind::Fixed) != fixed_only) continue;
    switch (body.kind) {
      case BodyKind::Ffr:
        append_ffr_body(m, s, b, frame);
        break;
      case BodyKind::Tl:
      case BodyKind::Linear:
        append_tl_body(m, s, b, frame);
        break;
      case BodyKind::Rigid:
      case BodyKind::Fixed:
      case BodyKind::Driven:
        append_rigid_body(m, s, b, with_fe_fields, frame);
        break;
    }
  }
  return frame;
}

ContactFrame contact_frame(const Model& m, const StepContacts& contacts) {
  ContactFrame frame;
  const double h = m.step.h;
  for (int i = 0; i < contacts.active.size(); ++i) {
    const contact::ContactPoint& c = contacts.active[i].point;
    const Eigen::Vector3d r = contacts.solution.r.segment<3>(3 * static_cast<Eigen::Index>(i));
    const double mu = contacts.problem.mu[i];
    const double r_t = r.tail<2>().norm();
    frame.points.push_back(c.p_W);
    frame.normal.push_back(c.R_WC.col(0));
    frame.reaction.push_back(c.R_WC * r / h);
    frame.normal_force.push_back(r[0] / h);
    frame.tangential_force.push_back(r_t / h);
    frame.gap.push_back(c.gap);
    frame.status.push_back(r[0] <= 0 ? 0 : (r_t < (1 - kStickSlack) * mu * r[0] ? 1 : 2));
    frame.body_a.push_back(c.a);
    frame.body_b.push_back(c.b);
  }
  return frame;
}

JointFrame joint_frame(const Model& m, const State& s, const StepContacts& contacts) {
  JointFrame frame{s.step, {}};
  const std::vector<Joint> joints = find_joints(contacts.active);
  const std::vector<JointForces> forces = joint_forces(m, contacts, joints);
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const Joint& joint = joints[j];
    const JointForces& f = forces[j];
    frame.joints.push_back({joint.a, joint.b, m.bodies[joint.a].name, m.bodies[joint.b].name, joint.polygon,
                            joint.area, joint.centroid, joint.normal, f.normal_force, f.shear, f.moment,
                            f.centre_of_pressure, f.eccentricity, f.inside, f.opening, f.sliding,
                            static_cast<int>(f.state), to_string(f.state)});
  }
  return frame;
}

HistoryRow history_row(const Model& m, const State& s, const StepReport& report, double wall_seconds,
                       const EnergyBalance& energy) {
  return {s.step, s.t, energy.kinetic, energy.gravitational + energy.elastic, report.n_contacts,
          report.max_penetration, report.solver_iterations, report.solver_error,
          report.inner_iterations, solver_stage_name(m, report),
          report.solver_factorizations, energy.gravitational, energy.elastic, energy.friction,
          energy.impacts, energy.damping, energy.driven_work, energy.load_work, energy.projection_work, energy.error(),
          static_cast<long>(s.bonds.size()), static_cast<long>(s.broken_bonds.size()), wall_seconds};
}

std::vector<BodyRow> body_rows(const Model& m, const State& s) {
  std::vector<BodyRow> rows;
  rows.reserve(m.bodies.size());
  for (int b = 0; b < m.nb(); ++b) rows.push_back({m.bodies[b].name, s.x[b], s.q[b], s.v[b], s.w[b]});
  return rows;
}

std::vector<ProbeRow> probe_rows(const Model& m, const State& s) {
  std::vector<ProbeRow> rows;
  for (const ProbeModel& probe : m.probes) {
    const nscd::BodyModel& body = m.bodies[probe.body];
    Vec3 x = Vec3::Zero(), x0 = Vec3::Zero();
    if (body.kind == BodyKind::Ffr) {
      const ffr::FfrBody& f = m.ffr_bodies[body.ffr_index];
      const Eigen::VectorXd& psi = s.psi[body.ffr_index];
      for (std::size_t i = 0; i < probe.nodes.size(); ++i) {
        const int k = probe.nodes[i];
        x += probe.weights[i] * (s.x[probe.body] + s.q[probe.body] * (f.mesh.nodes[k] + ffr::node_rows(f, psi, k)));
        x0 += probe.weights[i] * (body.x0 + body.q0 * f.mesh.nodes[k]);
      }
      rows.push_back({probe.name, x, x - x0});
      continue;
    }
    if (is_nodal(body.kind)) {
      const ffr::FfrBody& f = m.tl_bodies[body.tl_index].fe;
      const Eigen::VectorXd& psi = s.tl_psi[body.tl_index];
      for (std::size_t i = 0; i < probe.nodes.size(); ++i) {
        const int k = probe.nodes[i];
        x += probe.weights[i] * (body.x0 + body.q0 * (f.mesh.nodes[k] + psi.segment<3>(3 * k)));
        x0 += probe.weights[i] * (body.x0 + body.q0 * f.mesh.nodes[k]);
      }
      rows.push_back({probe.name, x, x - x0});
      continue;
    }
    for (const Vec3& p_B : probe.points_B) {
      x += s.x[probe.body] + s.q[probe.body] * p_B;
      x0 += body.x0 + body.q0 * p_B;
    }
    const double n = static_cast<double>(probe.points_B.size());
    rows.push_back({probe.name, x / n, (x - x0) / n});
  }
  return rows;
}

}  // namespace nscd::io
