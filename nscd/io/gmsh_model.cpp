#include "nscd/io/gmsh_model.hpp"

#include "nscd/core/error.hpp"

#include <gmsh.h>

#include <algorithm>
#include <exception>
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
    gmsh::initialize(0, nullptr, false);
    gmsh::option::setNumber("General.Terminal", 0);
  });
}

std::string gmsh_last_error() {
  std::string error;
  try {
    gmsh::logger::getLastError(error);
  } catch (...) {
  }
  return error.empty() ? "unknown Gmsh error" : error;
}

// MSH element types of first-order tetrahedra and hexahedra
constexpr int kMshTet4 = 4;
constexpr int kMshHex8 = 5;

std::string msh_type_name(int type) {
  std::string name;
  int dim = 0, order = 0, nodes = 0, primary = 0;
  std::vector<double> local;
  try {
    gmsh::model::mesh::getElementProperties(type, name, dim, order, nodes, local, primary);
  } catch (...) {
    return fmt::format("MSH element type {}", type);
  }
  return fmt::format("{} (MSH type {})", name, type);
}

}  // namespace

GmshModel::GmshModel() : lock_(gmsh_mutex()) {
  initialise_gmsh_once();
  gmsh::clear();
}

GmshModel::~GmshModel() {
  try {
    gmsh::clear();
  } catch (...) {
    // nothing left to release: the next GmshModel clears the model again
  }
}

RawMesh volume_elements(const std::string& name) {
  // every node of the model, by tag
  std::vector<std::size_t> tags;
  std::vector<double> coord, parametric;
  gmsh::model::mesh::getNodes(tags, coord, parametric, -1, -1, true, false);
  RawMesh raw;
  std::unordered_map<std::size_t, int> index_of;
  // file order = increasing tag
  std::vector<std::size_t> order(tags.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return tags[a] < tags[b]; });
  for (std::size_t k : order) {
    index_of.emplace(tags[k], static_cast<int>(raw.points.size()));
    raw.points.push_back(Vec3(coord[3 * k], coord[3 * k + 1], coord[3 * k + 2]));
  }

  // elements of the 3-D entities: one first-order type
  std::vector<int> types;
  std::vector<std::vector<std::size_t>> element_tags, node_tags;
  gmsh::model::mesh::getElements(types, element_tags, node_tags, 3, -1);
  NSCD_THROW_UNLESS(!types.empty(), "{}: no 3-D elements; expected a volume mesh of tetrahedra or hexahedra", name);
  NSCD_THROW_UNLESS(types.size() == 1, "{}: mixed element types ({} and {}); expected one type per mesh", name,
                    msh_type_name(types[0]), msh_type_name(types[1]));
  NSCD_THROW_UNLESS(types[0] == kMshTet4 || types[0] == kMshHex8,
                    "{}: elements are {}; expected 4-node tetrahedra or 8-node hexahedra", name,
                    msh_type_name(types[0]));
  raw.type = types[0] == kMshHex8 ? ffr::CellType::Hex8 : ffr::CellType::Tet4;
  raw.cells.reserve(node_tags[0].size());
  for (std::size_t tag : node_tags[0]) {
    const auto it = index_of.find(tag);
    NSCD_THROW_UNLESS(it != index_of.end(), "{}: an element refers to node {}, which does not exist", name, tag);
    raw.cells.push_back(it->second);
  }
  return raw;
}

std::string current_gmsh_error() {
  try {
    throw;
  } catch (const std::string& error) {
    return error;
  } catch (const std::exception& error) {
    return error.what();
  } catch (...) {
    return gmsh_last_error();
  }
}

}  // namespace nscd::io::detail
