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
  NSCD_THROW_UNLESS(a.scene_sha256 == b.scene_sha256,
                    "{} and {}: expected two runs of the same scene, found different scene files ({}, SHA-256 "
                    "{}; {}, SHA-256 {})",
                    (a.dir / "run.json").string(), (b.dir / "run.json").string(), a.scene, a.scene_sha256,
                    b.scene, b.scene_sha256);
  std::vector<HistoryDifference> rows;
  compare_histories("probe", a.probes, b.probes, a.dir / "probes.csv", b.dir / "probes.csv", rows);
  compare_histories("body", displacements(a.bodies), displacements(b.bodies), a.dir / "bodies.csv",
                    b.dir / "bodies.csv", rows);
  return rows;
}

}  // namespace nscd::app
