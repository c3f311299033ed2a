#include "python/src/thread_arenas.hpp"

#include <map>
#include <memory>
#include <mutex>

namespace nscd::python {

tbb::task_arena& arena_for(int threads) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<tbb::task_arena>> arenas;
  const std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<tbb::task_arena>& arena = arenas[threads];
  if (!arena) arena = std::make_unique<tbb::task_arena>(threads);
  return *arena;
}

}  // namespace nscd::python
