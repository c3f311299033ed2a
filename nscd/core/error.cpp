#include "nscd/core/error.hpp"

#include "nscd/core/logger.hpp"

#include <cstdlib>

namespace nscd::detail {

void demand_failed(const char* cond, const char* file, int line) {
  logger().critical("internal invariant failed: {} at {}:{}", cond, file, line);
  logger().flush();
  std::abort();
}

}  // namespace nscd::detail
