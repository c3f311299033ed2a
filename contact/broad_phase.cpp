#include "contact/broad_phase.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <numeric>

namespace nscd::contact::detail {
namespace {

// bodies per task of the sweep
constexpr std::size_t kSweepGrain = 256;

// axis of largest variance of the box centres
int sweep_axis(std::span<const Aabb> boxes) {
  Vec3 sum = Vec3::Zero();
  Vec3 sum2 = Vec3::Zero();
  for (const Aabb& box : boxes) {
    const Vec3 c = 0.5 * (box.lo + box.hi);
    sum += c;
    sum2 += c.cwiseProduct(c);
  }
  const double n = static_cast<double>(boxes.size());
  const Vec3 variance = sum2 / n - (sum / n).cwiseProduct(sum / n);
  Eigen::Index axis = 0;
  variance.maxCoeff(&axis);
  return static_cast<int>(axis);
}

}  // namespace

void sweep_and_prune(std::span<const Aabb> boxes, std::span<const std::uint8_t> movable,
                     std::vector<std::pair<int, int>>& pairs) {
  pairs.clear();
  const std::size_t nb = boxes.size();
  if (nb < 2) return;
  const int x = sweep_axis(boxes);
  const int y = (x + 1) % 3;
  const int z = (x + 2) % 3;

  // bodies sorted by lower bound along the sweep axis, ties by index
  std::vector<int> order(nb);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    return boxes[i].lo[x] < boxes[j].lo[x] || (boxes[i].lo[x] == boxes[j].lo[x] && i < j);
  });

  // bounds in sweep order, contiguous for the inner loop
  struct Sorted {
    double lo_x, hi_x, lo_y, hi_y, lo_z, hi_z;
    int body;
    bool movable;
  };
  std::vector<Sorted> sorted(nb);
  for (std::size_t k = 0; k < nb; ++k) {
    const Aabb& box = boxes[order[k]];
    sorted[k] = {box.lo[x], box.hi[x], box.lo[y], box.hi[y], box.lo[z], box.hi[z], order[k],
                 movable[order[k]] != 0};
  }

  // each body against the bodies that start before it ends
  tbb::enumerable_thread_specific<std::vector<std::pair<int, int>>> local;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, nb, kSweepGrain),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      auto& found = local.local();
                      for (std::size_t i = range.begin(); i != range.end(); ++i) {
                        const Sorted& s = sorted[i];
                        for (std::size_t j = i + 1; j < nb && sorted[j].lo_x <= s.hi_x; ++j) {
                          const Sorted& t = sorted[j];
                          if (t.lo_y > s.hi_y || s.lo_y > t.hi_y || t.lo_z > s.hi_z ||
                              s.lo_z > t.hi_z || !(s.movable || t.movable)) {
                            continue;
                          }
                          found.emplace_back(std::min(s.body, t.body), std::max(s.body, t.body));
                        }
                      }
                    });
  for (const auto& found : local) pairs.insert(pairs.end(), found.begin(), found.end());
}

}  // namespace nscd::contact::detail
