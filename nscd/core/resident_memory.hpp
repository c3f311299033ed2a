#pragma once
/// @file
/// The resident memory of this process (Linux: /proc/self/statm), for the long-run checks of
/// memory growth (bench/bench_long_run.cpp, tests/step/test_long_run.cpp).

#include <cstdint>

namespace nscd {

/// Resident set size [bytes]; 0 where /proc/self/statm cannot be read.
std::int64_t resident_bytes();

}  // namespace nscd
