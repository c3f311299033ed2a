#include "contact/broad_phase.hpp"

#include "nscd/core/error.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <bit>

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

// cells covered by a box, bounds included
struct CellBox {
  std::array<std::int64_t, 3> lo, hi;
};

// one body in one cell: body | flags << 28, flag bit a (a < 3) if the body's lower corner is in
// this cell's layer along axis a, bit 3 if the body is movable
constexpr int kFlagShift = 28;
constexpr std::uint32_t kBodyMask = (std::uint32_t{1} << kFlagShift) - 1;
constexpr std::uint32_t kAllFlags = 0b1111;
// at most 64 entries per body must fit 32-bit offsets
constexpr std::size_t kMaxBodies = std::size_t{1} << 26;

// buffers reused from call to call
struct Scratch {
  std::vector<double> extents;
  std::vector<CellBox> cells;             // per body
  std::vector<int> small, large;          // body indices, increasing
  std::vector<std::uint32_t> start;       // per bucket, its first entry; one more at the end
  std::vector<std::uint32_t> entries;     // grouped by bucket, by body within a bucket
  std::vector<std::uint64_t> keys;        // cell of each entry, i | j << 21 | k << 42 (hashed)
  std::vector<std::vector<Pair>> found;   // per task
};

thread_local Scratch t_scratch;

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

}  // namespace

void find_candidate_pairs(std::span<const Aabb> boxes, std::span<const std::uint8_t> movable,
                          std::vector<std::pair<int, int>>& pairs) {
  NSCD_THROW_UNLESS(boxes.size() <= kMaxBodies, "find_candidate_pairs: {} bodies, at most {}",
                    boxes.size(), kMaxBodies);
  pairs.clear();
  const int nb = static_cast<int>(boxes.size());
  Scratch& s = t_scratch;

  // cell edge: median over the movable bodies of their largest box edge
  s.extents.clear();
  for (int i = 0; i < nb; ++i) {
    if (movable[i]) s.extents.push_back((boxes[i].hi - boxes[i].lo).maxCoeff());
  }
  if (s.extents.empty()) return;
  const auto median = s.extents.begin() + static_cast<std::ptrdiff_t>(s.extents.size() / 2);
  std::nth_element(s.extents.begin(), median, s.extents.end());
  const double inv_cell = 1.0 / *median;

  // cells covered by each body; bodies covering too many are large
  s.cells.resize(static_cast<std::size_t>(nb));
  s.small.clear();
  s.large.clear();
  std::array<std::int64_t, 3> origin = {kFar, kFar, kFar};
  for (int i = 0; i < nb; ++i) {
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

  // small bodies' cells relative to the lowest one, saturated; grid dimensions and entries
  std::array<std::int64_t, 3> dims = {0, 0, 0};
  std::size_t n_entries = 0;
  for (const int i : s.small) {
    CellBox& c = s.cells[i];
    std::size_t covered = 1;
    for (int a = 0; a < 3; ++a) {
      c.lo[a] = std::min(c.lo[a] - origin[a], kAxisCells - 1);
      c.hi[a] = std::min(c.hi[a] - origin[a], kAxisCells - 1);
      dims[a] = std::max(dims[a], c.hi[a] + 1);
      covered *= static_cast<std::size_t>(c.hi[a] - c.lo[a] + 1);
    }
    n_entries += covered;
  }

  // table: dense over the occupied region if that is small enough, hashed otherwise
  const double dense_cells =
      static_cast<double>(dims[0]) * static_cast<double>(dims[1]) * static_cast<double>(dims[2]);
  const bool dense = dense_cells <= 2.0 * static_cast<double>(n_entries);
  const std::size_t table =
      dense ? static_cast<std::size_t>(dense_cells) : std::bit_ceil(n_entries);
  const auto nx = static_cast<std::size_t>(dims[0]);
  const auto nxy = nx * static_cast<std::size_t>(dims[1]);
  const auto bucket = [&](std::int64_t i, std::int64_t j, std::int64_t k) -> std::size_t {
    if (dense) {
      return static_cast<std::size_t>(i) + nx * static_cast<std::size_t>(j) +
             nxy * static_cast<std::size_t>(k);
    }
    std::uint64_t h = cell_key(i, j, k) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 32;
    return static_cast<std::size_t>(h) & (table - 1);
  };

  // counting sort of the entries by bucket; filling backwards leaves each bucket's entries in
  // increasing body order and start[b] at its first entry
  s.start.assign(table + 1, 0);
  for (const int i : s.small) {
    const CellBox& c = s.cells[i];
    for (std::int64_t k = c.lo[2]; k <= c.hi[2]; ++k) {
      for (std::int64_t j = c.lo[1]; j <= c.hi[1]; ++j) {
        for (std::int64_t x = c.lo[0]; x <= c.hi[0]; ++x) ++s.start[bucket(x, j, k)];
      }
    }
  }
  for (std::size_t b = 1; b < table; ++b) s.start[b] += s.start[b - 1];
  s.start[table] = static_cast<std::uint32_t>(n_entries);
  s.entries.resize(n_entries);
  s.keys.resize(dense ? 0 : n_entries);
  for (auto it = s.small.rbegin(); it != s.small.rend(); ++it) {
    const CellBox& c = s.cells[*it];
    const std::uint32_t mover = movable[*it] ? 8 : 0;
    for (std::int64_t k = c.hi[2]; k >= c.lo[2]; --k) {
      for (std::int64_t j = c.hi[1]; j >= c.lo[1]; --j) {
        for (std::int64_t i = c.hi[0]; i >= c.lo[0]; --i) {
          const std::uint32_t flags = (i == c.lo[0]) + 2 * (j == c.lo[1]) + 4 * (k == c.lo[2]);
          const std::uint32_t e = --s.start[bucket(i, j, k)];
          s.entries[e] = static_cast<std::uint32_t>(*it) | (flags | mover) << kFlagShift;
          if (!dense) s.keys[e] = cell_key(i, j, k);
        }
      }
    }
  }

  // pairs sharing a cell, reported from the cell of their intersection's minimum corner: along
  // each axis one of the two lower corners is in this cell's layer
  const auto grid_task = [&, dense](std::size_t task, std::vector<Pair>& found) {
    const std::uint32_t* start = s.start.data();
    const std::uint32_t* entries = s.entries.data();
    const std::uint64_t* keys = s.keys.data();
    const std::size_t last = std::min(table, (task + 1) * kBucketsPerTask);
    for (std::size_t b = task * kBucketsPerTask; b < last; ++b) {
      const std::uint32_t end = start[b + 1];
      for (std::uint32_t x = start[b]; x < end; ++x) {
        const std::uint32_t ex = entries[x];
        const Aabb& box = boxes[ex & kBodyMask];
        for (std::uint32_t y = x + 1; y < end; ++y) {
          const std::uint32_t ey = entries[y];
          if ((ex | ey) >> kFlagShift == kAllFlags && (dense || keys[x] == keys[y]) &&
              overlap(box, boxes[ey & kBodyMask])) {
            found.emplace_back(static_cast<int>(ex & kBodyMask),
                               static_cast<int>(ey & kBodyMask));
          }
        }
      }
    }
  };

  // small bodies of one task against every large body
  const auto large_task = [&](std::size_t task, std::vector<Pair>& found) {
    const std::size_t last = std::min(s.small.size(), (task + 1) * kBodiesPerTask);
    for (std::size_t k = task * kBodiesPerTask; k < last; ++k) {
      const int i = s.small[k];
      for (const int l : s.large) {
        if ((movable[i] || movable[l]) && overlap(boxes[i], boxes[l])) {
          found.emplace_back(std::min(i, l), std::max(i, l));
        }
      }
    }
  };

  // tasks, each into its own list
  const std::size_t n_grid = (table + kBucketsPerTask - 1) / kBucketsPerTask;
  const std::size_t n_large =
      s.large.empty() ? 0 : (s.small.size() + kBodiesPerTask - 1) / kBodiesPerTask;
  if (s.found.size() < n_grid + n_large) s.found.resize(n_grid + n_large);
  const auto run = [&](std::size_t first, std::size_t last) {
    for (std::size_t t = first; t != last; ++t) {
      s.found[t].clear();
      if (t < n_grid) {
        grid_task(t, s.found[t]);
      } else {
        large_task(t - n_grid, s.found[t]);
      }
    }
  };
  if (n_entries < kSerialEntries) {
    run(0, n_grid + n_large);
  } else {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n_grid + n_large, 1),
                      [&](const tbb::blocked_range<std::size_t>& r) { run(r.begin(), r.end()); });
  }

  // concatenated in task order, then the pairs of large bodies
  for (std::size_t t = 0; t < n_grid + n_large; ++t) {
    pairs.insert(pairs.end(), s.found[t].begin(), s.found[t].end());
  }
  for (std::size_t k = 0; k < s.large.size(); ++k) {
    for (std::size_t m = k + 1; m < s.large.size(); ++m) {
      const int i = s.large[k];
      const int l = s.large[m];
      if ((movable[i] || movable[l]) && overlap(boxes[i], boxes[l])) pairs.emplace_back(i, l);
    }
  }
}

}  // namespace nscd::contact::detail
