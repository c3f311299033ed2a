#include "nscd/io/gmsh_model.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/gmsh_api.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace nscd::io::detail {
namespace {

std::mutex& gmsh_mutex() {
  static std::mutex m;
  return m;
}

void initialise_gmsh_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    // initialising twice only warns (Gmsh ≥ 4.7), so a caller that initialised already is fine
    const GmshApi& api = gmsh_api();
    call(api.initialize, 0, nullptr, 0);
    call(api.set_number, "General.Terminal", 0.0);
  });
}

// an array that Gmsh's C API allocated, freed with it
template <class T>
struct GmshArray {
  T* data = nullptr;
  std::size_t size = 0;
  GmshArray() = default;
  GmshArray(const GmshArray&) = delete;
  GmshArray& operator=(const GmshArray&) = delete;
  ~GmshArray() { gmsh_api().free(data); }
};

// a list of arrays that Gmsh's C API allocated (each array and the list), freed with it
template <class T>
struct GmshArrays {
  T** data = nullptr;
  std::size_t* sizes = nullptr;
  std::size_t size = 0;
  GmshArrays() = default;
  GmshArrays(const GmshArrays&) = delete;
  GmshArrays& operator=(const GmshArrays&) = delete;
  ~GmshArrays() {
    for (std::size_t i = 0; i < size && data != nullptr; ++i) gmsh_api().free(data[i]);
    gmsh_api().free(data);
    gmsh_api().free(sizes);
  }
};

// MSH element types of first-order tetrahedra and hexahedra
constexpr int kMshTet4 = 4;
constexpr int kMshHex8 = 5;

std::string msh_type_name(int type) {
  const GmshApi& api = gmsh_api();
  char* name = nullptr;
  int dim = 0, order = 0, nodes = 0, primary = 0;
  GmshArray<double> local;
  int ierr = 0;
  api.get_element_properties(type, &name, &dim, &order, &nodes, &local.data, &local.size, &primary, &ierr);
  const std::string text = ierr == 0 && name != nullptr ? fmt::format("{} (MSH type {})", name, type)
                                                         : fmt::format("MSH element type {}", type);
  api.free(name);
  return text;
}

}  // namespace

GmshModel::GmshModel() : lock_(gmsh_mutex()) {
  initialise_gmsh_once();
  call(gmsh_api().clear);
}

GmshModel::~GmshModel() {
  int ierr = 0;  // a failure leaves nothing to release: the next GmshModel clears the model again
  gmsh_api().clear(&ierr);
}

RawMesh volume_elements(const std::string& name) {
  // every node of the model, by tag
  const GmshApi& api = gmsh_api();
  GmshArray<std::size_t> tags;
  GmshArray<double> coord, parametric;
  call(api.get_nodes, &tags.data, &tags.size, &coord.data, &coord.size, &parametric.data, &parametric.size, -1, -1, 1, 0);
  RawMesh raw;
  std::unordered_map<std::size_t, int> index_of;
  // file order = increasing tag
  std::vector<std::size_t> order(tags.size);
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return tags.data[a] < tags.data[b]; });
  for (std::size_t k : order) {
    index_of.emplace(tags.data[k], static_cast<int>(raw.points.size()));
    raw.points.push_back(Vec3(coord.data[3 * k], coord.data[3 * k + 1], coord.data[3 * k + 2]));
  }

  // elements of the 3-D entities: one first-order type
  GmshArray<int> types;
  GmshArrays<std::size_t> element_tags, node_tags;
  call(api.get_elements, &types.data, &types.size, &element_tags.data, &element_tags.sizes, &element_tags.size,
       &node_tags.data, &node_tags.sizes, &node_tags.size, 3, -1);
  NSCD_THROW_UNLESS(types.size > 0, "{}: no 3-D elements; expected a volume mesh of tetrahedra or hexahedra", name);
  NSCD_THROW_UNLESS(types.size == 1, "{}: mixed element types ({} and {}); expected one type per mesh", name,
                    msh_type_name(types.data[0]), msh_type_name(types.data[1]));
  NSCD_THROW_UNLESS(types.data[0] == kMshTet4 || types.data[0] == kMshHex8,
                    "{}: elements are {}; expected 4-node tetrahedra or 8-node hexahedra", name,
                    msh_type_name(types.data[0]));
  raw.type = types.data[0] == kMshHex8 ? ffr::CellType::Hex8 : ffr::CellType::Tet4;
  raw.cells.reserve(node_tags.sizes[0]);
  for (std::size_t j = 0; j < node_tags.sizes[0]; ++j) {
    const std::size_t tag = node_tags.data[0][j];
    const auto it = index_of.find(tag);
    NSCD_THROW_UNLESS(it != index_of.end(), "{}: an element refers to node {}, which does not exist", name, tag);
    raw.cells.push_back(it->second);
  }
  return raw;
}

}  // namespace nscd::io::detail
