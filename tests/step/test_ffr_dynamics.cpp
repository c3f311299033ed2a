// The floating frame of reference against the experiments of [Lozovskiy & Dubois 2016] §4 and
// against analytic solutions: the free rotating cuboid (§4.1), the fictitious forces switched
// off, a very stiff FFR block on an incline against the rigid block, the static shortening of a
// block under its own weight, and the contact points of the three-block scene (§4.2).

#include "nscd/step/contact_problem.hpp"
#include "solvers/contact_bodies.hpp"
#include "scene_builder.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <vector>

#include <cmath>
#include <numbers>

namespace nscd {
namespace {

constexpr double kG = 9.81;

io::Body& add_ffr_box(io::Scene& scene, const std::string& name, const Vec3& size, std::array<int, 3> elements,
                      const Vec3& position, const Quat& orientation = Quat::Identity()) {
  io::Body& body = test::add_box(scene, name, BodyKind::Ffr, size, position, orientation);
  body.elements = elements;
  return body;
}

// §4.1: the cuboid 1 × 1 × 2 (4 × 4 × 8 hexahedra) launched with v_C = (1, 0, 0), ω = (0, ω, 0)
test::Simulation free_cuboid(double omega, double duration) {
  io::Scene scene = test::stone_scene(1e-4, duration, 0.0);
  scene.gravity = Vec3::Zero();
  io::Body& body = add_ffr_box(scene, "cuboid", Vec3(1, 1, 2), {4, 4, 8}, Vec3::Zero());
  body.velocity = Vec3(1, 0, 0);
  body.angular_velocity = Vec3(0, omega, 0);
  scene.probes.push_back({"top", "cuboid", Vec3(0, 0, 1), std::nullopt});
  return test::Simulation(scene);
}

class FreeCuboid : public testing::TestWithParam<double> {};

TEST_P(FreeCuboid, TopPointFollowsTheRigidTrajectory) {
  const double omega = GetParam();
  test::Simulation sim = free_cuboid(omega, 1.0);
  const double worst = test::worst_rotating_probe_deviation(sim, omega);
  // the paper's "excellent match", as the issue states it: 1e-3 over the whole run. What remains
  // is the centrifugal stretch ρ ω² L² / E ≈ 1e-5 m at ω = 4π and the O(h²) phase error of
  // eq. (24), ω³ h² T / 12 ≈ 2e-6
  EXPECT_LT(worst, 1e-3);
  EXPECT_GT(sim.state.psi[0].norm(), 0.0);  // the centrifugal forces do stretch it
}

INSTANTIATE_TEST_SUITE_P(Paper41, FreeCuboid, testing::Values(1.0, 4 * std::numbers::pi));

TEST(FfrDynamics, WithoutFictitiousForcesTheRigidMotionIsUnchangedAndNothingDeforms) {
  test::Simulation with = free_cuboid(4 * std::numbers::pi, 0.05);
  test::Simulation without = free_cuboid(4 * std::numbers::pi, 0.05);
  without.model.step.fictitious_forces = false;
  for (long n = 0; n < with.model.n_steps; ++n) {
    ASSERT_EQ(with.advance().status, StepStatus::Ok);
    ASSERT_EQ(without.advance().status, StepStatus::Ok);
  }
  // without contact the rigid part does not depend on λ (eqs. 15, 16, 24): bitwise equal
  EXPECT_EQ(with.state.x[0], without.state.x[0]);
  EXPECT_EQ(with.state.q[0].coeffs(), without.state.q[0].coeffs());
  EXPECT_EQ(with.state.w[0], without.state.w[0]);
  EXPECT_EQ(without.state.psi[0].norm(), 0.0);
  EXPECT_EQ(without.state.lambda[0].norm(), 0.0);
  EXPECT_GT(with.state.psi[0].norm(), 0.0);
}

// a block 1 × 1 × 1 on a fixed slab tilted by α, as the rigid incline test, rigid or FFR
test::Simulation incline(BodyKind model, double young) {
  io::Scene scene = test::stone_scene(1e-3, 0.5, 0.3);
  scene.materials["stone"].young = young;
  scene.materials["stone"].damping_stiffness = 1e-4;  // the paper's damping
  // nine nodal contacts on a face of a body 1e4 times stiffer than stone make W nearly
  // singular: NLGS reaches 1e-6 but stalls near 1e-7, and 1e-6 moves the block by ~1e-9 m
  scene.solver.tolerance = 1e-6;
  scene.solver.max_iterations = 100;
  scene.gravity = Vec3(0, 0, -kG);
  const double alpha = std::numbers::pi / 6;
  const Quat tilt(Eigen::AngleAxisd(alpha, Vec3::UnitY()));
  test::add_box(scene, "slope", BodyKind::Fixed, Vec3(20, 4, 1), Vec3::Zero(), tilt);
  io::Body& block = test::add_box(scene, "block", model, Vec3(1, 1, 1), tilt * Vec3(0, 0, 1.0), tilt);
  if (model == BodyKind::Ffr) block.elements = std::array<int, 3>{2, 2, 2};
  return test::Simulation(scene);
}

TEST(FfrDynamics, VeryStiffBlockOnAnInclineSlidesLikeTheRigidBlock) {
  test::Simulation rigid = incline(BodyKind::Rigid, 1e14);
  test::Simulation stiff = incline(BodyKind::Ffr, 1e14);
  for (long n = 0; n < rigid.model.n_steps; ++n) {
    ASSERT_EQ(rigid.advance().status, StepStatus::Ok);
    ASSERT_EQ(stiff.advance().status, StepStatus::Ok);
  }
  const double travel_rigid = (rigid.state.x[1] - rigid.model.bodies[1].x0).norm();
  const double travel_ffr = (stiff.state.x[1] - stiff.model.bodies[1].x0).norm();
  ASSERT_GT(travel_rigid, 0.1);  // it does slide: ½ g (sin α − μ cos α) t² = 0.30 m
  // the bound: 1e-4 relative; with E = 1e14 the block deforms by ρ g L / E ~ 1e-10
  EXPECT_NEAR(travel_ffr, travel_rigid, 1e-4 * travel_rigid);
}

TEST(FfrDynamics, BlockOnAFrictionlessTableSettlesToTheStaticShortening) {
  io::Scene scene = test::stone_scene(1e-4, 0.04, 0.0);
  scene.gravity = Vec3(0, 0, -kG);
  scene.materials["stone"].damping_stiffness = 1e-4;  // the paper's damping, ζ ≈ 0.15 on the axial mode
  test::add_box(scene, "table", BodyKind::Fixed, Vec3(3, 3, 0.2), Vec3(0, 0, -0.1));
  add_ffr_box(scene, "block", Vec3(1, 1, 2), {4, 4, 8}, Vec3(0, 0, 1));
  test::Simulation sim(scene);
  for (long n = 0; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  // mean vertical ψ of the bottom face minus that of the top face
  double bottom = 0;
  const double shortening = test::shortening_z(sim.model.ffr_bodies[0].mesh.nodes, sim.state.psi[0], 0.999, bottom);
  const double expected = 2500 * kG * 2 * 2 / (2 * 35e9);
  // the bound, 5 %: a prism under its own weight on a frictionless base is in uniaxial
  // stress σ_zz = −ρ g (H − z), whose shortening is ρ g H² / (2E); the trilinear mesh and the
  // residual axial vibration (damped by ζ ≈ 0.15 over 19 periods) stay well inside
  EXPECT_NEAR(shortening, expected, 0.05 * expected);
}

// solver.min_iterations holds with FE bodies too: each solve of Algorithm 1 makes at least that
// many sweeps, though a block at rest on a table meets the tolerance after fewer
TEST(FfrDynamics, MinIterationsHoldsForTheSolvesOfAlgorithmOne) {
  io::Scene scene = test::stone_scene(1e-3, 0.01, 0.5);
  scene.gravity = Vec3(0, 0, -kG);
  test::add_box(scene, "table", BodyKind::Fixed, Vec3(3, 3, 0.2), Vec3(0, 0, -0.1));
  add_ffr_box(scene, "block", Vec3(1, 1, 1), {2, 2, 2}, Vec3(0, 0, 0.5));
  for (const solvers::SolverType type : {solvers::SolverType::Nlgs, solvers::SolverType::Auto}) {
    scene.solver.type = type;
    scene.solver.min_iterations = 7;
    test::Simulation sim(scene);
    for (long n = 0; n < sim.model.n_steps; ++n) {
      const StepReport report = sim.advance();
      ASSERT_EQ(report.status, StepStatus::Ok);
      if (report.n_contacts > 0) {
        EXPECT_GE(report.solver_iterations, 7) << solvers::to_string(type) << " step " << n;
      }
    }
  }
}

// W of the contact problem equals H 𝔸₊⁻¹ Hᵀ formed densely from eqs. (20)–(22) of the paper
// for an FFR block resting on a fixed table with a rigid box on top of it
TEST(FfrDynamics, DelassusOperatorEqualsTheDenseProduct) {
  io::Scene scene = test::stone_scene(1e-3, 1e-3, 0.5);
  scene.gravity = Vec3(0, 0, -kG);
  scene.materials["stone"].damping_stiffness = 1e-4;
  test::add_box(scene, "table", BodyKind::Fixed, Vec3(3, 3, 0.2), Vec3(0, 0, -0.1));
  add_ffr_box(scene, "block", Vec3(1, 1, 1), {2, 2, 2}, Vec3(0, 0, 0.5),
              Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ())));
  test::add_box(scene, "cap", BodyKind::Rigid, Vec3(0.6, 0.6, 0.2), Vec3(0.1, 0, 1.1));
  scene.bodies[1].angular_velocity = Vec3(0, 0, 0.5);
  test::Simulation sim(scene);
  ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  const StepWorkspace& ws = sim.workspace;
  const int nc = ws.contacts.problem.nc();
  ASSERT_GT(nc, 9);

  // dofs: block (v, ω, λ), then cap (v, ω)
  const ffr::FfrBody& f = sim.model.ffr_bodies[0];
  const int n = f.ndof(), ndof = 12 + n;
  const Mat3 O = ws.ffr[0].rotation.O;
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(3 * nc, ndof), Ainv = Eigen::MatrixXd::Zero(ndof, ndof);
  const Eigen::MatrixXd M = f.mass_matrix, K = f.stiffness;
  const Eigen::MatrixXd A_plus = M + 0.5 * 1e-3 * 1e-4 * K + 0.25 * 1e-6 * K;
  Ainv.block<3, 3>(0, 0) = Mat3::Identity() / f.mass;
  Ainv.block<3, 3>(3, 3) = O * f.inv_inertia_B * O.transpose();
  Ainv.block(6, 6, n, n) = A_plus.inverse();
  const BodyModel& cap = sim.model.bodies[2];
  Ainv.block<3, 3>(6 + n, 6 + n) = Mat3::Identity() / cap.mass;
  Ainv.block<3, 3>(9 + n, 9 + n) = sim.state.q[2] * cap.inv_inertia_B * sim.state.q[2].conjugate().toRotationMatrix();
  for (int i = 0; i < nc; ++i) {
    const contact::ContactPoint& c = ws.contacts.active[i].point;
    const Mat3 Ct = c.R_WC.transpose();
    for (int side = 0; side < 2; ++side) {
      const int b = side == 0 ? c.a : c.b;
      const double sigma = side == 0 ? -1 : 1;
      if (b == 1) {  // eq. (22): C_αᵀ [I, −[O X]×, O H̄_α]
        const MeshSide& point = ws.contacts.active[i].sides[side];
        H.block<3, 3>(3 * i, 0) = sigma * Ct;
        H.block<3, 3>(3 * i, 3) = -sigma * Ct * skew(O * point.X_B);
        Eigen::MatrixXd Hbar = Eigen::MatrixXd::Zero(3, n);
        for (int k = 0; k < f.nn(); ++k) Hbar.block<3, 3>(0, 3 * k) = -f.nodal_mass[k] / f.mass * Mat3::Identity();
        for (int j = 0; j < 3; ++j)
          if (point.nodes[j] >= 0) Hbar.block<3, 3>(0, 3 * point.nodes[j]) += point.weights[j] * Mat3::Identity();
        H.block(3 * i, 6, 3, n) = sigma * Ct * O * Hbar;
      } else if (b == 2) {  // rigid: C_αᵀ [I, −[p − x]×]
        H.block<3, 3>(3 * i, 6 + n) = sigma * Ct;
        H.block<3, 3>(3 * i, 9 + n) = -sigma * Ct * skew(c.p_W - sim.state.x[2]);
      }
    }
  }
  // the state has moved on by one step; the rigid cap's lever arms use the start-of-step
  // position, so rebuild them from the workspace's Jacobians instead of the state
  for (int i = 0; i < nc; ++i)
    for (int side = 0; side < 2; ++side)
      if (ws.contacts.active.jacobian(i).body[side] == 2) {
        H.block<3, 6>(3 * i, 6 + n) = ws.contacts.active.jacobian(i).G[side];
        Ainv.block<3, 3>(9 + n, 9 + n) = Mat3(ws.free[2].inv_inertia_W);
      }
  const Eigen::MatrixXd W_dense = H * Ainv * H.transpose();
  // round-off of A₊⁻¹ (condition ~1e4) and of the block sums: 1e-9 relative to the largest entry
  EXPECT_LT((ws.contacts.problem.W.to_dense() - W_dense).cwiseAbs().maxCoeff(), 1e-9 * W_dense.cwiseAbs().maxCoeff());
}

// §4.2's table and three blocks (4 × 4 × 8 hexahedra each), the upper one's centre at height
// `upper_z` (3: resting on the lower ones)
test::Simulation three_blocks(double upper_z) {
  io::Scene scene = test::stone_scene(1e-4, 1e-4, 0.3);
  test::add_box(scene, "table", BodyKind::Fixed, Vec3(6, 6, 0.2), Vec3(0, 0, -0.1));
  add_ffr_box(scene, "left", Vec3(1, 1, 2), {4, 4, 8}, Vec3(0, 2.0 / 3, 1));
  add_ffr_box(scene, "right", Vec3(1, 1, 2), {4, 4, 8}, Vec3(0, -2.0 / 3, 1));
  add_ffr_box(scene, "upper", Vec3(0.8, 1, 2), {4, 4, 8}, Vec3(0, 0, upper_z));
  return test::Simulation(scene);
}

// the contact points found in `sim`'s state, counted per pair of bodies
std::map<std::pair<int, int>, int> contacts_per_pair(test::Simulation& sim) {
  detect_all(sim.model, sim.state, sim.model.step.alert_distance, sim.workspace);
  std::map<std::pair<int, int>, int> per_pair;
  for (const MeshContact& c : sim.workspace.mesh_detected) ++per_pair[{c.point.a, c.point.b}];
  return per_pair;
}

TEST(FfrDynamics, ThreeBlocksOfThePaperTouchAtSeventyPoints) {
  test::Simulation sim = three_blocks(3);
  std::map<std::pair<int, int>, int> per_pair = contacts_per_pair(sim);
  // §4.2: "70 contact points in total, 10 between each of the lower solids and the upper one,
  // and 25 between each of the lower solids and the rigid surface"
  EXPECT_EQ(sim.workspace.mesh_detected.size(), 70u);
  EXPECT_EQ((per_pair[{0, 1}]), 25);
  EXPECT_EQ((per_pair[{0, 2}]), 25);
  EXPECT_EQ((per_pair[{1, 3}]), 10);
  EXPECT_EQ((per_pair[{2, 3}]), 10);
}

// detection bounds and searches the boundaries in their reference configuration, grown by the
// largest displacement (mesh_contacts.hpp, surface_search.hpp): the upper block placed 0.6 m
// higher, 25 times the alert distance and farther from the lower blocks than the sum of the
// undeformed bounding radii, and deformed 0.6 m down onto them by ψ, meets them at the same 20
// points as when it rests there undeformed
TEST(FfrDynamics, DeformedBoundaryIsFoundWhereItIsNotWhereItWas) {
  test::Simulation sim = three_blocks(3.6);
  ASSERT_LT(25 * sim.model.step.alert_distance, 0.6);
  ASSERT_GT((sim.state.x[3] - sim.state.x[1]).norm(),
            sim.model.bodies[1].bounding_radius + sim.model.bodies[3].bounding_radius + sim.model.step.alert_distance);
  Eigen::VectorXd& psi = sim.state.psi[2];
  for (Eigen::Index k = 0; k < psi.size() / 3; ++k) psi[3 * k + 2] = -0.6;
  std::map<std::pair<int, int>, int> per_pair = contacts_per_pair(sim);
  EXPECT_EQ((per_pair[{1, 3}]), 10);
  EXPECT_EQ((per_pair[{2, 3}]), 10);
}

// delassus_product (contact_problem.hpp), the exact test of Algorithm 1's outer loop, and on modal
// bodies the contacts' sides of defer_assembly, give W r of the assembled W at the same
// linearisation: on §4.2's three blocks (70 contact points) after 3
// steps, full FFR, 12 modes node to surface and on the faces, 11 modes on the faces (the last odd
// mode of the modal blocks' two-mode loops, ffr_coupling.hpp), and TL. They sum the same
// products in another order: round-off, 1e-12 of ‖W r‖ (W's entries span 1e-4 to 1e-9 m/(N s)
// between the frames' and the meshes' parts, so 1e-12 is far above 1e-16 and far below any
// missing block)
enum class Coupling { Full, Modal, ModalOnFaces, OddModesOnFaces, Tl };

class DelassusProduct : public testing::TestWithParam<Coupling> {};

TEST_P(DelassusProduct, EqualsTheAssembledMatrixTimesTheImpulses) {
  io::Scene scene = io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / "scenes/ffr_three_blocks.json");
  if (GetParam() != Coupling::Full && GetParam() != Coupling::Tl)
    scene.ffr.modes = GetParam() == Coupling::OddModesOnFaces ? 11 : 12;
  if (GetParam() == Coupling::ModalOnFaces || GetParam() == Coupling::OddModesOnFaces) scene.ffr.shape_contact = true;
  if (GetParam() == Coupling::Tl)
    for (io::Body& body : scene.bodies)
      if (body.model == BodyKind::Ffr) body.model = BodyKind::Tl;
  test::Simulation sim(scene);
  for (int n = 0; n < 3; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  const solvers::FrictionProblem& p = assembled_problem(sim.model, sim.workspace);
  ASSERT_GT(p.nc(), 0);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> impulse(-1e3, 1e3);
  Eigen::VectorXd r(3 * p.nc());
  for (Eigen::Index i = 0; i < r.size(); ++i) r[i] = impulse(random);
  const Eigen::VectorXd assembled = p.W.apply(r);
  EXPECT_LT((delassus_product(sim.model, sim.workspace, r) - assembled).norm(), 1e-12 * assembled.norm());
  // the contacts' sides NLGS sweeps on (solvers/contact_bodies.hpp eqs. (2)–(7)): on modal bodies
  // only, the same W r and W's diagonal blocks
  const bool modal = GetParam() != Coupling::Full && GetParam() != Coupling::Tl;
  ASSERT_EQ(sweeps_on_sides(sim.workspace), modal);
  if (!modal) return;
  std::vector<Eigen::Matrix3d> diagonal;
  for (int i = 0; i < p.nc(); ++i) diagonal.push_back(p.W.diag(i));
  defer_assembly(sim.model, sim.workspace);
  const solvers::ContactBodies& sides = sim.workspace.contacts.bodies;
  EXPECT_EQ(sides.n_modal, 3 * sim.model.ffr_bodies.front().ncoordinates());
  Eigen::VectorXd dv, on_sides;
  solvers::body_velocity_change(sides, r, dv);
  solvers::contact_velocities(sides, Eigen::VectorXd::Zero(r.size()), dv, on_sides);
  EXPECT_LT((on_sides - assembled).norm(), 1e-12 * assembled.norm());
  for (int i = 0; i < p.nc(); ++i)
    EXPECT_LT((sim.workspace.contacts.problem.W.diag(i) - diagonal[i]).norm(), 1e-12 * diagonal[i].norm()) << i;
}

INSTANTIATE_TEST_SUITE_P(ThreeBlocks, DelassusProduct,
                         testing::Values(Coupling::Full, Coupling::Modal, Coupling::ModalOnFaces,
                                         Coupling::OddModesOnFaces, Coupling::Tl));
}  // namespace
}  // namespace nscd
