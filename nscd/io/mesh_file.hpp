#pragma once
/// @file
/// Finite-element meshes of deformable blocks read from files:
///  - Gmsh .msh (any version Gmsh reads), through the Gmsh C++ API [Geuzaine & Remacle 2009]:
///    the elements of the 3-D entities; 4-node tetrahedra (MSH type 4) or 8-node hexahedra
///    (MSH type 5);
///  - VTK XML unstructured grids .vtu: VTK_TETRA (10) or VTK_HEXAHEDRON (12) cells; cells of
///    lower dimension (boundary faces, edges, vertices) are ignored.
/// Gmsh's first-order node ordering is VTK's, the one of ffr::Mesh (ffr/mesh.hpp eq. 1).
/// One cell type per mesh; nodes no cell uses are dropped and the others renumbered in their
/// order in the file. The result is checked by ffr::check_cells (det J > 0 everywhere).
///
/// The Gmsh API keeps one global model: it is initialised once per process (General.Terminal
/// = 0, so it prints nothing) and every use, by this reader or by the meshing of shapes
/// (shape_mesh.hpp), holds one process-wide lock (gmsh_model.hpp).
///
/// References: [Geuzaine & Remacle 2009] Gmsh: a 3-D finite element mesh generator with
///             built-in pre- and post-processing facilities, IJNME 79(11), 1309–1331;
///             Gmsh reference manual §9.2 (node ordering); [Kitware 2010] VTK User's Guide,
///             11th ed., ch. 19 (VTK file formats).

#include "ffr/mesh.hpp"

#include <filesystem>

namespace nscd::io {

/// Reads the mesh of `file`: .msh (Gmsh) or .vtu (VTK), chosen by the extension.
/// @throws nscd::InputError naming the file and what was expected: unknown extension,
///         missing or unreadable file, no 3-D cells, mixed or unsupported cell types
///         (higher-order, prisms, pyramids, voxels, polyhedra), non-finite coordinates,
///         inverted or degenerate cells.
ffr::Mesh read_mesh_file(const std::filesystem::path& file);

}  // namespace nscd::io
