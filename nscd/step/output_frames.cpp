#include "nscd/step/output_frames.hpp"

namespace nscd {
namespace {
constexpr int kVtkPolygon = 7;
// relative slack on ‖r_T‖ < μ r_n below which a contact counts as sticking (solver tolerance)
constexpr double kStickSlack = 1e-6;
}  // namespace

io::BodyMeshFrame body_mesh_frame(const Model& m, const State& s, bool fixed_only) {
  io::BodyMeshFrame frame;
  for (int b = 0; b < m.nb(); ++b) {
    const BodyModel& body = m.bodies[b];
    if ((body.kind == BodyKind::Fixed) != fixed_only) continue;
    const int offset = static_cast<int>(frame.points.size());
    for (const Vec3& p_B : m.display[b].vertices_B) {
      const Vec3 p_W = s.x[b] + s.q[b] * p_B;
      frame.points.push_back(p_W);
      frame.velocity.push_back(s.v[b] + s.w[b].cross(p_W - s.x[b]));
      frame.displacement.push_back(p_W - (body.x0 + body.q0 * p_B));
    }
    for (const std::vector<int>& polygon : m.display[b].polygons) {
      std::vector<int> cell(polygon);
      for (int& index : cell) index += offset;
      frame.cells.push_back(std::move(cell));
      frame.cell_types.push_back(kVtkPolygon);
      frame.cell_body_id.push_back(b);
      frame.cell_model.push_back(static_cast<int>(body.scene_model));
    }
  }
  return frame;
}

io::ContactFrame contact_frame(const Model& m, const StepWorkspace& ws) {
  io::ContactFrame frame;
  const double h = m.step.h;
  for (std::size_t i = 0; i < ws.active.size(); ++i) {
    const contact::ContactPoint& c = ws.active[i];
    const Eigen::Vector3d r = ws.result.r.segment<3>(3 * static_cast<Eigen::Index>(i));
    const double mu = ws.problem.mu[static_cast<Eigen::Index>(i)];
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

std::vector<io::BodyRow> body_rows(const Model& m, const State& s) {
  std::vector<io::BodyRow> rows;
  rows.reserve(m.bodies.size());
  for (int b = 0; b < m.nb(); ++b) rows.push_back({m.bodies[b].name, s.x[b], s.q[b], s.v[b], s.w[b]});
  return rows;
}

std::vector<io::ProbeRow> probe_rows(const Model& m, const State& s) {
  std::vector<io::ProbeRow> rows;
  for (const ProbeModel& probe : m.probes) {
    const BodyModel& body = m.bodies[probe.body];
    Vec3 x = Vec3::Zero(), x0 = Vec3::Zero();
    for (const Vec3& p_B : probe.points_B) {
      x += s.x[probe.body] + s.q[probe.body] * p_B;
      x0 += body.x0 + body.q0 * p_B;
    }
    const double n = static_cast<double>(probe.points_B.size());
    rows.push_back({probe.name, x / n, (x - x0) / n});
  }
  return rows;
}

}  // namespace nscd
