#include "contact/surface_projection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nscd::contact {
namespace {

// closest point to p on the segment [a, b]
Vec3 closest_on_segment(const Vec3& a, const Vec3& b, const Vec3& p) {
  const Vec3 ab = b - a;
  const double length2 = ab.squaredNorm();
  if (length2 == 0.0) return a;
  return a + std::clamp((p - a).dot(ab) / length2, 0.0, 1.0) * ab;
}

// closest point to p on triangle (a, b, c) and its barycentric weights [Ericson 2005, §5.1.5];
// `interior` tells whether it lies strictly inside the triangle (not on an edge or a vertex)
struct TrianglePoint {
  Vec3 point;
  Vec3 weights;
  bool interior;
};

TrianglePoint closest_on_triangle(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& p) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return {a, Vec3(1, 0, 0), false};
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return {b, Vec3(0, 1, 0), false};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double v = d1 / (d1 - d3);
    return {a + v * ab, Vec3(1 - v, v, 0), false};
  }
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return {c, Vec3(0, 0, 1), false};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double w = d2 / (d2 - d6);
    return {a + w * ac, Vec3(1 - w, 0, w), false};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {b + w * (c - b), Vec3(0, 1 - w, w), false};
  }
  const double denominator = 1.0 / (va + vb + vc);
  const double v = vb * denominator, w = vc * denominator;
  return {a + v * ab + w * ac, Vec3(1 - v - w, v, w), true};
}

// below this fraction of the face size, p − q is round-off and its direction meaningless
constexpr double kNormalScale = 1e-10;

// eq. (2) from the closest point q of a face with outward normal n_face and size `scale` [m]
void set_distance_and_normal(const Vec3& p, const Vec3& n_face, bool on_face_interior, double scale,
                             SurfaceProjection& out) {
  const Vec3 d = p - out.point;
  const double length = d.norm();
  const bool outside = d.dot(n_face) >= 0;
  out.distance = outside ? length : -length;
  out.normal = (outside && !on_face_interior && length > kNormalScale * scale) ? Vec3(d / length) : n_face;
}

// the projection of p on triangle t (nodes a, b, c; unit normal n, twice its area) replaces out
// if it is closer than best (ties to the earlier triangle), and best becomes its distance
void project_on_triangle(std::span<const Vec3> nodes, const std::array<int, 3>& t, const Vec3& n, double twice_area,
                         const Vec3& p, double& best, std::optional<SurfaceProjection>& out) {
  const Vec3 &a = nodes[t[0]], &b = nodes[t[1]], &c = nodes[t[2]];
  if (std::abs(n.dot(p - a)) > best) return;  // the plane alone is farther than the best
  const TrianglePoint closest = closest_on_triangle(a, b, c, p);
  const double distance = (p - closest.point).norm();
  if (distance > best || (out && distance == best)) return;
  best = distance;
  out.emplace();
  out->point = closest.point;
  out->nodes = t;
  out->weights = closest.weights;
  set_distance_and_normal(p, n, closest.interior, std::sqrt(twice_area), *out);
}

// a box is skipped when it lies farther than the best distance by more than this fraction of the
// coordinates' size: round-off in the projection's closest point and distance is far smaller
constexpr double kBoxRoundOff = 1e-12;

}  // namespace

SurfaceProjection project_on_polyhedron(const ConvexPolyhedron& poly, const Vec3& p) {
  // the face of largest signed plane distance: p is inside iff it is ≤ 0, and then that face's
  // plane is the nearest part of the surface
  const int nf = static_cast<int>(poly.faces.size());
  int deepest = 0;
  double largest = -std::numeric_limits<double>::infinity();
  for (int f = 0; f < nf; ++f) {
    const double s = poly.face_normals[f].dot(p - poly.vertices[poly.faces[f][0]]);
    if (s > largest) largest = s, deepest = f;
  }
  SurfaceProjection out;
  if (largest <= 0) {
    out.point = p - largest * poly.face_normals[deepest];
    out.normal = poly.face_normals[deepest];
    out.distance = largest;
    return out;
  }
  // outside: the closest point lies on a face whose plane p is in front of; on such a face it is
  // the projection on the plane when that falls inside the polygon, else on its boundary
  double best = std::numeric_limits<double>::infinity();
  for (int f = 0; f < nf; ++f) {
    const Vec3& n = poly.face_normals[f];
    const std::vector<int>& face = poly.faces[f];
    const double s = n.dot(p - poly.vertices[face[0]]);
    if (s <= 0) continue;
    const Vec3 in_plane = p - s * n;
    bool inside = true;
    for (std::size_t k = 0; k < face.size() && inside; ++k) {
      const Vec3& a = poly.vertices[face[k]];
      const Vec3& b = poly.vertices[face[(k + 1) % face.size()]];
      inside = (b - a).cross(in_plane - a).dot(n) >= 0;
    }
    if (inside) {
      if (s < best) best = s, out.point = in_plane, out.normal = n, out.distance = s;
      continue;
    }
    for (std::size_t k = 0; k < face.size(); ++k) {
      const Vec3 q = closest_on_segment(poly.vertices[face[k]], poly.vertices[face[(k + 1) % face.size()]], p);
      const double distance = (p - q).norm();
      if (distance < best) {
        best = distance;
        out.point = q;
        out.distance = distance;
        out.normal = distance > kNormalScale * (poly.vertices[face[0]] - poly.vertices[face[1]]).norm() ? Vec3((p - q) / distance) : n;
      }
    }
  }
  return out;
}

SurfaceProjection project_on_sphere(double radius, const Vec3& p) {
  SurfaceProjection out;
  const double length = p.norm();
  out.normal = length > 0 ? Vec3(p / length) : Vec3::UnitZ();
  out.point = radius * out.normal;
  out.distance = length - radius;
  return out;
}

std::optional<SurfaceProjection> project_on_triangles(std::span<const Vec3> nodes,
                                                      std::span<const std::array<int, 3>> triangles,
                                                      const Vec3& p, double max_distance) {
  std::optional<SurfaceProjection> out;
  double best = max_distance;
  for (const std::array<int, 3>& t : triangles) {
    const Vec3 area = (nodes[t[1]] - nodes[t[0]]).cross(nodes[t[2]] - nodes[t[0]]);
    const double twice_area = area.norm();
    if (twice_area == 0.0) continue;
    project_on_triangle(nodes, t, area / twice_area, twice_area, p, best, out);
  }
  return out;
}

void prepare_triangles(std::span<const Vec3> nodes, std::span<const std::array<int, 3>> triangles,
                       std::vector<PreparedTriangle>& out) {
  for (const std::array<int, 3>& t : triangles) {
    const Vec3 &a = nodes[t[0]], &b = nodes[t[1]], &c = nodes[t[2]];
    const Vec3 area = (b - a).cross(c - a);
    const double twice_area = area.norm();
    if (twice_area == 0.0) continue;
    out.push_back({t, area / twice_area, twice_area, a.cwiseMin(b).cwiseMin(c), a.cwiseMax(b).cwiseMax(c)});
  }
}

std::optional<SurfaceProjection> project_on_triangles(std::span<const Vec3> nodes,
                                                      std::span<const PreparedTriangle> triangles,
                                                      const Vec3& p, double max_distance) {
  std::optional<SurfaceProjection> out;
  double best = max_distance;
  const double round_off = kBoxRoundOff * (1 + p.cwiseAbs().maxCoeff());
  for (const PreparedTriangle& t : triangles) {
    const double box_distance = (t.lo - p).cwiseMax(p - t.hi).maxCoeff();  // ≤ the distance to t
    if (box_distance > best * (1 + kBoxRoundOff) + round_off) continue;
    project_on_triangle(nodes, t.nodes, t.normal, t.twice_area, p, best, out);
  }
  return out;
}

}  // namespace nscd::contact
