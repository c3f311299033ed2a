#include "contact/sphere_contacts.hpp"

#include "contact/feature_id.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nscd::contact::detail {
namespace {

// a centre within this fraction of the polyhedron radius of the surface uses the face normal
constexpr double kOnSurfaceTol = 1e-12;

void push_point(int a, int b, const Vec3& n, double gap, const Vec3& p_W,
                std::vector<ContactPoint>& out) {
  ContactPoint cp;
  cp.a = a;
  cp.b = b;
  cp.p_W = p_W;
  cp.R_WC = orthonormal_frame(n);
  cp.gap = gap;
  cp.feature = kSphereFeature;
  out.push_back(cp);
}

// closest point of face f's polygon to c: the projection if inside, else on its boundary
Vec3 closest_on_face(const PosedPolyhedron& P, std::size_t f, const Vec3& c) {
  const Vec3& n = P.normals[f];
  const auto& loop = P.shape->faces[f];
  const Vec3 proj = c - (n.dot(c) - P.offsets[f]) * n;
  bool inside = true;
  for (std::size_t k = 0; k < loop.size() && inside; ++k) {
    const Vec3& p = P.vertices[loop[k]];
    const Vec3& q = P.vertices[loop[(k + 1) % loop.size()]];
    inside = (proj - p).dot((q - p).cross(n)) <= 0.0;
  }
  if (inside) return proj;
  Vec3 best = proj;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < loop.size(); ++k) {
    const Vec3& p = P.vertices[loop[k]];
    const Vec3 d = P.vertices[loop[(k + 1) % loop.size()]] - p;
    const double t = std::clamp((c - p).dot(d) / d.squaredNorm(), 0.0, 1.0);
    const Vec3 y = p + t * d;
    const double d2 = (c - y).squaredNorm();
    if (d2 < best_d2) {
      best_d2 = d2;
      best = y;
    }
  }
  return best;
}

}  // namespace

void collide_spheres(const PosedSphere& A, int a, const PosedSphere& B, int b,
                     double alert_distance, std::vector<ContactPoint>& out) {
  const Vec3 d = B.centre - A.centre;
  const double dist = d.norm();
  const double gap = dist - A.radius - B.radius;
  if (gap > alert_distance) return;
  const Vec3 n = dist > 0.0 ? Vec3(d / dist) : Vec3::UnitZ();
  // midway between c_a + r_a n and c_b − r_b n
  push_point(a, b, n, gap, A.centre + (A.radius + 0.5 * gap) * n, out);
}

void collide_polyhedron_sphere(const PosedPolyhedron& P, const PosedSphere& S, int a, int b,
                               bool polyhedron_is_a, double alert_distance,
                               std::vector<ContactPoint>& out) {
  const Vec3& c = S.centre;
  // face of largest signed distance to the centre: a lower bound of the distance
  std::size_t top = 0;
  double s_top = -std::numeric_limits<double>::infinity();
  for (std::size_t f = 0; f < P.normals.size(); ++f) {
    const double s = P.normals[f].dot(c) - P.offsets[f];
    if (s > s_top) {
      s_top = s;
      top = f;
    }
  }
  if (s_top - S.radius > alert_distance) return;

  // n from the polyhedron to the sphere and the distance from the surface to the centre
  Vec3 n = P.normals[top];
  double dist = s_top;
  if (s_top > kOnSurfaceTol * P.radius) {
    // closest point over the faces that see the centre; the top face's projection often wins
    Vec3 y = closest_on_face(P, top, c);
    double d2 = (c - y).squaredNorm();
    if (d2 > s_top * s_top) {
      for (std::size_t f = 0; f < P.normals.size(); ++f) {
        if (f == top || P.normals[f].dot(c) - P.offsets[f] <= 0.0) continue;
        const Vec3 yf = closest_on_face(P, f, c);
        const double d2f = (c - yf).squaredNorm();
        if (d2f < d2) {
          d2 = d2f;
          y = yf;
        }
      }
    }
    dist = std::sqrt(d2);
    n = (c - y) / dist;
  }
  const double gap = dist - S.radius;
  if (gap > alert_distance) return;

  // midway between the polyhedron surface c − dist n and the sphere surface c − r n
  const Vec3 p_W = c - 0.5 * (dist + S.radius) * n;
  push_point(a, b, polyhedron_is_a ? n : Vec3(-n), gap, p_W, out);
}

}  // namespace nscd::contact::detail
