// Joints (joints.hpp): contacts grouped per interface, the polygon, its area and centroid, and
// the tributary areas of eq. (2), on blocks resting on each other after one step.
#include "nscd/step/joints.hpp"

#include "scene_builder.hpp"

namespace nscd {
namespace {

double sum(const std::vector<double>& values) {
  double total = 0;
  for (double v : values) total += v;
  return total;
}

TEST(Joints, OffsetBlockOnALargerOneGivesTheOverlapRectangle) {
  io::Scene scene = test::make_scene(1e-3, 1.0, 1000.0, 0.5, 0.0);
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(4, 4, 1), Vec3(0, 0, -0.5));
  test::add_box(scene, "base", BodyKind::Rigid, Vec3(2, 1, 1), Vec3(0, 0, 0.5));
  // a 1 × 1 block half over the base's edge: the overlap is 0.5 × 1 (x from 0.5 to 1)
  test::add_box(scene, "top", BodyKind::Rigid, Vec3(1, 1, 0.5), Vec3(1.0, 0, 1.25));
  test::Simulation sim(scene);
  ASSERT_EQ(sim.advance().status, StepStatus::Ok);

  const std::vector<Joint> joints = find_joints(sim.workspace.contacts.active);
  ASSERT_EQ(joints.size(), 2u);
  int n_contacts = 0;
  for (const Joint& joint : joints) n_contacts += static_cast<int>(joint.contacts.size());
  EXPECT_EQ(n_contacts, sim.workspace.contacts.active.size());

  // the polygons are the clipped faces, exact up to the contact points' round-off and the
  // step's sub-micrometre settling (points midway between the surfaces): 1e-9 m², 1e-9 m
  const Joint& ground = joints[0];
  EXPECT_EQ(ground.a, 0);
  EXPECT_EQ(ground.b, 1);
  EXPECT_EQ(ground.polygon.size(), 4u);
  EXPECT_NEAR(ground.area, 2.0, 1e-9);
  EXPECT_NEAR(ground.normal.z(), 1.0, 1e-12);
  EXPECT_NEAR((ground.centroid - Vec3(0, 0, 0)).head<2>().norm(), 0.0, 1e-9);
  for (double a : ground.tributary_area) EXPECT_NEAR(a, 0.5, 1e-9);

  const Joint& top = joints[1];
  EXPECT_EQ(top.a, 1);
  EXPECT_EQ(top.b, 2);
  EXPECT_NEAR(top.area, 0.5, 1e-9);
  EXPECT_NEAR((top.centroid - Vec3(0.75, 0, 1)).norm(), 0.0, 1e-6);
  EXPECT_NEAR(sum(top.tributary_area), top.area, 1e-12);
  for (double a : top.tributary_area) EXPECT_NEAR(a, 0.125, 1e-9);
  // counter-clockwise about the normal
  const Vec3 turn = (top.polygon[1] - top.polygon[0]).cross(top.polygon[2] - top.polygon[1]);
  EXPECT_GT(turn.dot(top.normal), 0);
}

TEST(Joints, TriangleOfContactsSharesItsAreaByMedianDualCells) {
  // a triangular prism standing on its triangular face: three contacts, each vertex's cell is
  // one third of the triangle (the median-dual cells of a triangle are equal)
  io::Scene scene = test::make_scene(1e-3, 1.0, 1000.0, 0.5, 0.0);
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(4, 4, 1), Vec3(0, 0, -0.5));
  io::ConvexShape prism;
  for (double z : {-0.25, 0.25})
    for (const Vec3& p : {Vec3(0, 0, z), Vec3(1, 0, z), Vec3(0, 1, z)}) prism.vertices.push_back(p);
  test::add_body(scene, "prism", BodyKind::Rigid, prism, Vec3(0, 0, 0.25));
  test::Simulation sim(scene);
  ASSERT_EQ(sim.advance().status, StepStatus::Ok);

  const std::vector<Joint> joints = find_joints(sim.workspace.contacts.active);
  ASSERT_EQ(joints.size(), 1u);
  ASSERT_EQ(joints[0].contacts.size(), 3u);
  // the body is placed by its centre of mass: the triangle's area is 1/2 wherever it lands
  EXPECT_NEAR(joints[0].area, 0.5, 1e-9);
  for (double a : joints[0].tributary_area) EXPECT_NEAR(a, 0.5 / 3, 1e-9);
}

TEST(Joints, SphereOnAPlaneIsAJointWithoutArea) {
  io::Scene scene = test::make_scene(1e-3, 1.0, 1000.0, 0.5, 0.0);
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(4, 4, 1), Vec3(0, 0, -0.5));
  test::add_sphere(scene, "ball", BodyKind::Rigid, 0.5, Vec3(0, 0, 0.5));
  test::Simulation sim(scene);
  ASSERT_EQ(sim.advance().status, StepStatus::Ok);

  const std::vector<Joint> joints = find_joints(sim.workspace.contacts.active);
  ASSERT_EQ(joints.size(), 1u);
  EXPECT_EQ(joints[0].area, 0.0);
  EXPECT_EQ(joints[0].tributary_area, std::vector<double>{0.0});
  EXPECT_NEAR(joints[0].centroid.z(), 0.0, 1e-6);
}

}  // namespace
}  // namespace nscd
