#pragma once
/// @file
/// A static bounding-volume hierarchy over axis-aligned boxes [Ericson 2005, §6.1–6.2], to find
/// the boxes that meet a query box in O(log n + hits) instead of testing all n. Built once, top
/// down: a node holds the union of its items' boxes; it is split at the median of the items'
/// centres along the longest extent of those centres, until at most kBoxTreeLeaf items remain.
///
/// Node-to-surface detection (nscd/step/surface_search.hpp) keeps one over an FE body's boundary
/// nodes and one over its boundary triangles, in the reference configuration.
///
/// References: [Ericson 2005] Real-Time Collision Detection, Morgan Kaufmann.

#include "nscd/core/math.hpp"

#include <span>
#include <vector>

namespace nscd::contact {

/// The most items of a leaf.
inline constexpr int kBoxTreeLeaf = 4;

/// The hierarchy: node 0 is the root; an inner node's children are `left` and `left + 1`; a
/// leaf (left < 0) holds items[begin, end).
struct BoxTree {
  struct Node {
    Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();  // the union of its items' boxes
    int begin = 0, end = 0;                     // its items: items[begin, end)
    int left = -1;                              // first child, or −1 for a leaf
  };
  std::vector<Node> nodes;   // empty without items
  std::vector<int> items;    // item indices, grouped by leaf
  std::vector<Vec3> lo, hi;  // item i's box [lo[i], hi[i]]
};

/// The hierarchy over the boxes [lo[i], hi[i]] (same sizes; lo ≤ hi).
BoxTree box_tree(std::span<const Vec3> lo, std::span<const Vec3> hi);

/// Appends to `out`, in increasing order, the items whose boxes meet the closed box [lo, hi]
/// (those with lo_i ≤ hi and hi_i ≥ lo along every axis).
void boxes_meeting(const BoxTree& tree, const Vec3& lo, const Vec3& hi, std::vector<int>& out);

}  // namespace nscd::contact
