#include "nscd/io/run_output.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/csv_table.hpp"
#include "nscd/io/json_reader.hpp"

#include <array>
#include <string_view>
#include <unordered_map>

namespace nscd::io {
namespace {

// the histories of a CSV file with one row per name per time: column `name_column` names the
// history, `value_columns` are its vector, and every other column holds finite numbers
std::vector<History> read_histories(const std::filesystem::path& file, std::string_view name_column,
                                    const std::array<std::string_view, 3>& value_columns) {
  const detail::CsvTable table(file);
  const std::size_t time = table.column("time");
  const std::size_t name = table.column(name_column);
  const std::array<std::size_t, 3> value{table.column(value_columns[0]), table.column(value_columns[1]),
                                         table.column(value_columns[2])};
  std::vector<History> histories;
  std::unordered_map<std::string, std::size_t> index;  // name → position in histories
  for (const detail::CsvRow& row : table.rows()) {
    std::vector<double> numbers(row.cells.size());
    for (std::size_t col = 0; col < row.cells.size(); ++col)
      if (col != name) numbers[col] = table.number(row, col);
    const double t = numbers[time];
    const std::string& n = row.cells[name];
    NSCD_THROW_UNLESS(!n.empty(), "{}:{}: column \"{}\": expected a name, found an empty cell", file.string(), row.line,
                      name_column);
    const auto [slot, is_new] = index.emplace(n, histories.size());
    if (is_new) histories.push_back(History{n, {}, {}});
    History& h = histories[slot->second];
    NSCD_THROW_UNLESS(h.times.empty() || t > h.times.back(),
                      "{}:{}: {} \"{}\": expected times increasing strictly, found {} after {}", file.string(),
                      row.line, name_column, n, t, h.times.back());
    h.times.push_back(t);
    h.values.emplace_back(numbers[value[0]], numbers[value[1]], numbers[value[2]]);
  }
  return histories;
}

void read_run_json(const std::filesystem::path& file, RunOutput& run) {
  const detail::Document doc(file);
  const detail::Value root = doc.root();
  run.scene = root.at("scene").string();
  run.scene_sha256 = root.at("scene_sha256").string();
  const detail::Value model = root.at("model_override");
  if (!model.json().is_null()) run.model_override = model.string();
  run.status = root.at("status").string();
  const std::optional<detail::Value> wall = root.find("wall_seconds");
  if (!wall)
    doc.fail("", fmt::format("missing key \"wall_seconds\" (the total wall time, written when the run ends; "
                             "status is \"{}\")",
                             run.status));
  run.wall_seconds = wall->non_negative();
  run.simulated_time = root.at("simulated_time").non_negative();
  const detail::Value stages = root.at("stage_seconds");
  // older run.json files have no free_motion: their detection includes it
  if (const std::optional<detail::Value> free_motion = stages.find("free_motion"))
    run.stage_seconds.emplace_back("free_motion", free_motion->non_negative());
  for (const char* stage : {"detection", "assembly", "solve", "update", "output"})
    run.stage_seconds.emplace_back(stage, stages.at(stage).non_negative());
}

}  // namespace

RunOutput read_run_output(const std::filesystem::path& dir) {
  std::error_code ec;
  NSCD_THROW_UNLESS(std::filesystem::is_directory(dir, ec),
                    "{}: expected the output directory of `nscd run`, found {}", dir.string(),
                    std::filesystem::exists(dir, ec) ? "a file" : "no such directory");
  // a missing file is named with what it should hold
  for (const char* file : {"run.json", "probes.csv", "bodies.csv"})
    NSCD_THROW_UNLESS(std::filesystem::is_regular_file(dir / file, ec),
                      "{}: no such file; expected the output directory of `nscd run` (with \"output\": "
                      "{{\"csv\": true}} for the CSV files)",
                      (dir / file).string());
  RunOutput run;
  run.dir = dir;
  read_run_json(dir / "run.json", run);
  run.probes = read_histories(dir / "probes.csv", "probe", {"ux", "uy", "uz"});
  run.bodies = read_histories(dir / "bodies.csv", "body", {"x", "y", "z"});
  return run;
}

}  // namespace nscd::io
