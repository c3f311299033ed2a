// A table shaken by a PEER NGA .AT2 record (tests/data/synthetic_pulse.AT2) through `nscd run`:
// it moves as the exact double integral of the piecewise-linear acceleration, and exactly as the
// same record given as a CSV table in g with the scale 9.80665 (docs/scene_format.md, Tables).

#include "run_nscd.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace nscd::cli_test;
using nlohmann::json;

constexpr double kG0 = 9.80665;  // standard gravity: the unit g of the record [m/s²]
constexpr double kDt = 0.01;     // the record's time step [s]
constexpr double kScale = 0.5;   // the amplitude factor of the AT2 scene
const std::vector<double> kPulseInG{0,    .05, .1,  .15,  .2,   .15, .1,     .05,     0, -.05,
                                    -.1, -.15, -.2, -.15, -.1, -.05, 0, .0125, -.0125, 0};

// the shortest text that reads back as x
std::string shortest(double x) {
  std::array<char, 32> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), x).ptr;
  return {buffer.data(), end};
}

// a driven table alone, its velocity the acceleration table `file` along x, for 0.3 s
std::string table_scene(const std::string& file, const std::string& table_keys) {
  json scene = json::parse(R"({
    "name": "shaken",
    "time": {"step": 1e-3, "duration": 0.3, "output_interval": 0.01},
    "materials": {"steel": {"density": 7800}},
    "bodies": [{"name": "table", "model": "driven", "material": "steel", "shape": {"box": [2, 2, 0.2]},
                "position": [0, 0, -0.1]}],
    "output": {"vtk": false}
  })");
  json velocity = json::parse("{" + table_keys + "}");
  velocity["type"] = "table";
  velocity["file"] = file;
  velocity["direction"] = {1, 0, 0};
  scene["bodies"][0]["motion"] = {{"velocity", velocity}};
  return scene.dump(2);
}

// (time, x) of the table in bodies.csv
std::vector<std::pair<double, double>> table_positions(const fs::path& bodies_csv) {
  std::istringstream in(read_text(bodies_csv));
  std::vector<std::pair<double, double>> out;
  std::string line;
  std::getline(in, line);  // header: time,body,x,...
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (cells.size() > 2 && cells[1] == "table") out.emplace_back(std::stod(cells[0]), std::stod(cells[2]));
  }
  return out;
}

// Δx(t) of a(t) piecewise linear through (k·dt, a_k), at rest before t = 0, a = 0 after the record:
// on [t_k, t_k + dt], with τ = t − t_k and s_k = (a_{k+1} − a_k)/dt,
// v = v_k + a_k τ + s_k τ²/2 and Δx = Δx_k + v_k τ + a_k τ²/2 + s_k τ³/6
double exact_displacement(const std::vector<double>& a, double t) {
  double v = 0.0;
  double x = 0.0;
  for (std::size_t k = 0; k + 1 < a.size(); ++k) {
    const double tau = std::min(t - static_cast<double>(k) * kDt, kDt);
    if (tau <= 0.0) return x;
    const double s = (a[k + 1] - a[k]) / kDt;
    x += v * tau + a[k] * tau * tau / 2 + s * tau * tau * tau / 6;
    v += a[k] * tau + s * tau * tau / 2;
  }
  return x + v * (t - static_cast<double>(a.size() - 1) * kDt);
}

TEST(GroundMotion, AnAt2RecordMovesATableAsTheExactIntegralAndAsTheSameCsvTable) {
  const fs::path dir = fresh_dir("ground_motion");
  const fs::path record = fs::path(NSCD_TEST_DATA_DIR) / "synthetic_pulse.AT2";
  std::ofstream(dir / "at2.json") << table_scene(record.string(), "\"scale\": " + shortest(kScale));
  // the same record as a CSV table in g, converted by its scale
  std::ofstream csv(dir / "pulse.csv");
  csv << "time,acceleration_g\n";
  for (std::size_t k = 0; k < kPulseInG.size(); ++k)
    csv << shortest(static_cast<double>(k) * kDt) << ',' << shortest(kPulseInG[k]) << '\n';
  csv.close();
  std::ofstream(dir / "csv.json") << table_scene(
      "pulse.csv", "\"quantity\": \"acceleration\", \"scale\": " + shortest(kScale * kG0));

  for (const std::string name : {"at2", "csv"}) {
    const Result r = run_nscd("run " + (dir / (name + ".json")).string() + " --out " + (dir / ("out_" + name)).string() +
                              " --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  const auto at2 = table_positions(dir / "out_at2" / "bodies.csv");
  EXPECT_EQ(at2, table_positions(dir / "out_csv" / "bodies.csv"));  // bit for bit

  std::vector<double> a;
  for (const double g : kPulseInG) a.push_back(kScale * kG0 * g);
  ASSERT_EQ(at2.size(), 31u);  // t = 0, 0.01 … 0.3
  for (const auto& [t, x] : at2) EXPECT_NEAR(x, exact_displacement(a, t), 1e-12) << "t = " << t;
  // the pulse's velocity is ≥ 0 and back to 0 at 0.16 s: the table ends about 3 mm forward
  EXPECT_GT(at2.back().second, 0.002);
}

}  // namespace
