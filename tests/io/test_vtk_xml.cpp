// The VTK XML writer (nscd/io/vtk_xml.hpp) on frames of many blocks: VTK's reader gets every
// value back exactly, the cached cells are used only while they are unchanged, and the file is the
// same byte for byte whatever the number of threads and whether the cache was used.
#include "nscd/io/vtk_files.hpp"
#include "nscd/io/vtk_xml.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <unistd.h>

#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace nscd::io::detail {
namespace {
namespace fs = std::filesystem;

// n tetrahedra of 4 points each with random coordinates and fields (nearly incompressible, so
// their arrays span many 32 KiB blocks), the cells of tetrahedron k starting at point 4 (k + shift)
// modulo the points
BodyMeshFrame random_frame(int n, unsigned seed, int shift) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const auto vec = [&] { return Vec3(value(random), value(random), value(random)); };
  BodyMeshFrame f;
  for (int k = 0; k < 4 * n; ++k) {
    f.points.push_back(vec());
    f.velocity.push_back(vec());
    f.displacement.push_back(vec());
  }
  for (int k = 0; k < n; ++k) {
    const int first = 4 * ((k + shift) % n);
    f.cells.push_back({first, first + 1, first + 2, first + 3});
    f.cell_types.push_back(VTK_TETRA);
    f.cell_body_id.push_back(k / 7);
    f.cell_model.push_back(k % 3);
  }
  return f;
}

void expect_array(vtkDataArray* array, const std::vector<Vec3>& expected) {
  ASSERT_NE(array, nullptr);
  ASSERT_EQ(array->GetNumberOfTuples(), static_cast<vtkIdType>(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i)
    for (int d = 0; d < 3; ++d) ASSERT_EQ(array->GetComponent(static_cast<vtkIdType>(i), d), expected[i][d]);
}

void expect_array(vtkDataArray* array, const std::vector<int>& expected) {
  ASSERT_NE(array, nullptr);
  ASSERT_EQ(array->GetNumberOfTuples(), static_cast<vtkIdType>(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i)
    ASSERT_EQ(array->GetComponent(static_cast<vtkIdType>(i), 0), expected[i]);
}

// reads `file` with VTK's reader and compares it with `f`, value for value
void expect_reads_back(const fs::path& file, const BodyMeshFrame& f) {
  SCOPED_TRACE(file.string());
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  vtkUnstructuredGrid* grid = reader->GetOutput();
  ASSERT_EQ(grid->GetNumberOfCells(), static_cast<vtkIdType>(f.cells.size()));
  expect_array(grid->GetPoints()->GetData(), f.points);
  expect_array(grid->GetPointData()->GetArray("velocity"), f.velocity);
  expect_array(grid->GetPointData()->GetArray("displacement"), f.displacement);
  expect_array(grid->GetCellData()->GetArray("body_id"), f.cell_body_id);
  expect_array(grid->GetCellData()->GetArray("model"), f.cell_model);
  for (std::size_t c = 0; c < f.cells.size(); ++c) {
    ASSERT_EQ(grid->GetCellType(static_cast<vtkIdType>(c)), VTK_TETRA);
    vtkIdType npts = 0;
    const vtkIdType* ids = nullptr;
    grid->GetCellPoints(static_cast<vtkIdType>(c), npts, ids);
    ASSERT_EQ(npts, 4);
    for (int k = 0; k < 4; ++k) ASSERT_EQ(ids[k], f.cells[c][static_cast<std::size_t>(k)]);
  }
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class VtkXmlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_dir = fs::temp_directory_path() /
            ("nscd_test_vtk_xml_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  fs::path m_dir;
};

TEST_F(VtkXmlTest, ManyBlocksReadBackExactlyAndTheCacheServesOnlyUnchangedCells) {
  // 3 000 tetrahedra: 288 000 bytes per vector field, 9 blocks each
  const BodyMeshFrame first = random_frame(3000, 1, 0);
  const BodyMeshFrame moved = random_frame(3000, 2, 0);     // same cells, other points and fields
  const BodyMeshFrame renumbered = random_frame(3000, 3, 5);  // other cells
  XmlCache cache;
  write_body_mesh(m_dir / "a.vtu", first, &cache);
  EXPECT_FALSE(cache.arrays.empty());
  write_body_mesh(m_dir / "b.vtu", moved, &cache);
  write_body_mesh(m_dir / "c.vtu", renumbered, &cache);
  expect_reads_back(m_dir / "a.vtu", first);
  expect_reads_back(m_dir / "b.vtu", moved);
  expect_reads_back(m_dir / "c.vtu", renumbered);
  EXPECT_FALSE(fs::exists(m_dir / "c.vtu.tmp"));
}

TEST_F(VtkXmlTest, SameBytesForAnyThreadCountWithOrWithoutTheCache) {
  const BodyMeshFrame f = random_frame(2000, 4, 1);
  {
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    write_body_mesh(m_dir / "one_thread.vtu", f);
  }
  {
    tbb::global_control four(tbb::global_control::max_allowed_parallelism, 4);
    XmlCache cache;
    write_body_mesh(m_dir / "fresh.vtu", f, &cache);
    write_body_mesh(m_dir / "cached.vtu", f, &cache);
  }
  const std::string expected = bytes_of(m_dir / "one_thread.vtu");
  EXPECT_GT(expected.size(), 100'000u);
  EXPECT_EQ(bytes_of(m_dir / "fresh.vtu"), expected);
  EXPECT_EQ(bytes_of(m_dir / "cached.vtu"), expected);
}

}  // namespace
}  // namespace nscd::io::detail
