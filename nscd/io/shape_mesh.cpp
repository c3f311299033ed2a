#include "nscd/io/shape_mesh.hpp"

#include "contact/mass_properties.hpp"
#include "nscd/core/error.hpp"
#include "nscd/io/gmsh_api.hpp"
#include "nscd/io/gmsh_model.hpp"
#include "nscd/io/process_cache.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>
#include <map>
#include <numbers>
#include <utility>
#include <vector>

namespace nscd::io {
namespace {

// the default size, eq. (2), as a fraction of the smallest width
constexpr double kDefaultSizeFraction = 0.25;
// the cache's rounding of lengths [m]
constexpr double kKeyQuantum = 1e-9;

// a shape and a size, rounded to kKeyQuantum: a polyhedron's sorted vertices, or a sphere's
// radius alone
struct MeshKey {
  std::vector<std::array<std::int64_t, 3>> vertices;
  std::int64_t radius = 0;
  std::int64_t size = 0;
  auto operator<=>(const MeshKey&) const = default;
};

std::int64_t rounded(double length) { return std::llround(length / kKeyQuantum); }

MeshKey key_of(const contact::Shape& shape, double size) {
  MeshKey key;
  key.size = rounded(size);
  if (const auto* sphere = std::get_if<contact::Sphere>(&shape)) {
    key.radius = rounded(sphere->radius);
    return key;
  }
  for (const Vec3& v : std::get<contact::ConvexPolyhedron>(shape).vertices)
    key.vertices.push_back({rounded(v.x()), rounded(v.y()), rounded(v.z())});
  std::sort(key.vertices.begin(), key.vertices.end());
  return key;
}

// the polyhedron as a built-in-kernel volume: points, lines, plane surfaces, a surface loop
void add_polyhedron(const contact::ConvexPolyhedron& poly, double size) {
  using detail::call;
  const detail::GmshApi& api = detail::gmsh_api();
  std::vector<int> points;
  for (const Vec3& v : poly.vertices) points.push_back(call(api.geo_add_point, v.x(), v.y(), v.z(), size, -1));
  std::map<std::array<int, 2>, int> line_of;  // edge (i < j) → tag of the line from i to j
  for (const std::array<int, 2>& edge : poly.edges)
    line_of[edge] = call(api.geo_add_line, points[edge[0]], points[edge[1]], -1);
  std::vector<int> surfaces;
  for (const std::vector<int>& face : poly.faces) {
    std::vector<int> loop;
    for (std::size_t k = 0; k < face.size(); ++k) {
      const int i = face[k], j = face[(k + 1) % face.size()];
      loop.push_back(i < j ? line_of.at({i, j}) : -line_of.at({j, i}));
    }
    int curve_loop = call(api.geo_add_curve_loop, loop.data(), loop.size(), -1, 0);
    surfaces.push_back(call(api.geo_add_plane_surface, &curve_loop, std::size_t{1}, -1));
  }
  int shell = call(api.geo_add_surface_loop, surfaces.data(), surfaces.size(), -1);
  call(api.geo_add_volume, &shell, std::size_t{1}, -1);
  call(api.geo_synchronize);
}

// first-order tetrahedra of size `size` everywhere, by Gmsh's Delaunay algorithms in one thread
void set_mesh_options(double size) {
  const detail::GmshApi& api = detail::gmsh_api();
  detail::call(api.set_number, "General.NumThreads", 1.0);
  detail::call(api.set_number, "Mesh.ElementOrder", 1.0);
  detail::call(api.set_number, "Mesh.Algorithm", 5.0);    // Delaunay (2-D)
  detail::call(api.set_number, "Mesh.Algorithm3D", 1.0);  // Delaunay
  detail::call(api.set_number, "Mesh.MeshSizeMin", 0.0);
  detail::call(api.set_number, "Mesh.MeshSizeMax", size);
  detail::call(api.set_number, "Mesh.MeshSizeFromCurvature", 0.0);
}

ffr::Mesh mesh_with_gmsh(const contact::Shape& shape, double size, const std::string& where) {
  const auto* sphere = std::get_if<contact::Sphere>(&shape);
  const std::string name = where + ".shape";
  detail::RawMesh raw;
  {
    const detail::GmshModel model;
    try {
      set_mesh_options(size);
      const detail::GmshApi& api = detail::gmsh_api();
      if (sphere != nullptr) {  // the whole sphere: Gmsh's default angles
        detail::call(api.occ_add_sphere, 0.0, 0.0, 0.0, sphere->radius, -1, -std::numbers::pi / 2, std::numbers::pi / 2,
                     2 * std::numbers::pi);
        detail::call(api.occ_synchronize);
      } else {
        add_polyhedron(std::get<contact::ConvexPolyhedron>(shape), size);
      }
      detail::call(api.generate, 3);
      raw = detail::volume_elements(name);
    } catch (const std::exception& error) {
      throw InputError(fmt::format("{}: Gmsh could not mesh the {} with mesh size {} m ({}); try another mesh_size",
                                   name, sphere != nullptr ? "sphere" : "convex polyhedron", size, error.what()));
    }
  }
  return detail::compact(std::move(raw), name);
}

detail::ProcessCache<MeshKey, ffr::Mesh>& cache() {
  static detail::ProcessCache<MeshKey, ffr::Mesh> c;
  return c;
}

}  // namespace

double default_mesh_size(const contact::Shape& shape) {
  if (const auto* sphere = std::get_if<contact::Sphere>(&shape)) return kDefaultSizeFraction * 2 * sphere->radius;
  const auto& poly = std::get<contact::ConvexPolyhedron>(shape);
  double width = std::numeric_limits<double>::infinity();
  for (const Vec3& n : poly.face_normals) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const Vec3& v : poly.vertices) lo = std::min(lo, n.dot(v)), hi = std::max(hi, n.dot(v));
    width = std::min(width, hi - lo);
  }
  return kDefaultSizeFraction * width;
}

double expected_tetrahedra(const contact::Shape& shape, double size) {
  const double regular_tetrahedron = size * size * size / (6 * std::sqrt(2.0));
  return contact::mass_properties(shape).volume / regular_tetrahedron;
}

std::shared_ptr<const ffr::Mesh> tetrahedral_mesh(const contact::Shape& shape, double size, const std::string& where) {
  return cache().get(key_of(shape, size), [&] { return mesh_with_gmsh(shape, size, where); });
}

std::size_t shapes_meshed() { return cache().misses(); }

}  // namespace nscd::io
