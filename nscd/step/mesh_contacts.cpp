#include "nscd/step/mesh_contacts.hpp"

#include "contact/surface_projection.hpp"
#include "nscd/core/error.hpp"
#include "nscd/step/shape_contacts.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <tuple>

namespace nscd {
namespace {

// a search box in the reference configuration is grown by this fraction of the coordinates' size
// beyond the displacement bound δ: the round-off of the poses' transforms is far smaller
constexpr double kSearchRoundOff = 1e-9;

// the axis-aligned box holding to + R (p − from) for every p of the box [lo, hi], grown by `grow`
std::pair<Vec3, Vec3> turned_box(const Vec3& lo, const Vec3& hi, const Mat3& R, const Vec3& from, const Vec3& to,
                                 double grow) {
  const Vec3 centre = to + R * (0.5 * (lo + hi) - from);
  const Vec3 half = R.cwiseAbs() * (0.5 * (hi - lo)) + Vec3::Constant(grow);
  return {centre - half, centre + half};
}

// a point of a body, as a slave: a sphere's centre has its radius
struct SlavePoint {
  int index = 0;
  Vec3 p_W = Vec3::Zero();
  double radius = 0;
  MeshSide side;
};

// a body's surface in the configuration s, as detection needs it. An FE body's boundary nodes
// are placed, x + O (X_k + ψ_k), only when a search reaches them; (x, O) is the body frame (the
// floating frame of an FFR body, the fixed (x₀, q₀) of a TL or linear one) and δ bounds the
// boundary nodes' displacements |ψ_k| (surface_search.hpp eq. 1 for a modal body), round-off
// included. A rigid, fixed or driven body's points are all placed.
struct BodySurface {
  const ffr::FfrBody* fe = nullptr;
  const SurfaceSearch* search = nullptr;
  const Eigen::VectorXd* psi = nullptr;
  Vec3 x = Vec3::Zero();
  Mat3 O = Mat3::Identity();
  double delta = 0.0;             // δ [m]
  std::vector<Vec3> nodes_W;      // FE bodies: the nodes placed so far (nn entries)
  std::vector<char> placed;
  std::vector<SlavePoint> points;  // the other bodies: every point, as a slave
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();  // a world box holding the surface

  const Vec3& node(int k) {
    if (!placed[k]) {
      nodes_W[k] = x + O * (fe->mesh.nodes[k] + ffr::node_rows(*fe, *psi, k));
      placed[k] = 1;
    }
    return nodes_W[k];
  }

  // the box of the reference configuration that holds the reference position of every boundary
  // node whose current position may lie in the world box [lo_W, hi_W]
  std::pair<Vec3, Vec3> reference_box(const Vec3& lo_W, const Vec3& hi_W) const {
    return turned_box(lo_W, hi_W, O.transpose(), x, Vec3::Zero(), delta);
  }
};

// body b's surface in the configuration s, its points not yet placed
void body_surface(const Model& m, const State& s, int b, BodySurface& out) {
  if (const ffr::FfrBody* f = finite_element_body(m, b)) {
    const BodyModel& body = m.bodies[b];
    out.fe = f;
    out.search = &body.surface_search;
    const bool floating = body.kind == BodyKind::Ffr;
    out.psi = floating ? &s.psi[body.ffr_index] : &s.tl_psi[body.tl_index];
    out.x = floating ? s.x[b] : body.x0;
    out.O = (floating ? s.q[b] : body.q0).toRotationMatrix();
    out.nodes_W.resize(f->nn());
    out.placed.assign(f->nn(), 0);
    double delta = 0.0;
    if (f->modes) delta = out.search->modal_bound * out.psi->norm();
    else
      for (const int k : f->surface.nodes) delta = std::max(delta, out.psi->segment<3>(3 * k).norm());
    NSCD_DEMAND(!out.search->nodes.nodes.empty());  // BodyModel::surface_search, set with the model
    const contact::BoxTree::Node& root = out.search->nodes.nodes.front();
    out.delta = delta + kSearchRoundOff * (1 + out.x.cwiseAbs().maxCoeff() + (root.hi - root.lo).norm() + delta);
    // the reference box, turned and grown by δ
    std::tie(out.lo, out.hi) = turned_box(root.lo, root.hi, out.O, Vec3::Zero(), out.x, out.delta);
    return;
  }
  std::vector<SlavePoint>& points = out.points;
  if (const auto* sphere = std::get_if<contact::Sphere>(&m.shapes[b])) {
    points.push_back({0, s.x[b], sphere->radius, {}});
  } else {
    const auto& poly = std::get<contact::ConvexPolyhedron>(m.shapes[b]);
    for (std::size_t k = 0; k < poly.vertices.size(); ++k)
      points.push_back({static_cast<int>(k), s.x[b] + s.q[b] * poly.vertices[k], 0.0, {}});
  }
  out.lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  out.hi = -out.lo;
  for (const SlavePoint& p : points) {
    out.lo = out.lo.cwiseMin(p.p_W - Vec3::Constant(p.radius));
    out.hi = out.hi.cwiseMax(p.p_W + Vec3::Constant(p.radius));
  }
}

// one contact before it is oriented from a to b
struct Candidate {
  SlavePoint slave;
  contact::SurfaceProjection projection;  // world frame
  MeshSide master_side;
};

// buffers reused by the pairs of one detection
struct Scratch {
  std::vector<int> found;
  std::vector<SlavePoint> near;
  std::vector<contact::PreparedTriangle> triangles;
};

// the slave's points within `reach` of the master's box, into scratch.near, in the order of
// their indices
void points_near(BodySurface& slave, const BodySurface& master, double alert, Scratch& scratch) {
  scratch.near.clear();
  auto within = [&](const Vec3& p, double reach) {
    return (p.array() >= master.lo.array() - reach).all() && (p.array() <= master.hi.array() + reach).all();
  };
  if (slave.fe == nullptr) {
    for (const SlavePoint& p : slave.points)
      if (within(p.p_W, p.radius + alert)) scratch.near.push_back(p);
    return;
  }
  const auto [lo, hi] = slave.reference_box(master.lo - Vec3::Constant(alert), master.hi + Vec3::Constant(alert));
  scratch.found.clear();
  contact::boxes_meeting(slave.search->nodes, lo, hi, scratch.found);
  for (const int i : scratch.found) {
    const int k = slave.fe->surface.nodes[i];
    const Vec3& p_W = slave.node(k);
    if (!within(p_W, alert)) continue;
    SlavePoint p;
    p.index = k;
    p.p_W = p_W;
    p.side.nodes = {k, -1, -1};
    p.side.weights = Vec3(1, 0, 0);
    p.side.X_B = slave.fe->mesh.nodes[k];
    scratch.near.push_back(p);
  }
}

// the master's boundary triangles whose bounding box, inflated by `reach`, meets the box lo–hi
// (world frame), in their order and prepared, into scratch.triangles: a projection within reach
// of a point in lo–hi can only land on one of them, and ties still go to the first, so the
// result equals the projection on them all
void triangles_near(BodySurface& master, const Vec3& lo, const Vec3& hi, double reach, Scratch& scratch) {
  scratch.triangles.clear();
  const auto [lo_X, hi_X] = master.reference_box(lo - Vec3::Constant(reach), hi + Vec3::Constant(reach));
  scratch.found.clear();
  contact::boxes_meeting(master.search->triangles, lo_X, hi_X, scratch.found);
  for (const int i : scratch.found) {
    const std::array<int, 3>& t = master.fe->surface.triangles[i];
    for (const int k : t) master.node(k);
    const std::size_t prepared = scratch.triangles.size();
    contact::prepare_triangles(master.nodes_W, std::span(&t, 1), scratch.triangles);  // none if of zero area
    if (scratch.triangles.size() == prepared) continue;
    const contact::PreparedTriangle& near = scratch.triangles.back();
    if ((near.lo.array() - reach > hi.array()).any() || (near.hi.array() + reach < lo.array()).any())
      scratch.triangles.pop_back();
  }
}

std::optional<contact::SurfaceProjection> project(const Model& m, const State& s, int b, const BodySurface& master,
                                                  std::span<const contact::PreparedTriangle> triangles,
                                                  const Vec3& p_W, double max_distance) {
  if (master.fe != nullptr) return contact::project_on_triangles(master.nodes_W, triangles, p_W, max_distance);
  const Vec3 p_B = s.q[b].conjugate() * (p_W - s.x[b]);
  contact::SurfaceProjection out =
      std::holds_alternative<contact::Sphere>(m.shapes[b])
          ? contact::project_on_sphere(std::get<contact::Sphere>(m.shapes[b]).radius, p_B)
          : contact::project_on_polyhedron(std::get<contact::ConvexPolyhedron>(m.shapes[b]), p_B);
  if (out.distance > max_distance) return std::nullopt;
  out.point = s.x[b] + s.q[b] * out.point;
  out.normal = s.q[b] * out.normal;
  return out;
}

// contacts of the slave's points on master body b
std::vector<Candidate> project_all(const Model& m, const State& s, BodySurface& slave, int b, BodySurface& master,
                                   double alert, Scratch& scratch) {
  points_near(slave, master, alert, scratch);
  std::vector<Candidate> out;
  if (scratch.near.empty()) return out;
  double reach = alert;
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const SlavePoint& p : scratch.near) {
    reach = std::max(reach, p.radius + alert);
    lo = lo.cwiseMin(p.p_W);
    hi = hi.cwiseMax(p.p_W);
  }
  if (master.fe != nullptr) triangles_near(master, lo, hi, reach, scratch);
  for (const SlavePoint& slave_point : scratch.near) {
    const auto projection = project(m, s, b, master, scratch.triangles, slave_point.p_W, alert + slave_point.radius);
    if (!projection || projection->distance - slave_point.radius > alert) continue;
    Candidate c{slave_point, *projection, {}};
    if (master.fe != nullptr) {
      c.master_side.nodes = projection->nodes;
      c.master_side.weights = projection->weights;
      for (int i = 0; i < 3; ++i) c.master_side.X_B += projection->weights[i] * master.fe->mesh.nodes[projection->nodes[i]];
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
  if (body.modes && side.nodes[0] >= 0) {
    std::array<const double*, V> values;
    for (int c = 0; c < V; ++c) values[c] = v[c]->data();
    if (side.nodes[1] >= 0 && side.nodes[2] >= 0)
      return ffr::modal_point_values<3, V>(body.modes->phi, values, side.nodes,
                                           {side.weights[0], side.weights[1], side.weights[2]});
    if (side.nodes[1] < 0 && side.nodes[2] < 0)  // a node: its weight applied to Φ_k v, as below
      return side.weights[0] * ffr::modal_point_values<1, V>(body.modes->phi, values, {side.nodes[0]}, {1.0});
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

void detect_mesh_contacts(const Model& m, const State& s, double alert_distance,
                          std::span<const contact::ContactPoint> on_shapes, MeshContacts& out) {
  out.clear();
  // the bodies' surfaces, computed for the first pair that needs them
  std::vector<BodySurface> surfaces(m.nb());
  std::vector<bool> ready(m.nb(), false);
  auto surface_of = [&](int b) -> BodySurface& {
    if (!ready[b]) body_surface(m, s, b, surfaces[b]), ready[b] = true;
    return surfaces[b];
  };
  Scratch scratch;
  // a sphere holding body b's surface: an FE body's boundary lies within its bounding radius
  // of its body frame's origin, grown by δ
  auto bounding_sphere = [&](int b) -> std::pair<Vec3, double> {
    if (!has_mesh(m.bodies[b].kind)) return {s.x[b], m.bodies[b].bounding_radius};
    const BodySurface& surface = surface_of(b);
    return {surface.x, m.bodies[b].bounding_radius + surface.delta};
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
      const auto [x_a, r_a] = bounding_sphere(a);
      const auto [x_b, r_b] = bounding_sphere(b);
      if ((x_a - x_b).norm() > (1 + kSearchRoundOff) * (r_a + r_b) + alert_distance) continue;
      const bool sphere_a = std::holds_alternative<contact::Sphere>(m.shapes[a]) && !ffr_a;
      const bool sphere_b = std::holds_alternative<contact::Sphere>(m.shapes[b]) && !ffr_b;
      // a's points on b's surface, and b's points on a's surface
      std::vector<Candidate> a_on_b, b_on_a;
      if (!sphere_b) a_on_b = project_all(m, s, surface_of(a), b, surface_of(b), alert_distance, scratch);
      if (!sphere_a) b_on_a = project_all(m, s, surface_of(b), a, surface_of(a), alert_distance, scratch);
      bool a_is_slave = a_on_b.size() > b_on_a.size();
      if (a_on_b.size() == b_on_a.size()) a_is_slave = ffr_a || !ffr_b;
      if (sphere_a) a_is_slave = true;
      if (sphere_b) a_is_slave = false;
      if (a_is_slave) append(a_on_b, a, b, out);
      else append(b_on_a, b, a, out);
    }
  }
  append_shape_contacts(m, s, on_shapes, out);

  // sort by (a, b, feature): the order found by a stable sort of the indices, then each contact
  // moved once
  auto key = [&](int i) { return std::tie(out[i].point.a, out[i].point.b, out[i].point.feature); };
  std::vector<int> order(out.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return key(x) < key(y); });
  MeshContacts sorted;
  sorted.reserve(out.size());
  for (const int i : order) sorted.push_back(std::move(out[i]));
  out.swap(sorted);
}

}  // namespace nscd
