#pragma once
/// @file
/// Internal to solvers/: vector operations parallel over fixed blocks of contacts, with the same
/// bits for any number of threads. The contacts [0, nc) are cut into the blocks
///
///  (1) B_b = [b K, min((b + 1) K, nc)),   K = kContactBlock,
///
/// which depend on nc only. A map writes each contact once, whatever thread runs its block; a sum
/// is the sum of one partial per block, combined by tbb::parallel_deterministic_reduce (simple
/// partitioner, one block per leaf), whose tree depends on the number of blocks only. A problem of
/// one block runs on the calling thread, and its sum is that partial itself.

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/partitioner.h>

#include <Eigen/Core>

#include <algorithm>

namespace nscd::solvers::detail {

/// K of eq. (1).
inline constexpr int kContactBlock = 1024;

/// Calls f(begin, end) for every block of eq. (1), concurrently. f must write only to the contacts
/// of its block.
template <class F>
void for_each_contact_block(int nc, F&& f) {
  const int n_blocks = (nc + kContactBlock - 1) / kContactBlock;
  auto run = [&](int b) { f(b * kContactBlock, std::min((b + 1) * kContactBlock, nc)); };
  if (n_blocks <= 1) {
    if (nc > 0) run(0);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<int>(0, n_blocks, 1), [&](const tbb::blocked_range<int>& range) {
    for (int b = range.begin(); b < range.end(); ++b) run(b);
  });
}

/// Σ_b partial(begin, end) over the blocks of eq. (1), in the fixed tree of the file comment.
template <class F>
double sum_over_contact_blocks(int nc, F&& partial) {
  const int n_blocks = (nc + kContactBlock - 1) / kContactBlock;
  auto block = [&](int b) { return partial(b * kContactBlock, std::min((b + 1) * kContactBlock, nc)); };
  if (n_blocks <= 1) return nc > 0 ? block(0) : 0.0;
  return tbb::parallel_deterministic_reduce(
      tbb::blocked_range<int>(0, n_blocks, 1), 0.0,
      [&](const tbb::blocked_range<int>& range, double sum) {
        for (int b = range.begin(); b < range.end(); ++b) sum += block(b);
        return sum;
      },
      [](double a, double b) { return a + b; }, tbb::simple_partitioner());
}

/// The entries of the contacts [begin, end) of a vector of 3 entries per contact.
template <class Vector>
auto contacts_of(Vector&& v, int begin, int end) {
  return v.segment(3 * static_cast<Eigen::Index>(begin), 3 * static_cast<Eigen::Index>(end - begin));
}

}  // namespace nscd::solvers::detail
