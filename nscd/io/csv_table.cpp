#include "nscd/io/csv_table.hpp"

#include "nscd/core/error.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <string>
#include <string_view>

namespace nscd::io::detail {

namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// a finite number filling the whole cell
bool parse_number(std::string_view cell, double& x) {
  cell = trim(cell);
  if (!cell.empty() && cell.front() == '+') cell.remove_prefix(1);
  const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), x);
  return !cell.empty() && ec == std::errc() && end == cell.data() + cell.size() && std::isfinite(x);
}

// "time,value"
bool parse_row(std::string_view row, double& t, double& v) {
  const auto comma = row.find(',');
  return comma != std::string_view::npos && parse_number(row.substr(0, comma), t) &&
         parse_number(row.substr(comma + 1), v);
}

}  // namespace

TimeTable read_time_table(const std::filesystem::path& file) {
  std::error_code ec;
  std::ifstream in(file);
  if (std::filesystem::is_directory(file, ec) || !in)
    throw InputError(fmt::format("{}: cannot open the table file", file.string()));

  TimeTable table;
  std::string line;
  bool is_first_row = true;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    const std::string_view row = trim(line);
    if (row.empty()) continue;
    // each row: time,value; a first row whose first cell is not a number is a header
    double t = 0.0;
    double v = 0.0;
    const bool is_header = is_first_row && !parse_number(row.substr(0, row.find(',')), t);
    is_first_row = false;
    if (is_header) continue;
    if (!parse_row(row, t, v))
      throw InputError(fmt::format("{}:{}: expected two comma-separated numbers (time,value), found \"{}\"",
                                   file.string(), line_number, row));
    if (!table.times.empty() && t <= table.times.back())
      throw InputError(fmt::format("{}:{}: times must increase strictly, found {} after {}",
                                   file.string(), line_number, t, table.times.back()));
    table.times.push_back(t);
    table.values.push_back(v);
  }
  if (table.times.size() < 2)
    throw InputError(fmt::format("{}: expected at least 2 rows (time,value), found {}",
                                 file.string(), table.times.size()));
  return table;
}

}  // namespace nscd::io::detail
