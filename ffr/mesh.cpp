#include "ffr/mesh.hpp"

#include "ffr/shape_functions.hpp"
#include "nscd/core/error.hpp"

#include <algorithm>
#include <map>

namespace nscd::ffr {
namespace {

// faces of each cell type as local node loops, counter-clockwise seen from outside, eq. (3)
constexpr std::array<std::array<int, 4>, 6> kHexFaces = {
    {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {3, 7, 6, 2}, {0, 4, 7, 3}, {1, 2, 6, 5}}};
constexpr std::array<std::array<int, 3>, 4> kTetFaces = {{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}};

// a face as its global node loop (3 or 4 nodes; unused slot = -1)
using FaceLoop = std::array<int, 4>;

std::vector<FaceLoop> cell_faces(const Mesh& mesh, int c) {
  const auto nodes = mesh.cell(c);
  std::vector<FaceLoop> faces;
  if (mesh.type == CellType::Hex8) {
    for (const auto& f : kHexFaces) faces.push_back({nodes[f[0]], nodes[f[1]], nodes[f[2]], nodes[f[3]]});
  } else {
    for (const auto& f : kTetFaces) faces.push_back({nodes[f[0]], nodes[f[1]], nodes[f[2]], -1});
  }
  return faces;
}

// orientation-independent key of a face: its sorted nodes
FaceLoop face_key(FaceLoop loop) {
  // insertion sort of the 3 or 4 used slots
  const int n = loop[3] < 0 ? 3 : 4;
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && loop[j - 1] > loop[j]; --j) std::swap(loop[j - 1], loop[j]);
  return loop;
}

// appends the triangles of a boundary face; a quad is split along the diagonal through its
// smallest node, so the split does not depend on where its loop starts
void append_triangles(const FaceLoop& loop, std::vector<std::array<int, 3>>& triangles) {
  if (loop[3] < 0) {
    triangles.push_back({loop[0], loop[1], loop[2]});
    return;
  }
  const int k = static_cast<int>(std::min_element(loop.begin(), loop.end()) - loop.begin());
  const int a = loop[k], b = loop[(k + 1) % 4], c = loop[(k + 2) % 4], d = loop[(k + 3) % 4];
  triangles.push_back({a, b, c});
  triangles.push_back({a, c, d});
}

}  // namespace

int nodes_per_cell(CellType type) { return type == CellType::Hex8 ? 8 : 4; }

Mesh make_box_mesh(const Vec3& size, const std::array<int, 3>& elements) {
  NSCD_DEMAND(size.minCoeff() > 0.0);
  NSCD_DEMAND(elements[0] >= 1 && elements[1] >= 1 && elements[2] >= 1);
  const int nx = elements[0], ny = elements[1], nz = elements[2];
  Mesh mesh;
  mesh.type = CellType::Hex8;

  // nodes on the (nx+1)(ny+1)(nz+1) grid, x fastest
  const auto node = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
  mesh.nodes.reserve(static_cast<std::size_t>((nx + 1) * (ny + 1) * (nz + 1)));
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        mesh.nodes.push_back(Vec3(size.x() * (static_cast<double>(i) / nx - 0.5),
                                  size.y() * (static_cast<double>(j) / ny - 0.5),
                                  size.z() * (static_cast<double>(k) / nz - 0.5)));

  // cells, x fastest, nodes in VTK_HEXAHEDRON order, eq. (1)
  mesh.cells.reserve(static_cast<std::size_t>(8 * nx * ny * nz));
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (int n : {node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k),
                      node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1),
                      node(i, j + 1, k + 1)})
          mesh.cells.push_back(n);
  return mesh;
}

Surface boundary_surface(const Mesh& mesh) {
  // count the cells sharing each face
  std::map<FaceLoop, int> count;
  for (int c = 0; c < mesh.ncells(); ++c)
    for (const FaceLoop& f : cell_faces(mesh, c)) ++count[face_key(f)];

  // faces of one cell only, in cell order, as outward triangles
  Surface surface;
  for (int c = 0; c < mesh.ncells(); ++c)
    for (const FaceLoop& f : cell_faces(mesh, c))
      if (count[face_key(f)] == 1) append_triangles(f, surface.triangles);

  // sorted unique boundary nodes
  for (const auto& t : surface.triangles) surface.nodes.insert(surface.nodes.end(), t.begin(), t.end());
  std::sort(surface.nodes.begin(), surface.nodes.end());
  surface.nodes.erase(std::unique(surface.nodes.begin(), surface.nodes.end()), surface.nodes.end());
  return surface;
}

void check_cells(const Mesh& mesh, const std::string& where) {
  const int npc = mesh.nodes_per_cell();
  NSCD_THROW_UNLESS(mesh.cells.size() % static_cast<std::size_t>(npc) == 0,
                    "{}: {} cell node indices is not a multiple of {}", where, mesh.cells.size(), npc);
  for (std::size_t k = 0; k < mesh.cells.size(); ++k)
    NSCD_THROW_UNLESS(mesh.cells[k] >= 0 && mesh.cells[k] < mesh.nn(),
                      "{}: cell {} refers to node {}, expected an index in [0, {})", where,
                      k / static_cast<std::size_t>(npc), mesh.cells[k], mesh.nn());

  // det J at every quadrature point, against the round-off scale of the cell, eq. (2)
  std::vector<ShapeGradients> dN_dxi;
  for (const QuadraturePoint& p : gauss_rule(mesh.type)) dN_dxi.push_back(shape_derivatives(mesh.type, p.xi));
  for (int c = 0; c < mesh.ncells(); ++c) {
    Vec3 lo = mesh.nodes[mesh.cell(c)[0]], hi = lo;
    for (int n : mesh.cell(c)) {
      lo = lo.cwiseMin(mesh.nodes[n]);
      hi = hi.cwiseMax(mesh.nodes[n]);
    }
    const double h = (hi - lo).norm();
    for (const ShapeGradients& d : dN_dxi) {
      const double det = jacobian(mesh, c, d).determinant();
      NSCD_THROW_UNLESS(det > 1e-12 * h * h * h,
                        "{}: cell {} is inverted or degenerate (Jacobian determinant {:.3g} at a "
                        "quadrature point; expected > 0 with the node order of VTK/Gmsh)",
                        where, c, det);
    }
  }
}

}  // namespace nscd::ffr
