#pragma once
/// @file
/// Broad phase by sweep and prune (internal to nscd::contact) [Baraff 1992, Ericson 2005 §7.5]:
/// boxes are sorted by their lower bound along the axis where their centres spread most
/// (largest variance), and each box is compared with the following boxes until their lower
/// bound passes its upper bound; pairs whose boxes also overlap on the two other axes are
/// candidates. Cost O(nb log nb + k), k the number of overlaps along the sweep axis.
///
/// References: [Baraff 1992] Dynamic simulation of non-penetrating rigid bodies, PhD thesis,
///             Cornell. [Ericson 2005] Real-Time Collision Detection, Morgan Kaufmann.

#include "contact/posed_shapes.hpp"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace nscd::contact::detail {

/// Candidate pairs (a, b), a < b, whose boxes overlap and of which at least one is movable.
/// @param boxes    one box per body, already inflated by the alert distance
/// @param movable  1 for bodies moved by the dynamics, 0 for fixed or driven bodies
/// @param pairs    overwritten, in no particular order
void sweep_and_prune(std::span<const Aabb> boxes, std::span<const std::uint8_t> movable,
                     std::vector<std::pair<int, int>>& pairs);

}  // namespace nscd::contact::detail
