// Joint resultants (joint_forces.hpp): a block at rest on the ground carries its weight through
// the centre of its base; a wedge's thrust passes under its centre of mass; a block sliding on
// the ground slides at its own speed; the symmetric semicircular arch of issue 16 at rest carries
// the same horizontal thrust through every joint, and each voussoir's weight from joint to joint.
#include "nscd/step/joint_forces.hpp"

#include "scene_builder.hpp"

#include <cmath>
#include <numbers>

namespace nscd {
namespace {

constexpr double kG = 9.81;

// `steps` steps of sim, each Ok
void run(test::Simulation& sim, int steps) {
  for (int n = 0; n < steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok) << "step " << n;
}

// the joints of the last step of sim and their resultants
struct LastStep {
  std::vector<Joint> joints;
  std::vector<JointForces> forces;
};
LastStep last_step(const test::Simulation& sim) {
  LastStep last{find_joints(sim.workspace.contacts.active), {}};
  last.forces = joint_forces(sim.model, sim.workspace.contacts, last.joints);
  return last;
}

// a scene with gravity −g e_z, tight solver tolerance, and a fixed ground slab under z = 0
io::Scene ground_scene(double friction) {
  io::Scene scene = test::make_scene(1e-3, 1.0, 1000.0, friction, 0.0);
  scene.gravity = Vec3(0, 0, -kG);
  scene.solver.tolerance = 1e-10;
  scene.solver.max_iterations = 10000;
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(6, 6, 1), Vec3(0, 0, -0.5));
  return scene;
}

TEST(JointForces, BlockAtRestCarriesItsWeightThroughTheCentreOfItsBase) {
  io::Scene scene = ground_scene(0.5);
  test::add_box(scene, "block", BodyKind::Rigid, Vec3(1, 0.5, 0.4), Vec3(0.2, -0.1, 0.2));
  test::Simulation sim(scene);
  run(sim, 100);
  const LastStep last = last_step(sim);
  ASSERT_EQ(last.joints.size(), 1u);
  const JointForces& f = last.forces[0];
  const double weight = 1000.0 * 0.2 * kG;
  // at rest the step's impulses balance the weight over the step; the block's velocity change
  // (below 1e-9 m/s after 100 steps) and the solver's 1e-10 tolerance are far below 1e-6 m g
  EXPECT_NEAR(f.normal_force, weight, 1e-6 * weight);
  EXPECT_LT(f.shear.norm(), 1e-6 * weight);
  // by symmetry the thrust passes through the centre of the base: |e| within the contact
  // points' round-off relative to the 1 m base (1e-9 m)
  EXPECT_LT(f.eccentricity.norm(), 1e-9);
  EXPECT_NEAR((f.centre_of_pressure - Vec3(0.2, -0.1, 0)).norm(), 0.0, 1e-6);
  EXPECT_TRUE(f.inside);
  EXPECT_EQ(f.state, JointState::Stick);
  EXPECT_LT(f.sliding.norm(), 1e-9);
  EXPECT_LT(f.opening, 1e-9);
}

TEST(JointForces, WedgesThrustPassesUnderItsCentreOfMass) {
  // a right triangular prism on its 1 × 1 rectangular face, the right angle at x = 0: its centre
  // of mass is at x = 1/3, a sixth of the base off the base's centre
  io::Scene scene = ground_scene(0.5);
  io::ConvexShape wedge;
  for (double y : {-0.5, 0.5})
    for (const Vec3& p : {Vec3(0, y, 0), Vec3(1, y, 0), Vec3(0, y, 1)}) wedge.vertices.push_back(p);
  io::Body& body = test::add_body(scene, "wedge", BodyKind::Rigid, wedge, Vec3::Zero());
  body.position.reset();  // where the vertices are written
  test::Simulation sim(scene);
  run(sim, 100);
  const LastStep last = last_step(sim);
  ASSERT_EQ(last.joints.size(), 1u);
  const JointForces& f = last.forces[0];
  const double weight = 1000.0 * 0.5 * kG;
  EXPECT_NEAR(f.normal_force, weight, 1e-6 * weight);
  // the centre of pressure under the centre of mass, within the solver's tolerance on the
  // contacts' share of the weight (1e-6 of the base)
  const Vec3 com = sim.state.x[1];
  EXPECT_NEAR(com.x(), 1.0 / 3, 1e-6);
  EXPECT_NEAR(f.centre_of_pressure.x(), com.x(), 1e-6);
  EXPECT_NEAR(f.centre_of_pressure.y(), com.y(), 1e-6);
  EXPECT_NEAR(f.eccentricity.x(), 1.0 / 3 - 0.5, 1e-6);
  EXPECT_TRUE(f.inside);
}

TEST(JointForces, BlockSlidingOnTheGroundSlidesAtItsSpeedAlongItsShear) {
  io::Scene scene = ground_scene(0.3);
  io::Body& block = test::add_box(scene, "block", BodyKind::Rigid, Vec3(1, 1, 0.5), Vec3(0, 0, 0.25));
  block.velocity = Vec3(2, 0, 0);
  test::Simulation sim(scene);
  run(sim, 50);
  const LastStep last = last_step(sim);
  ASSERT_EQ(last.joints.size(), 1u);
  const JointForces& f = last.forces[0];
  EXPECT_EQ(f.state, JointState::Sliding);
  // the block (b) slides along +x relative to the ground (a) at its own speed, decelerated by
  // μ g: 2 − 0.3 g × 0.05 s; the end-of-step velocities are the solution's (1e-9 m/s)
  EXPECT_NEAR(f.sliding.x(), sim.state.v[1].x(), 1e-9);
  EXPECT_NEAR(f.sliding.x(), 2 - 0.3 * kG * 0.05, 1e-6);
  EXPECT_NEAR(f.sliding.tail<2>().norm(), 0.0, 1e-9);
  // friction on the block opposes the sliding, at its Coulomb limit μ N
  EXPECT_NEAR(f.shear.x(), -0.3 * f.normal_force, 1e-6 * f.normal_force);
}

// a semicircular arch of n voussoirs (inner radius R, thickness t, depth 1, as scenes/gen_arch.py
// builds them) springing from two fixed abutments at z = 0; voussoir i spans the angles
// [π i / n, π (i + 1) / n], from the right abutment (x > 0) to the left one
io::Scene arch_scene(int n, double radius, double thickness) {
  io::Scene scene = test::make_scene(1e-3, 1.0, 2000.0, 0.8, 0.0);
  scene.gravity = Vec3(0, 0, -kG);
  scene.solver.tolerance = 1e-10;
  scene.solver.max_iterations = 100000;
  const Vec3 abutment(2, 2, 2);
  test::add_box(scene, "abutment_left", BodyKind::Fixed, abutment, Vec3(-(radius + thickness / 2), 0, -1));
  test::add_box(scene, "abutment_right", BodyKind::Fixed, abutment, Vec3(radius + thickness / 2, 0, -1));
  for (int i = 0; i < n; ++i) {
    io::ConvexShape voussoir;
    for (const double angle : {std::numbers::pi * i / n, std::numbers::pi * (i + 1) / n})
      for (const double r : {radius, radius + thickness})
        for (const double y : {-0.5, 0.5})
          voussoir.vertices.push_back(Vec3(r * std::cos(angle), y, r * std::sin(angle)));
    test::add_body(scene, "voussoir_" + std::to_string(i), BodyKind::Rigid, voussoir, Vec3::Zero()).position.reset();
  }
  return scene;
}

TEST(JointForces, SymmetricArchAtRestHasOneHorizontalThrustAndLosesAVoussoirsWeightPerJoint) {
  // issue 16: 20 voussoirs, t/R = 0.2 (above Heyman's 0.107), μ = 0.8 (no sliding)
  const int n = 20;
  const double radius = 5, thickness = 1;
  test::Simulation sim(arch_scene(n, radius, thickness));
  run(sim, 200);
  const LastStep last = last_step(sim);
  ASSERT_EQ(last.joints.size(), static_cast<std::size_t>(n + 1));
  // the chain right abutment (body 1), voussoirs 0 … n − 1 (bodies 2 … n + 1), left abutment
  // (body 0); F[k] is the force on element k + 1 from element k at their joint
  const auto element = [&](int k) { return k == 0 ? 1 : (k == n + 1 ? 0 : k + 1); };
  std::vector<Vec3> F(n + 1, Vec3::Constant(std::nan("")));
  for (std::size_t j = 0; j < last.joints.size(); ++j) {
    const Joint& joint = last.joints[j];
    const JointForces& f = last.forces[j];
    const Vec3 on_b = f.normal_force * joint.normal + f.shear;
    for (int k = 0; k <= n; ++k) {
      if (joint.a == element(k) && joint.b == element(k + 1)) F[k] = on_b;
      if (joint.b == element(k) && joint.a == element(k + 1)) F[k] = -on_b;
    }
    EXPECT_EQ(f.state, JointState::Stick) << "joint " << j;
    EXPECT_TRUE(f.inside) << "joint " << j;
  }
  // a voussoir's weight: its section is the trapezoid between the chords, (R_o² − R²) sin(π/n) / 2,
  // depth 1, ρ = 2000
  const double outer = radius + thickness;
  const double weight = 2000.0 * kG * (outer * outer - radius * radius) * std::sin(std::numbers::pi / n) / 2;
  // each voussoir's equilibrium at rest: F[k + 1] = F[k] + its weight (−W e_z), up to its
  // momentum change over the step and the solver's 1e-10 tolerance, both far below 1 % of W
  // (3e-8 W here); the horizontal thrust −F_x, about 4 W, within 1 % of the crown's at every joint
  // (issue 16; 1e-7 here)
  const double thrust = -F[n / 2].x();
  EXPECT_GT(thrust, 0.1 * weight);
  for (int k = 0; k <= n; ++k) {
    EXPECT_NEAR(-F[k].x(), thrust, 0.01 * thrust) << "joint " << k;
    // friction may leave a force along the axis (y), which statics does not fix; it is the same at every joint
    EXPECT_NEAR(F[k].y(), F[0].y(), 0.01 * weight) << "joint " << k;
    if (k < n) {
      EXPECT_NEAR(F[k].z() - F[k + 1].z(), weight, 0.01 * weight) << "joint " << k;
    }
  }
  // the springings carry the whole arch; each about half of it, as the arch is statically
  // indeterminate and the Gauss–Seidel sweep, from the right to the left, picks one of the
  // admissible distributions (0.7 % off the half here)
  EXPECT_NEAR(F[0].z() - F[n].z(), n * weight, 0.01 * weight);
  EXPECT_NEAR(F[0].z(), n * weight / 2, 0.01 * n * weight / 2);
}

}  // namespace
}  // namespace nscd
