#include "nscd/io/vtk_files.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "nscd/io/vtk_xml.hpp"

#include <vtkCellType.h>
#include <vtkCommand.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
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

// the cells of one kind (vertices, lines, polygons ...) as VTK XML's connectivity and offsets (the
// end of each cell's points in connectivity)
struct CellArrays {
  std::vector<std::int64_t> connectivity, offsets;

  void add(const std::vector<int>& cell) {
    connectivity.insert(connectivity.end(), cell.begin(), cell.end());
    offsets.push_back(static_cast<std::int64_t>(connectivity.size()));
  }
  XmlSection section(std::string_view tag) const {
    return {tag, {xml_array("connectivity", connectivity), xml_array("offsets", offsets)}};
  }
};

// one cell of a joints file: the joint it belongs to, whether it is the section (0) or the centre
// of pressure (1), and its points
struct JointCell {
  int joint = 0, part = 0;
  std::vector<int> points;
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
      section.points.push_back(static_cast<int>(points.size()));
      points.push_back(p);
    }
    (polygon.size() == 1 ? vertices : polygon.size() == 2 ? lines : polygons).push_back(std::move(section));
  }
  for (std::size_t j = 0; j < frame.joints.size(); ++j) {
    vertices.push_back({static_cast<int>(j), 1, {static_cast<int>(points.size())}});
    points.push_back(frame.joints[j].centre_of_pressure);
  }
  vertices.insert(vertices.end(), lines.begin(), lines.end());
  vertices.insert(vertices.end(), polygons.begin(), polygons.end());
  return vertices;
}

// the cell data of write_joints: each cell's joint values
struct JointCellData {
  std::vector<int> joint, part, body_a, body_b, inside, state;
  std::vector<double> area, normal_force, opening;
  std::vector<Vec3> normal, shear, moment, eccentricity, sliding;

  explicit JointCellData(const std::vector<JointCell>& cells, const JointFrame& frame) {
    for (const JointCell& cell : cells) {
      const JointRecord& j = frame.joints[static_cast<std::size_t>(cell.joint)];
      joint.push_back(cell.joint);
      part.push_back(cell.part);
      body_a.push_back(j.body_a);
      body_b.push_back(j.body_b);
      area.push_back(j.area);
      normal.push_back(j.normal);
      normal_force.push_back(j.normal_force);
      shear.push_back(j.shear);
      moment.push_back(j.moment);
      eccentricity.push_back(j.eccentricity);
      inside.push_back(j.inside ? 1 : 0);
      opening.push_back(j.opening);
      sliding.push_back(j.sliding);
      state.push_back(j.state);
    }
  }
  XmlSection section() const {
    return {"CellData",
            {xml_array("joint", joint), xml_array("part", part), xml_array("body_a", body_a),
             xml_array("body_b", body_b), xml_array("area", area), xml_array("normal", normal),
             xml_array("normal_force", normal_force), xml_array("shear", shear), xml_array("moment", moment),
             xml_array("eccentricity", eccentricity), xml_array("inside", inside), xml_array("opening", opening),
             xml_array("sliding", sliding), xml_array("state", state)}};
  }
};

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

void write_body_mesh(const fs::path& path, const BodyMeshFrame& frame, XmlCache* cache) {
  const std::size_t np = frame.points.size(), ncell = frame.cells.size();
  check_size(frame.velocity, np, "velocity", "points");
  check_size(frame.displacement, np, "displacement", "points");
  check_size(frame.cell_types, ncell, "cell_types", "cells");
  check_size(frame.cell_body_id, ncell, "cell_body_id", "cells");
  check_size(frame.cell_model, ncell, "cell_model", "cells");
  if (!frame.local_displacement.empty())
    check_size(frame.local_displacement, np, "local_displacement", "points");
  if (!frame.von_mises.empty()) check_size(frame.von_mises, ncell, "von_mises", "cells");

  // cells as connectivity + offsets, with their VTK types
  CellArrays cells;
  cells.offsets.reserve(ncell);
  cells.connectivity.reserve(std::transform_reduce(frame.cells.begin(), frame.cells.end(), std::size_t{0},
                                                   std::plus<>(), [](const auto& cell) { return cell.size(); }));
  std::vector<std::uint8_t> types(ncell);
  for (std::size_t c = 0; c < ncell; ++c) {
    const int type = frame.cell_types[c];
    if (type <= VTK_EMPTY_CELL || type >= VTK_NUMBER_OF_CELL_TYPES)
      throw Error(fmt::format("output frame: cell {} has unknown VTK type {}", c, type));
    types[c] = static_cast<std::uint8_t>(type);
    for (const int i : frame.cells[c])
      if (i < 0 || static_cast<std::size_t>(i) >= np)
        throw Error(fmt::format("output frame: cell {} refers to point {} of {}", c, i, np));
    cells.add(frame.cells[c]);
  }

  // point data, cell data, points, cells
  XmlSection point_data{"PointData",
                        {xml_array("velocity", frame.velocity), xml_array("displacement", frame.displacement)}};
  if (!frame.local_displacement.empty())
    point_data.arrays.push_back(xml_array("local_displacement", frame.local_displacement));
  XmlSection cell_data{"CellData", {xml_array("body_id", frame.cell_body_id), xml_array("model", frame.cell_model)}};
  if (!frame.von_mises.empty()) cell_data.arrays.push_back(xml_array("von_mises", frame.von_mises));
  XmlSection cell_section = cells.section("Cells");
  cell_section.arrays.push_back(xml_array("types", types));
  // the cells and what says which body they belong to stay from one output time to the next
  for (XmlSection* section : {&cell_data, &cell_section})
    for (XmlArray& array : section->arrays) array.reuse = array.name != "von_mises";
  write_vtk_xml(path, {"UnstructuredGrid",
                       {{"NumberOfPoints", np}, {"NumberOfCells", ncell}},
                       {point_data, cell_data, {"Points", {xml_array("points", frame.points)}}, cell_section}},
                cache);
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
  CellArrays verts;
  verts.connectivity.resize(nc);
  std::iota(verts.connectivity.begin(), verts.connectivity.end(), std::int64_t{0});
  verts.offsets.resize(nc);
  std::iota(verts.offsets.begin(), verts.offsets.end(), std::int64_t{1});
  const CellArrays none;

  // points with the contact data
  const XmlSection point_data{
      "PointData",
      {xml_array("normal", frame.normal), xml_array("reaction", frame.reaction),
       xml_array("normal_force", frame.normal_force), xml_array("tangential_force", frame.tangential_force),
       xml_array("gap", frame.gap), xml_array("status", frame.status), xml_array("body_a", frame.body_a),
       xml_array("body_b", frame.body_b)}};
  write_vtk_xml(path, {"PolyData",
                       {{"NumberOfPoints", nc}, {"NumberOfVerts", nc}, {"NumberOfLines", 0}, {"NumberOfStrips", 0},
                        {"NumberOfPolys", 0}},
                       {point_data, {"CellData", {}}, {"Points", {xml_array("points", frame.points)}},
                        verts.section("Verts"), none.section("Lines"), none.section("Strips"), none.section("Polys")}});
}

void write_joints(const fs::path& path, const JointFrame& frame) {
  std::vector<Vec3> points;
  const std::vector<JointCell> cells = joint_cells(frame, points);
  // the thrust on the centres of pressure, which follow the sections' points
  std::vector<Vec3> thrust(points.size(), Vec3::Zero());
  const std::size_t first_centre = points.size() - frame.joints.size();
  for (std::size_t j = 0; j < frame.joints.size(); ++j)
    thrust[first_centre + j] = frame.joints[j].normal_force * frame.joints[j].normal + frame.joints[j].shear;

  // vertices, lines and polygons (3 points or more), in the order of `cells`
  CellArrays by_size[3];
  for (const JointCell& cell : cells) by_size[std::min<std::size_t>(cell.points.size(), 3) - 1].add(cell.points);
  const CellArrays none;
  const JointCellData cell_data(cells, frame);
  write_vtk_xml(path, {"PolyData",
                       {{"NumberOfPoints", points.size()}, {"NumberOfVerts", by_size[0].offsets.size()},
                        {"NumberOfLines", by_size[1].offsets.size()}, {"NumberOfStrips", 0},
                        {"NumberOfPolys", by_size[2].offsets.size()}},
                       {{"PointData", {xml_array("thrust", thrust)}}, cell_data.section(),
                        {"Points", {xml_array("points", points)}}, by_size[0].section("Verts"),
                        by_size[1].section("Lines"), none.section("Strips"), by_size[2].section("Polys")}});
}

}  // namespace nscd::io::detail
