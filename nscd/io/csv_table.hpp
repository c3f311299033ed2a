#pragma once
/// @file
/// Internal to nscd/io: a two-column time table (time, value) such as a recorded accelerogram,
/// read from a comma-separated file. One header line of non-numeric text is allowed; blank lines
/// are skipped.

#include <filesystem>
#include <vector>

namespace nscd::io::detail {

struct TimeTable {
  std::vector<double> times;   // strictly increasing [s]
  std::vector<double> values;  // same length
};

/// Reads `file`.
/// @throws nscd::InputError "<file>:<line>: <what>" if the file cannot be read, a row does not
///         hold two finite numbers, times do not increase strictly, or there are fewer than 2 rows.
TimeTable read_time_table(const std::filesystem::path& file);

}  // namespace nscd::io::detail
