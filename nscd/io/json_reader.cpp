#include "nscd/io/json_reader.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_set>

namespace nscd::io::detail {

using nlohmann::json;

namespace {

constexpr int kMaxDepth = 256;
constexpr std::size_t kMaxShownLength = 60;

// nlohmann's DOM builder, with parse errors recorded (position and message) instead of thrown,
// so that number overflows (out_of_range.406) get a position too
class DomBuilder : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  explicit DomBuilder(json& result) : json_sax_dom_parser(result, false) {}

  template <class Exception>
  bool parse_error(std::size_t position, const std::string& last_token, const Exception& ex) {
    // position is just past the offending token: point at its first character
    m_error_offset = position >= last_token.size() ? position - last_token.size() : 0;
    m_error = ex.what();
    return false;
  }

  std::size_t m_error_offset = 0;
  std::string m_error;
};

// "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." → "syntax error ..."
std::string strip_nlohmann_prefix(std::string message) {
  if (const auto end = message.find("] "); end != std::string::npos) message.erase(0, end + 2);
  if (message.rfind("parse error", 0) == 0) {
    if (const auto colon = message.find(": "); colon != std::string::npos) message.erase(0, colon + 2);
  }
  return message;
}

std::string member_path(const std::string& parent, std::string_view key) {
  const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  if (!plain) return parent + "[" + json(std::string(key)).dump() + "]";
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string item_path(const std::string& parent, std::size_t i) {
  return parent + "[" + std::to_string(i) + "]";
}

// the value itself if short, else its kind
std::string describe(const json& j) {
  std::string shown = j.dump(-1, ' ', false, json::error_handler_t::replace);
  if (shown.size() <= kMaxShownLength) return shown;
  if (j.is_object()) return "an object with " + std::to_string(j.size()) + " keys";
  if (j.is_array()) return "an array of " + std::to_string(j.size()) + " items";
  return shown.substr(0, kMaxShownLength) + "…";
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// optimal string alignment distance: Levenshtein plus adjacent transpositions
std::size_t osa_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "\"" : ", \"") + n + "\"";
  return out;
}

}  // namespace

std::optional<std::string> closest_name(std::string_view name,
                                        const std::vector<std::string>& known) {
  const std::string lower = lowercase(name);
  std::optional<std::string> best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const std::string& candidate : known) {
    const std::string k = lowercase(candidate);
    std::size_t distance = osa_distance(lower, k);
    const bool close = distance <= 2 && distance <= lower.size() / 2;
    const bool prefix = lower.size() >= 3 && (k.rfind(lower, 0) == 0 || lower.rfind(k, 0) == 0);
    if (!close && !prefix) continue;
    // a prefix match ranks after any close spelling
    if (!close) distance = 3;
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& known) {
  const std::optional<std::string> best = closest_name(name, known);
  return best ? "; did you mean \"" + *best + "\"?" : std::string();
}

// ---------------------------------------------------------------------------------------------
// Document

Document::Document(std::filesystem::path file) : m_file(std::move(file)) {
  // read the whole file
  std::error_code ec;
  if (std::filesystem::is_directory(m_file, ec))
    throw InputError(fmt::format("{}: is a directory, expected a scene file (JSON)", m_file.string()));
  std::ifstream in(m_file, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open the file", m_file.string()));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  m_text = buffer.str();
  parse();
}

Document::Document(std::string text, std::filesystem::path file) : m_file(std::move(file)), m_text(std::move(text)) {
  parse();
}

void Document::parse() {
  // parse; a syntax error names line and column
  DomBuilder builder(m_json);
  if (!json::sax_parse(m_text, &builder)) {
    const auto [line, column] = line_column(builder.m_error_offset);
    throw InputError(fmt::format("{}: line {}, column {}: {}", m_file.string(), line, column,
                                 strip_nlohmann_prefix(builder.m_error)));
  }

  // index the text: JSON path → offset of the key (members) or of the value (items, root),
  // after a UTF-8 byte order mark if any (nlohmann skips it too)
  std::size_t pos = m_text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
  index_value(pos, "", 0);
}

Value Document::root() const { return Value(*this, m_json, ""); }

void Document::fail(const std::string& path, std::string_view what) const {
  throw InputError(fmt::format("{}: {}: {}{}", m_file.string(), path.empty() ? "top level" : path,
                               what, location(path)));
}

std::string Document::location(const std::string& path) const {
  const auto it = m_offsets.find(path);
  if (it == m_offsets.end()) return "";
  const auto [line, column] = line_column(it->second);
  return fmt::format(" (line {}, column {})", line, column);
}

std::pair<int, int> Document::line_column(std::size_t offset) const {
  offset = std::min(offset, m_text.size());
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (m_text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(m_text[i]) & 0xC0) != 0x80) {
      // count characters, not UTF-8 continuation bytes
      ++column;
    }
  }
  return {line, column};
}

void Document::index_value(std::size_t& pos, const std::string& path, int depth) {
  // the text is valid JSON here: the walk only needs to find token boundaries
  const auto skip_space = [&] {
    while (pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[pos]))) ++pos;
  };
  const auto skip_string = [&] {
    for (++pos; m_text[pos] != '"'; ++pos) {
      if (m_text[pos] == '\\') ++pos;
    }
    ++pos;
  };
  skip_space();
  m_offsets.emplace(path, pos);
  if (depth > kMaxDepth) fail(path, fmt::format("nesting deeper than {} levels", kMaxDepth));
  const char c = m_text[pos];
  if (c == '{' || c == '[') {
    const bool is_object = c == '{';
    const char close = is_object ? '}' : ']';
    std::unordered_set<std::string> keys;
    ++pos;
    skip_space();
    for (std::size_t i = 0; m_text[pos] != close; ++i) {
      std::string child = item_path(path, i);
      if (is_object) {
        // member: record the key's position; a repeated key is an error
        const std::size_t key_start = pos;
        skip_string();
        const std::string key = json::parse(m_text.substr(key_start, pos - key_start)).get<std::string>();
        child = member_path(path, key);
        if (!keys.insert(key).second) {
          m_offsets[child] = key_start;
          fail(child, fmt::format("duplicate key \"{}\"", key));
        }
        m_offsets.emplace(child, key_start);
        skip_space();
        ++pos;  // ':'
      }
      index_value(pos, child, depth + 1);
      skip_space();
      if (m_text[pos] == ',') ++pos;
      skip_space();
    }
    ++pos;
  } else if (c == '"') {
    skip_string();
  } else {
    while (pos < m_text.size() && std::string_view(",]} \t\r\n").find(m_text[pos]) == std::string_view::npos)
      ++pos;
  }
}

// ---------------------------------------------------------------------------------------------
// Value

void Value::fail(std::string_view what) const { m_doc->fail(m_path, what); }

void Value::fail_expected(std::string_view expected) const {
  fail(fmt::format("expected {}, found {}", expected, describe(*m_json)));
}

void Value::expect_keys(std::initializer_list<std::string_view> known) const {
  if (!m_json->is_object()) fail_expected("an object");
  for (const auto& [key, value] : m_json->items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    const std::vector<std::string> names(known.begin(), known.end());
    const std::string hint = did_you_mean(key, names);
    m_doc->fail(member_path(m_path, key),
                fmt::format("unknown key \"{}\"{}", key,
                            hint.empty() ? " (known keys: " + quoted_list(names) + ")" : hint));
  }
}

Value Value::at(std::string_view key) const {
  std::optional<Value> v = find(key);
  if (!v) fail(fmt::format("missing required key \"{}\"", key));
  return *v;
}

std::optional<Value> Value::find(std::string_view key) const {
  if (!m_json->is_object()) fail_expected("an object");
  const auto it = m_json->find(key);
  if (it == m_json->end()) return std::nullopt;
  return Value(*m_doc, *it, member_path(m_path, key));
}

std::vector<std::pair<std::string, Value>> Value::members() const {
  if (!m_json->is_object()) fail_expected("an object");
  std::vector<std::pair<std::string, Value>> out;
  for (const auto& [key, value] : m_json->items())
    out.emplace_back(key, Value(*m_doc, value, member_path(m_path, key)));
  return out;
}

std::vector<Value> Value::items() const {
  if (!m_json->is_array()) fail_expected("an array");
  std::vector<Value> out;
  out.reserve(m_json->size());
  for (std::size_t i = 0; i < m_json->size(); ++i)
    out.emplace_back(*m_doc, (*m_json)[i], item_path(m_path, i));
  return out;
}

double Value::number() const {
  return number_if([](double) { return true; }, "a number");
}

double Value::positive() const {
  return number_if([](double x) { return x > 0; }, "a positive number");
}

double Value::non_negative() const {
  return number_if([](double x) { return x >= 0; }, "a number ≥ 0");
}

double Value::number_in(double lo, double hi) const {
  return number_if([&](double x) { return x >= lo && x <= hi; },
                   fmt::format("a number in [{}, {}]", lo, hi));
}

int Value::integer_at_least(int min) const {
  const std::string expected = fmt::format("an integer ≥ {}", min);
  const double x = number_if(
      [&](double y) {
        return y == std::floor(y) && y >= min && y <= std::numeric_limits<int>::max();
      },
      expected);
  return static_cast<int>(x);
}

bool Value::boolean() const {
  if (!m_json->is_boolean()) fail_expected("true or false");
  return m_json->get<bool>();
}

std::string Value::string() const {
  if (!m_json->is_string()) fail_expected("a string");
  return m_json->get<std::string>();
}

std::string Value::name() const {
  constexpr std::string_view kExpected =
      "a non-empty name without commas, double quotes or control characters";
  if (!m_json->is_string()) fail_expected(kExpected);
  const std::string s = m_json->get<std::string>();
  const bool ok = !s.empty() && std::none_of(s.begin(), s.end(), [](char c) {
    return c == ',' || c == '"' || std::iscntrl(static_cast<unsigned char>(c));
  });
  if (!ok) fail_expected(kExpected);
  return s;
}

std::size_t Value::one_of(const std::vector<std::string>& choices) const {
  const std::string expected = "one of " + quoted_list(choices);
  if (!m_json->is_string()) fail_expected(expected);
  const std::string s = m_json->get<std::string>();
  const auto it = std::find(choices.begin(), choices.end(), s);
  if (it == choices.end())
    fail(fmt::format("expected {}, found \"{}\"{}", expected, s, did_you_mean(s, choices)));
  return static_cast<std::size_t>(it - choices.begin());
}

std::optional<Vec3> Value::try_vec3() const {
  if (!m_json->is_array() || m_json->size() != 3) return std::nullopt;
  Vec3 v;
  for (int i = 0; i < 3; ++i) {
    const nlohmann::json& x = (*m_json)[static_cast<std::size_t>(i)];
    if (!x.is_number()) return std::nullopt;
    v[i] = x.get<double>();
  }
  if (!v.allFinite()) return std::nullopt;
  return v;
}

Vec3 Value::vec3() const {
  return vec3_if([](const Vec3&) { return true; }, "an array of 3 numbers");
}

Vec3 Value::direction() const {
  return vec3_if([](const Vec3& v) { return v.stableNorm() > 0; }, "a non-zero vector of 3 numbers")
      .stableNormalized();
}

}  // namespace nscd::io::detail
