#pragma once
// Meshes shared by the ffr tests: the box mesh split into tetrahedra, and a box mesh with
// randomly moved interior nodes.

#include "ffr/mesh.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace nscd::ffr::testing {

// every hexahedron of make_box_mesh split into the 6 tetrahedra around its diagonal 0–6
// (Kuhn's split, conforming between neighbours); node order fixed so that det J > 0
inline Mesh make_box_tet_mesh(const Vec3& size, const std::array<int, 3>& elements) {
  const Mesh hex = make_box_mesh(size, elements);
  constexpr int kTets[6][4] = {{0, 1, 2, 6}, {0, 1, 5, 6}, {0, 3, 2, 6}, {0, 3, 7, 6}, {0, 4, 5, 6}, {0, 4, 7, 6}};
  Mesh tet;
  tet.type = CellType::Tet4;
  tet.nodes = hex.nodes;
  for (int c = 0; c < hex.ncells(); ++c) {
    const auto h = hex.cell(c);
    for (const auto& t : kTets) {
      std::array<int, 4> n = {h[t[0]], h[t[1]], h[t[2]], h[t[3]]};
      Mat3 A;
      for (int k = 0; k < 3; ++k) A.col(k) = tet.nodes[n[k + 1]] - tet.nodes[n[0]];
      if (A.determinant() < 0) std::swap(n[1], n[2]);
      tet.cells.insert(tet.cells.end(), n.begin(), n.end());
    }
  }
  return tet;
}

// moves every node not on the boundary of the box by up to `fraction` of the smallest
// element edge in each direction (fixed seed)
inline Mesh distorted(Mesh mesh, const Vec3& size, const std::array<int, 3>& elements, double fraction) {
  const Vec3 h(size.x() / elements[0], size.y() / elements[1], size.z() / elements[2]);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(-fraction, fraction);
  for (Vec3& X : mesh.nodes) {
    const bool on_boundary = ((X.cwiseAbs() - 0.5 * size).cwiseAbs().array() < 1e-12).any();
    if (on_boundary) continue;
    X += h.minCoeff() * Vec3(uniform(rng), uniform(rng), uniform(rng));
  }
  return mesh;
}

// test-name suffix of a cell type, for INSTANTIATE_TEST_SUITE_P
inline std::string cell_name(const ::testing::TestParamInfo<CellType>& info) {
  return info.param == CellType::Hex8 ? "Hex8" : "Tet4";
}

}  // namespace nscd::ffr::testing
