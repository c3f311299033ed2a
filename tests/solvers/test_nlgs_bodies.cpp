// NLGS on the body form (nlgs_bodies.hpp) against NLGS on the assembled W (nlgs.hpp): the same
// sweeps, so the same sweep counts and r to round-off. The two differ only in how q_loc is summed
// (Σ_{j≠i} W_ij r_j against q_i + G Δv − W_ii r_i), a few ulps per sweep, which the contraction of
// the sweeps damps where r is unique: the differences seen are 3e-16 to 7e-15 relative on the random
// systems (up to 2 000 sweeps) and up to 7e-13 on the wall dump (W singular, 1 000 sweeps at the
// cap), so 1e-10 relative leaves a margin of more than 100.

#include "nscd/io/fclib_file.hpp"
#include "solvers/contact_bodies.hpp"
#include "solvers/contact_coloring.hpp"
#include "solvers/delassus.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/nlgs.hpp"
#include "solvers/nlgs_bodies.hpp"

#include "fclib_problem.hpp"
#include "parallel_testing.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <Eigen/SparseCore>

#include <algorithm>
#include <limits>
#include <tuple>

#include <random>
#include <string>
#include <vector>

namespace nscd::solvers {
namespace {

// a rigid system of nb bodies and nc contacts between random pairs (every eighth on a fixed body),
// random frames and lever arms as contact_jacobian.hpp eq. (2) builds them; q pushes the contacts
// together and μ is in [0.2, 0.8]. With 3nc < 6nb, W is regular (r unique), so that round-off
// does not drift along a null space of W between the two forms. With modes > 0 the even bodies
// also have `modes` modal unknowns of inverse mass D_b (positive diagonal), and a side on one has
// random rows T (modes × 3) and U = D_b T, as a modal FFR body's point (contact_bodies.hpp eqs.
// (5)–(7)): W then adds T_pᵀ D_b T_q between the sides on b.
struct RigidSystem {
  ContactBodies bodies;
  FrictionProblem diagonal;  // W holds its diagonal blocks only
  FrictionProblem assembled;  // W = H M⁻¹ Hᵀ
};

Eigen::Matrix3d skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d s;
  s << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return s;
}

RigidSystem random_system(int nb, int nc, unsigned seed, int modes = 0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> body(0, nb - 1);
  std::vector<Eigen::Matrix<double, 6, 6>> M_inv(nb, Eigen::Matrix<double, 6, 6>::Zero());
  for (auto& m : M_inv) {
    const double mass = 1.0 + 0.5 * unit(rng);
    Eigen::Matrix3d A = Eigen::Matrix3d::Random() * 0.2;
    const Eigen::Matrix3d inertia = 0.1 * Eigen::Matrix3d::Identity() + A * A.transpose();
    m.topLeftCorner<3, 3>() = Eigen::Matrix3d::Identity() / mass;
    m.bottomRightCorner<3, 3>() = inertia.inverse();
  }
  const auto modal = [&](int b) { return modes > 0 && b >= 0 && b % 2 == 0; };
  std::vector<Eigen::VectorXd> D(nb);
  for (int b = 0; b < nb; ++b)
    if (modal(b)) D[b] = Eigen::VectorXd::Random(modes).cwiseAbs() + Eigen::VectorXd::Constant(modes, 0.1);
  RigidSystem s;
  s.bodies.n_bodies = nb;
  s.bodies.n_modal = modes * ((nb + 1) / 2);
  s.bodies.contacts.resize(nc);
  s.bodies.modal_rows.setZero(modes, 12 * static_cast<Eigen::Index>(nc));
  Eigen::VectorXd q(3 * nc), mu(nc);
  for (int i = 0; i < nc; ++i) {
    ContactSides& c = s.bodies.contacts[i];
    c.body[0] = i % 8 == 0 ? -1 : body(rng);
    do c.body[1] = body(rng);
    while (c.body[1] == c.body[0]);
    const Eigen::Matrix3d R = Eigen::Quaterniond(unit(rng), unit(rng), unit(rng), unit(rng)).normalized().toRotationMatrix();
    for (int side = 0; side < 2; ++side) {
      const double sign = side == 0 ? -1.0 : 1.0;
      const Eigen::Vector3d arm(unit(rng), unit(rng), unit(rng));
      c.G[side].leftCols<3>() = sign * R.transpose();
      c.G[side].rightCols<3>() = -sign * R.transpose() * skew(arm);
      c.Y[side] = c.body[side] >= 0 ? Eigen::Matrix<double, 6, 3>(M_inv[c.body[side]] * c.G[side].transpose())
                                    : Eigen::Matrix<double, 6, 3>::Zero();
      if (!modal(c.body[side])) continue;
      c.modal[side] = 6 * nb + modes * (c.body[side] / 2);
      c.column[side] = 6 * (2 * i + side);
      c.modes[side] = modes;
      const Eigen::MatrixXd T = 0.3 * Eigen::MatrixXd::Random(modes, 3);
      s.bodies.modal_rows.middleCols<3>(c.column[side]) = T;
      s.bodies.modal_rows.middleCols<3>(c.column[side] + 3) = D[c.body[side]].asDiagonal() * T;
    }
    q.segment<3>(3 * i) << -1.0 - unit(rng), 0.5 * unit(rng), 0.5 * unit(rng);
    mu(i) = 0.5 + 0.3 * unit(rng);
  }
  // W = H M⁻¹ Hᵀ, sparse
  std::vector<Eigen::Triplet<double>> h, m;
  for (int b = 0; b < nb; ++b) {
    for (int k = 0; k < 6; ++k)
      for (int l = 0; l < 6; ++l) m.emplace_back(6 * b + k, 6 * b + l, M_inv[b](k, l));
    for (int k = 0; modal(b) && k < modes; ++k) m.emplace_back(6 * nb + modes * (b / 2) + k, 6 * nb + modes * (b / 2) + k, D[b][k]);
  }
  std::vector<Eigen::Matrix3d> diag(nc);
  for (int i = 0; i < nc; ++i) {
    const ContactSides& c = s.bodies.contacts[i];
    for (int side = 0; side < 2; ++side)
      for (int k = 0; k < 3 && c.body[side] >= 0; ++k)
        for (int l = 0; l < 6; ++l) h.emplace_back(3 * i + k, 6 * c.body[side] + l, c.G[side](k, l));
    for (int side = 0; side < 2; ++side)
      for (int k = 0; k < 3 && c.modal[side] >= 0; ++k)
        for (int l = 0; l < modes; ++l) h.emplace_back(3 * i + k, c.modal[side] + l, s.bodies.modal_rows(l, c.column[side] + k));
    diag[i] = diagonal_block(s.bodies, i);
  }
  const Eigen::Index unknowns = s.bodies.unknowns();
  Eigen::SparseMatrix<double, Eigen::RowMajor> H(3 * nc, unknowns), Minv(unknowns, unknowns);
  H.setFromTriplets(h.begin(), h.end());
  Minv.setFromTriplets(m.begin(), m.end());
  const Eigen::SparseMatrix<double, Eigen::RowMajor> W = H * Minv * Eigen::SparseMatrix<double, Eigen::RowMajor>(H.transpose());
  s.assembled = {DelassusMatrix::from_sparse(W), q, mu};
  s.diagonal = {DelassusMatrix::from_block_rows(diag, std::vector<int>(nc + 1, 0), {}, {}), q, mu};
  return s;
}

// the two solves agree: sweep counts, status, r and u to round-off
void expect_same_solve(const SolverResult& assembled, const SolverResult& bodies) {
  EXPECT_EQ(bodies.iterations, assembled.iterations);
  EXPECT_EQ(bodies.status, assembled.status);
  ASSERT_EQ(bodies.r.size(), assembled.r.size());
  EXPECT_LE((bodies.r - assembled.r).norm(), 1e-10 * assembled.r.norm());
  EXPECT_LE((bodies.u - assembled.u).norm(), 1e-10 * std::max(assembled.u.norm(), 1.0));
  // the error measure is relative to ‖r‖, so r's agreement to 1e-10 bounds its difference (the
  // Anderson mixing's least squares magnify the round-off of the two forms' sums: 1e-11 measured)
  EXPECT_NEAR(bodies.error, assembled.error, 1e-6 * assembled.error + 1e-10);
}

TEST(NlgsBodies, ColoursAndSweepOrderAreThoseOfTheAssembledW) {
  const RigidSystem s = random_system(1000, 1500, 3);
  const ContactColoring from_w = color_contacts(s.assembled.W), from_bodies = color_contacts(s.bodies);
  EXPECT_EQ(from_bodies.color, from_w.color);
  EXPECT_EQ(from_bodies.order, from_w.order);
  // the plans: coloured here, in index order on a system of fewer bodies than a parallel colour needs
  const RigidSystem few_bodies = random_system(100, 150, 2);
  for (const RigidSystem* system : {&s, &few_bodies}) {
    const detail::SweepPlan plan_w = detail::make_sweep_plan(system->assembled.W);
    const detail::SweepPlan plan_bodies = detail::make_sweep_plan(system->bodies);
    EXPECT_EQ(plan_bodies.coloring.order, plan_w.coloring.order);
    EXPECT_EQ(plan_bodies.chunk_start, plan_w.chunk_start);
    EXPECT_EQ(plan_bodies.color_chunk_start, plan_w.color_chunk_start);
    EXPECT_EQ(plan_bodies.renumbers(), system == &s);
  }
}

TEST(NlgsBodies, SameSweepsAsAssembledNlgsOnRandomSystems) {
  for (const auto& [nb, nc, seed] : {std::tuple{8, 12, 1u}, std::tuple{100, 150, 2u}, std::tuple{1000, 1500, 4u}}) {
    SCOPED_TRACE(nc);
    const RigidSystem s = random_system(nb, nc, seed);
    NlgsOptions options;
    options.stopping = {1e-9, 2000};
    expect_same_solve(solve_nlgs(s.assembled, options, Eigen::VectorXd()),
                      solve_nlgs_bodies(s.diagonal, s.bodies, options, Eigen::VectorXd()));
    // warm started, relaxed, another local solver
    options.omega = 1.3;
    options.local_solver = LocalSolverKind::JeanMoreau;
    const Eigen::VectorXd r0 = Eigen::VectorXd::Constant(3 * nc, 0.01);
    expect_same_solve(solve_nlgs(s.assembled, options, r0), solve_nlgs_bodies(s.diagonal, s.bodies, options, r0));
  }
}

// bodies with modal unknowns (contact_bodies.hpp eqs. (5)–(7)): the same sweeps as on W with
// the blocks T_pᵀ U_q; 12 and 13 modes (odd k too), and more unknowns than contact rows
TEST(NlgsBodies, SameSweepsAsAssembledNlgsWithModalBodies) {
  for (const auto& [nb, nc, modes] : {std::tuple{8, 12, 12}, std::tuple{100, 150, 13}}) {
    SCOPED_TRACE(modes);
    const RigidSystem s = random_system(nb, nc, 7, modes);
    NlgsOptions options;
    options.stopping = {1e-9, 2000};
    expect_same_solve(solve_nlgs(s.assembled, options, Eigen::VectorXd()),
                      solve_nlgs_bodies(s.diagonal, s.bodies, options, Eigen::VectorXd()));
    // eq. (7) and W's own diagonal blocks: the same sums but for their order
    for (int i = 0; i < nc; ++i)
      EXPECT_LE((s.diagonal.W.diag(i) - s.assembled.W.diag(i)).norm(), 1e-13 * s.assembled.W.diag(i).norm());
  }
}

TEST(NlgsBodies, BitwiseTheSameForAnyThreadCount) {
  const RigidSystem s = random_system(1000, 1500, 5);
  ASSERT_TRUE(parallel_testing::has_parallel_color(detail::make_sweep_plan(s.bodies)));
  NlgsOptions options;
  options.stopping = {1e-10, 300};
  const auto solve = [&] { return solve_nlgs_bodies(s.diagonal, s.bodies, options, Eigen::VectorXd()); };
  const SolverResult one = parallel_testing::with_threads(1, solve);
  for (const int threads : {2, 4}) {
    const SolverResult many = parallel_testing::with_threads(threads, solve);
    EXPECT_EQ(many.iterations, one.iterations);
    EXPECT_TRUE(parallel_testing::bitwise_equal(many.r, one.r)) << threads << " threads";
    EXPECT_TRUE(parallel_testing::bitwise_equal(many.u, one.u)) << threads << " threads";
  }
}

TEST(NlgsBodies, NonFiniteSidesAreReported) {
  RigidSystem s = random_system(8, 12, 6);
  s.bodies.contacts[3].G[1](0, 4) = std::numeric_limits<double>::quiet_NaN();
  const SolverResult res = solve_nlgs_bodies(s.diagonal, s.bodies, NlgsOptions{}, Eigen::VectorXd());
  EXPECT_EQ(res.status, SolverStatus::NonFinite);
  EXPECT_EQ(res.iterations, 0);
  // a side's modal rows
  RigidSystem modal = random_system(8, 12, 6, 4);
  const auto side = std::ranges::find_if(modal.bodies.contacts, [](const ContactSides& c) { return c.modal[1] >= 0; });
  ASSERT_NE(side, modal.bodies.contacts.end());
  modal.bodies.modal_rows(2, side->column[1] + 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(solve_nlgs_bodies(modal.diagonal, modal.bodies, NlgsOptions{}, Eigen::VectorXd()).status,
            SolverStatus::NonFinite);
}

std::string dump_name(const testing::TestParamInfo<const char*>& info) { return fclib_data::test_name(info.param); }

// the dumps of nscd's rigid scenes (global FCLIB files: M, H), at a tolerance NLGS reaches on them
class NlgsBodiesDumpTest : public testing::TestWithParam<const char*> {};

TEST_P(NlgsBodiesDumpTest, SameSweepsAsAssembledNlgs) {
  const io::FclibProblem read = io::read_fclib_problem(fclib_data::fclib_folder() / (std::string(GetParam()) + ".hdf5"));
  ASSERT_TRUE(read.body.has_value());
  const ContactBodies bodies = contact_bodies(*read.body);
  NlgsOptions options;
  options.stopping = {1e-5, 1000};
  // the sweeps alone: on these degenerate problems (r not unique) the mixing would steer the two
  // forms' iterates apart from their round-off differences
  options.anderson_depth = 0;
  expect_same_solve(solve_nlgs(read.problem, options, Eigen::VectorXd()),
                    solve_nlgs_bodies(read.problem, bodies, options, Eigen::VectorXd()));
}

INSTANTIATE_TEST_SUITE_P(SceneDumps, NlgsBodiesDumpTest,
                         testing::Values("nscd_wall_static_step500", "nscd_arch_step600", "nscd_stack10_step600",
                                         "nscd_small_pile_step750"),
                         dump_name);

}  // namespace
}  // namespace nscd::solvers
