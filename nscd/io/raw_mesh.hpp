#pragma once
/// @file
/// Internal to nscd/io: the cells of a mesh as a source gives them (a file, or Gmsh's model),
/// and their compaction into the ffr::Mesh of ffr/mesh.hpp: nodes no cell uses are dropped and
/// the others renumbered in their order in the source; coordinates must be finite and every
/// cell valid (ffr::check_cells: det J > 0 everywhere).

#include "ffr/mesh.hpp"

#include <string>
#include <vector>

namespace nscd::io::detail {

/// Cells of one type as indices into `points` (the source's node list, possibly with unused
/// nodes), before compaction.
struct RawMesh {
  ffr::CellType type = ffr::CellType::Hex8;
  std::vector<Vec3> points;
  std::vector<int> cells;
};

/// The mesh of `raw` with its unused points dropped, checked.
/// @param name  the source, at the start of the messages.
/// @throws nscd::InputError "<name>: ..." for a non-finite coordinate or an invalid cell.
ffr::Mesh compact(RawMesh raw, const std::string& name);

}  // namespace nscd::io::detail
