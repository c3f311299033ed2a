#pragma once
/// @file
/// Broad phase on a uniform grid (internal to nscd::contact) [Ericson 2005 §7.1]:
///  - the cell edge is the median, over the movable bodies, of the largest edge of their boxes;
///  - a body whose box covers more than 64 cells (the ground, the walls of a container, a
///    shaking table) is "large": it is tested against every other body by box overlap;
///  - every other body is entered in each cell its box covers; cells are stored in a flat table
///    filled by counting sort (dense over the occupied region, hashed when that region would
///    need more than twice as many cells as there are entries; hashed entries keep their cell so
///    that collisions are discarded);
///  - two bodies of one cell are a candidate pair if their boxes overlap and this cell holds the
///    minimum corner of the boxes' intersection, i.e. along each axis the lower corner of one of
///    them lies in this cell's layer (a flag per entry), so each pair is reported once.
/// For bodies of similar size the cost is O(nb + k), k the number of overlapping pairs, plus
/// nb per large body. Cell coordinates saturate 2^21 cells away from the lowest box: pairs stay
/// exact for bodies that far apart, at the price of crowded border cells.
///
/// Pairs come in a fixed order (grid table order, then large bodies), independent of the number
/// of threads. The caller owns the buffers (BroadPhaseScratch) and passes them to every call.
///
/// References: [Ericson 2005] Real-Time Collision Detection, Morgan Kaufmann.

#include "contact/aabb.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace nscd::contact::detail {

/// Cells covered by a box, bounds included.
struct CellBox {
  std::array<std::int64_t, 3> lo, hi;
};

/// Buffers of find_candidate_pairs, reused from call to call so that a step allocates nothing
/// once they have grown; what they hold between calls means nothing. Two concurrent calls need
/// two scratches.
struct BroadPhaseScratch {
  std::vector<double> extents;         // largest box edge of each movable body
  std::vector<CellBox> cells;          // per body
  std::vector<int> small, large;       // body indices, increasing
  std::vector<std::uint32_t> start;    // per bucket, its first entry; one more at the end
  std::vector<std::uint32_t> entries;  // grouped by bucket, by body within a bucket
  std::vector<std::uint64_t> keys;     // cell of each entry, i | j << 21 | k << 42 (hashed table)
  std::vector<std::vector<std::pair<int, int>>> found;  // per task
};

/// Candidate pairs (a, b), a < b, whose boxes overlap (closed intervals on every axis) and of
/// which at least one is movable, each exactly once.
/// @param boxes    one box per body, already inflated by the alert distance
/// @param movable  1 for bodies moved by the dynamics, 0 for fixed or driven bodies
/// @param scratch  buffers, see BroadPhaseScratch
/// @param pairs    overwritten, in the fixed order above
/// @throws nscd::InputError with more than 2^26 bodies
void find_candidate_pairs(std::span<const Aabb> boxes, std::span<const std::uint8_t> movable,
                          BroadPhaseScratch& scratch, std::vector<std::pair<int, int>>& pairs);

}  // namespace nscd::contact::detail
