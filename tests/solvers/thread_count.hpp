#pragma once
// For the tests of the parallel solvers: running with a given number of threads, and comparing
// results bit by bit.

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <Eigen/Core>

#include <cstddef>
#include <cstring>
#include <utility>

namespace nscd::solvers::testing_threads {

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

}  // namespace nscd::solvers::testing_threads
