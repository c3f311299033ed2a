#include "nscd/io/mesh_file.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/gmsh_api.hpp"
#include "nscd/io/gmsh_model.hpp"
#include "nscd/io/vtk_files.hpp"

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

#include <fstream>
#include <string>
#include <vector>

namespace nscd::io {
namespace fs = std::filesystem;

namespace {

using detail::compact;
using detail::GmshModel;
using detail::RawMesh;
using detail::volume_elements;

// ---- Gmsh ------------------------------------------------------------------------------

// whether the file starts like an MSH file ($MeshFormat; $NOD for MSH 1); anything else would
// be handed by Gmsh to its .geo script parser
bool has_msh_header(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string word;
  in >> word;
  return word == "$MeshFormat" || word == "$NOD";
}

ffr::Mesh read_gmsh(const fs::path& file) {
  const std::string name = file.string();
  NSCD_THROW_UNLESS(has_msh_header(file), "{}: not a Gmsh mesh file (expected '$MeshFormat' at its start)", name);
  RawMesh raw;
  {
    const GmshModel model;
    try {
      // merge into the fresh empty model rather than open: after an error thrown while reading,
      // Gmsh 4.8's open() stays locked ("I'm busy!") and silently ignores every later file
      detail::call(detail::gmsh_api().merge, name.c_str());
      raw = volume_elements(name);
    } catch (const detail::GmshError& error) {
      throw InputError(fmt::format("{}: not a readable Gmsh mesh file ({})", name, error.what()));
    }
  }
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
