#include "nscd/step/shape_contacts.hpp"

#include "contact/surface_projection.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

namespace nscd {
namespace {

bool is_polyhedron(const Model& m, int b) { return std::holds_alternative<contact::ConvexPolyhedron>(m.shapes[b]); }

// the nodes of a mesh made from a shape lie on its faces to round-off: this fraction of the
// shape's bounding radius is far above it and far below any element's size
constexpr double kOnFace = 1e-8;

// the faces whose planes lie within this fraction of the shape's bounding radius of a contact
// point's nearest one hold it (the points lie within the alert distance and the elastic
// displacements of their faces, far below it); the nearest face's planes meet at an edge near the
// point, where they hold nearly the same material point
constexpr double kNearFace = 1e-3;

// the face grids hold for reaches (X's distance to its face plus the kNearFace tolerance) up to
// this fraction of the shape's bounding radius, ten times the tolerance: the contact points of the
// 12-mode arch on its faces lie within 7e-5 radii of their faces (measured); a point farther away
// scans all its face's triangles
constexpr double kGridReach = 1e-2;

// the projection's candidates that fit on the stack (a grid cell lists a few triangles)
constexpr std::size_t kOnStack = 32;

// n_f·X − d_f, the signed distance of X from face f's plane
double face_distance(const contact::ConvexPolyhedron& poly, int f, const Vec3& X) {
  return poly.face_normals[f].dot(X - poly.vertices[poly.faces[f][0]]);
}

// the FFR data of body b if its contacts are on its shape's faces
const ffr::FfrBody* shape_ffr_body(const Model& m, int b) {
  return m.bodies[b].shape_contact() ? &m.ffr_bodies[m.bodies[b].ffr_index] : nullptr;
}

// a side of a contact: its material point (none on a rigid, fixed or driven body) and the world
// displacement O ψ(X_B) there
struct Side {
  MeshSide point;
  Vec3 displacement = Vec3::Zero();
};

// the side of body b at contact point p_W, whose face there has the outward normal nearest outward_W
Side side_at(const Model& m, const State& s, int b, const Vec3& p_W, const Vec3& outward_W) {
  Side side;
  const ffr::FfrBody* f = shape_ffr_body(m, b);
  if (f == nullptr) return side;
  const Quat q_BW = s.q[b].conjugate();
  side.point = face_point(std::get<contact::ConvexPolyhedron>(m.shapes[b]), m.bodies[b].shape_faces, f->mesh,
                          q_BW * (p_W - s.x[b]), q_BW * outward_W);
  side.displacement = s.q[b] * interpolate(*f, side.point, s.psi[m.bodies[b].ffr_index]);
  return side;
}

}  // namespace

std::optional<ShapeFaces> shape_faces(const contact::ConvexPolyhedron& poly, const ffr::Mesh& mesh,
                                      const ffr::Surface& surface) {
  ShapeFaces out;
  out.radius = contact::bounding_radius(poly);
  const double tolerance = kOnFace * out.radius;
  FaceTriangles& faces = out.triangles;
  faces.resize(poly.faces.size());
  for (const std::array<int, 3>& t : surface.triangles) {
    bool placed = false;
    for (std::size_t f = 0; f < poly.faces.size() && !placed; ++f) {
      bool on_face = true;
      for (const int k : t)
        on_face = on_face && std::abs(face_distance(poly, static_cast<int>(f), mesh.nodes[k])) <= tolerance;
      if (on_face) faces[f].push_back(t);
      placed = on_face;
    }
    if (!placed) return std::nullopt;
  }
  for (std::size_t f = 0; f < faces.size(); ++f) {
    if (faces[f].empty()) return std::nullopt;
    out.grids.push_back(face_grid(mesh.nodes, faces[f], poly.face_normals[f], kGridReach * out.radius));
  }
  return out;
}

MeshSide face_point(const contact::ConvexPolyhedron& poly, const ShapeFaces& faces, const ffr::Mesh& mesh,
                    const Vec3& X, const Vec3& outward) {
  const int nf = static_cast<int>(poly.faces.size());
  double nearest = -std::numeric_limits<double>::infinity();
  for (int f = 0; f < nf; ++f) nearest = std::max(nearest, face_distance(poly, f, X));
  const double tolerance = kNearFace * faces.radius;
  int chosen = -1;
  for (int f = 0; f < nf; ++f)
    if (face_distance(poly, f, X) >= nearest - tolerance &&
        (chosen < 0 || poly.face_normals[f].dot(outward) > poly.face_normals[chosen].dot(outward)))
      chosen = f;
  // the projection on the face's triangles whose bounding boxes, inflated by X's distance to the
  // face plane and the tolerance, hold X (tested among the grid's candidates, in the face's
  // order): the nearest triangle is among them when X lies over the face (a contact point), and
  // the result is the projection on them all; else on them all
  const double reach = std::abs(face_distance(poly, chosen, X)) + tolerance;
  const std::vector<std::array<int, 3>>& face = faces.triangles[chosen];
  const std::span<const int> candidates = grid_candidates(faces.grids[chosen], X, reach);
  std::array<std::array<int, 3>, kOnStack> on_stack;
  std::vector<std::array<int, 3>> on_heap(candidates.size() > kOnStack ? candidates.size() : 0);
  const std::span<std::array<int, 3>> near = on_heap.empty() ? std::span(on_stack) : std::span(on_heap);
  std::size_t n_near = 0;
  for (const int i : candidates) {
    const Vec3 &a = mesh.nodes[face[i][0]], &b = mesh.nodes[face[i][1]], &c = mesh.nodes[face[i][2]];
    if ((X.array() >= a.cwiseMin(b).cwiseMin(c).array() - reach).all() &&
        (X.array() <= a.cwiseMax(b).cwiseMax(c).array() + reach).all())
      near[n_near++] = face[i];
  }
  auto projection = contact::project_on_triangles(mesh.nodes, near.first(n_near), X, reach);
  if (!projection)
    projection = contact::project_on_triangles(mesh.nodes, face, X, std::numeric_limits<double>::infinity());
  MeshSide side;
  side.nodes = projection->nodes;
  side.weights = projection->weights;
  for (int i = 0; i < 3; ++i) side.X_B += side.weights[i] * mesh.nodes[side.nodes[i]];
  return side;
}

contact::Mobility mobility(const Model& m, int b) {
  const BodyKind kind = m.bodies[b].kind;
  if (kind == BodyKind::Rigid) return contact::kRigid;
  if (m.bodies[b].shape_contact()) return contact::kOnShape;
  return has_mesh(kind) ? contact::kMeshed : contact::kStatic;
}

bool on_shape(const Model& m, int b) {
  return contact::pair_route(contact::kOnShape, mobility(m, b), is_polyhedron(m, b)) == contact::PairRoute::kOnShapes;
}

bool shape_pair(const Model& m, int a, int b) {
  return contact::pair_route(mobility(m, a), mobility(m, b), is_polyhedron(m, a) && is_polyhedron(m, b)) ==
         contact::PairRoute::kOnShapes;
}

void append_shape_contacts(const Model& m, const State& s, std::span<const contact::ContactPoint> on_shapes,
                           MeshContacts& out) {
  for (contact::ContactPoint point : on_shapes) {
    const Vec3 n = point.R_WC.col(0);  // from a to b: outward from a, inward into b
    const Side side_a = side_at(m, s, point.a, point.p_W, n), side_b = side_at(m, s, point.b, point.p_W, -n);
    point.gap += n.dot(side_b.displacement - side_a.displacement);  // eq. (2)
    point.p_W += 0.5 * (side_a.displacement + side_b.displacement);
    out.push_back({point, {side_a.point, side_b.point}});
  }
}

}  // namespace nscd
