#include "nscd/core/resident_memory.hpp"

#include <unistd.h>

#include <fstream>

namespace nscd {

std::int64_t resident_bytes() {
  // statm: total program size, then resident pages
  std::ifstream statm("/proc/self/statm");
  std::int64_t total_pages = 0, resident_pages = 0;
  if (!(statm >> total_pages >> resident_pages)) return 0;
  return resident_pages * static_cast<std::int64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace nscd
