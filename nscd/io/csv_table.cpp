#include "nscd/io/csv_table.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>

namespace nscd::io::detail {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

bool parse_number(std::string_view cell, double& x) {
  cell = trim(cell);
  if (!cell.empty() && cell.front() == '+') cell.remove_prefix(1);
  const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), x);
  return !cell.empty() && ec == std::errc() && end == cell.data() + cell.size() && std::isfinite(x);
}

namespace {

// the cells of a row, trimmed
std::vector<std::string> split_row(std::string_view row) {
  std::vector<std::string> cells;
  for (std::size_t begin = 0;; ) {
    const std::size_t comma = std::min(row.find(',', begin), row.size());
    cells.emplace_back(trim(row.substr(begin, comma - begin)));
    if (comma == row.size()) return cells;
    begin = comma + 1;
  }
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

CsvTable::CsvTable(std::filesystem::path file) : m_file(std::move(file)) {
  std::error_code ec;
  std::ifstream in(m_file);
  if (std::filesystem::is_directory(m_file, ec) || !in)
    throw InputError(fmt::format("{}: cannot open the file", m_file.string()));

  std::string line;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    const std::string_view row = trim(line);
    if (row.empty()) continue;
    if (m_columns.empty()) {  // the first line that is not blank
      m_columns = split_row(row);
      m_header_line = line_number;
      continue;
    }
    CsvRow r{line_number, split_row(row)};
    if (r.cells.size() != m_columns.size())
      throw InputError(fmt::format("{}:{}: expected {} comma-separated cells ({}), found {}: \"{}\"", m_file.string(),
                                   line_number, m_columns.size(), fmt::join(m_columns, ","), r.cells.size(), row));
    m_rows.push_back(std::move(r));
  }
  if (m_columns.empty())
    throw InputError(fmt::format("{}: expected a header line naming the columns, found an empty file",
                                 m_file.string()));
}

std::size_t CsvTable::column(std::string_view name) const {
  const auto it = std::find(m_columns.begin(), m_columns.end(), name);
  if (it == m_columns.end())
    throw InputError(fmt::format("{}:{}: expected a column \"{}\" in the header, found \"{}\"", m_file.string(),
                                 m_header_line, name, fmt::join(m_columns, ",")));
  return static_cast<std::size_t>(it - m_columns.begin());
}

double CsvTable::number(const CsvRow& row, std::size_t col) const {
  double x = 0.0;
  if (!parse_number(row.cells[col], x))
    throw InputError(fmt::format("{}:{}: column \"{}\": expected a finite number, found \"{}\"", m_file.string(),
                                 row.line, m_columns[col], row.cells[col]));
  return x;
}

}  // namespace nscd::io::detail
