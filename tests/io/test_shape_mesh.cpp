// Tetrahedral meshes of rigid shapes (nscd/io/shape_mesh.hpp): a voussoir's mesh has the mass and
// inertia of the polyhedron to round-off, a sphere's volume converges as eq. (1) says, identical
// shapes are meshed once, and absurd sizes are counted before any meshing.

#include "nscd/io/shape_mesh.hpp"

#include "contact/mass_properties.hpp"
#include "ffr/ffr_body.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace nscd::io {
namespace {

constexpr double kDensity = 2000;
const ffr::FfrMaterial kStone{kDensity, 1e10, 0.2, 0.0, 0.0};
constexpr double kH = 1e-3;

// voussoir_0 of scenes/arch.json (gen_arch.py): 8 vertices, re-centred on its centroid
contact::ConvexPolyhedron voussoir() {
  const contact::ConvexPolyhedron hull = contact::convex_hull(
      {Vec3(5, -0.5, 2), Vec3(5, 0.5, 2), Vec3(6, -0.5, 2), Vec3(6, 0.5, 2), Vec3(4.890738, -0.5, 3.03955845),
       Vec3(4.890738, 0.5, 3.03955845), Vec3(5.8688856, -0.5, 3.24747014), Vec3(5.8688856, 0.5, 3.24747014)});
  return contact::translated(hull, -contact::mass_properties(hull).centroid);
}

TEST(ShapeMesh, VoussoirHasThePolyhedronsMassAndInertia) {
  const contact::ConvexPolyhedron poly = voussoir();
  const double size = 0.2;
  const auto mesh = tetrahedral_mesh(poly, size, "voussoir");
  ASSERT_EQ(mesh->type, ffr::CellType::Tet4);
  EXPECT_GT(mesh->ncells(), 100);
  const ffr::FfrBody body = ffr::make_ffr_body(*mesh, kStone, kH);
  const contact::MassProperties rigid = contact::mass_properties(poly);
  // flat tetrahedra fill the polyhedron: the sums of a few hundred cells' integrals differ from
  // the face integrals of the polyhedron by round-off only
  EXPECT_NEAR(body.mass, kDensity * rigid.volume, 1e-12 * body.mass);
  EXPECT_LE(body.centre_in_input.norm(), 1e-12);
  const Mat3 inertia = kDensity * rigid.inertia;
  EXPECT_LE((body.inertia_B - inertia).norm(), 1e-12 * inertia.norm()) << body.inertia_B << "\n\n" << inertia;
  // the boundary is the polyhedron's surface, outward
  double area = 0.0;
  Vec3 flux = Vec3::Zero();
  for (const auto& t : body.surface.triangles) {
    const Vec3 n = (mesh->nodes[t[1]] - mesh->nodes[t[0]]).cross(mesh->nodes[t[2]] - mesh->nodes[t[0]]);
    area += 0.5 * n.norm();
    flux += n.cwiseProduct(mesh->nodes[t[0]]) / 2;  // ∮ x n_x dA, … = V on each axis
  }
  double rigid_area = 0.0;
  for (const auto& face : poly.faces)
    for (std::size_t k = 1; k + 1 < face.size(); ++k)
      rigid_area += 0.5 * (poly.vertices[face[k]] - poly.vertices[face[0]])
                              .cross(poly.vertices[face[k + 1]] - poly.vertices[face[0]])
                              .norm();
  EXPECT_NEAR(area, rigid_area, 1e-12 * area);
  EXPECT_NEAR(flux.sum() / 3, rigid.volume, 1e-12 * rigid.volume);
}

TEST(ShapeMesh, SphereVolumeConvergesAsTheInscribedMesh) {
  // eq. (1): V_mesh ≈ V (1 − (a/R)²/4), from below (measured: 3.8 %, 2.0 %, 0.53 % for a = R/2,
  // R/4, R/8); the relative error stays below (a/R)²/2 and shrinks with a
  const double radius = 0.1, exact = 4.0 / 3.0 * std::numbers::pi * std::pow(radius, 3);
  double previous = 1.0;
  for (const double fraction : {0.5, 0.25, 0.125}) {
    const auto mesh = tetrahedral_mesh(contact::Sphere{radius}, fraction * radius, "sphere");
    double volume = 0.0;
    for (int c = 0; c < mesh->ncells(); ++c) {
      const auto n = mesh->cell(c);
      const Vec3& x0 = mesh->nodes[n[0]];
      volume += (mesh->nodes[n[1]] - x0).cross(mesh->nodes[n[2]] - x0).dot(mesh->nodes[n[3]] - x0) / 6;
    }
    const double error = (exact - volume) / exact;
    EXPECT_GT(error, 0.0) << "a = " << fraction << " R";
    EXPECT_LT(error, 0.5 * fraction * fraction) << "a = " << fraction << " R";
    EXPECT_LT(error, previous);
    previous = error;
    // the nodes of the boundary lie on the sphere
    for (const int k : ffr::boundary_surface(*mesh).nodes) EXPECT_NEAR(mesh->nodes[k].norm(), radius, 1e-9);
  }
}

TEST(ShapeMesh, IdenticalShapesAreMeshedOnce) {
  // 1000 identical bricks (a size no other test uses), written at different places: one Gmsh call
  const std::size_t before = shapes_meshed();
  std::shared_ptr<const ffr::Mesh> first;
  for (int i = 0; i < 1000; ++i) {
    const Vec3 at(0.37 * i, -1.3 * i, 2.9);
    const contact::ConvexPolyhedron placed = contact::translated(contact::make_box(Vec3(0.23, 0.11, 0.07)), at);
    const contact::ConvexPolyhedron centred =
        contact::translated(placed, -contact::mass_properties(placed).centroid);
    const auto mesh = tetrahedral_mesh(centred, 0.05, "brick");
    if (i == 0) first = mesh;
    EXPECT_EQ(mesh, first);
  }
  EXPECT_EQ(shapes_meshed(), before + 1);
  // another size, or another shape, is meshed again
  tetrahedral_mesh(contact::make_box(Vec3(0.23, 0.11, 0.07)), 0.04, "brick");
  tetrahedral_mesh(contact::make_box(Vec3(0.23, 0.11, 0.08)), 0.05, "brick");
  EXPECT_EQ(shapes_meshed(), before + 3);
}

TEST(ShapeMesh, DefaultSizeAndExpectedCount) {
  // eq. (2): a quarter of the smallest width; eq. (3): V / (a³ / 6√2)
  EXPECT_DOUBLE_EQ(default_mesh_size(contact::make_box(Vec3(1.0, 0.4, 2.0))), 0.1);
  EXPECT_DOUBLE_EQ(default_mesh_size(contact::Sphere{0.2}), 0.1);
  EXPECT_NEAR(expected_tetrahedra(contact::make_box(Vec3(1, 1, 1)), 0.1), 6 * std::sqrt(2.0) * 1000, 1e-9);
  EXPECT_GT(expected_tetrahedra(voussoir(), 1e-3), kMaxTetrahedra);
}

}  // namespace
}  // namespace nscd::io
