#include "contact/shape.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace nscd::contact {
namespace {

// faces are packed into feature ids with 16 bits each (detection.cpp)
constexpr std::size_t kMaxFaces = 1u << 16;
// points closer than this fraction of the cloud's extent count as equal, on a line or on a plane
constexpr double kRelDegenerate = 1e-10;
// unit edge directions closer than ~1.4e-6 rad (either sign) share one direction class
constexpr double kParallelCos = 1.0 - 1e-12;

// Newell's method: the area-weighted normal of a planar loop, robust to collinear vertices
Vec3 newell_normal(const std::vector<Vec3>& vertices, const std::vector<int>& loop) {
  Vec3 n = Vec3::Zero();
  for (std::size_t k = 0; k < loop.size(); ++k) {
    const Vec3& p = vertices[loop[k]];
    const Vec3& q = vertices[loop[(k + 1) % loop.size()]];
    n += (p - q).cross(p + q) * 0.5;
  }
  return n;
}

// normals from the CCW loops, and each undirected edge once in (min, max) order
ConvexPolyhedron finish_polyhedron(std::vector<Vec3> vertices, std::vector<std::vector<int>> faces) {
  ConvexPolyhedron poly;
  poly.face_normals.reserve(faces.size());
  for (const auto& loop : faces) poly.face_normals.push_back(newell_normal(vertices, loop).normalized());
  for (const auto& loop : faces) {
    for (std::size_t k = 0; k < loop.size(); ++k) {
      const int i = loop[k];
      const int j = loop[(k + 1) % loop.size()];
      poly.edges.push_back({std::min(i, j), std::max(i, j)});
    }
  }
  std::sort(poly.edges.begin(), poly.edges.end());
  poly.edges.erase(std::unique(poly.edges.begin(), poly.edges.end()), poly.edges.end());
  // direction classes in edge order (rotations keep them: posed_shapes.hpp)
  std::vector<Vec3> directions;
  for (const auto& [i, j] : poly.edges) {
    const Vec3 d = (vertices[j] - vertices[i]).normalized();
    std::size_t c = 0;
    while (c < directions.size() && std::abs(directions[c].dot(d)) < kParallelCos) ++c;
    if (c == directions.size()) {
      directions.push_back(d);
      poly.direction_edge.push_back(static_cast<int>(poly.edge_direction.size()));
    }
    poly.edge_direction.push_back(static_cast<int>(c));
  }
  poly.vertices = std::move(vertices);
  poly.faces = std::move(faces);
  return poly;
}

// rejects clouds of zero volume before Qhull sees them, naming what was found
void check_full_dimensional(const std::vector<Vec3>& points) {
  NSCD_THROW_UNLESS(points.size() >= 4,
                    "convex hull: {} point(s) given, at least 4 non-coplanar points are needed",
                    points.size());
  for (const Vec3& p : points) {
    NSCD_THROW_UNLESS(p.allFinite(), "convex hull: point ({}, {}, {}) is not finite", p.x(), p.y(),
                      p.z());
  }
  // farthest pair from the first point, then the point farthest from that line and plane
  const Vec3& p0 = points.front();
  std::size_t i1 = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if ((points[i] - p0).squaredNorm() > (points[i1] - p0).squaredNorm()) i1 = i;
  }
  const double extent = (points[i1] - p0).norm();
  NSCD_THROW_UNLESS(extent > 0.0, "convex hull: all {} points are the same point ({}, {}, {})",
                    points.size(), p0.x(), p0.y(), p0.z());
  const Vec3 axis = (points[i1] - p0) / extent;
  std::size_t i2 = 0;
  double d2 = 0.0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double d = (points[i] - p0).cross(axis).norm();
    if (d > d2) {
      d2 = d;
      i2 = i;
    }
  }
  NSCD_THROW_UNLESS(d2 > kRelDegenerate * extent,
                    "convex hull: the {} points are collinear (zero volume)", points.size());
  const Vec3 normal = axis.cross(points[i2] - p0).normalized();
  double d3 = 0.0;
  for (const Vec3& p : points) d3 = std::max(d3, std::abs(normal.dot(p - p0)));
  NSCD_THROW_UNLESS(d3 > kRelDegenerate * extent,
                    "convex hull: the {} points are coplanar (zero volume)", points.size());
}

// owns a Qhull context and the memory stream that swallows its messages
class QhullRun {
 public:
  QhullRun() : m_err(open_memstream(&m_err_text, &m_err_size)) { qh_zero(&m_qh, m_err); }
  ~QhullRun() {
    int curlong = 0;
    int totlong = 0;
    qh_freeqhull(&m_qh, !qh_ALL);
    qh_memfreeshort(&m_qh, &curlong, &totlong);
    if (m_err) std::fclose(m_err);
    std::free(m_err_text);
  }
  QhullRun(const QhullRun&) = delete;
  QhullRun& operator=(const QhullRun&) = delete;

  qhT* qh() { return &m_qh; }
  FILE* err() { return m_err; }
  std::string first_message_line() {
    std::fflush(m_err);
    std::string text = m_err_text ? std::string(m_err_text, m_err_size) : std::string();
    return text.substr(0, text.find('\n'));
  }

 private:
  qhT m_qh;
  char* m_err_text = nullptr;
  std::size_t m_err_size = 0;
  FILE* m_err;
};

// sorts a facet's vertices counter-clockwise about its outward normal
void order_ccw(const std::vector<Vec3>& vertices, const Vec3& normal, std::vector<int>& loop) {
  Vec3 centre = Vec3::Zero();
  for (int i : loop) centre += vertices[i];
  centre /= static_cast<double>(loop.size());
  const Mat3 frame = orthonormal_frame(normal);
  std::vector<std::pair<double, int>> by_angle;
  by_angle.reserve(loop.size());
  for (int i : loop) {
    const Vec3 r = vertices[i] - centre;
    by_angle.emplace_back(std::atan2(r.dot(frame.col(2)), r.dot(frame.col(1))), i);
  }
  std::sort(by_angle.begin(), by_angle.end());
  for (std::size_t k = 0; k < loop.size(); ++k) loop[k] = by_angle[k].second;
}

}  // namespace

ConvexPolyhedron make_box(const Vec3& size) {
  NSCD_THROW_UNLESS(size.allFinite() && (size.array() > 0.0).all(),
                    "box: edge lengths ({}, {}, {}) must be positive", size.x(), size.y(),
                    size.z());
  // vertex i has coordinate ±size/2 along axis k as bit k of i is 0 or 1
  const Vec3 h = 0.5 * size;
  std::vector<Vec3> vertices(8);
  for (int i = 0; i < 8; ++i) {
    vertices[i] = Vec3((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
  }
  // faces −x, +x, −y, +y, −z, +z, counter-clockwise seen from outside
  std::vector<std::vector<int>> faces = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                         {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  ConvexPolyhedron box = finish_polyhedron(std::move(vertices), std::move(faces));
  box.box_half_size = h;
  return box;
}

ConvexPolyhedron convex_hull(const std::vector<Vec3>& points) {
  check_full_dimensional(points);

  // default options merge coplanar facets (C-0, Qx); no triangulation
  std::vector<coordT> coords(3 * points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (int k = 0; k < 3; ++k) coords[3 * i + k] = points[i][k];
  }
  QhullRun run;
  char options[] = "qhull";
  const int exitcode = qh_new_qhull(run.qh(), 3, static_cast<int>(points.size()), coords.data(),
                                    False, options, nullptr, run.err());
  NSCD_THROW_UNLESS(exitcode == 0, "convex hull of {} points failed (Qhull code {}): {}",
                    points.size(), exitcode, run.first_message_line());
  qhT* qh = run.qh();

  // hull vertices, numbered in input order so the result does not depend on Qhull's lists
  std::vector<int> input_ids;
  vertexT* vertex = nullptr;
  FORALLvertices { input_ids.push_back(qh_pointid(qh, vertex->point)); }
  std::sort(input_ids.begin(), input_ids.end());
  std::map<int, int> new_index;
  std::vector<Vec3> vertices;
  vertices.reserve(input_ids.size());
  for (int id : input_ids) {
    new_index.emplace(id, static_cast<int>(vertices.size()));
    vertices.push_back(points[id]);
  }

  // one loop per merged facet, ordered around Qhull's outward normal
  std::vector<std::vector<int>> faces;
  facetT* facet = nullptr;
  FORALLfacets {
    std::vector<int> loop;
    vertexT** vertexp = nullptr;
    FOREACHvertex_(facet->vertices) { loop.push_back(new_index.at(qh_pointid(qh, vertex->point))); }
    const Vec3 normal(facet->normal[0], facet->normal[1], facet->normal[2]);
    order_ccw(vertices, normal, loop);
    faces.push_back(std::move(loop));
  }
  NSCD_THROW_UNLESS(faces.size() < kMaxFaces, "convex hull: {} faces, at most {} are supported",
                    faces.size(), kMaxFaces - 1);
  // facets in a canonical order: by their smallest vertex loop, rotated to start at its minimum
  for (auto& loop : faces) std::rotate(loop.begin(), std::min_element(loop.begin(), loop.end()), loop.end());
  std::sort(faces.begin(), faces.end());
  return finish_polyhedron(std::move(vertices), std::move(faces));
}

ConvexPolyhedron translated(const ConvexPolyhedron& poly, const Vec3& offset) {
  ConvexPolyhedron moved = poly;
  for (Vec3& v : moved.vertices) v += offset;
  if (!offset.isZero()) moved.box_half_size.reset();  // no longer centred on the origin
  return moved;
}

double bounding_radius(const Shape& shape) {
  if (const auto* sphere = std::get_if<Sphere>(&shape)) return sphere->radius;
  double r2 = 0.0;
  for (const Vec3& v : std::get<ConvexPolyhedron>(shape).vertices) r2 = std::max(r2, v.squaredNorm());
  return std::sqrt(r2);
}

}  // namespace nscd::contact
