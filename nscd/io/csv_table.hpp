#pragma once
/// @file
/// Internal to nscd/io: comma-separated files.
///  - A two-column time table (time, value) such as a recorded accelerogram. One header line of
///    non-numeric text is allowed; blank lines are skipped.
///  - A table with a header line naming its columns, such as the probes.csv and bodies.csv that
///    `nscd run` writes (docs/output.md). Blank lines are skipped.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace nscd::io::detail {

struct TimeTable {
  std::vector<double> times;   // strictly increasing [s]
  std::vector<double> values;  // same length
};

/// `text` without the spaces, tabs and carriage returns around it.
std::string_view trim(std::string_view text);

/// Whether `cell` (spaces around it trimmed, an optional leading '+') is one finite number and
/// nothing else, such as "-1.5", ".0050" or "2.3E-03"; if so it is stored in `x`.
bool parse_number(std::string_view cell, double& x);

/// Reads `file`.
/// @throws nscd::InputError "<file>:<line>: <what>" if the file cannot be read, a row does not
///         hold two finite numbers, times do not increase strictly, or there are fewer than 2 rows.
TimeTable read_time_table(const std::filesystem::path& file);

/// One data row of a CsvTable: its cells (spaces around them trimmed) and its line number.
struct CsvRow {
  int line = 0;
  std::vector<std::string> cells;
};

/// A comma-separated file with a header line naming its columns.
class CsvTable {
 public:
  /// Reads `file`.
  /// @throws nscd::InputError "<file>:<line>: <what>" if the file cannot be read, has no header
  ///         line (the first line that is not blank), or a row does not have as many cells as
  ///         the header.
  explicit CsvTable(std::filesystem::path file);

  const std::filesystem::path& file() const { return m_file; }
  const std::vector<CsvRow>& rows() const { return m_rows; }

  /// Index of the column named `name`.
  /// @throws nscd::InputError "<file>:<line>: expected a column "<name>" in the header, found ..."
  ///         if there is none.
  std::size_t column(std::string_view name) const;

  /// The cell of `row` in column `col` as a finite number.
  /// @throws nscd::InputError "<file>:<line>: column "<name>": expected a finite number, found ...".
  double number(const CsvRow& row, std::size_t col) const;

 private:
  std::filesystem::path m_file;
  int m_header_line = 0;
  std::vector<std::string> m_columns;
  std::vector<CsvRow> m_rows;
};

}  // namespace nscd::io::detail
