#include "nscd/io/modal_cache.hpp"

#include "nscd/io/process_cache.hpp"

#include <tuple>
#include <vector>

namespace nscd::io {
namespace {

struct BasisKey {
  int cell_type = 0;
  std::vector<int> cells;
  std::vector<double> nodes;  // x, y, z of each node
  double density = 0, young = 0, poisson = 0;
  int k = 0;
  std::vector<double> loads;  // node, x, y, z of each static correction's load

  friend bool operator<(const BasisKey& a, const BasisKey& b) {
    return std::tie(a.k, a.density, a.young, a.poisson, a.cell_type, a.cells, a.nodes, a.loads) <
           std::tie(b.k, b.density, b.young, b.poisson, b.cell_type, b.cells, b.nodes, b.loads);
  }
};

detail::ProcessCache<BasisKey, ffr::ModalBasis>& cache() {
  static detail::ProcessCache<BasisKey, ffr::ModalBasis> c;
  return c;
}

}  // namespace

std::shared_ptr<const ffr::ModalBasis> cached_modal_basis(const ffr::Mesh& mesh, double density, double young,
                                                          double poisson, int k,
                                                          std::span<const ffr::NodalLoad> corrections) {
  BasisKey key{static_cast<int>(mesh.type), mesh.cells, {}, density, young, poisson, k, {}};
  key.nodes.reserve(3 * mesh.nodes.size());
  for (const Vec3& X : mesh.nodes) key.nodes.insert(key.nodes.end(), {X.x(), X.y(), X.z()});
  for (const ffr::NodalLoad& f : corrections)
    key.loads.insert(key.loads.end(), {double(f.node), f.direction.x(), f.direction.y(), f.direction.z()});
  return cache().get(key, [&] { return ffr::modal_basis(mesh, density, young, poisson, k, corrections); });
}

std::size_t modal_analyses() { return cache().misses(); }

}  // namespace nscd::io
