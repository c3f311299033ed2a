// The bodies' mesh frame written to bodies_NNNNNN.vtu: the finite-element fields of each body sit
// on that body's own points and cells, whatever the order of the bodies in the scene. The joint
// frame written to joints_NNNNNN.vtp and joints.csv: names, step and state of each joint.

#include "tests/step/scene_builder.hpp"

#include "ffr/linear_elasticity.hpp"
#include "nscd/io/output_frames.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace nscd::io {
namespace {

TEST(OutputFrames, FiniteElementFieldsStayOnTheirBodyWhenARigidBodyComesFirst) {
  // a rigid block listed before two FFR blocks of different meshes, each FFR block given its own
  // non-uniform ψ (so that its cells carry different stresses)
  Scene scene = test::stone_scene(1e-4, 1e-3, 0.5);
  test::add_box(scene, "rigid", BodyKind::Rigid, Vec3(1, 1, 1), Vec3(0, 0, 5));
  test::add_box(scene, "left", BodyKind::Ffr, Vec3(1, 1, 2), Vec3(0, 2, 1)).elements = std::array<int, 3>{2, 2, 4};
  test::add_box(scene, "right", BodyKind::Ffr, Vec3(1, 1, 1), Vec3(0, -2, 1)).elements =
      std::array<int, 3>{1, 2, 3};
  test::Simulation sim(scene);
  const Model& m = sim.model;
  ASSERT_EQ(m.ffr_bodies.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const ffr::FfrBody& f = m.ffr_bodies[i];
    Eigen::VectorXd& psi = sim.state.psi[i];
    for (int k = 0; k < f.nn(); ++k) {
      const Vec3& X = f.mesh.nodes[k];
      psi.segment<3>(3 * k) = 1e-4 * (i + 1) * Vec3(X.x() * X.z(), X.y() * X.y() + 0.1 * k, 0.5 * X.z() - X.x());
    }
  }

  const BodyMeshFrame frame = body_mesh_frame(m, sim.state, false);
  ASSERT_EQ(frame.local_displacement.size(), frame.points.size());
  ASSERT_EQ(frame.von_mises.size(), frame.cells.size());
  int checked_nodes = 0, checked_cells = 0;
  for (int b = 0; b < m.nb(); ++b) {
    // the cells of body b, in its mesh's order
    std::vector<int> cells;
    for (int c = 0; c < static_cast<int>(frame.cells.size()); ++c)
      if (frame.cell_body_id[c] == b) cells.push_back(c);
    const nscd::BodyModel& body = m.bodies[b];
    if (body.kind != BodyKind::Ffr) {
      ASSERT_FALSE(cells.empty());
      for (const int c : cells) {
        EXPECT_EQ(frame.von_mises[c], 0.0) << "body " << b << " cell " << c;
        for (const int p : frame.cells[c]) EXPECT_EQ(frame.local_displacement[p], Vec3::Zero()) << "point " << p;
      }
      continue;
    }
    const ffr::FfrBody& f = m.ffr_bodies[body.ffr_index];
    const Eigen::VectorXd& psi = sim.state.psi[body.ffr_index];
    const std::vector<double> stress = ffr::von_mises(f.mesh, f.material.young, f.material.poisson, psi);
    ASSERT_EQ(static_cast<int>(cells.size()), f.mesh.ncells()) << "body " << b;
    for (int c = 0; c < f.mesh.ncells(); ++c) {
      // both are computed from the same ψ by the same function: equal to the last bit
      EXPECT_EQ(frame.von_mises[cells[c]], stress[c]) << "body " << b << " cell " << c;
      ++checked_cells;
      const auto nodes = f.mesh.cell(c);
      for (std::size_t j = 0; j < nodes.size(); ++j) {
        const int k = nodes[j], p = frame.cells[cells[c]][j];
        EXPECT_EQ(frame.local_displacement[p], Vec3(psi.segment<3>(3 * k))) << "body " << b << " node " << k;
        ++checked_nodes;
      }
    }
  }
  EXPECT_EQ(checked_cells, 2 * 2 * 4 + 1 * 2 * 3);
  EXPECT_GT(checked_nodes, 0);
}

TEST(OutputFrames, JointFrameNamesTheBodiesAndTheStepOfAResultingJoint) {
  Scene scene = test::make_scene(1e-3, 1.0, 1000.0, 0.5, 0.0);
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(4, 4, 1), Vec3(0, 0, -0.5));
  test::add_box(scene, "block", BodyKind::Rigid, Vec3(1, 1, 1), Vec3(0, 0, 0.5));
  test::Simulation sim(scene);
  for (int n = 0; n < 20; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  const JointFrame frame = joint_frame(sim.model, sim.state, sim.workspace.contacts);
  EXPECT_EQ(frame.step, 20);
  ASSERT_EQ(frame.joints.size(), 1u);
  const JointRecord& joint = frame.joints[0];
  EXPECT_EQ(joint.name_a, "ground");
  EXPECT_EQ(joint.name_b, "block");
  EXPECT_EQ(joint.polygon.size(), 4u);
  EXPECT_NEAR(joint.area, 1.0, 1e-9);
  // the block's weight within the default solver tolerance (1e-6)
  EXPECT_NEAR(joint.normal_force, 1000 * 9.81, 1e-4 * 1000 * 9.81);
  EXPECT_EQ(joint.state, 1);
  EXPECT_EQ(joint.state_name, "stick");
}

}  // namespace
}  // namespace nscd::io
