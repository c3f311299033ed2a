#include "nscd/app/run_comparison.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace nscd::app {
namespace {

// x(t) − x(t₀) for each history
std::vector<io::History> displacements(std::vector<io::History> histories) {
  for (io::History& h : histories) {
    const Vec3 first = h.values.front();
    for (Vec3& x : h.values) x -= first;
  }
  return histories;
}

// appends the differences of every history of `b` with its namesake in `a`; `file_a` and
// `file_b` name the files in messages
void compare_histories(const std::string& quantity, const std::vector<io::History>& a,
                       const std::vector<io::History>& b, const std::filesystem::path& file_a,
                       const std::filesystem::path& file_b, std::vector<HistoryDifference>& rows) {
  std::unordered_map<std::string, const io::History*> in_a;
  for (const io::History& h : a) in_a.emplace(h.name, &h);
  std::unordered_set<std::string> in_b;
  for (const io::History& h : b) in_b.insert(h.name);
  const auto only_in = [&](const std::filesystem::path& file, const std::string& name) {
    return InputError(fmt::format("{} and {}: expected the same {}s in both runs, found {} \"{}\" only in {}",
                                  file_a.string(), file_b.string(), quantity, quantity, name, file.string()));
  };
  for (const io::History& h : b)
    if (!in_a.contains(h.name)) throw only_in(file_b, h.name);
  for (const io::History& h : a)
    if (!in_b.contains(h.name)) throw only_in(file_a, h.name);
  for (const io::History& hb : b) {
    const io::History& ha = *in_a.at(hb.name);
    HistoryDifference d = history_difference(ha, hb);
    NSCD_THROW_UNLESS(d.samples > 0,
                      "{} and {}: {} \"{}\": expected a common output time, found times [{}, {}] s and [{}, {}] s",
                      file_a.string(), file_b.string(), quantity, hb.name, ha.times.front(), ha.times.back(),
                      hb.times.front(), hb.times.back());
    d.quantity = quantity;
    d.name = hb.name;
    rows.push_back(std::move(d));
  }
}

using Stages = std::vector<std::pair<std::string, double>>;

// the stages with free_motion counted in detection, as older run.json files (without a
// free_motion stage) count it; detection is then named "free_motion+detection"
Stages free_motion_in_detection(const Stages& stages) {
  double free_motion = 0;
  for (const auto& [name, seconds] : stages)
    if (name == "free_motion") free_motion = seconds;
  Stages merged;
  for (const auto& [name, seconds] : stages) {
    if (name == "detection") merged.emplace_back("free_motion+detection", seconds + free_motion);
    else if (name != "free_motion") merged.emplace_back(name, seconds);
  }
  return merged;
}

}  // namespace

std::optional<double> HistoryDifference::relative() const {
  if (norm_b == 0) return std::nullopt;
  return l2_difference / norm_b;
}

HistoryDifference history_difference(const io::History& a, const io::History& b) {
  HistoryDifference d;
  const double tol = 1e-9 * (b.times.back() - b.times.front());
  const double lo = std::max(a.times.front(), b.times.front()) - tol;
  const double hi = std::min(a.times.back(), b.times.back()) + tol;
  double sum_a = 0, sum_b = 0, sum_difference = 0;
  std::size_t j = 0;  // A's last output at or before t (within tol)
  for (std::size_t k = 0; k < b.times.size(); ++k) {
    const double t = b.times[k];
    if (t < lo || t > hi) continue;
    while (j + 1 < a.times.size() && a.times[j + 1] <= t + tol) ++j;
    Vec3 ak = a.values[j];
    if (std::abs(a.times[j] - t) > tol) {  // a.times[j] < t < a.times[j + 1]
      const double w = (t - a.times[j]) / (a.times[j + 1] - a.times[j]);
      ak = (1 - w) * a.values[j] + w * a.values[j + 1];
      d.interpolated = true;
    }
    const double difference = (ak - b.values[k]).norm();
    if (d.samples++ == 0) d.t_first = t;
    d.t_last = t;
    sum_a += ak.squaredNorm();
    sum_b += b.values[k].squaredNorm();
    sum_difference += difference * difference;
    d.max_abs_difference = std::max(d.max_abs_difference, difference);
  }
  d.norm_a = std::sqrt(sum_a);
  d.norm_b = std::sqrt(sum_b);
  d.l2_difference = std::sqrt(sum_difference);
  return d;
}

std::vector<HistoryDifference> compare_runs(const io::RunOutput& a, const io::RunOutput& b) {
  std::vector<HistoryDifference> rows;
  compare_histories("probe", a.probes, b.probes, a.dir / "probes.csv", b.dir / "probes.csv", rows);
  compare_histories("body", displacements(a.bodies), displacements(b.bodies), a.dir / "bodies.csv",
                    b.dir / "bodies.csv", rows);
  return rows;
}

bool has_free_motion(const io::RunOutput& run) {
  return std::any_of(run.stage_seconds.begin(), run.stage_seconds.end(),
                     [](const auto& stage) { return stage.first == "free_motion"; });
}

std::vector<WallTimeRate> wall_time_rates(const io::RunOutput& a, const io::RunOutput& b) {
  for (const io::RunOutput* run : {&a, &b})
    NSCD_THROW_UNLESS(run->simulated_time > 0,
                      "{}: simulated_time 0: expected a run that completed at least one step, to compare its "
                      "wall times per simulated second",
                      (run->dir / "run.json").string());
  const bool separate = has_free_motion(a) && has_free_motion(b);
  const Stages stages_a = separate ? a.stage_seconds : free_motion_in_detection(a.stage_seconds);
  const Stages stages_b = separate ? b.stage_seconds : free_motion_in_detection(b.stage_seconds);
  std::vector<WallTimeRate> rates{{"total", a.wall_seconds / a.simulated_time, b.wall_seconds / b.simulated_time}};
  for (std::size_t i = 0; i < stages_b.size(); ++i)
    rates.push_back({stages_b[i].first, stages_a[i].second / a.simulated_time, stages_b[i].second / b.simulated_time});
  return rates;
}

}  // namespace nscd::app
