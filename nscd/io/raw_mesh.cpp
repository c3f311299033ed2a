#include "nscd/io/raw_mesh.hpp"

#include "nscd/core/error.hpp"

namespace nscd::io::detail {

ffr::Mesh compact(RawMesh raw, const std::string& name) {
  std::vector<int> new_index(raw.points.size(), -1);
  for (int p : raw.cells) new_index[static_cast<std::size_t>(p)] = 0;
  ffr::Mesh mesh;
  mesh.type = raw.type;
  for (std::size_t p = 0; p < raw.points.size(); ++p) {
    if (new_index[p] < 0) continue;
    NSCD_THROW_UNLESS(raw.points[p].allFinite(), "{}: node {} has non-finite coordinates ({}, {}, {})", name, p,
                      raw.points[p].x(), raw.points[p].y(), raw.points[p].z());
    new_index[p] = mesh.nn();
    mesh.nodes.push_back(raw.points[p]);
  }
  mesh.cells.reserve(raw.cells.size());
  for (int p : raw.cells) mesh.cells.push_back(new_index[static_cast<std::size_t>(p)]);
  ffr::check_cells(mesh, name);
  return mesh;
}

}  // namespace nscd::io::detail
