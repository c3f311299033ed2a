// Tetrahedral meshes of rigid shapes (nscd/io/shape_mesh.hpp): a voussoir's mesh has the mass and
// inertia of the polyhedron to round-off, a sphere's volume converges as eq. (1) says, identical
// shapes are meshed once, and absurd sizes are counted before any meshing; build_model meshes
// the rigid shapes of ffr, tl and linear bodies and refuses sizes giving too many tetrahedra.

#include "nscd/io/shape_mesh.hpp"

#include "contact/mass_properties.hpp"
#include "ffr/ffr_body.hpp"
#include "nscd/core/error.hpp"
#include "nscd/io/build_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>

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

// a voussoir (model `model`, extra keys `extra`) and a sphere, each alone above nothing
Model model_of(const std::string& model, const std::string& extra = "", const std::string& scene_extra = "") {
  const std::string text = R"({
    "time": {"step": 1e-3, "duration": 0.01},)" + scene_extra + R"(
    "materials": {"stone": {"density": 2000, "young": 1e10, "poisson": 0.2}},
    "interactions": [{"materials": ["stone", "stone"], "friction": 0.5}],
    "bodies": [
      {"name": "voussoir", "model": ")" + model + R"(", "material": "stone", "shape": {"convex": {"vertices":
        [[5, -0.5, 2], [5, 0.5, 2], [6, -0.5, 2], [6, 0.5, 2], [4.890738, -0.5, 3.03955845],
         [4.890738, 0.5, 3.03955845], [5.8688856, -0.5, 3.24747014], [5.8688856, 0.5, 3.24747014]]}})" + extra + R"(},
      {"name": "ball", "model": ")" + model + R"(", "material": "stone", "shape": {"sphere": 0.3},
       "position": [0, 0, 5]}
    ]
  })";
  return build_model(read_scene_text(text, std::filesystem::temp_directory_path() / "nscd_test_shape_mesh.json"));
}

TEST(ShapeMeshScene, FiniteElementBodiesOfRigidShapesHaveTheirMassAndPose) {
  const Model rigid = model_of("rigid");
  for (const char* kind : {"ffr", "tl", "linear"}) {
    SCOPED_TRACE(kind);
    const Model fe = model_of(kind, R"(, "mesh_size": 0.3)");
    ASSERT_EQ(fe.ffr_bodies.size() + fe.tl_bodies.size(), 2u);
    const BodyModel &a = rigid.bodies[0], &b = fe.bodies[0];
    EXPECT_NEAR(b.mass, a.mass, 1e-12 * a.mass);
    EXPECT_LE((b.inertia_B - a.inertia_B).norm(), 1e-12 * a.inertia_B.norm());
    EXPECT_LE((b.x0 - a.x0).norm(), 1e-12);
    // the contact shape stays the polyhedron, around the mesh's centre of mass
    const auto& pa = std::get<contact::ConvexPolyhedron>(rigid.shapes[0]);
    const auto& pb = std::get<contact::ConvexPolyhedron>(fe.shapes[0]);
    for (std::size_t k = 0; k < pa.vertices.size(); ++k) EXPECT_LE((pa.vertices[k] - pb.vertices[k]).norm(), 1e-12);
    // the sphere's mesh is inscribed: lighter than the sphere by eq. (1), at the given position
    EXPECT_LT(fe.bodies[1].mass, rigid.bodies[1].mass);
    EXPECT_GT(fe.bodies[1].mass, 0.9 * rigid.bodies[1].mass);
    EXPECT_TRUE(std::holds_alternative<contact::Sphere>(fe.shapes[1]));
    EXPECT_EQ(fe.bodies[1].x0, Vec3(0, 0, 5));
  }
}

TEST(ShapeMeshScene, SizesGivingTooManyTetrahedraAreRefused) {
  // the voussoir (1.04 m³) with a = 1 mm: about 9·10⁹ tetrahedra
  const auto message = [](auto&& build) {
    try {
      build();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no InputError");
  };
  const std::string body = message([] { model_of("ffr", R"(, "mesh_size": 0.001)"); });
  EXPECT_NE(body.find("nscd_test_shape_mesh.json: bodies[0].mesh_size: 0.001 m gives about"), std::string::npos)
      << body;
  EXPECT_NE(body.find("tetrahedra for body \"voussoir\"; expected at most 1e+06 per body"), std::string::npos) << body;
  const std::string scene = message([] { model_of("tl", "", R"("meshing": {"size": 0.001},)"); });
  EXPECT_NE(scene.find("nscd_test_shape_mesh.json: meshing.size: 0.001 m gives about"), std::string::npos) << scene;
}

}  // namespace
}  // namespace nscd::io
