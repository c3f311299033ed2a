// The coloured NLGS (nlgs.hpp, contact_coloring.hpp): colours are independent sets of W's graph,
// the renumbering into colour order is the same problem, the coloured sweep equals a sequential
// sweep in colour order iteration by iteration, and the result is bitwise the same with 1, 2
// and 4 threads.

#include "solvers/contact_coloring.hpp"
#include "solvers/local_solver.hpp"
#include "solvers/nlgs.hpp"
#include "tests/solvers/fclib_problem.hpp"
#include "tests/solvers/parallel_testing.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>

#include <algorithm>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

namespace nscd::solvers {
namespace {

using Block = Eigen::Matrix<double, 3, 6>;

// bodies on an nx × ny grid, a contact between grid neighbours and one between each body of the
// first row and a fixed ground; random 3×6 Jacobian blocks G and diagonal M⁻¹ > 0, so that
// W_ij = Σ_b G_ib M_b⁻¹ G_jbᵀ is symmetric positive semi-definite with SPD diagonal blocks, and
// sparse like a real Delassus matrix (built by block rows as the stepper does); q_n mostly < 0
FrictionProblem grid_problem(int nx, int ny, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const int nb = nx * ny;
  std::vector<Eigen::Matrix<double, 6, 1>> m_inv(nb);
  for (auto& m : m_inv) m = Eigen::Matrix<double, 6, 1>::NullaryExpr([&] { return 1.5 + uniform(rng); });
  struct Contact {
    int a, b;  // a = −1: the ground
    Block Ga, Gb;
  };
  std::vector<Contact> contacts;
  auto random_block = [&] { return Block::NullaryExpr([&] { return uniform(rng); }).eval(); };
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const int a = j * nx + i;
      if (j == 0) contacts.push_back({-1, a, Block::Zero(), random_block()});
      if (i + 1 < nx) contacts.push_back({a, a + 1, random_block(), random_block()});
      if (j + 1 < ny) contacts.push_back({a, a + nx, random_block(), random_block()});
    }
  }
  const int nc = static_cast<int>(contacts.size());
  std::vector<std::vector<std::pair<int, const Block*>>> of_body(nb);
  for (int c = 0; c < nc; ++c) {
    if (contacts[c].a >= 0) of_body[contacts[c].a].push_back({c, &contacts[c].Ga});
    of_body[contacts[c].b].push_back({c, &contacts[c].Gb});
  }
  std::vector<Eigen::Matrix3d> diag(nc, Eigen::Matrix3d::Zero());
  std::vector<int> row_start{0};
  std::vector<int> cols;
  std::vector<Eigen::Matrix3d> blocks;
  for (int c = 0; c < nc; ++c) {
    std::vector<std::pair<int, Eigen::Matrix3d>> row;
    for (const auto& [body, G] : {std::pair{contacts[c].a, &contacts[c].Ga}, std::pair{contacts[c].b, &contacts[c].Gb}}) {
      if (body < 0) continue;
      for (const auto& [other, G_other] : of_body[body]) {
        const Eigen::Matrix3d w = *G * m_inv[body].asDiagonal() * G_other->transpose();
        if (other == c) {
          diag[c] += w;
        } else {
          row.push_back({other, w});
        }
      }
    }
    // two contacts share at most one body here: no duplicate columns
    std::sort(row.begin(), row.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
    for (const auto& [j, w] : row) {
      cols.push_back(j);
      blocks.push_back(w);
    }
    row_start.push_back(static_cast<int>(cols.size()));
  }
  FrictionProblem p;
  p.W = DelassusMatrix::from_block_rows(std::move(diag), std::move(row_start), std::move(cols), std::move(blocks));
  p.q.resize(3 * nc);
  p.mu.resize(nc);
  for (int c = 0; c < nc; ++c) {
    p.q.segment<3>(3 * c) = Eigen::Vector3d(0.6 * uniform(rng) - 0.4, uniform(rng), uniform(rng));
    p.mu(c) = 0.3 + 0.2 * uniform(rng);
  }
  return p;
}

using parallel_testing::bitwise_equal;
using parallel_testing::has_parallel_color;
using parallel_testing::with_threads;

std::vector<detail::LocalProblem> local_problems(const FrictionProblem& p) {
  std::vector<detail::LocalProblem> local(p.nc());
  for (int i = 0; i < p.nc(); ++i) local[i] = detail::make_local_problem(p.W.diag(i), p.mu(i));
  return local;
}

// the reference: one plain sequential Gauss–Seidel sweep, nlgs.hpp eqs. (1)–(2), visiting the
// contacts in index order (ω = 1)
void sequential_sweep(const FrictionProblem& p, const std::vector<detail::LocalProblem>& local, Eigen::VectorXd& r,
                      detail::SweepDirection direction = detail::SweepDirection::Forward) {
  for (int k = 0; k < p.nc(); ++k) {
    const int i = direction == detail::SweepDirection::Forward ? k : p.nc() - 1 - k;
    Eigen::Vector3d q_loc = p.q.segment<3>(3 * i);
    p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& block) { q_loc.noalias() += block * r.segment<3>(3 * j); });
    const Eigen::Vector3d r_old = r.segment<3>(3 * i);
    r.segment<3>(3 * i) = detail::solve_local(local[i], q_loc, r_old);
  }
}

void expect_valid_coloring(const DelassusMatrix& W, const ContactColoring& coloring) {
  const int nc = W.nc();
  ASSERT_EQ(static_cast<int>(coloring.color.size()), nc);
  ASSERT_EQ(static_cast<int>(coloring.order.size()), nc);
  ASSERT_EQ(coloring.color_start.front(), 0);
  ASSERT_EQ(coloring.color_start.back(), nc);
  // no stored block W_ij joins two contacts of one colour
  for (int i = 0; i < nc; ++i) {
    W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d&) { EXPECT_NE(coloring.color[i], coloring.color[j]) << i << " " << j; });
  }
  // order lists every contact once, by colour, increasing index within a colour; no empty colour
  std::vector<int> seen(nc, 0);
  for (int c = 0; c < coloring.n_colors(); ++c) {
    EXPECT_LT(coloring.color_start[c], coloring.color_start[c + 1]) << "colour " << c << " is empty";
    for (int k = coloring.color_start[c]; k < coloring.color_start[c + 1]; ++k) {
      const int i = coloring.order[k];
      ++seen[i];
      EXPECT_EQ(coloring.color[i], c);
      if (k > coloring.color_start[c]) {
        EXPECT_LT(coloring.order[k - 1], i);
      }
    }
  }
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

TEST(ContactColoring, GridColoursAreIndependentSetsInIndexOrder) {
  const FrictionProblem p = grid_problem(30, 30, 1);
  const ContactColoring coloring = color_contacts(p.W);
  expect_valid_coloring(p.W, coloring);
  // a contact has at most 2 × 4 neighbours on the grid: first fit needs at most 9 colours
  EXPECT_LE(coloring.n_colors(), 9);
  // balanced: every colour within a factor 2 of the mean
  const double mean = static_cast<double>(p.nc()) / coloring.n_colors();
  for (int c = 0; c < coloring.n_colors(); ++c) {
    const int size = coloring.color_start[c + 1] - coloring.color_start[c];
    EXPECT_GT(size, 0.5 * mean) << "colour " << c;
    EXPECT_LT(size, 2.0 * mean) << "colour " << c;
  }
  // the same colours when computed again (and whatever the thread count: it is sequential)
  const ContactColoring again = with_threads(2, [&] { return color_contacts(p.W); });
  EXPECT_EQ(coloring.color, again.color);
  EXPECT_EQ(coloring.order, again.order);
}

TEST(ContactColoring, OneSidedBlockStillSeparatesTheContacts) {
  // W_01 stored, W_10 exactly zero (a dense FCLIB W may be so): 0 and 1 still conflict
  Eigen::MatrixXd W = Eigen::MatrixXd::Identity(9, 9);
  W(0, 3) = 0.5;
  const DelassusMatrix delassus = DelassusMatrix::from_dense(W);
  const ContactColoring coloring = color_contacts(delassus);
  expect_valid_coloring(delassus, coloring);
  EXPECT_NE(coloring.color[0], coloring.color[1]);
  EXPECT_EQ(coloring.n_colors(), 2);
}

TEST(ContactColoring, EmptyProblemHasNoColour) {
  const ContactColoring coloring = color_contacts(DelassusMatrix::from_dense(Eigen::MatrixXd(0, 0)));
  EXPECT_EQ(coloring.n_colors(), 0);
  EXPECT_TRUE(coloring.order.empty());
}

TEST(ParallelNlgs, RenumberedProblemIsTheSameProblem) {
  const FrictionProblem p = grid_problem(20, 20, 5);
  const std::vector<int> order = color_contacts(p.W).order;
  const FrictionProblem renumbered = nscd::solvers::renumbered(p, order);
  // W' = Π W Πᵀ, q' = Π q, μ' = Π μ for the permutation Π of order: the same blocks, moved
  const Eigen::MatrixXd W = p.W.to_dense(), W_renumbered = renumbered.W.to_dense();
  for (int k = 0; k < p.nc(); ++k) {
    EXPECT_EQ(renumbered.mu(k), p.mu(order[k]));
    EXPECT_TRUE((renumbered.q.segment<3>(3 * k) == p.q.segment<3>(3 * order[k])));
    for (int l = 0; l < p.nc(); ++l) {
      EXPECT_TRUE((W_renumbered.block<3, 3>(3 * k, 3 * l) == W.block<3, 3>(3 * order[k], 3 * order[l]))) << k << " " << l;
    }
  }
  EXPECT_EQ(renumbered.W.n_offdiag(), p.W.n_offdiag());
}

TEST(ParallelNlgs, ColoredSweepEqualsSequentialSweepInColourOrderIterationByIteration) {
  const FrictionProblem p0 = grid_problem(40, 40, 2);
  ASSERT_GE(p0.nc(), 1000);
  const detail::SweepPlan plan = detail::make_sweep_plan(p0.W);
  ASSERT_TRUE(has_parallel_color(plan));
  ASSERT_TRUE(plan.renumbers());
  const FrictionProblem p = renumbered(p0, plan.coloring.order);
  const std::vector<detail::LocalProblem> local = local_problems(p);
  std::vector<detail::SweepNorms> chunk_norms(plan.chunk_start.size() - 1);
  for (const int threads : {1, 2}) {
    Eigen::VectorXd r_colored = Eigen::VectorXd::Zero(3 * p.nc());
    Eigen::VectorXd r_reference = r_colored;
    for (int s = 1; s <= 30; ++s) {
      // forward and backward sweeps in turn: both directions, each from the other's result
      const auto direction = s % 2 == 1 ? detail::SweepDirection::Forward : detail::SweepDirection::Backward;
      with_threads(threads,
                   [&] { return detail::colored_sweep(p, local, plan, {}, r_colored, chunk_norms, direction); });
      sequential_sweep(p, local, r_reference, direction);
      ASSERT_TRUE(bitwise_equal(r_colored, r_reference)) << threads << " threads, sweep " << s;
    }
  }
}

TEST(ParallelNlgs, SolveDoesSequentialSweepsInColourOrder) {
  // solve_nlgs with k sweeps (tolerance 0) returns the r of k reference sweeps, for k = 1 … 5,
  // the first one symmetric (forward, then backward)
  const FrictionProblem p = grid_problem(40, 40, 3);
  const std::vector<int> order = color_contacts(p.W).order;
  const FrictionProblem renumbered = nscd::solvers::renumbered(p, order);
  const std::vector<detail::LocalProblem> local = local_problems(renumbered);
  Eigen::VectorXd r_reference = Eigen::VectorXd::Zero(3 * p.nc());
  NlgsOptions options;
  options.stopping.tolerance = 0.0;
  options.anderson_depth = 0;  // the sweeps alone (their mixing: AndersonNlgs.*)
  for (int k = 1; k <= 5; ++k) {
    options.stopping.max_iterations = k;
    sequential_sweep(renumbered, local, r_reference);
    if (k == 1) sequential_sweep(renumbered, local, r_reference, detail::SweepDirection::Backward);
    const SolverResult res = with_threads(2, [&] { return solve_nlgs(p, options, Eigen::VectorXd()); });
    ASSERT_EQ(res.iterations, k);
    Eigen::VectorXd r_back(3 * p.nc());
    for (int c = 0; c < p.nc(); ++c) r_back.segment<3>(3 * order[c]) = r_reference.segment<3>(3 * c);
    EXPECT_TRUE(bitwise_equal(res.r, r_back)) << k << " sweeps";
  }
}

// solve_nlgs with 1, 2 and 4 threads: r, u, sweeps and error bitwise equal
void expect_same_solution_with_one_two_four_threads(const FrictionProblem& p, const NlgsOptions& options) {
  const SolverResult one = with_threads(1, [&] { return solve_nlgs(p, options, Eigen::VectorXd()); });
  EXPECT_GT(one.iterations, 1);
  for (const int threads : {2, 4}) {
    const SolverResult res = with_threads(threads, [&] { return solve_nlgs(p, options, Eigen::VectorXd()); });
    EXPECT_TRUE(bitwise_equal(res.r, one.r)) << threads << " threads";
    EXPECT_TRUE(bitwise_equal(res.u, one.u)) << threads << " threads";
    EXPECT_EQ(res.iterations, one.iterations) << threads << " threads";
    EXPECT_EQ(res.status, one.status) << threads << " threads";
    EXPECT_EQ(std::memcmp(&res.error, &one.error, sizeof(double)), 0) << threads << " threads";
  }
}

TEST(ParallelNlgs, GridIsBitwiseEqualWithOneTwoAndFourThreads) {
  const FrictionProblem p = grid_problem(40, 40, 4);
  ASSERT_GE(p.nc(), 1000);
  ASSERT_TRUE(has_parallel_color(detail::make_sweep_plan(p.W)));  // the parallel path is taken
  NlgsOptions options;
  options.stopping.tolerance = 1e-6;
  options.stopping.max_iterations = 200;
  expect_same_solution_with_one_two_four_threads(p, options);
  // relaxed sweeps too
  options.omega = 1.3;
  expect_same_solution_with_one_two_four_threads(p, options);
}

TEST(ParallelNlgs, FclibProblemIsBitwiseEqualWithOneTwoAndFourThreads) {
  // the largest shared problem (570 contacts, a tower of planks)
  const std::optional<FrictionProblem> p = fclib_data::read_fclib_local("KaplasTower-i1061-4");
  ASSERT_TRUE(p.has_value());
  NlgsOptions options;
  options.stopping.tolerance = 1e-8;
  options.stopping.max_iterations = 300;
  expect_same_solution_with_one_two_four_threads(*p, options);

  // its colours are too small for the default chunks to run in parallel: sweep with chunks of 2
  // contacts, every colour in parallel, against the sequential sweep in colour order
  detail::SweepPlan plan = detail::make_sweep_plan(p->W, 2);
  plan.min_parallel_chunks = 2;
  ASSERT_TRUE(plan.renumbers());
  const FrictionProblem renumbered = nscd::solvers::renumbered(*p, plan.coloring.order);
  const std::vector<detail::LocalProblem> local = local_problems(renumbered);
  std::vector<detail::SweepNorms> chunk_norms(plan.chunk_start.size() - 1);
  Eigen::VectorXd r_reference = Eigen::VectorXd::Zero(3 * p->nc());
  for (int s = 0; s < 50; ++s) sequential_sweep(renumbered, local, r_reference);
  for (const int threads : {1, 2, 4}) {
    Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * p->nc());
    with_threads(threads, [&] {
      for (int s = 0; s < 50; ++s) detail::colored_sweep(renumbered, local, plan, {}, r, chunk_norms);
      return 0;
    });
    EXPECT_TRUE(bitwise_equal(r, r_reference)) << threads << " threads";
  }
}

}  // namespace
}  // namespace nscd::solvers
