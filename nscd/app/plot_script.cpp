#include "nscd/app/plot_script.hpp"

namespace nscd::app {

namespace fs = std::filesystem;

std::vector<fs::path> plot_script_candidates(const fs::path& executable) {
  std::vector<fs::path> candidates;
  if (!executable.empty())
    candidates.push_back((executable.parent_path() / NSCD_TOOLS_FROM_BIN / "plot_compare.py").lexically_normal());
  candidates.push_back(fs::path(NSCD_SOURCE_DIR) / "tools" / "plot_compare.py");
  return candidates;
}

std::optional<fs::path> find_plot_script(const fs::path& executable) {
  for (const fs::path& candidate : plot_script_candidates(executable)) {
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate;
  }
  return std::nullopt;
}

}  // namespace nscd::app
