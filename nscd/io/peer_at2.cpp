#include "nscd/io/peer_at2.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nscd::io::detail {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kHeaderLines = 4;

struct Sampling {
  long points = 0;    // NPTS
  double step = 0.0;  // DT [s]
};

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

// the fields of a line, separated by spaces, tabs, commas or '='
std::vector<std::string_view> fields(std::string_view line) {
  constexpr std::string_view kSeparators = " \t\r,=";
  std::vector<std::string_view> out;
  for (std::size_t begin = line.find_first_not_of(kSeparators); begin != std::string_view::npos;) {
    const std::size_t end = std::min(line.find_first_of(kSeparators, begin), line.size());
    out.push_back(line.substr(begin, end - begin));
    begin = line.find_first_not_of(kSeparators, end);
  }
  return out;
}

// an integer filling the whole field
bool parse_count(std::string_view field, long& n) {
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), n);
  return ec == std::errc() && end == field.data() + field.size();
}

// line 4 in upper case: "NPTS= n, DT= dt SEC" (NGA-West2) or "n dt NPTS, DT" (NGA-West1)
std::optional<Sampling> parse_sampling(std::string_view line) {
  const std::vector<std::string_view> f = fields(line);
  Sampling s;
  const auto keyed = std::find(f.begin(), f.end(), "NPTS");
  if (f.end() - keyed >= 4 && keyed[2] == "DT" && parse_count(keyed[1], s.points) && parse_number(keyed[3], s.step))
    return s;
  if (f.size() >= 4 && f[2] == "NPTS" && f[3] == "DT" && parse_count(f[0], s.points) && parse_number(f[1], s.step))
    return s;
  return std::nullopt;
}

// line 3 in upper case, "ACCELERATION TIME SERIES IN UNITS OF G": no unit named, or g
bool is_in_g(std::string_view line) {
  const std::vector<std::string_view> f = fields(line);
  for (std::size_t i = 0; i + 1 < f.size(); ++i)
    if (f[i] == "UNITS" && f[i + 1] == "OF") return i + 2 < f.size() && f[i + 2] == "G";
  return true;
}

Sampling read_sampling(const fs::path& file, const std::string& line) {
  const std::optional<Sampling> s = parse_sampling(upper(line));
  if (!s)
    throw InputError(fmt::format("{}:4: expected the number of samples and the time step, \"NPTS= n, DT= dt SEC\" "
                                 "or \"n dt NPTS, DT\" (PEER NGA .AT2 record), found \"{}\"",
                                 file.string(), trim(line)));
  if (s->points < 2)
    throw InputError(fmt::format("{}:4: expected NPTS ≥ 2 samples, found {}", file.string(), s->points));
  if (!(s->step > 0.0))
    throw InputError(fmt::format("{}:4: expected a time step DT > 0 [s], found {}", file.string(), s->step));
  return *s;
}

// lines 5 onwards: the NPTS values in g, several per line
void read_values(std::istream& in, const fs::path& file, const Sampling& s, TimeTable& table) {
  std::string line;
  for (std::size_t line_number = kHeaderLines + 1; std::getline(in, line); ++line_number) {
    for (const std::string_view field : fields(line)) {
      double a = 0.0;
      if (!parse_number(field, a))
        throw InputError(fmt::format("{}:{}: expected accelerations in g (numbers separated by spaces), found \"{}\"",
                                     file.string(), line_number, field));
      if (std::cmp_equal(table.values.size(), s.points))
        throw InputError(fmt::format("{}:{}: expected NPTS = {} values (line 4), found more: \"{}\"", file.string(),
                                     line_number, s.points, field));
      table.times.push_back(static_cast<double>(table.values.size()) * s.step);
      table.values.push_back(kStandardGravity * a);
    }
  }
  if (!std::cmp_equal(table.values.size(), s.points))
    throw InputError(fmt::format("{}: expected NPTS = {} values (line 4), found {}", file.string(), s.points,
                                 table.values.size()));
}

}  // namespace

bool is_peer_at2(const fs::path& file) { return upper(file.extension().string()) == ".AT2"; }

TimeTable read_peer_at2(const fs::path& file) {
  std::error_code ec;
  std::ifstream in(file);
  if (fs::is_directory(file, ec) || !in)
    throw InputError(fmt::format("{}: cannot open the table file", file.string()));

  std::array<std::string, kHeaderLines> header;
  std::size_t lines = 0;
  while (lines < kHeaderLines && std::getline(in, header[lines])) ++lines;
  if (lines < kHeaderLines)
    throw InputError(fmt::format("{}: expected {} header lines (PEER NGA .AT2 record), found {}", file.string(),
                                 kHeaderLines, lines));
  if (!is_in_g(upper(header[2])))
    throw InputError(fmt::format("{}:3: expected accelerations in units of g (\"ACCELERATION TIME SERIES IN UNITS "
                                 "OF G\"), found \"{}\"",
                                 file.string(), trim(header[2])));
  const Sampling s = read_sampling(file, header[3]);
  TimeTable table;
  read_values(in, file, s, table);
  return table;
}

}  // namespace nscd::io::detail
