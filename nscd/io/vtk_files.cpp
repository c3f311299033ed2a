#include "nscd/io/vtk_files.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"

#include <vtkCallbackCommand.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkCommand.h>
#include <vtkDoubleArray.h>
#include <vtkIdTypeArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPolyDataWriter.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <algorithm>
#include <string>
#include <system_error>

namespace nscd::io::detail {
namespace fs = std::filesystem;

namespace {

// checks that a per-point or per-cell array has one entry per item
template <class T>
void check_size(const std::vector<T>& values, std::size_t n, const char* name, const char* per) {
  if (values.size() != n)
    throw Error(
        fmt::format("output frame: '{}' has {} values for {} {}", name, values.size(), n, per));
}

// 3-vectors as a 3-component double array
vtkSmartPointer<vtkDoubleArray> vector_array(const char* name, const std::vector<Vec3>& values) {
  auto array = vtkSmartPointer<vtkDoubleArray>::New();
  array->SetName(name);
  array->SetNumberOfComponents(3);
  array->SetNumberOfTuples(static_cast<vtkIdType>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i)
    array->SetTypedTuple(static_cast<vtkIdType>(i), values[i].data());
  return array;
}

// scalars as a 1-component array of VTK type Array (vtkDoubleArray, vtkIntArray)
template <class Array, class T>
vtkSmartPointer<Array> scalar_array(const char* name, const std::vector<T>& values) {
  auto array = vtkSmartPointer<Array>::New();
  array->SetName(name);
  array->SetNumberOfValues(static_cast<vtkIdType>(values.size()));
  std::copy(values.begin(), values.end(), array->GetPointer(0));
  return array;
}

vtkSmartPointer<vtkPoints> points_of(const std::vector<Vec3>& p) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetData(vector_array("points", p));
  return points;
}

// writes `data` to path.tmp with the XML writer Writer, then renames it to path
template <class Writer>
void write_xml(const fs::path& path, vtkDataObject* data) {
  const fs::path tmp = temporary_path(path);
  std::string errors;
  vtkNew<vtkCallbackCommand> on_message;
  on_message->SetCallback(&collect_vtk_message);
  on_message->SetClientData(&errors);

  // binary appended data (not base64), zlib level 1 (as small as level 5 here, ~2x faster),
  // 64-bit block headers
  vtkNew<Writer> writer;
  writer->AddObserver(vtkCommand::ErrorEvent, on_message);
  writer->AddObserver(vtkCommand::WarningEvent, on_message);
  writer->SetFileName(tmp.c_str());
  writer->SetInputData(data);
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();
  writer->SetCompressorTypeToZLib();
  writer->SetCompressionLevel(1);
  writer->SetHeaderTypeToUInt64();
  const int ok = writer->Write();

  // a failed write leaves no temporary file behind
  if (ok != 1 || writer->GetErrorCode() != 0 || !errors.empty()) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw Error(fmt::format("cannot write '{}': {}", path.string(),
                            errors.empty() ? "VTK writer failed" : errors));
  }
  commit_temporary(tmp, path);
}

// one cell of a joints file: the joint it belongs to, whether it is the section (0) or the centre
// of pressure (1), and its points
struct JointCell {
  int joint = 0, part = 0;
  std::vector<vtkIdType> points;
};

// the cells of write_joints, in VTK's order of a vtkPolyData's cells (vertices, lines, polygons),
// and their points
std::vector<JointCell> joint_cells(const JointFrame& frame, std::vector<Vec3>& points) {
  std::vector<JointCell> vertices, lines, polygons;
  for (std::size_t j = 0; j < frame.joints.size(); ++j) {
    const std::vector<Vec3>& polygon = frame.joints[j].polygon;
    if (polygon.empty()) throw Error(fmt::format("output frame: joint {} has no point", j));
    JointCell section{static_cast<int>(j), 0, {}};
    for (const Vec3& p : polygon) {
      section.points.push_back(static_cast<vtkIdType>(points.size()));
      points.push_back(p);
    }
    (polygon.size() == 1 ? vertices : polygon.size() == 2 ? lines : polygons).push_back(std::move(section));
  }
  for (std::size_t j = 0; j < frame.joints.size(); ++j) {
    vertices.push_back({static_cast<int>(j), 1, {static_cast<vtkIdType>(points.size())}});
    points.push_back(frame.joints[j].centre_of_pressure);
  }
  vertices.insert(vertices.end(), lines.begin(), lines.end());
  vertices.insert(vertices.end(), polygons.begin(), polygons.end());
  return vertices;
}

// the cells of `cells` with `size_class` points (1 vertices, 2 lines, 3 polygons of 3 or more)
vtkSmartPointer<vtkCellArray> cell_array(const std::vector<JointCell>& cells, std::size_t size_class) {
  auto array = vtkSmartPointer<vtkCellArray>::New();
  for (const JointCell& cell : cells)
    if (std::min<std::size_t>(cell.points.size(), 3) == size_class)
      array->InsertNextCell(static_cast<vtkIdType>(cell.points.size()), cell.points.data());
  return array;
}

// a joint's value of `field` on every cell
template <class Array, class T, class Field>
vtkSmartPointer<Array> joint_scalars(const char* name, const std::vector<JointCell>& cells, const JointFrame& frame,
                                     Field field) {
  std::vector<T> values;
  for (const JointCell& cell : cells) values.push_back(static_cast<T>(field(frame.joints[cell.joint], cell)));
  return scalar_array<Array>(name, values);
}

template <class Field>
vtkSmartPointer<vtkDoubleArray> joint_vectors(const char* name, const std::vector<JointCell>& cells,
                                              const JointFrame& frame, Field field) {
  std::vector<Vec3> values;
  for (const JointCell& cell : cells) values.push_back(field(frame.joints[cell.joint]));
  return vector_array(name, values);
}

// the cell data of write_joints
void add_joint_cell_data(vtkCellData* cd, const std::vector<JointCell>& cells, const JointFrame& frame) {
  using R = const JointRecord&;
  using C = const JointCell&;
  cd->AddArray(joint_scalars<vtkIntArray, int>("joint", cells, frame, [](R, C c) { return c.joint; }));
  cd->AddArray(joint_scalars<vtkIntArray, int>("part", cells, frame, [](R, C c) { return c.part; }));
  cd->AddArray(joint_scalars<vtkIntArray, int>("body_a", cells, frame, [](R j, C) { return j.body_a; }));
  cd->AddArray(joint_scalars<vtkIntArray, int>("body_b", cells, frame, [](R j, C) { return j.body_b; }));
  cd->AddArray(joint_scalars<vtkDoubleArray, double>("area", cells, frame, [](R j, C) { return j.area; }));
  cd->AddArray(joint_vectors("normal", cells, frame, [](R j) { return j.normal; }));
  cd->AddArray(joint_scalars<vtkDoubleArray, double>("normal_force", cells, frame,
                                                     [](R j, C) { return j.normal_force; }));
  cd->AddArray(joint_vectors("shear", cells, frame, [](R j) { return j.shear; }));
  cd->AddArray(joint_vectors("moment", cells, frame, [](R j) { return j.moment; }));
  cd->AddArray(joint_vectors("eccentricity", cells, frame, [](R j) { return j.eccentricity; }));
  cd->AddArray(joint_scalars<vtkIntArray, int>("inside", cells, frame, [](R j, C) { return j.inside ? 1 : 0; }));
  cd->AddArray(joint_scalars<vtkDoubleArray, double>("opening", cells, frame, [](R j, C) { return j.opening; }));
  cd->AddArray(joint_vectors("sliding", cells, frame, [](R j) { return j.sliding; }));
  cd->AddArray(joint_scalars<vtkIntArray, int>("state", cells, frame, [](R j, C) { return j.state; }));
}

}  // namespace

void collect_vtk_message(vtkObject*, unsigned long event, void* client, void* call) {
  const char* text = static_cast<const char*>(call);
  if (event == vtkCommand::ErrorEvent) {
    auto& errors = *static_cast<std::string*>(client);
    errors += text ? text : "unknown VTK error";
  } else {
    logger().warn("VTK: {}", text ? text : "");
  }
}

fs::path temporary_path(const fs::path& path) {
  fs::path tmp = path;
  tmp += ".tmp";
  return tmp;
}

void commit_temporary(const fs::path& tmp, const fs::path& path) {
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw Error(
        fmt::format("cannot rename '{}' to '{}': {}", tmp.string(), path.string(), ec.message()));
  }
}

void write_body_mesh(const fs::path& path, const BodyMeshFrame& frame) {
  const std::size_t np = frame.points.size(), ncell = frame.cells.size();
  check_size(frame.velocity, np, "velocity", "points");
  check_size(frame.displacement, np, "displacement", "points");
  check_size(frame.cell_types, ncell, "cell_types", "cells");
  check_size(frame.cell_body_id, ncell, "cell_body_id", "cells");
  check_size(frame.cell_model, ncell, "cell_model", "cells");
  if (!frame.local_displacement.empty())
    check_size(frame.local_displacement, np, "local_displacement", "points");
  if (!frame.von_mises.empty()) check_size(frame.von_mises, ncell, "von_mises", "cells");

  // cells as offsets + connectivity, with their VTK types
  std::size_t nconn = 0;
  for (const auto& cell : frame.cells) nconn += cell.size();
  vtkNew<vtkIdTypeArray> offsets, connectivity;
  vtkNew<vtkUnsignedCharArray> types;
  offsets->SetNumberOfValues(static_cast<vtkIdType>(ncell + 1));
  connectivity->SetNumberOfValues(static_cast<vtkIdType>(nconn));
  types->SetNumberOfValues(static_cast<vtkIdType>(ncell));
  vtkIdType k = 0;
  for (std::size_t c = 0; c < ncell; ++c) {
    const int type = frame.cell_types[c];
    if (type <= VTK_EMPTY_CELL || type >= VTK_NUMBER_OF_CELL_TYPES)
      throw Error(fmt::format("output frame: cell {} has unknown VTK type {}", c, type));
    types->SetValue(static_cast<vtkIdType>(c), static_cast<unsigned char>(type));
    offsets->SetValue(static_cast<vtkIdType>(c), k);
    for (const int i : frame.cells[c]) {
      if (i < 0 || static_cast<std::size_t>(i) >= np)
        throw Error(fmt::format("output frame: cell {} refers to point {} of {}", c, i, np));
      connectivity->SetValue(k++, i);
    }
  }
  offsets->SetValue(static_cast<vtkIdType>(ncell), k);
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, connectivity);

  // grid with its point and cell data
  vtkNew<vtkUnstructuredGrid> grid;
  grid->SetPoints(points_of(frame.points));
  grid->SetCells(types, cells);
  vtkPointData* pd = grid->GetPointData();
  pd->AddArray(vector_array("velocity", frame.velocity));
  pd->AddArray(vector_array("displacement", frame.displacement));
  if (!frame.local_displacement.empty())
    pd->AddArray(vector_array("local_displacement", frame.local_displacement));
  vtkCellData* cd = grid->GetCellData();
  cd->AddArray(scalar_array<vtkIntArray>("body_id", frame.cell_body_id));
  cd->AddArray(scalar_array<vtkIntArray>("model", frame.cell_model));
  if (!frame.von_mises.empty())
    cd->AddArray(scalar_array<vtkDoubleArray>("von_mises", frame.von_mises));

  write_xml<vtkXMLUnstructuredGridWriter>(path, grid);
}

void write_contacts(const fs::path& path, const ContactFrame& frame) {
  const std::size_t nc = frame.points.size();
  check_size(frame.normal, nc, "normal", "contacts");
  check_size(frame.reaction, nc, "reaction", "contacts");
  check_size(frame.normal_force, nc, "normal_force", "contacts");
  check_size(frame.tangential_force, nc, "tangential_force", "contacts");
  check_size(frame.gap, nc, "gap", "contacts");
  check_size(frame.status, nc, "status", "contacts");
  check_size(frame.body_a, nc, "body_a", "contacts");
  check_size(frame.body_b, nc, "body_b", "contacts");

  // one vertex cell per contact point
  vtkNew<vtkIdTypeArray> offsets, connectivity;
  offsets->SetNumberOfValues(static_cast<vtkIdType>(nc + 1));
  connectivity->SetNumberOfValues(static_cast<vtkIdType>(nc));
  for (vtkIdType i = 0; i <= static_cast<vtkIdType>(nc); ++i) offsets->SetValue(i, i);
  for (vtkIdType i = 0; i < static_cast<vtkIdType>(nc); ++i) connectivity->SetValue(i, i);
  vtkNew<vtkCellArray> verts;
  verts->SetData(offsets, connectivity);

  // points with the contact data
  vtkNew<vtkPolyData> poly;
  poly->SetPoints(points_of(frame.points));
  poly->SetVerts(verts);
  vtkPointData* pd = poly->GetPointData();
  pd->AddArray(vector_array("normal", frame.normal));
  pd->AddArray(vector_array("reaction", frame.reaction));
  pd->AddArray(scalar_array<vtkDoubleArray>("normal_force", frame.normal_force));
  pd->AddArray(scalar_array<vtkDoubleArray>("tangential_force", frame.tangential_force));
  pd->AddArray(scalar_array<vtkDoubleArray>("gap", frame.gap));
  pd->AddArray(scalar_array<vtkIntArray>("status", frame.status));
  pd->AddArray(scalar_array<vtkIntArray>("body_a", frame.body_a));
  pd->AddArray(scalar_array<vtkIntArray>("body_b", frame.body_b));

  write_xml<vtkXMLPolyDataWriter>(path, poly);
}

void write_joints(const fs::path& path, const JointFrame& frame) {
  std::vector<Vec3> points;
  const std::vector<JointCell> cells = joint_cells(frame, points);
  // the thrust on the centres of pressure, which follow the sections' points
  std::vector<Vec3> thrust(points.size(), Vec3::Zero());
  const std::size_t first_centre = points.size() - frame.joints.size();
  for (std::size_t j = 0; j < frame.joints.size(); ++j)
    thrust[first_centre + j] = frame.joints[j].normal_force * frame.joints[j].normal + frame.joints[j].shear;

  vtkNew<vtkPolyData> poly;
  poly->SetPoints(points_of(points));
  poly->SetVerts(cell_array(cells, 1));
  poly->SetLines(cell_array(cells, 2));
  poly->SetPolys(cell_array(cells, 3));
  poly->GetPointData()->AddArray(vector_array("thrust", thrust));
  add_joint_cell_data(poly->GetCellData(), cells, frame);
  write_xml<vtkXMLPolyDataWriter>(path, poly);
}

}  // namespace nscd::io::detail
