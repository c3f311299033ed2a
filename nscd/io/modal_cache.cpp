#include "nscd/io/modal_cache.hpp"

#include <map>
#include <mutex>
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

  friend bool operator<(const BasisKey& a, const BasisKey& b) {
    return std::tie(a.k, a.density, a.young, a.poisson, a.cell_type, a.cells, a.nodes) <
           std::tie(b.k, b.density, b.young, b.poisson, b.cell_type, b.cells, b.nodes);
  }
};

struct Cache {
  std::mutex mutex;
  std::map<BasisKey, std::shared_ptr<const ffr::ModalBasis>> bases;
  std::size_t misses = 0;
};

Cache& cache() {
  static Cache c;
  return c;
}

}  // namespace

std::shared_ptr<const ffr::ModalBasis> cached_modal_basis(const ffr::Mesh& mesh, double density, double young,
                                                          double poisson, int k) {
  BasisKey key{static_cast<int>(mesh.type), mesh.cells, {}, density, young, poisson, k};
  key.nodes.reserve(3 * mesh.nodes.size());
  for (const Vec3& X : mesh.nodes) key.nodes.insert(key.nodes.end(), {X.x(), X.y(), X.z()});
  Cache& c = cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  std::shared_ptr<const ffr::ModalBasis>& basis = c.bases[key];
  if (basis == nullptr) {
    auto computed = std::make_shared<const ffr::ModalBasis>(ffr::modal_basis(mesh, density, young, poisson, k));
    ++c.misses;
    basis = std::move(computed);
  }
  return basis;
}

std::size_t modal_analyses() {
  Cache& c = cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  return c.misses;
}

}  // namespace nscd::io
