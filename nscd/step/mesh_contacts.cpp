#include "nscd/step/mesh_contacts.hpp"

#include "contact/surface_projection.hpp"
#include "nscd/step/shape_contacts.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <tuple>

namespace nscd {
namespace {

// relative margin on a master's bounding box for an FFR body's (small) deformation
constexpr double kDeformationMargin = 1e-2;

// a body's surface, as a master
struct Master {
  int body = 0;
  const contact::Shape* shape = nullptr;          // rigid, fixed, driven
  const ffr::FfrBody* ffr = nullptr;              // FFR, TL, linear: its deformed boundary
  const std::vector<Vec3>* nodes_W = nullptr;
  Vec3 x = Vec3::Zero();
  Quat q = Quat::Identity();
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();      // bounding box in the body frame
};

// a point of a body, as a slave: a sphere's centre has its radius
struct SlavePoint {
  int index = 0;
  Vec3 p_W = Vec3::Zero();
  double radius = 0;
  MeshSide side;
};

// one contact before it is oriented from a to b
struct Candidate {
  SlavePoint slave;
  contact::SurfaceProjection projection;  // world frame
  MeshSide master_side;
};

// the master's boundary triangles whose bounding box, inflated by `reach`, meets the box lo–hi
// (world frame), in their order: a projection within reach of a point in lo–hi can only land on
// one of them, and ties still go to the first, so the result equals the projection on them all
std::vector<std::array<int, 3>> triangles_near(const Master& master, const Vec3& lo, const Vec3& hi, double reach) {
  std::vector<std::array<int, 3>> near;
  const std::vector<Vec3>& nodes = *master.nodes_W;
  for (const std::array<int, 3>& t : master.ffr->surface.triangles) {
    const Vec3 t_lo = nodes[t[0]].cwiseMin(nodes[t[1]]).cwiseMin(nodes[t[2]]).array() - reach;
    const Vec3 t_hi = nodes[t[0]].cwiseMax(nodes[t[1]]).cwiseMax(nodes[t[2]]).array() + reach;
    if ((t_lo.array() <= hi.array()).all() && (t_hi.array() >= lo.array()).all()) near.push_back(t);
  }
  return near;
}

std::optional<contact::SurfaceProjection> project(const Master& master, std::span<const std::array<int, 3>> triangles,
                                                  const Vec3& p_W, double max_distance) {
  if (master.ffr != nullptr) return contact::project_on_triangles(*master.nodes_W, triangles, p_W, max_distance);
  const Vec3 p_B = master.q.conjugate() * (p_W - master.x);
  contact::SurfaceProjection out =
      std::holds_alternative<contact::Sphere>(*master.shape)
          ? contact::project_on_sphere(std::get<contact::Sphere>(*master.shape).radius, p_B)
          : contact::project_on_polyhedron(std::get<contact::ConvexPolyhedron>(*master.shape), p_B);
  if (out.distance > max_distance) return std::nullopt;
  out.point = master.x + master.q * out.point;
  out.normal = master.q * out.normal;
  return out;
}

// slave points of body b
std::vector<SlavePoint> slave_points(const Model& m, const State& s, int b, const std::vector<Vec3>* nodes_W) {
  std::vector<SlavePoint> points;
  if (const ffr::FfrBody* f = finite_element_body(m, b)) {
    for (const int k : f->surface.nodes) {
      SlavePoint p;
      p.index = k;
      p.p_W = (*nodes_W)[k];
      p.side.nodes = {k, -1, -1};
      p.side.weights = Vec3(1, 0, 0);
      p.side.X_B = f->mesh.nodes[k];
      points.push_back(p);
    }
  } else if (const auto* sphere = std::get_if<contact::Sphere>(&m.shapes[b])) {
    points.push_back({0, s.x[b], sphere->radius, {}});
  } else {
    const auto& poly = std::get<contact::ConvexPolyhedron>(m.shapes[b]);
    for (std::size_t k = 0; k < poly.vertices.size(); ++k)
      points.push_back({static_cast<int>(k), s.x[b] + s.q[b] * poly.vertices[k], 0.0, {}});
  }
  return points;
}

// contacts of the slave points on the master
std::vector<Candidate> project_all(const std::vector<SlavePoint>& slaves, const Master& master, double alert) {
  // the slave points within reach of the master's bounding box
  std::vector<const SlavePoint*> near;
  double reach = alert;
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const SlavePoint& slave : slaves) {
    const Vec3 p_B = master.q.conjugate() * (slave.p_W - master.x);
    const double slave_reach = slave.radius + alert;
    if ((p_B.array() < master.lo.array() - slave_reach).any() || (p_B.array() > master.hi.array() + slave_reach).any())
      continue;
    near.push_back(&slave);
    reach = std::max(reach, slave_reach);
    lo = lo.cwiseMin(slave.p_W);
    hi = hi.cwiseMax(slave.p_W);
  }
  std::vector<Candidate> out;
  if (near.empty()) return out;
  const std::vector<std::array<int, 3>> triangles =
      master.ffr != nullptr ? triangles_near(master, lo, hi, reach) : std::vector<std::array<int, 3>>();
  for (const SlavePoint* slave_ptr : near) {
    const SlavePoint& slave = *slave_ptr;
    const auto projection = project(master, triangles, slave.p_W, alert + slave.radius);
    if (!projection || projection->distance - slave.radius > alert) continue;
    Candidate c{slave, *projection, {}};
    if (master.ffr != nullptr) {
      c.master_side.nodes = projection->nodes;
      c.master_side.weights = projection->weights;
      for (int i = 0; i < 3; ++i) c.master_side.X_B += projection->weights[i] * master.ffr->mesh.nodes[projection->nodes[i]];
    }
    out.push_back(c);
  }
  return out;
}

// appends the candidates of slave body `slave` on master body `master` as contact points
void append(const std::vector<Candidate>& candidates, int slave, int master, MeshContacts& out) {
  const bool slave_is_b = slave > master;
  for (const Candidate& c : candidates) {
    const Vec3& n = c.projection.normal;  // outward from the master
    contact::ContactPoint point;
    point.a = std::min(slave, master);
    point.b = std::max(slave, master);
    point.p_W = 0.5 * (c.slave.p_W - c.slave.radius * n + c.projection.point);
    point.R_WC = orthonormal_frame(slave_is_b ? n : Vec3(-n));
    point.gap = c.projection.distance - c.slave.radius;
    point.feature = (static_cast<std::uint64_t>(slave_is_b) << 32) | static_cast<std::uint32_t>(c.slave.index);
    std::array<MeshSide, 2> sides;
    sides[slave_is_b ? 1 : 0] = c.slave.side;
    sides[slave_is_b ? 0 : 1] = c.master_side;
    out.push_back({point, sides});
  }
}

}  // namespace

template <int V>
Eigen::Matrix<double, 3, V> interpolate(const ffr::FfrBody& body, const MeshSide& side,
                                        const std::array<const Eigen::VectorXd*, V>& v) {
  if (body.modes && side.nodes[0] >= 0 && side.nodes[1] >= 0 && side.nodes[2] >= 0) {
    std::array<const double*, V> values;
    for (int c = 0; c < V; ++c) values[c] = v[c]->data();
    return ffr::modal_point_values<3, V>(body.modes->phi, values, side.nodes,
                                         {side.weights[0], side.weights[1], side.weights[2]});
  }
  Eigen::Matrix<double, 3, V> value = Eigen::Matrix<double, 3, V>::Zero();
  for (int i = 0; i < 3; ++i) {
    if (side.nodes[i] < 0) continue;
    for (int c = 0; c < V; ++c) value.col(c) += side.weights[i] * ffr::node_rows(body, *v[c], side.nodes[i]);
  }
  return value;
}

template Eigen::Matrix<double, 3, 1> interpolate<1>(const ffr::FfrBody&, const MeshSide&,
                                                    const std::array<const Eigen::VectorXd*, 1>&);
template Eigen::Matrix<double, 3, 2> interpolate<2>(const ffr::FfrBody&, const MeshSide&,
                                                    const std::array<const Eigen::VectorXd*, 2>&);

void deformed_nodes(const Model& m, const State& s, int b, std::vector<Vec3>& out) {
  const BodyModel& body = m.bodies[b];
  if (body.kind == BodyKind::Ffr) deformed_nodes(m.ffr_bodies[body.ffr_index], s.x[b], s.q[b], s.psi[body.ffr_index], out);
  else deformed_nodes(m.tl_bodies[body.tl_index].fe, body.x0, body.q0, s.tl_psi[body.tl_index], out);
}

void deformed_nodes(const ffr::FfrBody& body, const Vec3& x, const Quat& q, const Eigen::VectorXd& psi,
                    std::vector<Vec3>& out) {
  out.resize(body.nn());
  const Mat3 O = q.toRotationMatrix();
  if (body.modes) {  // Φ_k ξ at the boundary nodes only, which detection uses
    for (const int k : body.surface.nodes) out[k] = x + O * (body.mesh.nodes[k] + ffr::node_rows(body, psi, k));
    return;
  }
  for (int k = 0; k < body.nn(); ++k) out[k] = x + O * (body.mesh.nodes[k] + psi.segment<3>(3 * k));
}

void detect_mesh_contacts(const Model& m, const State& s, double alert_distance,
                          std::span<const contact::ContactPoint> on_shapes, MeshContacts& out) {
  out.clear();
  // the FE bodies' deformed nodes, computed for the first node-to-surface pair that needs them
  std::vector<std::vector<Vec3>> nodes_W(m.nb());
  auto nodes_of = [&](int b) -> std::vector<Vec3>* {
    if (!has_mesh(m.bodies[b].kind)) return nullptr;
    if (nodes_W[b].empty()) deformed_nodes(m, s, b, nodes_W[b]);
    return &nodes_W[b];
  };
  auto master_of = [&](int b) {
    Master master;
    master.body = b;
    master.x = s.x[b];
    master.q = s.q[b];
    std::span<const Vec3> points;
    std::vector<Vec3> current;  // TL, linear: the nodes X + ψ in the fixed frame (x₀, q₀)
    if (m.bodies[b].kind == BodyKind::Ffr) {
      master.ffr = &m.ffr_bodies[m.bodies[b].ffr_index];
      master.nodes_W = nodes_of(b);
      points = master.ffr->mesh.nodes;
    } else if (is_nodal(m.bodies[b].kind)) {
      master.ffr = &m.tl_bodies[m.bodies[b].tl_index].fe;
      master.nodes_W = nodes_of(b);
      master.x = m.bodies[b].x0;
      master.q = m.bodies[b].q0;
      for (const Vec3& p_W : nodes_W[b]) current.push_back(master.q.conjugate() * (p_W - master.x));
      points = current;
    } else {
      master.shape = &m.shapes[b];
      if (const auto* poly = std::get_if<contact::ConvexPolyhedron>(&m.shapes[b])) points = poly->vertices;
    }
    if (points.empty()) {  // a sphere
      master.hi = Vec3::Constant(m.bodies[b].bounding_radius);
      master.lo = -master.hi;
    } else {
      master.lo = master.hi = points[0];
      for (const Vec3& p : points) master.lo = master.lo.cwiseMin(p), master.hi = master.hi.cwiseMax(p);
      const Vec3 margin = Vec3::Constant(kDeformationMargin * (master.hi - master.lo).norm());
      master.lo -= margin;
      master.hi += margin;
    }
    return master;
  };

  // every pair with an FE body f, once, but the pairs on the shapes' faces: a body in contact on
  // its faces meets node to surface only the bodies off their shapes (not on_shape)
  std::vector<int> everyone(m.nb()), off_shapes;
  std::iota(everyone.begin(), everyone.end(), 0);
  for (int b = 0; b < m.nb(); ++b)
    if (!on_shape(m, b)) off_shapes.push_back(b);
  for (int f = 0; f < m.nb(); ++f) {
    if (!has_mesh(m.bodies[f].kind)) continue;
    const std::span<const int> others = m.bodies[f].shape_contact() ? off_shapes : everyone;
    for (const int other : others) {
      if (other == f || (has_mesh(m.bodies[other].kind) && other < f)) continue;
      const int a = std::min(f, other), b = std::max(f, other);
      const bool ffr_a = has_mesh(m.bodies[a].kind), ffr_b = has_mesh(m.bodies[b].kind);
      const double reach = (1 + kDeformationMargin) * (m.bodies[a].bounding_radius + m.bodies[b].bounding_radius);
      if ((s.x[a] - s.x[b]).norm() > reach + alert_distance) continue;
      const bool sphere_a = std::holds_alternative<contact::Sphere>(m.shapes[a]) && !ffr_a;
      const bool sphere_b = std::holds_alternative<contact::Sphere>(m.shapes[b]) && !ffr_b;
      // a's points on b's surface, and b's points on a's surface
      std::vector<Candidate> a_on_b, b_on_a;
      if (!sphere_b) a_on_b = project_all(slave_points(m, s, a, nodes_of(a)), master_of(b), alert_distance);
      if (!sphere_a) b_on_a = project_all(slave_points(m, s, b, nodes_of(b)), master_of(a), alert_distance);
      bool a_is_slave = a_on_b.size() > b_on_a.size();
      if (a_on_b.size() == b_on_a.size()) a_is_slave = ffr_a || !ffr_b;
      if (sphere_a) a_is_slave = true;
      if (sphere_b) a_is_slave = false;
      if (a_is_slave) append(a_on_b, a, b, out);
      else append(b_on_a, b, a, out);
    }
  }
  append_shape_contacts(m, s, on_shapes, out);

  // sort by (a, b, feature)
  std::stable_sort(out.begin(), out.end(), [](const MeshContact& x, const MeshContact& y) {
    return std::tie(x.point.a, x.point.b, x.point.feature) < std::tie(y.point.a, y.point.b, y.point.feature);
  });
}

}  // namespace nscd
