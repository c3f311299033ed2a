// The position projection of position_projection.hpp: a dropped sphere comes to rest touching
// the ground, a pour of spheres keeps no lasting overlap and gains no energy, fast spheres are
// caught in the step they would pass through a plate, and the scene's switch turns it off.

#include "scene_builder.hpp"

#include "nscd/step/energy.hpp"

#include "contact/detection.hpp"
#include "nscd/step/contact_jacobian.hpp"
#include "nscd/step/position_projection.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace nscd {
namespace {

constexpr double kG = 9.81;

// a sphere of radius 0.1 dropped from 1 m (its bottom) onto a fixed ground whose top is z = 0
test::Simulation sphere_drop(bool projection) {
  io::Scene scene = test::make_scene(1e-3, 1.5, 1000.0, 0.3, 0.0);
  scene.projection = projection;
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(4, 4, 1), Vec3(0, 0, -0.5));
  test::add_sphere(scene, "ball", BodyKind::Rigid, 0.1, Vec3(0, 0, 1.1));
  return test::Simulation(scene);
}

// the gap between the ball and the ground's top face over the last 0.5 s, at rest
std::pair<double, double> resting_gap_range(test::Simulation& sim) {
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  while (sim.state.step < sim.model.n_steps) {
    EXPECT_EQ(sim.advance().status, StepStatus::Ok);
    if (sim.state.t < 1.0) continue;
    const double gap = sim.state.x[1].z() - 0.1;
    lowest = std::min(lowest, gap);
    highest = std::max(highest, gap);
  }
  return {lowest, highest};
}

TEST(PositionProjection, DroppedSphereWithoutRestitutionRestsTouchingTheGround) {
  test::Simulation sim = sphere_drop(true);
  const auto [lowest, highest] = resting_gap_range(sim);
  // the bound: within 1e-9 m of zero, from above. The closed contact is projected to
  // g⁺ = 0 exactly (a sphere on a plane: the gap is linear in the pose), so what remains is the
  // round-off of z − r at z ≈ 0.1 m: a few ulps, 1e-16 m; −1e-15 m admits it below zero
  EXPECT_GE(lowest, -1e-15);
  EXPECT_LE(highest, 1e-9);
  EXPECT_LT(std::abs(sim.state.v[1].z()), 1e-9);
}

TEST(PositionProjection, WithoutItTheDroppedSphereRestsAwayFromTheGround) {
  // the velocity-level law alone stops the ball anywhere within h |u_n| of the ground (here it
  // lands at 4.4 m/s): the test above fails without the projection
  test::Simulation sim = sphere_drop(false);
  const auto [lowest, highest] = resting_gap_range(sim);
  EXPECT_GT(std::max(std::abs(lowest), std::abs(highest)), 1e-6);
}

// the deepest overlap of the contacts at the state of sim (alert distance 0: overlaps only)
double deepest_overlap(const test::Simulation& sim) {
  std::vector<contact::Pose> poses;
  std::vector<std::uint8_t> movable;
  detection_input(sim.model, sim.state, poses, movable);
  std::vector<contact::ContactPoint> contacts;
  contact::detect_contacts(sim.model.shapes, poses, movable, 0.0, contacts);
  double deepest = 0;
  for (const contact::ContactPoint& c : contacts) deepest = std::max(deepest, -c.gap);
  return deepest;
}

// the largest speed of a body's centre of mass at the state of sim [m/s]
double fastest_centre(const test::Simulation& sim) {
  double fastest = 0;
  for (const Vec3& v : sim.state.v) fastest = std::max(fastest, v.norm());
  return fastest;
}

TEST(PositionProjection, PourOfSpheresSettlesWithoutOverlapsOrEnergyGrowth) {
  // 6 × 6 × 6 spheres of radius 0.05 ± 10 % on a 0.12 m lattice, poured into a 0.8 m square box
  // (the grains: ρ = 2500, μ = 0.4, e = 0.1), for 3.5 s: the pour is at rest by 2.1 s on
  // the trajectory of plain NLGS sweeps, by 2.8 s on that of the Anderson-mixed sweeps, where one
  // grain of the top layer rolls on at a few cm/s until then (one grain's path decides this time)
  io::Scene scene = test::make_scene(1e-3, 3.5, 2500.0, 0.4, 0.1);
  // NLGS, as granular practice: the default auto hands the pour's impacts to its Newton stage,
  // which stops short on them and then costs more than the sweeps (the test ran past 30 min)
  scene.solver.type = solvers::SolverType::Nlgs;
  scene.solver.tolerance = 1e-6;
  // enough sweeps for every step to meet the tolerance, which the bound on E below assumes: with
  // 300, the trajectory of the body-form sweeps (the same sweeps to round-off, which a pour
  // amplifies) met a step stopped at error 2.9e-6 whose residual raised E by 2.0e-6 J
  scene.solver.max_iterations = 1000;
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(1.2, 1.2, 0.2), Vec3(0, 0, -0.1));
  for (int side = 0; side < 4; ++side) {
    const double sign = side % 2 == 0 ? 1 : -1;
    const Vec3 size = side < 2 ? Vec3(0.2, 1.2, 1.2) : Vec3(1.2, 0.2, 1.2);
    const Vec3 centre = side < 2 ? Vec3(sign * 0.47, 0, 0.6) : Vec3(0, sign * 0.47, 0.6);
    test::add_box(scene, "wall" + std::to_string(side), BodyKind::Fixed, size, centre);
  }
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> jitter(-0.005, 0.005);
  double smallest_diameter = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 6; ++k)
    for (int j = 0; j < 6; ++j)
      for (int i = 0; i < 6; ++i) {
        const double radius = 0.05 + jitter(rng);
        smallest_diameter = std::min(smallest_diameter, 2 * radius);
        test::add_sphere(scene, "grain" + std::to_string(i) + std::to_string(j) + std::to_string(k),
                         BodyKind::Rigid, radius,
                         Vec3(0.12 * (i - 2.5) + jitter(rng), 0.12 * (j - 2.5) + jitter(rng), 0.06 + 0.12 * k));
      }
  test::Simulation sim(scene);

  double energy = kinetic_energy(sim.model, sim.state) + potential_energy(sim.model, sim.state);
  double worst_growth = -std::numeric_limits<double>::infinity();
  while (sim.state.step < sim.model.n_steps) {
    ASSERT_EQ(sim.advance().status, StepStatus::Ok);
    const double next = kinetic_energy(sim.model, sim.state) + potential_energy(sim.model, sim.state);
    worst_growth = std::max(worst_growth, next - energy);
    energy = next;
  }
  // no external work but gravity's, which E_pot accounts: E_kin + E_pot must not increase beyond
  // what the two stopping tests leave. The projection stops when a sweep changes no gap by more
  // than ε = 10⁻⁶ of the smallest diameter (9e-8 m); its residual, which falls tenfold in about a
  // hundred sweeps here, is a fraction of that, and of either sign from grain to grain. The
  // solver's residual velocity δu, at most tol × ‖r̃‖ (error_measure.hpp, r̃ the impulses as
  // velocities: about 4 m/s for the heap's ~600 contacts, each ~3.8 m/s per N s times a load of
  // ~1.4e-2 N s per layer carried), does the work ‖r‖ ‖δu‖ ≲ 1 N s × 4e-6 m/s = 4e-6 J in a step
  // (with a solver tolerance of 1e-4 the residual gave 1.5e-5 J, hence 1e-6 here). Measured:
  // 8e-13 J (round-off) while the grains move, up to 2.2e-6 J while they come to rest, at steps
  // stopped at an error just below 1e-6. A residual of ε in the same sense at every one of the 6
  // layers would give Σ m g 6 ε ≈ 216 × 1.4 kg × 9.81 × 5.4e-7 m ≈ 1.6e-3 J
  EXPECT_LE(worst_growth, 4e-6);
  // at rest after 3.5 s: every grain's centre slower than 1 cm/s, a tenth of a grain's radius per
  // second. A grain may keep spinning about its contact normal, as point contacts exert no torque
  // about it: on a trajectory that differs in round-off (the inverse mass multiplied into the
  // Jacobians instead of divided), one grain on the floor spins at 1.7 rad/s after 3.5 s
  // (2.8e-3 J, where the pile's kinetic energy is otherwise 3.9e-7 J), its centre at 2.7 mm/s.
  // The bound on overlaps, 1e-3 of the smallest diameter (measured 4e-9 m)
  EXPECT_LT(fastest_centre(sim), 1e-2) << "kinetic energy " << kinetic_energy(sim.model, sim.state) << " J";
  EXPECT_LE(deepest_overlap(sim), 1e-3 * smallest_diameter);
}

// a sphere of radius 0.01 at 50 m/s towards a 1 cm plate, 1 cm away: one step travels 5 cm, more
// than the plate and the sphere together (3 cm), so a contact found or activated a step late
// would let it through
TEST(PositionProjection, FastSphereIsStoppedByAThinPlateInTheStepItWouldPassThrough) {
  io::Scene scene = test::make_scene(1e-3, 0.02, 1000.0, 0.3, 0.0);
  scene.gravity = Vec3::Zero();
  test::add_box(scene, "plate", BodyKind::Fixed, Vec3(1, 1, 0.01), Vec3::Zero());
  test::add_sphere(scene, "ball", BodyKind::Rigid, 0.01, Vec3(0, 0, 0.025)).velocity = Vec3(0, 0, -50);
  test::Simulation sim(scene);
  ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  EXPECT_EQ(sim.workspace.contacts.active.size(), 1);  // caught in the first step
  while (sim.state.step < sim.model.n_steps) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  // e = 0: stopped on the plate's top face (z = 0.005), touching; round-off as above
  EXPECT_NEAR(sim.state.x[1].z(), 0.015, 1e-15);
  EXPECT_NEAR(sim.state.v[1].z(), 0.0, 1e-12);
}

TEST(PositionProjection, FastSpheresMeetingHeadOnDoNotPassThroughEachOther) {
  // 50 m/s each way, 1 cm apart: the relative travel of a step (10 cm) is five diameters
  io::Scene scene = test::make_scene(1e-3, 0.02, 1000.0, 0.3, 0.0);
  scene.gravity = Vec3::Zero();
  test::add_sphere(scene, "left", BodyKind::Rigid, 0.01, Vec3(-0.015, 0, 0)).velocity = Vec3(50, 0, 0);
  test::add_sphere(scene, "right", BodyKind::Rigid, 0.01, Vec3(0.015, 0, 0)).velocity = Vec3(-50, 0, 0);
  test::Simulation sim(scene);
  while (sim.state.step < sim.model.n_steps) ASSERT_EQ(sim.advance().status, StepStatus::Ok);
  // e = 0 and equal masses: both stop, touching, at x = ∓0.01
  EXPECT_NEAR(sim.state.x[0].x(), -0.01, 1e-15);
  EXPECT_NEAR(sim.state.x[1].x(), 0.01, 1e-15);
  EXPECT_NEAR(sim.state.v[0].x(), 0.0, 1e-12);
}

// contacts between bodies of unit mass and inertia whose blocks are G = [I | 0] on each side
// (W_αβ = I per shared body), side a on body `a` and side b on body `b` (−1: a fixed body)
std::vector<ContactJacobian> unit_contacts(const std::vector<std::pair<int, int>>& bodies) {
  std::vector<ContactJacobian> jacobians(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const int body[2] = {bodies[i].first, bodies[i].second};
    for (int side = 0; side < 2; ++side) {
      ContactJacobian& J = jacobians[i];
      J.body[side] = std::max(body[side], 0);
      J.movable[side] = body[side] >= 0;
      J.G[side].setZero();
      J.G[side].leftCols<3>().setIdentity();
      J.Y[side] = J.movable[side] ? Mat63(J.G[side].transpose()) : Mat63::Zero();
    }
  }
  return jacobians;
}

TEST(PositionProjection, SolvesTheNormalComplementarityByGaussSeidel) {
  // two contacts sharing body 0, W_nn = [[2, 1], [1, 2]], the first overlapping (g⁺ = −3), the
  // second open (g⁺ = 1)
  const std::vector<ContactJacobian> jacobians = unit_contacts({{0, 1}, {0, 2}});
  const solvers::DelassusMatrix W = assemble_delassus(jacobians, 3);
  const Eigen::Vector2d gap(-3, 1);
  Eigen::VectorXd P;
  std::vector<Vec6> dq;
  // both unilateral: P = (1.5, 0), γ = (0, 2.5); bodies 0 and 1 moved by P_0 along x
  const ProjectionResult result =
      project_gaps(jacobians, 3, gap, {ProjectedRow::Unilateral, ProjectedRow::Unilateral}, {1e-14, 100}, P, dq);
  EXPECT_NEAR(P[0], 1.5, 1e-14);
  EXPECT_EQ(P[1], 0.0);
  EXPECT_LE(result.sweeps, 3);
  ASSERT_EQ(dq.size(), 3u);
  EXPECT_NEAR(dq[0][0], 1.5, 1e-14);
  EXPECT_NEAR(dq[1][0], 1.5, 1e-14);
  EXPECT_EQ(dq[2], Vec6::Zero());
  // the second closed and alone: pulled shut, P = −g⁺ / W = −0.5, γ = 0
  project_gaps(jacobians, 3, gap, {ProjectedRow::Skipped, ProjectedRow::Closed}, {1e-14, 100}, P, dq);
  EXPECT_EQ(P[0], 0.0);
  EXPECT_NEAR(P[1], -0.5, 1e-14);
  // closed beside the first, which pushes it open: the pull stops at its bound −0.5 and the
  // first takes P = (3 + 0.5) / 2 = 1.75 (the exact γ = 0 would need P = (7/3, −5/3))
  project_gaps(jacobians, 3, gap, {ProjectedRow::Unilateral, ProjectedRow::Closed}, {1e-14, 100}, P, dq);
  EXPECT_NEAR(P[0], 1.75, 1e-13);
  EXPECT_NEAR(P[1], -0.5, 1e-13);
}

TEST(PositionProjection, KeepsPZeroWhereItSolvesTheProblemFarWithinTheTolerance) {
  // the two contacts above, a closed gap of 1e-10 and an overlap of 1e-10, tolerance 1e-6: P = 0
  // solves eq. (3) to 1e-10, below 10⁻³ of the tolerance, and no body moves
  const std::vector<ContactJacobian> jacobians = unit_contacts({{0, 1}, {0, 2}});
  const std::vector<ProjectedRow> rows = {ProjectedRow::Closed, ProjectedRow::Unilateral};
  Eigen::VectorXd P;
  std::vector<Vec6> dq;
  ProjectionResult result = project_gaps(jacobians, 3, Eigen::Vector2d(1e-10, -1e-10), rows, {1e-6, 100}, P, dq);
  EXPECT_EQ(result.sweeps, 0);
  EXPECT_EQ(result.change, 1e-10);
  EXPECT_EQ(P, Eigen::Vector2d::Zero());
  ASSERT_EQ(dq.size(), 3u);
  for (const Vec6& move : dq) EXPECT_EQ(move, Vec6::Zero());
  // an overlap of 1e-8, above 10⁻³ of the tolerance: swept, and the overlapping contact pushes
  result = project_gaps(jacobians, 3, Eigen::Vector2d(1e-10, -1e-8), rows, {1e-6, 100}, P, dq);
  EXPECT_GE(result.sweeps, 1);
  EXPECT_GT(P[1], 0.0);
  EXPECT_GT(dq[2][0], 0.0);
}

// eqs. (2)–(3) by projected Gauss–Seidel on the rows of the assembled W_nn, as written in
// position_projection.hpp, for comparison with the sweeps on the bodies
Eigen::VectorXd project_on_assembled_w(const solvers::DelassusMatrix& W, const Eigen::VectorXd& gap_end,
                                       const std::vector<ProjectedRow>& rows, int sweeps) {
  Eigen::VectorXd P = Eigen::VectorXd::Zero(W.nc());
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (int i = 0; i < W.nc(); ++i) {
      const double w_ii = W.diag(i)(0, 0);
      if (rows[i] == ProjectedRow::Skipped) continue;
      double gamma = gap_end[i] + w_ii * P[i];
      W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& block) { gamma += block(0, 0) * P[j]; });
      const double lower = rows[i] == ProjectedRow::Closed ? -std::max(gap_end[i], 0.0) / w_ii : 0.0;
      P[i] = std::max(P[i] - gamma / w_ii, lower);
    }
  return P;
}

TEST(PositionProjection, SweepsOnTheBodiesAreThoseOnTheAssembledW) {
  // 300 contacts among 120 bodies with random frames and lever arms (every tenth on a fixed
  // body), random gaps and rows; the same number of sweeps on both forms
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> body(0, 119);
  const int nc = 300, nb = 120;
  std::vector<ContactJacobian> jacobians(nc);
  Eigen::VectorXd gap(nc);
  std::vector<ProjectedRow> rows(nc);
  for (int i = 0; i < nc; ++i) {
    contact::ContactPoint c;
    c.a = i % 10 == 0 ? nb : body(rng);
    do c.b = body(rng);
    while (c.b == c.a);
    c.R_WC = Eigen::Quaterniond(unit(rng), unit(rng), unit(rng), unit(rng)).normalized().toRotationMatrix();
    ContactJacobian& J = jacobians[i];
    fill_jacobian(c, Vec3(unit(rng), unit(rng), unit(rng)), Vec3(unit(rng), unit(rng), unit(rng)), J);
    for (int side = 0; side < 2; ++side) {
      J.movable[side] = J.body[side] < nb;
      J.Y[side] = J.movable[side] ? Mat63(0.5 * J.G[side].transpose()) : Mat63::Zero();
    }
    gap[i] = 0.01 * unit(rng);
    rows[i] = i % 7 == 0 ? ProjectedRow::Skipped : i % 3 == 0 ? ProjectedRow::Closed : ProjectedRow::Unilateral;
  }
  const solvers::DelassusMatrix W = assemble_delassus(jacobians, nb + 1);
  Eigen::VectorXd P;
  std::vector<Vec6> dq;
  const ProjectionResult result = project_gaps(jacobians, nb + 1, gap, rows, {0.0, 40}, P, dq);
  EXPECT_EQ(result.sweeps, 40);
  const Eigen::VectorXd expected = project_on_assembled_w(W, gap, rows, 40);
  // the products of eq. (2) summed in another order: differences of round-off
  EXPECT_LE((P - expected).norm(), 1e-12 * expected.norm());
  // dq is eq. (4) of P
  std::vector<Vec6> moves(nb + 1, Vec6::Zero());
  for (int i = 0; i < nc; ++i)
    for (int side = 0; side < 2; ++side)
      if (jacobians[i].movable[side]) moves[jacobians[i].body[side]] += jacobians[i].Y[side].col(0) * P[i];
  for (int b = 0; b <= nb; ++b) EXPECT_LE((dq[b] - moves[b]).norm(), 1e-12 * (1.0 + moves[b].norm())) << b;
}


TEST(PositionProjection, MixedSweepsLiftAColumnOfOverlapsInFewerSweeps) {
  // a column of 30 bodies (mass 2) on a fixed one, each contact 1 mm into overlap along its normal:
  // the correction must carry down the column, which Gauss–Seidel does a contact per sweep. Mixing
  // (eq. (6)) gives the same P, within the bounds, in fewer sweeps, and Δq stays eq. (4) of P
  const int nb = 30;
  std::vector<ContactJacobian> jacobians(nb);
  for (int i = 0; i < nb; ++i) {
    contact::ContactPoint c;
    c.a = i == 0 ? nb : i - 1;
    c.b = i;
    c.R_WC = Mat3::Identity();
    ContactJacobian& J = jacobians[i];
    fill_jacobian(c, Vec3::Zero(), Vec3::Zero(), J);
    for (int side = 0; side < 2; ++side) {
      J.movable[side] = J.body[side] < nb;
      J.Y[side] = J.movable[side] ? Mat63(0.5 * J.G[side].transpose()) : Mat63::Zero();
    }
  }
  const solvers::DelassusMatrix W = assemble_delassus(jacobians, nb + 1);
  const Eigen::VectorXd gap = Eigen::VectorXd::Constant(nb, -1e-3);
  const std::vector<ProjectedRow> rows(nb, ProjectedRow::Unilateral);
  Eigen::VectorXd plain, mixed;
  std::vector<Vec6> dq_plain, dq;
  const ProjectionResult by_plain = project_gaps(jacobians, nb + 1, gap, rows, {1e-12, 20000, 0}, plain, dq_plain);
  const ProjectionResult by_mixed = project_gaps(jacobians, nb + 1, gap, rows, {1e-12, 20000, 3}, mixed, dq);
  // every contact ends touching, γ = 0: W_nn P = −g⁺ with W_nn the chain's tridiagonal matrix
  Eigen::MatrixXd W_nn(nb, nb);
  const Eigen::MatrixXd W_dense = W.to_dense();
  for (int i = 0; i < nb; ++i)
    for (int j = 0; j < nb; ++j) W_nn(i, j) = W_dense(3 * i, 3 * j);
  const Eigen::VectorXd exact = W_nn.ldlt().solve(-gap);
  ASSERT_GT(exact.minCoeff(), 0.0);
  // measured: 7 911 sweeps plain, 31 mixed
  EXPECT_LT(by_mixed.sweeps, by_plain.sweeps / 10);
  // the sweeps stop once no γ changes by 1e-12 m, 1e-9 of the overlaps; W_nn's condition number,
  // about 4 (N + 1)² / π² ≈ 400, bounds P's relative error by about 4e-7 (measured 4e-10 plain, 7e-14 mixed)
  for (const Eigen::VectorXd* P : {&plain, &mixed}) EXPECT_LE((*P - exact).norm(), 4e-7 * exact.norm());
  std::vector<Vec6> moves(nb + 1, Vec6::Zero());
  for (int i = 0; i < nb; ++i)
    for (int side = 0; side < 2; ++side)
      if (jacobians[i].movable[side]) moves[jacobians[i].body[side]] += jacobians[i].Y[side].col(0) * mixed[i];
  for (int b = 0; b <= nb; ++b) EXPECT_LE((dq[b] - moves[b]).norm(), 1e-12 * (1.0 + moves[b].norm())) << b;
}

}  // namespace
}  // namespace nscd
