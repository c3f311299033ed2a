#include "nscd/io/output_writer.hpp"

#include "nscd/core/error.hpp"

#include <gtest/gtest.h>

#include <vtkCell.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <unistd.h>
#include <utility>
#include <vector>

namespace nscd::io {
namespace {
namespace fs = std::filesystem;

// one unit cube: 8 points, 6 quads, body 0; values chosen so none is a short decimal
BodyMeshFrame cube_frame(double shift) {
  BodyMeshFrame f;
  for (int k = 0; k < 8; ++k) {
    const Vec3 p((k & 1) + shift, (k >> 1 & 1) + 0.1, (k >> 2 & 1) + 1.0 / 3.0);
    f.points.push_back(p);
    f.velocity.push_back(Vec3(0.1 * k, -1.0 / 7.0, 1e-17 * k));
    f.displacement.push_back(Vec3(shift, 2.0 / 3.0 * k, -0.3));
  }
  f.cells = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  f.cell_types.assign(6, VTK_POLYGON);
  f.cell_body_id.assign(6, 0);
  f.cell_model.assign(6, 1);
  return f;
}

ContactFrame two_contacts() {
  ContactFrame c;
  c.points = {Vec3(0.1, 0.2, 0.3), Vec3(1.0 / 3.0, 0.5, -2.0)};
  c.normal = {Vec3(0, 0, 1), Vec3(0.6, 0, 0.8)};
  c.reaction = {Vec3(1.5, -0.25, 98.1), Vec3(1e-9, 2.0 / 3.0, 1e6)};
  c.normal_force = {98.1, 1e6 / 3.0};
  c.tangential_force = {0.1 * 3, 0.0};
  c.gap = {-1e-7, 2.5e-5};
  c.status = {1, 2};
  c.body_a = {-1, 0};
  c.body_b = {0, 3};
  return c;
}

// a square joint (bodies 0, 1) with its thrust off-centre but inside, and a point joint (a sphere's,
// bodies 1, 2) whose name needs quoting
JointFrame two_joints() {
  JointRecord square{0, 1, "ground", "block", {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)}};
  square.area = 1;
  square.centroid = Vec3(0.5, 0.5, 0);
  square.normal = Vec3(0, 0, 1);
  square.normal_force = 98.1 / 3;
  square.shear = Vec3(1.0 / 7, -2.5, 0);
  square.moment = Vec3(0.25, -1.0 / 3, 1e-9);
  square.eccentricity = Vec3(0.1, 1.0 / 9, 0);
  square.centre_of_pressure = square.centroid + square.eccentricity;
  square.opening = 2.5e-7;
  square.sliding = Vec3(1e-3 / 3, 0, 0);
  square.state = 1;
  square.state_name = "stick";
  JointRecord point{1, 2, "block", "ball, red", {Vec3(0.2, 0.3, 1)}};
  point.centroid = point.centre_of_pressure = Vec3(0.2, 0.3, 1);
  point.normal = Vec3(0.6, 0, 0.8);
  point.inside = false;
  point.state = 2;
  point.state_name = "sliding";
  return {42, {square, point}};
}

// a fresh directory per test, removed afterwards
class OutputWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_dir = fs::temp_directory_path() /
            ("nscd_test_output_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  // two output times: 2 contacts and 2 joints at t0, none at t1
  void write_two_outputs(OutputWriter& w) {
    w.write_output(m_t0, cube_frame(0.0), two_contacts(), two_joints(), m_body_rows, m_probe_rows);
    w.write_output(m_t1, cube_frame(0.5), ContactFrame{}, JointFrame{}, m_body_rows, m_probe_rows);
  }

  fs::path m_dir;
  // the times of steps 0 and 3 of h = 0.1; 3 · 0.1 is 0.30000000000000004 in double, written 0.3
  const double m_t0 = 0.0, m_t1 = 3 * 0.1;
  const std::string m_t0_text = "0", m_t1_text = "0.3";
  std::vector<BodyRow> m_body_rows = {
      {"block_1", Vec3(0.1, 1.0 / 3.0, -2.5e-300),
       Quat(0.9, 0.1, -0.3, std::sqrt(1 - 0.81 - 0.01 - 0.09)), Vec3(1e-20, 0, -9.81),
       Vec3(0.7, 1.0 / 9.0, 3)},
      {"name, with \"quotes\"", Vec3(1, 2, 3), Quat::Identity(), Vec3::Zero(), Vec3::Zero()}};
  std::vector<ProbeRow> m_probe_rows = {{"top", Vec3(0.5, 2.0 / 3.0, 2), Vec3(1e-6 / 3, 0, -1)}};
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> read_lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// splits a csv line, honouring quoted fields
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

void expect_vectors(vtkDataArray* array, const std::vector<Vec3>& expected) {
  ASSERT_NE(array, nullptr);
  ASSERT_EQ(array->GetNumberOfComponents(), 3);
  ASSERT_EQ(array->GetNumberOfTuples(), static_cast<vtkIdType>(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i)
    for (int d = 0; d < 3; ++d)
      EXPECT_EQ(array->GetComponent(static_cast<vtkIdType>(i), d), expected[i][d]);
}

template <class T>
void expect_scalars(vtkDataArray* array, const std::vector<T>& expected) {
  ASSERT_NE(array, nullptr);
  ASSERT_EQ(array->GetNumberOfComponents(), 1);
  ASSERT_EQ(array->GetNumberOfTuples(), static_cast<vtkIdType>(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(array->GetComponent(static_cast<vtkIdType>(i), 0), static_cast<double>(expected[i]));
}

TEST_F(OutputWriterTest, BodiesVtuReadsBackExactly) {
  OutputWriter w(m_dir, "cube", true, true);
  write_two_outputs(w);
  EXPECT_EQ(w.n_outputs(), 2);

  for (const auto& [file, shift] :
       {std::pair{"bodies_000000.vtu", 0.0}, {"bodies_000001.vtu", 0.5}}) {
    SCOPED_TRACE(file);
    const BodyMeshFrame f = cube_frame(shift);
    vtkNew<vtkXMLUnstructuredGridReader> reader;
    reader->SetFileName((m_dir / file).c_str());
    reader->Update();
    vtkUnstructuredGrid* grid = reader->GetOutput();
    ASSERT_EQ(grid->GetNumberOfPoints(), 8);
    ASSERT_EQ(grid->GetNumberOfCells(), 6);
    for (vtkIdType i = 0; i < 8; ++i) {
      double p[3];
      grid->GetPoint(i, p);
      for (int d = 0; d < 3; ++d) EXPECT_EQ(p[d], f.points[static_cast<std::size_t>(i)][d]);
    }
    for (vtkIdType c = 0; c < 6; ++c) {
      EXPECT_EQ(grid->GetCellType(c), VTK_POLYGON);
      vtkIdType npts = 0;
      const vtkIdType* ids = nullptr;
      grid->GetCellPoints(c, npts, ids);
      ASSERT_EQ(npts, 4);
      for (int k = 0; k < 4; ++k)
        EXPECT_EQ(ids[k], f.cells[static_cast<std::size_t>(c)][static_cast<std::size_t>(k)]);
    }
    expect_vectors(grid->GetPointData()->GetArray("velocity"), f.velocity);
    expect_vectors(grid->GetPointData()->GetArray("displacement"), f.displacement);
    expect_scalars(grid->GetCellData()->GetArray("body_id"), f.cell_body_id);
    expect_scalars(grid->GetCellData()->GetArray("model"), f.cell_model);
    EXPECT_EQ(grid->GetPointData()->GetArray("local_displacement"), nullptr);
    EXPECT_EQ(grid->GetCellData()->GetArray("von_mises"), nullptr);
  }
}

TEST_F(OutputWriterTest, FiniteElementMeshWithOptionalFields) {
  // one hexahedron and one tetrahedron sharing points, with the FE fields
  BodyMeshFrame f;
  for (int k = 0; k < 8; ++k) f.points.push_back(Vec3(k & 1, k >> 1 & 1, k >> 2 & 1));
  f.points.push_back(Vec3(0.5, 0.5, 2));
  f.velocity.assign(9, Vec3(0, 0, -1));
  f.displacement.assign(9, Vec3(1e-3, 0, 0));
  f.local_displacement.assign(9, Vec3(0, 2e-4, 0));
  f.cells = {{0, 1, 3, 2, 4, 5, 7, 6}, {4, 5, 6, 8}};
  f.cell_types = {VTK_HEXAHEDRON, VTK_TETRA};
  f.cell_body_id = {2, 2};
  f.cell_model = {3, 3};
  f.von_mises = {1.5e6, 2.0 / 3.0};
  OutputWriter w(m_dir, "fe", true, false);
  w.write_output(0, f, ContactFrame{}, JointFrame{}, {}, {});

  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName((m_dir / "bodies_000000.vtu").c_str());
  reader->Update();
  vtkUnstructuredGrid* grid = reader->GetOutput();
  ASSERT_EQ(grid->GetNumberOfCells(), 2);
  EXPECT_EQ(grid->GetCellType(0), VTK_HEXAHEDRON);
  EXPECT_EQ(grid->GetCellType(1), VTK_TETRA);
  expect_vectors(grid->GetPointData()->GetArray("local_displacement"), f.local_displacement);
  expect_scalars(grid->GetCellData()->GetArray("von_mises"), f.von_mises);
}

TEST_F(OutputWriterTest, ContactsVtpReadsBackExactly) {
  OutputWriter w(m_dir, "cube", true, true);
  write_two_outputs(w);

  // first time: two contacts, each a vertex cell
  const ContactFrame c = two_contacts();
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName((m_dir / "contacts_000000.vtp").c_str());
  reader->Update();
  vtkPolyData* poly = reader->GetOutput();
  ASSERT_EQ(poly->GetNumberOfPoints(), 2);
  ASSERT_EQ(poly->GetNumberOfVerts(), 2);
  for (vtkIdType i = 0; i < 2; ++i) {
    double p[3];
    poly->GetPoint(i, p);
    for (int d = 0; d < 3; ++d) EXPECT_EQ(p[d], c.points[static_cast<std::size_t>(i)][d]);
    EXPECT_EQ(poly->GetCellType(i), VTK_VERTEX);
  }
  vtkPointData* pd = poly->GetPointData();
  expect_vectors(pd->GetArray("normal"), c.normal);
  expect_vectors(pd->GetArray("reaction"), c.reaction);
  expect_scalars(pd->GetArray("normal_force"), c.normal_force);
  expect_scalars(pd->GetArray("tangential_force"), c.tangential_force);
  expect_scalars(pd->GetArray("gap"), c.gap);
  expect_scalars(pd->GetArray("status"), c.status);
  expect_scalars(pd->GetArray("body_a"), c.body_a);
  expect_scalars(pd->GetArray("body_b"), c.body_b);

  // second time: no contacts, still a readable file with every array
  vtkNew<vtkXMLPolyDataReader> empty_reader;
  empty_reader->SetFileName((m_dir / "contacts_000001.vtp").c_str());
  empty_reader->Update();
  EXPECT_EQ(empty_reader->GetErrorCode(), 0);
  vtkPolyData* empty = empty_reader->GetOutput();
  EXPECT_EQ(empty->GetNumberOfPoints(), 0);
  EXPECT_EQ(empty->GetNumberOfCells(), 0);
  for (const char* name : {"normal", "reaction", "normal_force", "tangential_force", "gap",
                           "status", "body_a", "body_b"})
    EXPECT_NE(empty->GetPointData()->GetArray(name), nullptr) << name;
}

TEST_F(OutputWriterTest, JointsVtpHasTheSectionsAndTheCentresOfPressure) {
  OutputWriter w(m_dir, "cube", true, true);
  write_two_outputs(w);

  // the point joint's section and both centres of pressure as vertices (VTK's cell order:
  // vertices, then polygons), then the square's polygon
  const JointFrame frame = two_joints();
  const JointRecord &square = frame.joints[0], &point = frame.joints[1];
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName((m_dir / "joints_000000.vtp").c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0);
  vtkPolyData* poly = reader->GetOutput();
  ASSERT_EQ(poly->GetNumberOfPoints(), 4 + 1 + 2);
  ASSERT_EQ(poly->GetNumberOfVerts(), 3);
  ASSERT_EQ(poly->GetNumberOfPolys(), 1);
  EXPECT_EQ(poly->GetCell(3)->GetCellDimension(), 2);  // VTK reads a 4-point polygon as a quad
  EXPECT_EQ(poly->GetCell(3)->GetNumberOfPoints(), 4);
  vtkCellData* cd = poly->GetCellData();
  expect_scalars(cd->GetArray("joint"), std::vector<int>{1, 0, 1, 0});
  expect_scalars(cd->GetArray("part"), std::vector<int>{0, 1, 1, 0});
  expect_scalars(cd->GetArray("body_b"), std::vector<int>{2, 1, 2, 1});
  expect_scalars(cd->GetArray("normal_force"), std::vector<double>{0, square.normal_force, 0, square.normal_force});
  expect_vectors(cd->GetArray("eccentricity"), {point.eccentricity, square.eccentricity, point.eccentricity,
                                                square.eccentricity});
  expect_scalars(cd->GetArray("inside"), std::vector<int>{0, 1, 0, 1});
  expect_scalars(cd->GetArray("state"), std::vector<int>{2, 1, 2, 1});
  for (const char* name : {"body_a", "area", "normal", "shear", "moment", "opening", "sliding"})
    EXPECT_NE(cd->GetArray(name), nullptr) << name;
  // the thrust, N n + S on b, at the centres of pressure, which follow the sections' points
  vtkDataArray* thrust = poly->GetPointData()->GetArray("thrust");
  ASSERT_NE(thrust, nullptr);
  double p[3];
  poly->GetPoint(5, p);
  EXPECT_EQ(Vec3(p[0], p[1], p[2]), square.centre_of_pressure);
  const Vec3 force = square.normal_force * square.normal + square.shear;
  for (int d = 0; d < 3; ++d) EXPECT_EQ(thrust->GetComponent(5, d), force[d]);
  for (int d = 0; d < 3; ++d) EXPECT_EQ(thrust->GetComponent(0, d), 0.0);

  // no joints: a readable empty file
  vtkNew<vtkXMLPolyDataReader> empty_reader;
  empty_reader->SetFileName((m_dir / "joints_000001.vtp").c_str());
  empty_reader->Update();
  EXPECT_EQ(empty_reader->GetErrorCode(), 0);
  EXPECT_EQ(empty_reader->GetOutput()->GetNumberOfCells(), 0);
}

TEST_F(OutputWriterTest, JointsCsvHasARowPerJointPerOutputTime) {
  OutputWriter w(m_dir, "cube", true, true);
  write_two_outputs(w);
  const auto lines = read_lines(m_dir / "joints.csv");
  ASSERT_EQ(lines.size(), 3u);  // two joints at t0, none at t1
  EXPECT_EQ(lines[0],
            "time,step,body_a,body_b,area,cx,cy,cz,nx,ny,nz,normal_force,shear_x,shear_y,shear_z,shear,moment_x,"
            "moment_y,moment_z,pressure_x,pressure_y,pressure_z,eccentricity_x,eccentricity_y,eccentricity_z,"
            "eccentricity,inside,opening,sliding_x,sliding_y,sliding_z,sliding,state");
  const JointFrame joints = two_joints();
  const JointRecord& square = joints.joints[0];
  const auto f = split_csv(lines[1]);
  ASSERT_EQ(f.size(), 33u);
  EXPECT_EQ(f[0], m_t0_text);
  EXPECT_EQ(f[1], "42");
  EXPECT_EQ(f[2], "ground");
  EXPECT_EQ(f[3], "block");
  EXPECT_EQ(std::stod(f[4]), square.area);
  EXPECT_EQ(std::stod(f[11]), square.normal_force);
  EXPECT_EQ(std::stod(f[13]), square.shear.y());
  EXPECT_EQ(std::stod(f[15]), square.shear.norm());
  EXPECT_EQ(std::stod(f[16]), square.moment.x());
  EXPECT_EQ(std::stod(f[20]), square.centre_of_pressure.y());
  EXPECT_EQ(std::stod(f[25]), square.eccentricity.norm());
  EXPECT_EQ(f[26], "1");
  EXPECT_EQ(std::stod(f[27]), square.opening);
  EXPECT_EQ(std::stod(f[28]), square.sliding.x());
  EXPECT_EQ(f[32], "stick");
  const auto g = split_csv(lines[2]);
  ASSERT_EQ(g.size(), 33u);
  EXPECT_EQ(g[3], "ball, red");
  EXPECT_EQ(g[26], "0");
  EXPECT_EQ(g[32], "sliding");
}

TEST(TimeText, StepTimesReadBackAsTheStepsDecimal) {
  // t = k h for steps h given as decimals H · 10⁻ᵖ: the text must read back to the double nearest
  // the exact decimal k H · 10⁻ᵖ (what `time == 0.03` compares with), for every k up to 10⁵ and
  // for a geometric sample of k up to the 15-digit limit of time_text
  const std::vector<std::pair<long long, int>> steps = {{1, 2}, {1, 4}, {25, 6}, {3, 3}, {1, 3}, {5, 5}, {125, 7}};
  std::vector<long long> ks;
  for (long long k = 0; k <= 100000; ++k) ks.push_back(k);
  for (double k = 1e5; k < 1e12; k *= 1.37) ks.push_back(static_cast<long long>(k));
  for (const auto& [H, p] : steps) {
    const double h = std::stod(std::to_string(H) + "e-" + std::to_string(p));
    for (const long long k : ks) {
      const double exact = std::stod(std::to_string(k * H) + "e-" + std::to_string(p));
      ASSERT_EQ(std::stod(time_text(static_cast<double>(k) * h)), exact) << "k = " << k << ", h = " << h;
    }
  }
  EXPECT_EQ(time_text(3 * 0.01), "0.03");
  EXPECT_EQ(time_text(0.0), "0");
  EXPECT_EQ(time_text(12345678901 * 1e-4), "1234567.8901");
}

TEST_F(OutputWriterTest, PvdListsEveryTimeAndPart) {
  OutputWriter w(m_dir, "cube", true, true);
  write_two_outputs(w);
  const std::string pvd = read_text(m_dir / "cube.pvd");
  EXPECT_NE(pvd.find("<VTKFile type=\"Collection\""), std::string::npos);
  EXPECT_EQ(pvd.find("fixed.vtu"), std::string::npos);

  // (timestep, part, name, file) of every DataSet, in order, the time as the step's decimal
  const std::regex dataset(R"re(<DataSet timestep="([^"]*)" part="(\d)" name="([^"]*)" file="([^"]*)"/>)re");
  std::vector<std::tuple<std::string, int, std::string, std::string>> entries;
  for (auto it = std::sregex_iterator(pvd.begin(), pvd.end(), dataset);
       it != std::sregex_iterator(); ++it)
    entries.emplace_back((*it)[1], std::stoi((*it)[2]), (*it)[3], (*it)[4]);
  const std::vector<std::tuple<std::string, int, std::string, std::string>> expected = {
      {m_t0_text, 0, "bodies", "bodies_000000.vtu"},
      {m_t0_text, 1, "contacts", "contacts_000000.vtp"},
      {m_t0_text, 3, "joints", "joints_000000.vtp"},
      {m_t1_text, 0, "bodies", "bodies_000001.vtu"},
      {m_t1_text, 1, "contacts", "contacts_000001.vtp"},
      {m_t1_text, 3, "joints", "joints_000001.vtp"}};
  EXPECT_EQ(entries, expected);
  for (const auto& [t, part, name, file] : entries) EXPECT_TRUE(fs::exists(m_dir / file)) << file;
}

TEST_F(OutputWriterTest, FixedBodiesAppearAtEveryTime) {
  OutputWriter w(m_dir, "cube", true, true);
  w.write_output(m_t0, cube_frame(0.0), two_contacts(), JointFrame{}, m_body_rows, m_probe_rows);
  w.write_fixed_bodies(cube_frame(-2.0));
  w.write_output(m_t1, cube_frame(0.5), ContactFrame{}, JointFrame{}, m_body_rows, m_probe_rows);

  const std::string pvd = read_text(m_dir / "cube.pvd");
  const std::regex fixed(R"re(<DataSet timestep="([^"]*)" part="2" name="fixed" file="fixed.vtu"/>)re");
  std::vector<std::string> times;
  for (auto it = std::sregex_iterator(pvd.begin(), pvd.end(), fixed); it != std::sregex_iterator();
       ++it)
    times.push_back((*it)[1]);
  EXPECT_EQ(times, (std::vector<std::string>{m_t0_text, m_t1_text}));

  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName((m_dir / "fixed.vtu").c_str());
  reader->Update();
  EXPECT_EQ(reader->GetOutput()->GetNumberOfPoints(), 8);
  EXPECT_EQ(reader->GetOutput()->GetNumberOfCells(), 6);
  EXPECT_EQ(reader->GetOutput()->GetPoint(0)[0], -2.0);
}

TEST_F(OutputWriterTest, CsvHeadersAndRowsRoundTrip) {
  OutputWriter w(m_dir, "cube", true, true);
  HistoryRow h;
  h.step = 12345678901;
  h.time = static_cast<double>(h.step) * 1e-4;  // 1234567.8901 to about one ulp
  h.kinetic_energy = 2.5e-13;
  h.potential_energy = -9.81 * 7;
  h.n_contacts = 300;
  h.max_penetration = 1.07e-3 / 3;
  h.solver_iterations = 17;
  h.solver_error = 1e-9 / 7;
  h.inner_iterations = 4;
  h.solver_stage = "vprox";
  h.solver_factorizations = 6;
  h.wall_seconds = 0.1 + 0.7;
  h.gravitational_energy = -9.81 * 6;
  h.elastic_energy = 1.0 / 3;
  h.friction_dissipated = 2.0 / 7;
  h.impact_dissipated = 3.0 / 11;
  h.damping_dissipated = 5.0 / 13;
  h.driven_work = -7.0 / 17;
  h.load_work = 3.0 / 29;
  h.projection_work = 1e-9 / 19;
  h.energy_error = -1e-14 / 23;
  h.bonds_intact = 12;
  h.bonds_broken = 5;
  w.append_history(h);
  write_two_outputs(w);

  // history: header and one row, every value exact, the time as the step's decimal
  const auto history = read_lines(m_dir / "history.csv");
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[0],
            "step,time,kinetic_energy,potential_energy,n_contacts,max_penetration,solver_iterations,solver_error,"
            "inner_iterations,solver_stage,solver_factorizations,gravitational_energy,elastic_energy,"
            "friction_dissipated,impact_dissipated,damping_dissipated,driven_work,load_work,projection_work,"
            "energy_error,bonds_intact,bonds_broken,wall_seconds");
  const auto f = split_csv(history[1]);
  ASSERT_EQ(f.size(), 23u);
  EXPECT_EQ(std::stol(f[0]), h.step);
  EXPECT_EQ(f[1], "1234567.8901");
  EXPECT_EQ(std::stod(f[2]), h.kinetic_energy);
  EXPECT_EQ(std::stod(f[3]), h.potential_energy);
  EXPECT_EQ(std::stoi(f[4]), h.n_contacts);
  EXPECT_EQ(std::stod(f[5]), h.max_penetration);
  EXPECT_EQ(std::stoi(f[6]), h.solver_iterations);
  EXPECT_EQ(std::stod(f[7]), h.solver_error);
  EXPECT_EQ(std::stoi(f[8]), h.inner_iterations);
  EXPECT_EQ(f[9], h.solver_stage);
  EXPECT_EQ(std::stoi(f[10]), h.solver_factorizations);
  EXPECT_EQ(std::stod(f[11]), h.gravitational_energy);
  EXPECT_EQ(std::stod(f[12]), h.elastic_energy);
  EXPECT_EQ(std::stod(f[13]), h.friction_dissipated);
  EXPECT_EQ(std::stod(f[14]), h.impact_dissipated);
  EXPECT_EQ(std::stod(f[15]), h.damping_dissipated);
  EXPECT_EQ(std::stod(f[16]), h.driven_work);
  EXPECT_EQ(std::stod(f[17]), h.load_work);
  EXPECT_EQ(std::stod(f[18]), h.projection_work);
  EXPECT_EQ(std::stod(f[19]), h.energy_error);
  EXPECT_EQ(std::stol(f[20]), h.bonds_intact);
  EXPECT_EQ(std::stol(f[21]), h.bonds_broken);
  EXPECT_EQ(std::stod(f[22]), h.wall_seconds);
  EXPECT_EQ(history[1].find(' '), std::string::npos);

  // bodies: one row per body per output time
  const auto bodies = read_lines(m_dir / "bodies.csv");
  ASSERT_EQ(bodies.size(), 1 + 2 * m_body_rows.size());
  EXPECT_EQ(bodies[0], "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz");
  for (std::size_t i = 1; i < bodies.size(); ++i) {
    const auto fields = split_csv(bodies[i]);
    ASSERT_EQ(fields.size(), 15u) << bodies[i];
    const BodyRow& row = m_body_rows[(i - 1) % m_body_rows.size()];
    EXPECT_EQ(fields[0], i <= m_body_rows.size() ? m_t0_text : m_t1_text);
    EXPECT_EQ(fields[1], row.body);
    const double expected[13] = {row.x.x(), row.x.y(), row.x.z(), row.q.w(), row.q.x(),
                                 row.q.y(), row.q.z(), row.v.x(), row.v.y(), row.v.z(),
                                 row.w.x(), row.w.y(), row.w.z()};
    for (int k = 0; k < 13; ++k)
      EXPECT_EQ(std::stod(fields[2 + static_cast<std::size_t>(k)]), expected[k]);
  }

  // probes
  const auto probes = read_lines(m_dir / "probes.csv");
  ASSERT_EQ(probes.size(), 3u);
  EXPECT_EQ(probes[0], "time,probe,x,y,z,ux,uy,uz");
  const auto p = split_csv(probes[2]);
  ASSERT_EQ(p.size(), 8u);
  EXPECT_EQ(p[0], m_t1_text);
  EXPECT_EQ(p[1], "top");
  const ProbeRow& row = m_probe_rows[0];
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(std::stod(p[2 + static_cast<std::size_t>(d)]), row.x[d]);
    EXPECT_EQ(std::stod(p[5 + static_cast<std::size_t>(d)]), row.u[d]);
  }
}

TEST_F(OutputWriterTest, CsvOnlyWritesNoVtkFiles) {
  OutputWriter w(m_dir, "cube", false, true);
  w.write_fixed_bodies(cube_frame(-2.0));
  write_two_outputs(w);
  EXPECT_EQ(w.n_outputs(), 2);
  for (const auto& entry : fs::directory_iterator(m_dir)) {
    const std::string ext = entry.path().extension().string();
    EXPECT_TRUE(ext == ".csv") << entry.path();
  }
  EXPECT_EQ(read_lines(m_dir / "bodies.csv").size(), 1 + 2 * m_body_rows.size());
}

TEST_F(OutputWriterTest, RunJsonAndNoTemporaryFilesRemain) {
  OutputWriter w(m_dir, "cube", true, true);
  write_two_outputs(w);
  w.write_fixed_bodies(cube_frame(-2.0));
  nlohmann::json run = {{"version", "0.1.0"},
                        {"threads", 2},
                        {"status", "ok"},
                        {"timings", {{"detect", 0.125}, {"solve", 1.0 / 3.0}}}};
  w.write_run_json(run);
  w.write_run_json(run);  // replaces the file

  EXPECT_EQ(nlohmann::json::parse(read_text(m_dir / "run.json")), run);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(m_dir)) {
    names.push_back(entry.path().filename().string());
    EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names,
            (std::vector<std::string>{"bodies.csv", "bodies_000000.vtu", "bodies_000001.vtu",
                                      "contacts_000000.vtp", "contacts_000001.vtp", "cube.pvd",
                                      "fixed.vtu", "history.csv", "joints.csv", "joints_000000.vtp",
                                      "joints_000001.vtp", "probes.csv", "run.json"}));
}

TEST_F(OutputWriterTest, WriteFileAtomicallyReplacesContent) {
  fs::create_directories(m_dir);
  write_file_atomically(m_dir / "a.txt", "first");
  write_file_atomically(m_dir / "a.txt", "second\n");
  EXPECT_EQ(read_text(m_dir / "a.txt"), "second\n");
  EXPECT_FALSE(fs::exists(m_dir / "a.txt.tmp"));
}

TEST_F(OutputWriterTest, UnwritableDirectoryIsInputError) {
  // a directory below a regular file cannot be created
  fs::create_directories(m_dir);
  { std::ofstream(m_dir / "blocker") << "x"; }
  const fs::path bad = m_dir / "blocker" / "out";
  try {
    OutputWriter w(bad, "cube", true, true);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
  }
  // the regular file itself is not a directory either
  EXPECT_THROW(OutputWriter(m_dir / "blocker", "cube", false, true), InputError);
}

TEST_F(OutputWriterTest, InconsistentFrameIsError) {
  OutputWriter w(m_dir, "cube", true, false);
  BodyMeshFrame f = cube_frame(0.0);
  f.velocity.pop_back();
  EXPECT_THROW(w.write_output(0, f, ContactFrame{}, JointFrame{}, {}, {}), Error);
  f = cube_frame(0.0);
  f.cells[2][1] = 8;
  EXPECT_THROW(w.write_output(0, f, ContactFrame{}, JointFrame{}, {}, {}), Error);
  EXPECT_FALSE(fs::exists(m_dir / "bodies_000000.vtu.tmp"));
  EXPECT_EQ(w.n_outputs(), 0);
}

}  // namespace
}  // namespace nscd::io
