// The strain measure of the small-strain warning of `nscd run` (strain_check.hpp).

#include "tests/step/scene_builder.hpp"

#include "ffr/mesh.hpp"
#include "nscd/step/strain_check.hpp"

#include <gtest/gtest.h>

namespace nscd {
namespace {

// nodal displacements u(X) of every node of `mesh`
template <class Field>
Eigen::VectorXd displacements(const ffr::Mesh& mesh, Field u) {
  Eigen::VectorXd out(3 * mesh.nn());
  for (int k = 0; k < mesh.nn(); ++k) out.segment<3>(3 * k) = u(mesh.nodes[k]);
  return out;
}

// trilinear elements represent linear fields exactly, so ε is exact up to round-off (1e-15
// relative to values of order 1e-2, well inside 1e-12)
constexpr double kTol = 1e-12;

TEST(StrainCheck, LargestPrincipalStrainOfHomogeneousFields) {
  const ffr::Mesh mesh = ffr::make_box_mesh(Vec3(1, 2, 3), {2, 3, 4});
  // a rigid translation does not strain
  EXPECT_NEAR(largest_principal_strain(mesh, displacements(mesh, [](const Vec3&) { return Vec3(1, 2, 3); })),
              0.0, kTol);
  // uniaxial stretch ε_xx = 0.02 with a lateral contraction −0.005
  const double stretch = largest_principal_strain(
      mesh, displacements(mesh, [](const Vec3& X) { return Vec3(0.02 * X.x(), -0.005 * X.y(), 0); }));
  EXPECT_NEAR(stretch, 0.02, kTol);
  // simple shear u_x = γ y: principal strains ±γ/2
  const double shear =
      largest_principal_strain(mesh, displacements(mesh, [](const Vec3& X) { return Vec3(0.03 * X.y(), 0, 0); }));
  EXPECT_NEAR(shear, 0.015, kTol);
  // the largest in absolute value: a compression of 4 % beats a stretch of 1 %
  const double compression = largest_principal_strain(
      mesh, displacements(mesh, [](const Vec3& X) { return Vec3(0.01 * X.x(), 0, -0.04 * X.z()); }));
  EXPECT_NEAR(compression, 0.04, kTol);
}

TEST(StrainCheck, LargestSmallStrainNamesTheBody) {
  io::Scene scene = test::stone_scene(1e-3, 0.01, 0.0);
  test::add_box(scene, "rigid", BodyKind::Rigid, Vec3(1, 1, 1), Vec3(5, 0, 0));
  test::add_box(scene, "block", BodyKind::Linear, Vec3(1, 1, 1), Vec3::Zero()).elements = std::array{1, 1, 1};
  test::Simulation sim(scene);
  const ffr::Mesh& mesh = sim.model.tl_bodies[0].fe.mesh;
  sim.state.tl_psi[0] = displacements(mesh, [](const Vec3& X) { return Vec3(0, 0, -0.03 * X.z()); });
  const BodyStrain worst = largest_small_strain(sim.model, sim.state);
  EXPECT_EQ(worst.body, 1);
  EXPECT_NEAR(worst.strain, 0.03, kTol);
}

}  // namespace
}  // namespace nscd
