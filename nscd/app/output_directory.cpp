#include "nscd/app/output_directory.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>
#include <regex>

namespace nscd::app {

namespace fs = std::filesystem;

std::vector<fs::path> run_output_files(const fs::path& dir) {
  static const std::regex kName(R"(run\.json|collapse\.json|history\.csv|bodies\.csv|probes\.csv|joints\.csv|)"
                                R"(.+\.pvd|fixed\.vtu|bodies_\d{6}\.vtu|contacts_\d{6}\.vtp|joints_\d{6}\.vtp|)"
                                R"(checkpoint_\d{9}\.h5|problem_\d{6}\.hdf5)");
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file(ec) && std::regex_match(entry.path().filename().string(), kName))
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

void prepare_output_directory(const fs::path& dir, bool overwrite) {
  const std::vector<fs::path> files = run_output_files(dir);
  if (files.empty()) return;
  NSCD_THROW_UNLESS(overwrite,
                    "{}: holds the output of an earlier run ({}{}); pass --overwrite to replace it, or choose "
                    "another --out directory",
                    dir.string(), files.front().filename().string(),
                    files.size() > 1 ? fmt::format(" and {} other files", files.size() - 1) : std::string());
  for (const fs::path& file : files) {
    std::error_code ec;
    fs::remove(file, ec);
    NSCD_THROW_UNLESS(!ec, "--overwrite: cannot delete {}: {}", file.string(), ec.message());
  }
}

}  // namespace nscd::app
