#include "nscd/io/mesh_file.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/vtk_files.hpp"

#include <gmsh.h>

#include <vtkCallbackCommand.h>
#include <vtkCellType.h>
#include <vtkCellTypes.h>
#include <vtkCommand.h>
#include <vtkGenericCell.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <fstream>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace nscd::io {
namespace fs = std::filesystem;

namespace {

// cells of one type as indices into `points` (the file's node list, possibly with unused
// nodes), before compaction
struct RawMesh {
  ffr::CellType type = ffr::CellType::Hex8;
  std::vector<Vec3> points;
  std::vector<int> cells;
};

// drops the unused points, renumbers the others in file order, checks coordinates and cells
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

// ---- Gmsh ------------------------------------------------------------------------------

// the Gmsh API has one global state: initialised once, used under this lock
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

// whether the file starts like an MSH file ($MeshFormat; $NOD for MSH 1); anything else would
// be handed by Gmsh to its .geo script parser
bool has_msh_header(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string word;
  in >> word;
  return word == "$MeshFormat" || word == "$NOD";
}

RawMesh read_gmsh_locked(const std::string& name) {
  // merge into a fresh empty model rather than open: after an error thrown while reading,
  // Gmsh 4.8's open() stays locked ("I'm busy!") and silently ignores every later file
  gmsh::clear();
  gmsh::merge(name);

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

ffr::Mesh read_gmsh(const fs::path& file) {
  const std::string name = file.string();
  NSCD_THROW_UNLESS(has_msh_header(file), "{}: not a Gmsh mesh file (expected '$MeshFormat' at its start)", name);
  const std::lock_guard<std::mutex> lock(gmsh_mutex());
  initialise_gmsh_once();
  RawMesh raw;
  try {
    raw = read_gmsh_locked(name);
  } catch (const InputError&) {
    gmsh::clear();
    throw;
  } catch (const std::string& error) {
    // Gmsh 4.8 throws its error message as a std::string
    gmsh::clear();
    throw InputError(fmt::format("{}: not a readable Gmsh mesh file ({})", name, error));
  } catch (...) {
    // the Gmsh API reports its errors by exceptions of several types; its logger has the text
    const std::string error = gmsh_last_error();
    gmsh::clear();
    throw InputError(fmt::format("{}: not a readable Gmsh mesh file ({})", name, error));
  }
  gmsh::clear();
  return compact(std::move(raw), name);
}

// ---- VTK -------------------------------------------------------------------------------

ffr::Mesh read_vtu(const fs::path& file) {
  const std::string name = file.string();
  std::string errors;
  vtkNew<vtkCallbackCommand> on_message;
  on_message->SetCallback(&detail::collect_vtk_message);
  on_message->SetClientData(&errors);

  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->AddObserver(vtkCommand::ErrorEvent, on_message);
  reader->AddObserver(vtkCommand::WarningEvent, on_message);
  NSCD_THROW_UNLESS(reader->CanReadFile(name.c_str()) != 0,
                    "{}: not a VTK XML unstructured grid (expected a .vtu file written by VTK or ParaView)", name);
  reader->SetFileName(name.c_str());
  reader->Update();
  vtkUnstructuredGrid* grid = reader->GetOutput();
  NSCD_THROW_UNLESS(errors.empty() && grid != nullptr, "{}: unreadable VTK file ({})", name, errors);

  // the 3-D cells, of one supported type
  RawMesh raw;
  int type = -1;
  vtkNew<vtkIdList> ids;
  vtkNew<vtkGenericCell> cell;
  for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
    const int t = grid->GetCellType(c);
    grid->GetCell(c, cell);
    if (cell->GetCellDimension() < 3) continue;
    NSCD_THROW_UNLESS(t == VTK_TETRA || t == VTK_HEXAHEDRON,
                      "{}: cell {} is a {}; expected VTK_TETRA or VTK_HEXAHEDRON cells", name, c,
                      vtkCellTypes::GetClassNameFromTypeId(t));
    NSCD_THROW_UNLESS(type < 0 || t == type, "{}: cell {} is a {} after {} cells; expected one cell type per mesh",
                      name, c, vtkCellTypes::GetClassNameFromTypeId(t), vtkCellTypes::GetClassNameFromTypeId(type));
    type = t;
    grid->GetCellPoints(c, ids);
    for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k) raw.cells.push_back(static_cast<int>(ids->GetId(k)));
  }
  NSCD_THROW_UNLESS(type >= 0, "{}: no 3-D cells; expected VTK_TETRA or VTK_HEXAHEDRON cells", name);
  raw.type = type == VTK_HEXAHEDRON ? ffr::CellType::Hex8 : ffr::CellType::Tet4;

  raw.points.resize(static_cast<std::size_t>(grid->GetNumberOfPoints()));
  for (vtkIdType p = 0; p < grid->GetNumberOfPoints(); ++p) grid->GetPoint(p, raw.points[static_cast<std::size_t>(p)].data());
  return compact(std::move(raw), name);
}

}  // namespace

ffr::Mesh read_mesh_file(const fs::path& file) {
  const std::string name = file.string();
  std::error_code ec;
  NSCD_THROW_UNLESS(fs::is_regular_file(file, ec), "{}: no such file (expected a .msh or .vtu mesh)", name);
  const std::string ext = file.extension().string();
  if (ext == ".msh") return read_gmsh(file);
  if (ext == ".vtu") return read_vtu(file);
  throw InputError(fmt::format("{}: unknown mesh format '{}'; expected .msh (Gmsh) or .vtu (VTK)", name, ext));
}

}  // namespace nscd::io
