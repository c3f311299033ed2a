#include "nscd/step/surface_search.hpp"

#include <algorithm>

namespace nscd {

SurfaceSearch surface_search(const ffr::FfrBody& body) {
  SurfaceSearch out;
  const ffr::Surface& surface = body.surface;
  std::vector<Vec3> lo, hi;
  for (const int k : surface.nodes) lo.push_back(body.mesh.nodes[k]);
  out.nodes = contact::box_tree(lo, lo);
  lo.clear();
  for (const std::array<int, 3>& t : surface.triangles) {
    const Vec3 &a = body.mesh.nodes[t[0]], &b = body.mesh.nodes[t[1]], &c = body.mesh.nodes[t[2]];
    lo.push_back(a.cwiseMin(b).cwiseMin(c));
    hi.push_back(a.cwiseMax(b).cwiseMax(c));
  }
  out.triangles = contact::box_tree(lo, hi);
  if (body.modes)
    for (const int k : surface.nodes)
      out.modal_bound = std::max(out.modal_bound, body.modes->phi.middleRows<3>(3 * static_cast<Eigen::Index>(k)).norm());
  return out;
}

}  // namespace nscd
