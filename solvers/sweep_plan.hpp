#pragma once
/// @file
/// Internal to solvers/: the order of the Gauss–Seidel sweeps (NLGS nlgs.hpp, CCP projected
/// Gauss–Seidel ccp_pgs.hpp, LCP block Gauss–Seidel lcp_solver.hpp) and how a sweep runs in
/// parallel. The contacts are coloured (contact_coloring.hpp) and each colour cut into chunks of
/// consecutive positions of the colour order; a sweep visits
///
///  (1) colour after colour; within a colour its chunks concurrently; within a chunk its
///      contacts by increasing position,
///
/// and, since contacts of one colour are not coupled by W, its result is bitwise that of the
/// sequential sweep of the positions in order, whatever the number of threads. A problem none of
/// whose colours is large enough to be swept in parallel (fewer than min_parallel_chunks chunks)
/// keeps the index order instead, as Siconos's NSGS does: colouring would only change the order
/// there. A coloured problem is renumbered once per solve into colour order (renumbered()), so that
/// a sweep reads memory in order: contact k of the sweep is contact order[k] of the problem.

#include "solvers/contact_coloring.hpp"
#include "solvers/friction_problem.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <Eigen/Core>

#include <vector>

namespace nscd::solvers {

/// p with its contacts renumbered: contact k of the result is contact order[k] of p (W's rows
/// and columns, q, μ), the blocks of a row in increasing new column; contacts not in order are
/// left out (a sub-problem). @pre order holds distinct contacts of p.
FrictionProblem renumbered(const FrictionProblem& p, const std::vector<int>& order);

}  // namespace nscd::solvers

namespace nscd::solvers::detail {

/// The order of a sweep: the colours of W, each cut into chunks of consecutive positions of
/// coloring.order; chunk boundaries depend on W's pattern and the chunk size only.
struct SweepPlan {
  ContactColoring coloring;
  std::vector<int> chunk_start;        // (n_chunks + 1) positions in coloring.order
  std::vector<int> color_chunk_start;  // (n_colors + 1) colour c is chunks [color_chunk_start[c], color_chunk_start[c + 1])
  int min_parallel_chunks = 4;         // a colour of fewer chunks runs on the calling thread (same result)
  /// Whether coloring.order is not the index order, so that sweeps run on renumbered().
  bool renumbers() const { return coloring.n_colors() > 1; }
  int n_chunks() const { return static_cast<int>(chunk_start.size()) - 1; }
};

/// Colours W and cuts every colour into chunks of chunk_size contacts (the last one shorter);
/// when no colour has min_parallel_chunks chunks, index_order_plan(nc) instead, without colouring
/// when W is too small to have such a colour. @pre chunk_size ≥ 1.
SweepPlan make_sweep_plan(const DelassusMatrix& W, int chunk_size = 32);

/// The same from a colouring of nc contacts (color_contacts of W or of its body form).
SweepPlan make_sweep_plan(ContactColoring coloring, int chunk_size = 32);

/// make_sweep_plan(color_contacts(b), chunk_size), without colouring when no colour can be large
/// enough: the contacts of a colour share no body, so a colour holds at most as many contacts as
/// there are bodies touched plus contacts touching none (a wall of 85 blocks never has 128).
SweepPlan make_sweep_plan(const ContactBodies& b, int chunk_size = 32);

/// The sequential sweep in index order: one group of one chunk holding every contact.
SweepPlan index_order_plan(int nc);

/// p in the order of plan: renumbered(p, plan.coloring.order) into storage when plan.renumbers()
/// (returning storage), else p itself, not copied.
const FrictionProblem& in_plan_order(const FrictionProblem& p, const SweepPlan& plan, FrictionProblem& storage);

/// y = x in the order: segment k of y is segment order[k] of x (size entries per contact).
/// @pre x and y have size · order.size() entries.
void to_order(const Eigen::VectorXd& x, const std::vector<int>& order, int size, Eigen::VectorXd& y);

/// The inverse of to_order: segment order[k] of x is segment k of y.
void from_order(const Eigen::VectorXd& y, const std::vector<int>& order, int size, Eigen::VectorXd& x);

/// The direction of a sweep: Forward is the order (1); Backward its reverse, the colours from the
/// last, the contacts of a chunk by decreasing position (the second half of a symmetric sweep).
enum class SweepDirection { Forward, Backward };

/// Calls run_chunk(chunk, begin, end) for every chunk of plan, [begin, end) its positions, in the
/// order (1), or colour after colour from the last for Backward (run_chunk then visits its
/// positions from end − 1 down): the chunks of a colour concurrently (tbb::parallel_for, in the
/// current arena) when the colour has min_parallel_chunks chunks and more than one thread may
/// run, else in order on the calling thread. run_chunk must write only to its chunk's contacts
/// (or its own chunk's storage) and read no contact of another chunk of its colour.
template <class F>
void for_each_chunk_in_color_order(const SweepPlan& plan, F&& run_chunk,
                                   SweepDirection direction = SweepDirection::Forward) {
  auto run_chunks = [&](int first, int last) {
    for (int chunk = first; chunk < last; ++chunk) {
      run_chunk(chunk, plan.chunk_start[chunk], plan.chunk_start[chunk + 1]);
    }
  };
  const bool parallel = tbb::this_task_arena::max_concurrency() > 1;
  const int n_colors = plan.coloring.n_colors();
  for (int k = 0; k < n_colors; ++k) {
    const int c = direction == SweepDirection::Forward ? k : n_colors - 1 - k;
    const int first = plan.color_chunk_start[c];
    const int last = plan.color_chunk_start[c + 1];
    if (!parallel || last - first < plan.min_parallel_chunks) {
      run_chunks(first, last);
      continue;
    }
    tbb::parallel_for(tbb::blocked_range<int>(first, last, 1),
                      [&](const tbb::blocked_range<int>& range) { run_chunks(range.begin(), range.end()); });
  }
}

}  // namespace nscd::solvers::detail
