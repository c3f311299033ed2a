#pragma once
/// @file
/// Nonlinear Gauss–Seidel (NLGS, [Jean 1999], Siconos's NSGS) on the problem of
/// friction_problem.hpp. One sweep visits every contact once; for contact i
///
///  (1) q_loc = q_i + Σ_{j≠i} W_ij r_j
///  (2) r_i ← (1 − ω) r_i + ω · solve_local(W_ii, q_loc, μ_i)
///
/// The order is that of sweep_plan.hpp: colour after colour (contact_coloring.hpp), and within a
/// colour by increasing index. The first sweep of a solve is symmetric: this order, then the same
/// contacts in the reverse order (a backward pass), counted as one sweep. A problem none of whose colours is large enough to be swept in
/// parallel (fewer than min_parallel_chunks chunks, 128 contacts by default) is swept in index
/// order instead, as Siconos's NSGS does: colouring would only change the order there, and the
/// index order keeps the sweep counts of the FCLIB tests (docs/performance.md).
/// A coloured problem is renumbered once per solve into colour order (W's block rows, q, μ and
/// the local data: renumbered()), so that a sweep reads memory in order; the blocks of a row are
/// in increasing new column, and the result is that of a sequential sweep of the renumbered
/// problem in index order. Contacts of one colour are not coupled by W, so their updates are
/// independent: they run concurrently (for_each_chunk_in_color_order, fixed chunks of the
/// colour), and the result is bitwise that of the sequential sweep, whatever the number of threads.
/// The norms of the sweep (‖Δr‖, ‖r‖ below) are summed per chunk, then over the chunks in order.
///
/// where solve_local solves the 3-dimensional Signorini–Coulomb problem exactly (local_solver.hpp):
/// open (q_loc,n ≥ 0 ⇒ 0), frictionless, stick (−W_ii⁻¹ q_loc when inside the cone), otherwise
/// Alart–Curnier semismooth Newton with an Armijo line search on ½‖Φ‖² and step sizes
/// ρ_n = 1 / (W_ii)_nn, ρ_t = 1 / λ_max of the symmetric part of the tangential 2×2 block of W_ii,
/// falling back, when Newton stagnates, to De Saxcé's projected fixed point
///  (3) r ← P_K(r − ρ (W_ii r + q_loc + μ‖u_T‖ e_n)),  ρ = 1 / λ_max(½(W_ii + W_iiᵀ)),
/// followed by Newton from its result.
///
/// The stopping test is the error measure of error_measure.hpp eq. (3) on u = W r + q, evaluated
/// after sweep min_iterations (1 by default) and the last sweep, every 16 sweeps, and whenever the
/// cheap estimate ‖Δr‖/‖r‖ of the sweep, scaled by the ratio (error / estimate) of the last
/// evaluation, is below the tolerance. The returned error is always that of the returned (r, u).
/// Every sweep after the first starts from the Anderson mixing of the sweeps before it
/// (anderson_mixing.hpp, depth NlgsOptions::anderson_depth), which the sweep's Δr and the
/// stopping test see as any start.
/// A warm-started solve of a structure at rest meets the tolerance after one sweep. A forward pass
/// alone carries a change of load along a column of blocks in one direction only, so the rocking
/// mode of a tall stack, seeded by round-off, was answered a step late and grew, by about ten
/// times every 10⁴ steps (docs/robustness.md), below any tolerance's sight. The backward pass of
/// the first sweep carries it the other way within the same step, and the mode stays at
/// round-off: no min_iterations is needed (it still sets a least number of sweeps).
///
/// References: [Jean 1999] CMAME 177; [Alart & Curnier 1991] CMAME 92;
///             [De Saxcé & Feng 1998] Math. Comput. Model. 28; [Acary et al. 2018].

#include "solvers/anderson_mixing.hpp"
#include "solvers/friction_problem.hpp"
#include "solvers/local_solver.hpp"
#include "solvers/solver_result.hpp"
#include "solvers/stopping.hpp"
#include "solvers/sweep_plan.hpp"

#include <Eigen/Core>

#include <functional>
#include <string_view>
#include <vector>

namespace nscd::solvers {

/// Options of solve_nlgs.
struct NlgsOptions {
  Stopping stopping{1e-6, 1000, 1};  // on error_measure eq. (3); sweeps (stopping.hpp)
  double omega = 1.0;         // relaxation, in (0, 2)
  static constexpr int max_anderson_depth = detail::AndersonMixing::kMaxDepth;
  int anderson_depth = 3;     // sweeps mixed by anderson_mixing.hpp, at most max_anderson_depth (0: plain Gauss–Seidel)
  LocalSolverKind local_solver = LocalSolverKind::AlartCurnier;  // local_solver.hpp
  // progress test (0: none): the solve stops short, status MaxIterations, when the full error
  // has not fallen below stall_factor × its value at least stall_window sweeps before
  int stall_window = 0;       // sweeps
  double stall_factor = 0.5;  // in (0, 1)
  // the progress test's patience (empty: none): a window over which the error fell, but by less
  // than stall_factor, stops the sweeps only if the error, falling on at that window's rate,
  // needs more sweeps to reach the tolerance than stall_patience() and than the budget has left;
  // asked at most once per solve, at the first such window (auto_solver.hpp's cost model)
  std::function<double()> stall_patience;
  // second progress test (0: none): the solve stops short, status MaxIterations, when the full
  // error has reached no new lowest value over the last lowest_window sweeps
  int lowest_window = 0;  // sweeps
};

/// Solves p by NLGS from the initial guess r0 (warm start); r0 of the wrong size means zero.
/// Status NonFinite when W, q, μ or r0 hold a NaN or an infinity, or when r becomes non-finite;
/// MaxIterations when the tolerance is not reached within options.stopping.max_iterations sweeps,
/// or when a progress test (stall_window, lowest_window) stops the sweeps earlier (then logged at
/// debug level). Bitwise the same result for any number of threads (those of the current TBB arena);
/// allocates only before the sweeps and, for the mixing's vectors, in its first two
/// (anderson_mixing.hpp).
/// @throws nscd::InputError if q, μ do not have sizes 3nc, nc, if some μ < 0, if ω ∉ (0, 2),
///         if anderson_depth ∉ [0, 16],
///         if max_iterations < 0, min_iterations < 1, stall_window < 0, stall_factor ∉ (0, 1) or
///         lowest_window < 0.
SolverResult solve_nlgs(const FrictionProblem& p, const NlgsOptions& options, const Eigen::VectorXd& r0);

namespace detail {

/// Sums of one sweep (or of one chunk of it).
struct SweepNorms {
  double dr2 = 0.0;           // Σ‖Δr_i‖²
  double r2 = 0.0;            // Σ‖r_i‖² after the update
  bool q_loc_finite = true;   // every q_loc of eq. (1) was finite
};

/// Eq. (2) for contact i of local problem lp, given its q_loc of eq. (1): r_i updated in place,
/// q_loc's finiteness and ‖Δr_i‖², ‖r_i‖² added to norms; returns Δr_i. The step of a sweep on W
/// (nlgs.cpp) and on the bodies (nlgs_bodies.cpp), which differ only in how they form q_loc and
/// what they update with Δr_i.
inline Eigen::Vector3d relaxed_local_step(const LocalProblem& lp, const Eigen::Vector3d& q_loc, double omega,
                                          Eigen::Map<Eigen::Vector3d> ri, SweepNorms& norms) {
  norms.q_loc_finite = norms.q_loc_finite && q_loc.allFinite();
  const Eigen::Vector3d r_old = ri;
  Eigen::Vector3d r_new = solve_local(lp, q_loc, r_old);
  if (omega != 1.0) r_new = (1.0 - omega) * r_old + omega * r_new;
  ri = r_new;
  const Eigen::Vector3d dr = r_new - r_old;
  norms.dr2 += dr.squaredNorm();
  norms.r2 += r_new.squaredNorm();
  return dr;
}

/// One sweep of eqs. (1)–(2) over the positions of plan, in place on r (3nc), for a problem p
/// already in plan order (renumbered(p₀, plan.coloring.order) when plan.renumbers(), else p₀):
/// colour after colour, the chunks of a colour concurrently, the contacts of a chunk in order.
/// local holds make_local_problem(W_ii, μ_i) of every contact of p; chunk_norms (plan's chunk
/// count) is workspace. Returns the sums over the chunks, in chunk order. Backward visits the
/// positions in the reverse order (sweep_plan.hpp).
SweepNorms colored_sweep(const FrictionProblem& p, const std::vector<LocalProblem>& local, const SweepPlan& plan,
                         const NlgsOptions& options, Eigen::VectorXd& r, std::vector<SweepNorms>& chunk_norms,
                         SweepDirection direction = SweepDirection::Forward);

/// The sums over the chunks of a sweep, in chunk order.
SweepNorms sum_chunks(const std::vector<SweepNorms>& chunk_norms);

/// Throws nscd::InputError for options out of range, as solve_nlgs documents.
void check_options(const NlgsOptions& options);

/// How run_sweeps ended: with result.error that of the current r, with an older one, or at
/// non-finite data.
enum class SweepsEnd { ErrorCurrent, ErrorStale, NonFiniteData };

/// The sweeps of NLGS until `stopping`, with the stopping test of the file comment and the progress
/// test of options, the first sweep symmetric (forward, then backward): sweep(direction) runs one pass
/// in that direction on the current r and returns its sums; full_error()
/// evaluates eq. (3) on the current r; data_finite() says whether the data the sweeps read besides
/// q, μ and the diagonal blocks are finite (asked only when the first sweep met a non-finite q_loc).
/// Sets result's iterations, error when evaluated, and status NonFinite on a non-finite sweep.
SweepsEnd run_sweeps(const Stopping& stopping, const NlgsOptions& options,
                     const std::function<SweepNorms(SweepDirection)>& sweep, const std::function<double()>& full_error,
                     const std::function<bool()>& data_finite, SolverResult& result);

}  // namespace detail

}  // namespace nscd::solvers
