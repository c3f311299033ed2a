#pragma once
/// @file
/// Internal to nscd/io: a JSON document read for validation, and typed getters that know where
/// they are. Every value carries its JSON path (`bodies[3].shape.box`); every failure throws
/// nscd::InputError as
///
///   <file>: <json path>: <what was expected>, found <what was found> (line L, column C)
///
/// where line and column come from an index of the text built once after parsing. Unknown keys
/// and unknown names get a "did you mean" suggestion when a known one is close (optimal string
/// alignment distance ≤ 2, or a prefix).

#include "nscd/core/error.hpp"
#include "nscd/core/math.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nscd::io::detail {

/// The known name closest to `name` (OSA distance ≤ 2 and at most half the length of `name`,
/// or a prefix of at least 3 characters, ignoring case); nullopt if none is close.
std::optional<std::string> closest_name(std::string_view name,
                                        const std::vector<std::string>& known);

/// `; did you mean "X"?` for the closest known name, or an empty string.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& known);

class Value;

/// A parsed JSON file with an index from JSON paths to byte offsets in its text.
class Document {
 public:
  /// Reads and parses `file`.
  /// @throws nscd::InputError if the file cannot be read, on a syntax error (with line and
  ///         column), on a duplicated key or on nesting deeper than 256 levels.
  explicit Document(std::filesystem::path file);
  /// Parses `text` as if read from `file`, which the messages name.
  Document(std::string text, std::filesystem::path file);

  Value root() const;
  const std::filesystem::path& file() const { return m_file; }

  /// Throws InputError "<file>: <path>: <what> (line L, column C)".
  [[noreturn]] void fail(const std::string& path, std::string_view what) const;

 private:
  /// " (line L, column C)" for the value at `path`, or "" if it is not in the text.
  std::string location(const std::string& path) const;
  /// Line and column (1-based, columns in characters) of a byte offset.
  std::pair<int, int> line_column(std::size_t offset) const;
  /// Parses m_text into m_json and indexes it.
  void parse();
  void index_value(std::size_t& pos, const std::string& path, int depth);

  std::filesystem::path m_file;
  std::string m_text;
  nlohmann::json m_json;
  std::unordered_map<std::string, std::size_t> m_offsets;  // JSON path → byte offset
};

/// One JSON value of a Document, with its path. Cheap to copy; must not outlive the Document.
class Value {
 public:
  Value(const Document& doc, const nlohmann::json& json, std::string path)
      : m_doc(&doc), m_json(&json), m_path(std::move(path)) {}

  const std::string& path() const { return m_path; }
  const nlohmann::json& json() const { return *m_json; }
  const Document& document() const { return *m_doc; }

  [[noreturn]] void fail(std::string_view what) const;
  /// Fails with "expected <expected>, found <this value>".
  [[noreturn]] void fail_expected(std::string_view expected) const;

  /// Checks this is an object whose keys are all in `known`; an unknown key fails at its own
  /// path, with a suggestion.
  void expect_keys(std::initializer_list<std::string_view> known) const;
  /// Required member; fails if this is not an object or the key is missing.
  Value at(std::string_view key) const;
  /// Optional member; fails if this is not an object.
  std::optional<Value> find(std::string_view key) const;
  /// Members of an object, sorted by key.
  std::vector<std::pair<std::string, Value>> members() const;
  /// Items of an array.
  std::vector<Value> items() const;

  /// A finite number satisfying `ok`, else fails with "expected <expected>, found ...".
  template <class Pred>
  double number_if(Pred ok, std::string_view expected) const {
    if (!m_json->is_number()) fail_expected(expected);
    const double x = m_json->get<double>();
    if (!std::isfinite(x) || !ok(x)) fail_expected(expected);
    return x;
  }
  double number() const;
  double positive() const;
  double non_negative() const;
  /// A number in the closed interval [lo, hi].
  double number_in(double lo, double hi) const;
  /// An integer ≥ min (a number with an integral value, such as 1e3, is accepted).
  int integer_at_least(int min) const;
  bool boolean() const;
  std::string string() const;
  /// A name: a non-empty string without control characters, commas or double quotes (names
  /// appear in CSV output).
  std::string name() const;
  /// Index of this string in `choices`; fails with the list and a suggestion otherwise.
  std::size_t one_of(const std::vector<std::string>& choices) const;

  /// An array of 3 finite numbers satisfying `ok`, else fails with "expected <expected>".
  template <class Pred>
  Vec3 vec3_if(Pred ok, std::string_view expected) const {
    const std::optional<Vec3> v = try_vec3();
    if (!v || !ok(*v)) fail_expected(expected);
    return *v;
  }
  Vec3 vec3() const;
  /// A non-zero vector, normalised.
  Vec3 direction() const;

 private:
  std::optional<Vec3> try_vec3() const;

  const Document* m_doc;
  const nlohmann::json* m_json;
  std::string m_path;
};

}  // namespace nscd::io::detail
