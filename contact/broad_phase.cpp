#include "contact/broad_phase.hpp"

#include "nscd/core/error.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <bit>
#include <optional>

namespace nscd::contact::detail {
namespace {

using Pair = std::pair<int, int>;

// a body covering more cells than this is tested against every body
constexpr double kMaxCellsPerBody = 64.0;
// absolute cell coordinates saturate at ±kFar; relative ones at kAxisCells - 1 (21 bits)
constexpr std::int64_t kFar = std::int64_t{1} << 40;
constexpr std::int64_t kAxisCells = std::int64_t{1} << 21;
// table buckets, and small bodies tested against the large ones, per task; below kSerialEntries
// entries the tasks run on the calling thread
constexpr std::size_t kBucketsPerTask = 2048;
constexpr std::size_t kBodiesPerTask = 1024;
constexpr std::size_t kSerialEntries = 4096;

// one body in one cell: body | flags << 28, flag bit a (a < 3) if the body's lower corner is in
// this cell's layer along axis a, bit 3 if the body is movable
constexpr int kFlagShift = 28;
constexpr std::uint32_t kBodyMask = (std::uint32_t{1} << kFlagShift) - 1;
constexpr std::uint32_t kAllFlags = 0b1111;
// at most 64 entries per body must fit 32-bit offsets
constexpr std::size_t kMaxBodies = std::size_t{1} << 26;

// cell of coordinate x, saturated (NaN goes to -kFar); floor by truncation and correction
std::int64_t cell_of(double x, double inv_cell) {
  const double c = x * inv_cell;
  if (!(c > static_cast<double>(-kFar))) return -kFar;
  if (!(c < static_cast<double>(kFar))) return kFar;
  const auto t = static_cast<std::int64_t>(c);
  return static_cast<double>(t) > c ? t - 1 : t;
}

// closed boxes overlap; & rather than && for a single, better predicted branch
bool overlap(const Aabb& a, const Aabb& b) {
  const int x = static_cast<int>(a.lo.x() <= b.hi.x()) & static_cast<int>(b.lo.x() <= a.hi.x());
  const int y = static_cast<int>(a.lo.y() <= b.hi.y()) & static_cast<int>(b.lo.y() <= a.hi.y());
  const int z = static_cast<int>(a.lo.z() <= b.hi.z()) & static_cast<int>(b.lo.z() <= a.hi.z());
  return (x & y & z) != 0;
}

std::uint64_t cell_key(std::int64_t i, std::int64_t j, std::int64_t k) {
  return static_cast<std::uint64_t>(i) | static_cast<std::uint64_t>(j) << 21 |
         static_cast<std::uint64_t>(k) << 42;
}

// cell edge: the median over the movable bodies of their largest box edge; none without a
// movable body
std::optional<double> cell_edge(std::span<const Aabb> boxes, std::span<const std::uint8_t> movable,
                                std::vector<double>& extents) {
  extents.clear();
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    if (movable[i]) extents.push_back((boxes[i].hi - boxes[i].lo).maxCoeff());
  }
  if (extents.empty()) return std::nullopt;
  const auto median = extents.begin() + static_cast<std::ptrdiff_t>(extents.size() / 2);
  std::nth_element(extents.begin(), median, extents.end());
  return *median;
}

// cells covered by each body (s.cells), and the bodies split into small and large ones, those
// covering more than kMaxCellsPerBody cells; returns the lowest cell of the small bodies
std::array<std::int64_t, 3> split_by_size(std::span<const Aabb> boxes, double inv_cell,
                                          BroadPhaseScratch& s) {
  s.cells.resize(boxes.size());
  s.small.clear();
  s.large.clear();
  std::array<std::int64_t, 3> origin = {kFar, kFar, kFar};
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
    CellBox& c = s.cells[i];
    double covered = 1.0;
    for (int a = 0; a < 3; ++a) {
      c.lo[a] = cell_of(boxes[i].lo[a], inv_cell);
      c.hi[a] = cell_of(boxes[i].hi[a], inv_cell);
      covered *= static_cast<double>(c.hi[a] - c.lo[a] + 1);
    }
    if (covered > kMaxCellsPerBody) {
      s.large.push_back(i);
    } else {
      s.small.push_back(i);
      for (int a = 0; a < 3; ++a) origin[a] = std::min(origin[a], c.lo[a]);
    }
  }
  return origin;
}

// the table of cells: dense over the occupied region if that is small enough, hashed otherwise
struct GridTable {
  bool dense = true;
  std::size_t buckets = 0;
  std::size_t entries = 0;  // (body, cell) entries of the small bodies
  std::size_t nx = 0, nxy = 0;

  std::size_t bucket(std::int64_t i, std::int64_t j, std::int64_t k) const {
    if (dense) {
      return static_cast<std::size_t>(i) + nx * static_cast<std::size_t>(j) +
             nxy * static_cast<std::size_t>(k);
    }
    std::uint64_t h = cell_key(i, j, k) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 32;
    return static_cast<std::size_t>(h) & (buckets - 1);
  }
};

// small bodies' cells made relative to `origin`, saturated, and the table they need
GridTable lay_out_table(const std::array<std::int64_t, 3>& origin, BroadPhaseScratch& s) {
  std::array<std::int64_t, 3> dims = {0, 0, 0};
  GridTable t;
  for (const int i : s.small) {
    CellBox& c = s.cells[i];
    std::size_t covered = 1;
    for (int a = 0; a < 3; ++a) {
      c.lo[a] = std::min(c.lo[a] - origin[a], kAxisCells - 1);
      c.hi[a] = std::min(c.hi[a] - origin[a], kAxisCells - 1);
      dims[a] = std::max(dims[a], c.hi[a] + 1);
      covered *= static_cast<std::size_t>(c.hi[a] - c.lo[a] + 1);
    }
    t.entries += covered;
  }
  const double dense_cells =
      static_cast<double>(dims[0]) * static_cast<double>(dims[1]) * static_cast<double>(dims[2]);
  t.dense = dense_cells <= 2.0 * static_cast<double>(t.entries);
  t.buckets = t.dense ? static_cast<std::size_t>(dense_cells) : std::bit_ceil(t.entries);
  t.nx = static_cast<std::size_t>(dims[0]);
  t.nxy = t.nx * static_cast<std::size_t>(dims[1]);
  return t;
}

// counting sort of the small bodies' entries by bucket (s.start, s.entries, s.keys); filling
// backwards leaves each bucket's entries in increasing body order and start[b] at its first entry
void fill_table(const GridTable& t, std::span<const std::uint8_t> movable, BroadPhaseScratch& s) {
  s.start.assign(t.buckets + 1, 0);
  for (const int i : s.small) {
    const CellBox& c = s.cells[i];
    for (std::int64_t k = c.lo[2]; k <= c.hi[2]; ++k) {
      for (std::int64_t j = c.lo[1]; j <= c.hi[1]; ++j) {
        for (std::int64_t x = c.lo[0]; x <= c.hi[0]; ++x) ++s.start[t.bucket(x, j, k)];
      }
    }
  }
  for (std::size_t b = 1; b < t.buckets; ++b) s.start[b] += s.start[b - 1];
  s.start[t.buckets] = static_cast<std::uint32_t>(t.entries);
  s.entries.resize(t.entries);
  s.keys.resize(t.dense ? 0 : t.entries);
  for (auto it = s.small.rbegin(); it != s.small.rend(); ++it) {
    const CellBox& c = s.cells[*it];
    const std::uint32_t mover = movable[*it] ? 8 : 0;
    for (std::int64_t k = c.hi[2]; k >= c.lo[2]; --k) {
      for (std::int64_t j = c.hi[1]; j >= c.lo[1]; --j) {
        for (std::int64_t i = c.hi[0]; i >= c.lo[0]; --i) {
          const std::uint32_t flags = (i == c.lo[0]) + 2 * (j == c.lo[1]) + 4 * (k == c.lo[2]);
          const std::uint32_t e = --s.start[t.bucket(i, j, k)];
          s.entries[e] = static_cast<std::uint32_t>(*it) | (flags | mover) << kFlagShift;
          if (!t.dense) s.keys[e] = cell_key(i, j, k);
        }
      }
    }
  }
}

// pairs sharing a cell of the buckets of one task, reported from the cell of their
// intersection's minimum corner: along each axis one of the two lower corners is in this cell's
// layer
void grid_task(const GridTable& t, std::span<const Aabb> boxes, const BroadPhaseScratch& s,
               std::size_t task, std::vector<Pair>& found) {
  const bool dense = t.dense;
  const std::uint32_t* start = s.start.data();
  const std::uint32_t* entries = s.entries.data();
  const std::uint64_t* keys = s.keys.data();
  const std::size_t last = std::min(t.buckets, (task + 1) * kBucketsPerTask);
  for (std::size_t b = task * kBucketsPerTask; b < last; ++b) {
    const std::uint32_t end = start[b + 1];
    for (std::uint32_t x = start[b]; x < end; ++x) {
      const std::uint32_t ex = entries[x];
      const Aabb& box = boxes[ex & kBodyMask];
      for (std::uint32_t y = x + 1; y < end; ++y) {
        const std::uint32_t ey = entries[y];
        if ((ex | ey) >> kFlagShift == kAllFlags && (dense || keys[x] == keys[y]) &&
            overlap(box, boxes[ey & kBodyMask])) {
          found.emplace_back(static_cast<int>(ex & kBodyMask), static_cast<int>(ey & kBodyMask));
        }
      }
    }
  }
}

// small bodies of one task against every large body
void large_task(std::span<const Aabb> boxes, std::span<const std::uint8_t> movable,
                const BroadPhaseScratch& s, std::size_t task, std::vector<Pair>& found) {
  const std::size_t last = std::min(s.small.size(), (task + 1) * kBodiesPerTask);
  for (std::size_t k = task * kBodiesPerTask; k < last; ++k) {
    const int i = s.small[k];
    for (const int l : s.large) {
      if ((movable[i] || movable[l]) && overlap(boxes[i], boxes[l])) {
        found.emplace_back(std::min(i, l), std::max(i, l));
      }
    }
  }
}

// grid tasks then large-body tasks, each into its own list s.found[task], in parallel above
// kSerialEntries entries; returns the number of tasks
std::size_t run_tasks(const GridTable& t, std::span<const Aabb> boxes,
                      std::span<const std::uint8_t> movable, BroadPhaseScratch& s) {
  const std::size_t n_grid = (t.buckets + kBucketsPerTask - 1) / kBucketsPerTask;
  const std::size_t n_large =
      s.large.empty() ? 0 : (s.small.size() + kBodiesPerTask - 1) / kBodiesPerTask;
  if (s.found.size() < n_grid + n_large) s.found.resize(n_grid + n_large);
  const auto run = [&](std::size_t first, std::size_t last) {
    for (std::size_t task = first; task != last; ++task) {
      s.found[task].clear();
      if (task < n_grid) {
        grid_task(t, boxes, s, task, s.found[task]);
      } else {
        large_task(boxes, movable, s, task - n_grid, s.found[task]);
      }
    }
  };
  if (t.entries < kSerialEntries) {
    run(0, n_grid + n_large);
  } else {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n_grid + n_large, 1),
                      [&](const tbb::blocked_range<std::size_t>& r) { run(r.begin(), r.end()); });
  }
  return n_grid + n_large;
}

// the tasks' lists concatenated in task order, then the pairs of two large bodies
void gather_pairs(std::span<const Aabb> boxes, std::span<const std::uint8_t> movable,
                  const BroadPhaseScratch& s, std::size_t n_tasks, std::vector<Pair>& pairs) {
  for (std::size_t task = 0; task < n_tasks; ++task) {
    pairs.insert(pairs.end(), s.found[task].begin(), s.found[task].end());
  }
  for (std::size_t k = 0; k < s.large.size(); ++k) {
    for (std::size_t m = k + 1; m < s.large.size(); ++m) {
      const int i = s.large[k];
      const int l = s.large[m];
      if ((movable[i] || movable[l]) && overlap(boxes[i], boxes[l])) pairs.emplace_back(i, l);
    }
  }
}

}  // namespace

void find_candidate_pairs(std::span<const Aabb> boxes, std::span<const std::uint8_t> movable,
                          BroadPhaseScratch& scratch, std::vector<std::pair<int, int>>& pairs) {
  NSCD_THROW_UNLESS(boxes.size() <= kMaxBodies, "find_candidate_pairs: {} bodies, at most {}",
                    boxes.size(), kMaxBodies);
  pairs.clear();
  const std::optional<double> edge = cell_edge(boxes, movable, scratch.extents);
  if (!edge) return;
  const std::array<std::int64_t, 3> origin = split_by_size(boxes, 1.0 / *edge, scratch);
  const GridTable table = lay_out_table(origin, scratch);
  fill_table(table, movable, scratch);
  const std::size_t n_tasks = run_tasks(table, boxes, movable, scratch);
  gather_pairs(boxes, movable, scratch, n_tasks, pairs);
}

}  // namespace nscd::contact::detail
