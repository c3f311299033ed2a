// Box meshes, boundary surfaces and cell checks: counts, volume, outward orientation, errors.

#include "ffr/mesh.hpp"
#include "ffr/shape_functions.hpp"
#include "nscd/core/error.hpp"
#include "test_meshes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace nscd::ffr {
namespace {

// sums of a few hundred O(1) terms: rounding stays below 1e-13
constexpr double kTol = 1e-12;

double mesh_volume(const Mesh& mesh) {
  const CellQuadrature cq = cell_quadrature(mesh);
  return std::accumulate(cq.dV.begin(), cq.dV.end(), 0.0);
}

// checks that every triangle points away from the centre of the box and that the area
// vectors of the closed surface sum to zero; returns the total area
double check_outward(const Mesh& mesh, const Surface& s) {
  Vec3 sum = Vec3::Zero();
  double area = 0.0;
  for (const auto& t : s.triangles) {
    const Vec3 &a = mesh.nodes[t[0]], &b = mesh.nodes[t[1]], &c = mesh.nodes[t[2]];
    const Vec3 n = 0.5 * (b - a).cross(c - a);
    const Vec3 centroid = (a + b + c) / 3.0;
    EXPECT_GT(n.dot(centroid), 0.0);
    sum += n;
    area += n.norm();
  }
  EXPECT_LT(sum.norm(), kTol);
  return area;
}

TEST(BoxMesh, CountsAndVolume) {
  const Mesh mesh = make_box_mesh(Vec3(1.0, 1.0, 2.0), {4, 4, 8});
  EXPECT_EQ(mesh.type, CellType::Hex8);
  EXPECT_EQ(mesh.nn(), 225);
  EXPECT_EQ(mesh.ncells(), 128);
  EXPECT_EQ(mesh.nodes_per_cell(), 8);
  EXPECT_NEAR(mesh_volume(mesh), 2.0, kTol);
  // x fastest, centred: node 0 at the lower corner, node 1 one step along x, last at the top corner
  EXPECT_LT((mesh.nodes[0] - Vec3(-0.5, -0.5, -1.0)).norm(), kTol);
  EXPECT_LT((mesh.nodes[1] - Vec3(-0.25, -0.5, -1.0)).norm(), kTol);
  EXPECT_LT((mesh.nodes[224] - Vec3(0.5, 0.5, 1.0)).norm(), kTol);
  EXPECT_NO_THROW(check_cells(mesh, "box"));
}

TEST(BoxMesh, BoundarySurfaceIsClosedAndOutward) {
  const int nx = 4, ny = 4, nz = 8;
  const Mesh mesh = make_box_mesh(Vec3(1.0, 1.0, 2.0), {nx, ny, nz});
  const Surface s = boundary_surface(mesh);
  // 2(nx ny + ny nz + nz nx) quadrilaterals, two triangles each
  EXPECT_EQ(s.triangles.size(), 4u * (nx * ny + ny * nz + nz * nx));
  EXPECT_NEAR(check_outward(mesh, s), 2.0 * (1.0 + 2.0 + 2.0), kTol);
  // all nodes but the (nx−1)(ny−1)(nz−1) interior ones, sorted and unique
  EXPECT_EQ(s.nodes.size(), 225u - 3u * 3u * 7u);
  EXPECT_TRUE(std::is_sorted(s.nodes.begin(), s.nodes.end()));
  EXPECT_EQ(std::adjacent_find(s.nodes.begin(), s.nodes.end()), s.nodes.end());
}

TEST(BoxMesh, QuadSplitDoesNotDependOnCellOrder) {
  // the diagonal goes through the smallest node of each quad: every triangle holds it
  const Mesh mesh = make_box_mesh(Vec3(1.0, 2.0, 3.0), {2, 3, 1});
  const Surface s = boundary_surface(mesh);
  for (std::size_t k = 0; k < s.triangles.size(); k += 2) {
    const auto& t0 = s.triangles[k];
    const auto& t1 = s.triangles[k + 1];
    EXPECT_EQ(t0[0], t1[0]);
    EXPECT_EQ(t0[2], t1[1]);
    EXPECT_LT(t0[0], std::min({t0[1], t0[2], t1[2]}));
  }
}

TEST(TetMesh, BoundarySurfaceIsClosedAndOutward) {
  const Mesh mesh = testing::make_box_tet_mesh(Vec3(1.0, 1.0, 2.0), {2, 2, 4});
  EXPECT_EQ(mesh.ncells(), 6 * 16);
  EXPECT_NEAR(mesh_volume(mesh), 2.0, kTol);
  EXPECT_NO_THROW(check_cells(mesh, "tets"));
  const Surface s = boundary_surface(mesh);
  // each boundary quad of the hexahedra is cut into two triangles by the split
  EXPECT_EQ(s.triangles.size(), 4u * (4 + 8 + 8));
  EXPECT_NEAR(check_outward(mesh, s), 10.0, kTol);
  EXPECT_EQ(s.nodes.size(), 45u - 3u);
}

TEST(CheckCells, InvertedHexahedronNamesTheCell) {
  Mesh mesh = make_box_mesh(Vec3(1.0, 1.0, 1.0), {2, 1, 1});
  // swap the bottom and top faces of cell 1: the map is mirrored, det J < 0
  std::swap_ranges(mesh.cells.begin() + 8, mesh.cells.begin() + 12, mesh.cells.begin() + 12);
  try {
    check_cells(mesh, "wall.vtu");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("wall.vtu: cell 1 "), std::string::npos) << e.what();
  }
}

TEST(CheckCells, FlatTetrahedronAndBadIndexAreRefused) {
  Mesh mesh;
  mesh.type = CellType::Tet4;
  mesh.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 1e-15)};
  mesh.cells = {0, 1, 2, 3};
  EXPECT_THROW(check_cells(mesh, "flat"), InputError);
  mesh.cells = {0, 1, 2, 4};
  EXPECT_THROW(check_cells(mesh, "index"), InputError);
}

}  // namespace
}  // namespace nscd::ffr
