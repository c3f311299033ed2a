#pragma once
/// @file Where `nscd compare` finds tools/plot_compare.py. An installed nscd
/// (`cmake --install`) has it at <prefix>/share/nscd/tools/, found from the executable's own
/// location <prefix>/bin/nscd; a program run from its build tree uses the source tree's copy.

#include <filesystem>
#include <optional>
#include <vector>

namespace nscd::app {

/// The places plot_compare.py may be, in order of preference:
///   executable's directory / NSCD_TOOLS_FROM_BIN / plot_compare.py  (installed layout, by default
///                                                                   <prefix>/bin/../share/nscd/tools)
///   NSCD_SOURCE_DIR / tools / plot_compare.py                       (the source tree it was built from)
/// The first is left out when `executable` is empty (its location unknown).
std::vector<std::filesystem::path> plot_script_candidates(const std::filesystem::path& executable);

/// The first candidate that is a regular file, or nothing.
std::optional<std::filesystem::path> find_plot_script(const std::filesystem::path& executable);

}  // namespace nscd::app
