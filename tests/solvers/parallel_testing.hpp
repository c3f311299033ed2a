#pragma once
// For the tests of the parallel solvers: running with a given number of threads, comparing
// results bit by bit, and whether a sweep plan has a colour swept in parallel.

#include "solvers/sweep_plan.hpp"

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <Eigen/Core>

#include <cstddef>
#include <cstring>
#include <utility>

namespace nscd::solvers::parallel_testing {

/// Runs f() with exactly `threads` threads allowed (more than the cores: oversubscribed).
template <class F>
auto with_threads(int threads, F&& f) {
  tbb::global_control control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  tbb::task_arena arena(threads);
  return arena.execute(std::forward<F>(f));
}

/// Whether a and b have the same size and the same bits.
inline bool bitwise_equal(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

/// Whether some colour of plan is large enough to be swept in parallel.
inline bool has_parallel_color(const detail::SweepPlan& plan) {
  for (int c = 0; c < plan.coloring.n_colors(); ++c) {
    if (plan.color_chunk_start[c + 1] - plan.color_chunk_start[c] >= plan.min_parallel_chunks) return true;
  }
  return false;
}

}  // namespace nscd::solvers::parallel_testing
