// The Total Lagrangian and linear (small-deformation) models against the experiments of
// [Lozovskiy & Dubois 2016] §4.1 and against analytic solutions: the free rotating cuboid, the
// conservation of momentum, the static shortening of a block under its own weight, and W of
// the contact problem against the dense product H A_T⁻¹ Hᵀ.

#include "scene_builder.hpp"

#include "ffr/st_venant_kirchhoff.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace nscd {
namespace {

constexpr double kG = 9.81;

// §4.1: the cuboid 1 × 1 × 2 (4 × 4 × 8 hexahedra) launched with v_C = (1, 0, 0), ω = (0, ω, 0)
test::Simulation free_cuboid(BodyKind model, double omega, double duration) {
  io::Scene scene = test::stone_scene(1e-4, duration, 0.0);
  scene.gravity = Vec3::Zero();
  io::Body& body = test::add_box(scene, "cuboid", model, Vec3(1, 1, 2), Vec3::Zero());
  body.elements = std::array<int, 3>{4, 4, 8};
  body.velocity = Vec3(1, 0, 0);
  body.angular_velocity = Vec3(0, omega, 0);
  scene.probes.push_back({"top", "cuboid", Vec3(0, 0, 1), std::nullopt});
  return test::Simulation(scene);
}

class FreeTlCuboid : public testing::TestWithParam<double> {};

// The paper runs T = 1 s (1e4 steps); a TL step costs one tangent assembly and factorisation,
// about 5 ms here, so the whole run takes ~50 s per ω (docs/performance.md gives the full-run
// figures). The test runs the shortest durations that tell a rotating body from the linear
// model's straight line by several times the 1e-3 bound: at ω = 1, 0.25 s (t + sin t departs
// from (1 + ω) t by 2.6e-3), at ω = 4π, 0.1 s (a fifth of a turn; they differ by 0.31).
TEST_P(FreeTlCuboid, TopPointFollowsTheRigidTrajectory) {
  const double omega = GetParam();
  test::Simulation sim = free_cuboid(BodyKind::Tl, omega, omega > 1 ? 0.1 : 0.25);
  sim.model.step.inner_tolerance = 1e-7;  // the paper's tolerance for the nonlinear solvers (§4.1)
  // the paper's "excellent match", as the issue states it: 1e-3. What remains is the
  // centrifugal stretch ρ ω² L² / E ≈ 1e-5 m at ω = 4π, the axial vibration it excites (of
  // the same size) and the O(h²) phase error of the trapezoidal rule, ω³ h² t / 12 ≈ 4e-7
  EXPECT_LT(test::worst_rotating_probe_deviation(sim, omega), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Paper41, FreeTlCuboid, testing::Values(1.0, 4 * std::numbers::pi));

// [Lozovskiy & Dubois 2016] Fig. 4: the small-deformation model "fails to represent rotation"
// and moves the top point along a straight line. Over the paper's full second it departs from
// t + sin ωt by more than the 0.1 (at ω = 1, (1 + ω) t − t − sin ωt = 0.16 at t = 1;
// at ω = 4π, 0.1 is exceeded from t ≈ 0.06).
class FreeLinearCuboid : public testing::TestWithParam<double> {};

TEST_P(FreeLinearCuboid, TopPointDepartsFromTheRigidTrajectory) {
  const double omega = GetParam();
  test::Simulation sim = free_cuboid(BodyKind::Linear, omega, 1.0);
  EXPECT_GT(test::worst_rotating_probe_deviation(sim, omega), 0.1);
}

INSTANTIATE_TEST_SUITE_P(Paper41, FreeLinearCuboid, testing::Values(1.0, 4 * std::numbers::pi));

TEST(TlDynamics, FreeBodyConservesLinearAndAngularMomentum) {
  // a tilted spin (all three components of ω) makes the rotation three-dimensional
  test::Simulation sim = free_cuboid(BodyKind::Tl, 4 * std::numbers::pi, 0.05);
  sim.state.tl_lambda[0].setZero();
  const ffr::TlBody& body = sim.model.tl_bodies[0];
  const Vec3 v(1, 0.5, -0.2), w(3, 12, -2);
  for (int k = 0; k < body.nn(); ++k) sim.state.tl_lambda[0].segment<3>(3 * k) = v + w.cross(body.fe.mesh.nodes[k]);
  const auto [P0, L0] = ffr::momenta(body, sim.state.tl_psi[0], sim.state.tl_lambda[0]);
  for (long n = 0; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  const auto [P1, L1] = ffr::momenta(body, sim.state.tl_psi[0], sim.state.tl_lambda[0]);
  ASSERT_GT(sim.state.tl_psi[0].norm(), 0.1);  // it has turned by ~36°
  // Σ_k f_k = 0 for any ψ (SVK forces are invariant under translation), so eq. (1) keeps
  // M λ summed exactly; what is left is the round-off of the Newton solves, 1e-10 relative
  // (tolerance 1e-10 on the corrections)
  EXPECT_LT((P1 - P0).norm(), 1e-9 * P0.norm());
  // the trapezoidal rule conserves angular momentum up to O(h²): the drift per unit time is
  // about (h ω)² ‖L‖ / 12, i.e. 1e-7 ‖L‖ over 0.05 s; 1e-6 leaves a factor 10
  EXPECT_LT((L1 - L0).norm(), 1e-6 * L0.norm());
  // and the mass-weighted mean motion of bodies.csv is that of the rigid body
  EXPECT_LT((sim.state.v[0] - v).norm(), 1e-9);
  EXPECT_LT((sim.state.x[0] - 0.05 * v).norm(), 1e-9);
}

TEST(TlDynamics, BlockOnAFrictionlessTableSettlesToTheStaticShortening) {
  for (const BodyKind model : {BodyKind::Tl, BodyKind::Linear}) {
    io::Scene scene = test::stone_scene(1e-4, 0.04, 0.0);
    scene.gravity = Vec3(0, 0, -kG);
    scene.materials["stone"].damping_stiffness = 1e-4;  // the paper's damping, ζ ≈ 0.15 on the axial mode
    test::add_box(scene, "table", BodyKind::Fixed, Vec3(3, 3, 0.2), Vec3(0, 0, -0.1));
    test::add_box(scene, "block", model, Vec3(1, 1, 2), Vec3(0, 0, 1)).elements = std::array<int, 3>{4, 4, 8};
    test::Simulation sim(scene);
    for (long n = 0; n < sim.model.n_steps; ++n) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
    // mean vertical ψ of the bottom face minus that of the top face
    double bottom = 0;
    const double shortening = test::shortening_z(sim.model.tl_bodies[0].fe.mesh.nodes, sim.state.tl_psi[0], 0.999, bottom);
    const double expected = 2500 * kG * 2 * 2 / (2 * 35e9);
    // the bound, 5 %: a prism under its own weight on a frictionless base is in
    // uniaxial stress σ_zz = −ρ g (H − z), whose shortening is ρ g H² / (2E); the trilinear
    // mesh and the residual axial vibration (damped by ζ ≈ 0.15 over 19 periods) stay well inside
    EXPECT_NEAR(shortening, expected, 0.05 * expected) << to_string(model);
    // and it rests: its bottom face stays on the table within the shortening's order
    EXPECT_NEAR(bottom, 0.0, 0.05 * expected) << to_string(model);
  }
}

// W of the contact problem equals H A_T⁻¹ Hᵀ formed densely: for a TL block on a fixed table
// with a rigid box on top, H has the nodal weights in the contact frame on the block's columns
// (no rigid part) and the rigid Jacobian on the box's; A_T = M + (h β/2 + h²/4) K_T is the
// block's tangent at the step's free solution
TEST(TlDynamics, DelassusOperatorEqualsTheDenseProduct) {
  io::Scene scene = test::stone_scene(1e-3, 1e-3, 0.5);
  scene.gravity = Vec3(0, 0, -kG);
  scene.materials["stone"].damping_stiffness = 1e-4;
  test::add_box(scene, "table", BodyKind::Fixed, Vec3(3, 3, 0.2), Vec3(0, 0, -0.1));
  test::add_box(scene, "block", BodyKind::Tl, Vec3(1, 1, 1), Vec3(0, 0, 0.5),
                Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ())))
      .elements = std::array<int, 3>{2, 2, 2};
  test::add_box(scene, "cap", BodyKind::Rigid, Vec3(0.6, 0.6, 0.2), Vec3(0.1, 0, 1.1));
  scene.bodies[1].angular_velocity = Vec3(0, 0, 0.5);
  test::Simulation sim(scene);
  const State start = sim.state;
  ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  const StepWorkspace& ws = sim.workspace;
  const int nc = ws.contacts.problem.nc();
  ASSERT_GT(nc, 9);

  // the tangent of the free solution: Newton from λ_i factorises A_T at ψ₊ = ψ_i + h λ_i, corrects
  // λ once, and meets the tolerance after its second factorisation, at the corrected λ₊
  const ffr::TlBody& tl = sim.model.tl_bodies[0];
  const ffr::FfrBody& f = tl.fe;
  const double h = 1e-3, beta = 1e-4;  // the stiffness part of the damping acts on K_T, tl_body.hpp eq. (2)
  ASSERT_EQ(ws.tl[0].iterations, 2);
  const Eigen::VectorXd &psi = start.tl_psi[0], &lambda = start.tl_lambda[0];
  auto tangent_at = [&](const Eigen::VectorXd& lambda_next, Eigen::VectorXd& R) {
    const Eigen::VectorXd psi_next = psi + 0.5 * h * (lambda + lambda_next);
    Eigen::VectorXd force;
    ffr::SparseMatrix K_T;
    ffr::internal_forces(tl, psi_next, force, &K_T);
    const Eigen::VectorXd base =
        ffr::step_base(tl, psi, lambda, sim.model.bodies[1].q0.conjugate() * scene.gravity);
    R = f.mass_matrix * lambda_next + 0.5 * h * (ffr::damping_forces(tl, psi_next, lambda_next) + force) - base;
    return Eigen::MatrixXd(Eigen::MatrixXd(f.mass_matrix) + (0.5 * h * beta + 0.25 * h * h) * Eigen::MatrixXd(K_T));
  };
  Eigen::VectorXd R;
  const Eigen::MatrixXd A_0 = tangent_at(lambda, R);
  const Eigen::VectorXd lambda_1 = lambda - A_0.ldlt().solve(R);
  const Eigen::MatrixXd A_T = tangent_at(lambda_1, R);

  // dofs: block λ (n), then cap (v, ω)
  const int n = f.ndof(), ndof = n + 6;
  const Mat3 R0 = sim.model.bodies[1].q0.toRotationMatrix();
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(3 * nc, ndof), Ainv = Eigen::MatrixXd::Zero(ndof, ndof);
  Ainv.block(0, 0, n, n) = A_T.inverse();
  const BodyModel& cap = sim.model.bodies[2];
  Ainv.block<3, 3>(n, n) = Mat3::Identity() / cap.mass;
  for (int i = 0; i < nc; ++i) {
    const contact::ContactPoint& c = ws.contacts.active[i].point;
    for (int side = 0; side < 2; ++side) {
      const int b = side == 0 ? c.a : c.b;
      const double sigma = side == 0 ? -1 : 1;
      if (b == 1) {  // σ C_αᵀ R(q₀) N_α
        const MeshSide& point = ws.contacts.active[i].sides[side];
        for (int j = 0; j < 3; ++j)
          if (point.nodes[j] >= 0)
            H.block<3, 3>(3 * i, 3 * point.nodes[j]) += sigma * point.weights[j] * c.R_WC.transpose() * R0;
      } else if (b == 2) {  // rigid: the workspace's Jacobian (lever arms at the start of the step)
        H.block<3, 6>(3 * i, n) = ws.contacts.active.jacobian(i).G[side];
        Ainv.block<3, 3>(n + 3, n + 3) = Mat3(ws.free[2].inv_inertia_W);
      }
    }
  }
  const Eigen::MatrixXd W_dense = H * Ainv * H.transpose();
  // round-off of A_T⁻¹ (condition ~1e4) and of the block sums: 1e-9 relative to the largest entry
  EXPECT_LT((ws.contacts.problem.W.to_dense() - W_dense).cwiseAbs().maxCoeff(), 1e-9 * W_dense.cwiseAbs().maxCoeff());
}

}  // namespace
}  // namespace nscd
