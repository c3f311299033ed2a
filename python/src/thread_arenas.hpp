#pragma once
/// @file The TBB task arenas the Python simulations step in, one per thread count, made on first
/// use and kept for the life of the process. A simulation runs every step inside the arena of
/// its own thread count, so its parallelism neither comes from nor changes any other simulation's
/// (tbb::global_control would be process-wide). Arenas are shared rather than owned by each
/// simulation because oneTBB 2021.8 (Debian 12) does not give back about 7 KiB of each arena
/// destroyed after running parallel work (measured; upstream oneTBB issue 967), which a sweep
/// creating thousands of simulations would accumulate.

#include <tbb/task_arena.h>

namespace nscd::python {

/// The arena of `threads` (≥ 1) worker threads; thread-safe.
tbb::task_arena& arena_for(int threads);

}  // namespace nscd::python
