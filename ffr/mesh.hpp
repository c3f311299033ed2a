#pragma once
/// @file
/// Finite-element meshes of deformable blocks in their reference configuration (X, the
/// body frame of the floating frame of reference).
///
///  (1) Cells are trilinear hexahedra (Hex8) or linear tetrahedra (Tet4), one type per mesh,
///      with VTK's node ordering (VTK_HEXAHEDRON, VTK_TETRA; Gmsh's first-order ordering is
///      the same): a hexahedron lists its bottom face 0-1-2-3 counter-clockwise seen from the
///      top face 4-5-6-7, node 4+k above node k; a tetrahedron's face 0-1-2 has its
///      right-hand normal pointing to node 3.
///  (2) A cell is valid when det(∂X/∂ξ) > 0 at every quadrature point of its Gauss rule
///      (shape_functions.hpp), i.e. it is neither inverted nor degenerate.
///  (3) The boundary is made of the faces that belong to one cell only, oriented
///      counter-clockwise seen from outside; each boundary quadrilateral is split into two
///      triangles along the diagonal through its smallest node index.
///
/// Reference: [Kitware 2010] VTK User's Guide, 11th ed., fig. 19-20 (linear cell types).

#include "nscd/core/math.hpp"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace nscd::ffr {

/// Cell type of a mesh, eq. (1).
enum class CellType { Hex8, Tet4 };

/// Number of nodes of a cell of `type`: 8 or 4.
int nodes_per_cell(CellType type);

/// Mesh in its reference configuration.
struct Mesh {
  CellType type = CellType::Hex8;
  std::vector<Vec3> nodes;  // reference positions X [m]
  std::vector<int> cells;   // nodes_per_cell() node indices per cell, VTK ordering, eq. (1)

  /// Number of nodes.
  int nn() const { return static_cast<int>(nodes.size()); }
  /// Number of cells.
  int ncells() const { return static_cast<int>(cells.size()) / nodes_per_cell(); }
  /// Nodes per cell: 8 (Hex8) or 4 (Tet4).
  int nodes_per_cell() const { return ffr::nodes_per_cell(type); }
  /// Node indices of cell `c`. @pre 0 <= c < ncells().
  std::span<const int> cell(int c) const {
    const int npc = nodes_per_cell();
    return {cells.data() + static_cast<std::size_t>(c) * npc, static_cast<std::size_t>(npc)};
  }
};

/// Box of edge lengths `size` [m] centred on the origin, split into elements[0]×[1]×[2]
/// trilinear hexahedra; nodes are numbered x fastest, then y, then z, and so are cells.
/// @pre size > 0 and elements >= 1 componentwise (NSCD_DEMAND).
Mesh make_box_mesh(const Vec3& size, const std::array<int, 3>& elements);

/// Boundary of a mesh, eq. (3).
struct Surface {
  std::vector<std::array<int, 3>> triangles;  // mesh node indices, CCW seen from outside
  std::vector<int> nodes;                     // boundary nodes, sorted
};

/// Boundary faces (those of one cell only) as outward triangles, eq. (3), in the order of
/// the cells and of their faces; and the sorted list of boundary nodes.
Surface boundary_surface(const Mesh& mesh);

/// Checks a mesh read from a user's file: node indices in range, and every cell valid,
/// eq. (2), with det J > 1e-12 h³ (h the diagonal of the cell's bounding box) so that cells
/// flat to round-off count as degenerate.
/// @param where  the name of the source (file) used at the start of the message.
/// @throws nscd::InputError "<where>: ..." naming the first offending cell index.
void check_cells(const Mesh& mesh, const std::string& where);

}  // namespace nscd::ffr
