#include "contact/box_tree.hpp"

#include <algorithm>
#include <array>
#include <numeric>

namespace nscd::contact {
namespace {

bool meet(const Vec3& lo_a, const Vec3& hi_a, const Vec3& lo_b, const Vec3& hi_b) {
  return (lo_a.array() <= hi_b.array()).all() && (hi_a.array() >= lo_b.array()).all();
}

// builds the node over items[begin, end) at index `at` (already allocated) and its subtree
void build(BoxTree& tree, int at, int begin, int end) {
  Vec3 lo = tree.lo[tree.items[begin]], hi = tree.hi[tree.items[begin]];
  Vec3 centre_lo = lo + hi, centre_hi = centre_lo;  // twice the centres' bounds
  for (int k = begin; k < end; ++k) {
    const int i = tree.items[k];
    lo = lo.cwiseMin(tree.lo[i]);
    hi = hi.cwiseMax(tree.hi[i]);
    centre_lo = centre_lo.cwiseMin(tree.lo[i] + tree.hi[i]);
    centre_hi = centre_hi.cwiseMax(tree.lo[i] + tree.hi[i]);
  }
  tree.nodes[at] = {lo, hi, begin, end, -1};
  if (end - begin <= kBoxTreeLeaf) return;
  int axis = 0;
  (centre_hi - centre_lo).maxCoeff(&axis);
  const int middle = begin + (end - begin) / 2;
  std::nth_element(tree.items.begin() + begin, tree.items.begin() + middle, tree.items.begin() + end,
                   [&](int a, int b) {  // by centre, then by index: the same tree on every machine
                     const double ca = tree.lo[a][axis] + tree.hi[a][axis], cb = tree.lo[b][axis] + tree.hi[b][axis];
                     return ca < cb || (ca == cb && a < b);
                   });
  const int left = static_cast<int>(tree.nodes.size());
  tree.nodes.resize(tree.nodes.size() + 2);
  tree.nodes[at].left = left;
  build(tree, left, begin, middle);
  build(tree, left + 1, middle, end);
}

}  // namespace

BoxTree box_tree(std::span<const Vec3> lo, std::span<const Vec3> hi) {
  BoxTree tree;
  tree.lo.assign(lo.begin(), lo.end());
  tree.hi.assign(hi.begin(), hi.end());
  tree.items.resize(lo.size());
  std::iota(tree.items.begin(), tree.items.end(), 0);
  if (lo.empty()) return tree;
  tree.nodes.reserve(2 * lo.size() / kBoxTreeLeaf + 1);
  tree.nodes.resize(1);
  build(tree, 0, 0, static_cast<int>(lo.size()));
  return tree;
}

void boxes_meeting(const BoxTree& tree, const Vec3& lo, const Vec3& hi, std::vector<int>& out) {
  if (tree.nodes.empty()) return;
  const std::size_t first = out.size();
  std::array<int, 128> stack;  // the depth is about log2(n / kBoxTreeLeaf), far below
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const BoxTree::Node& node = tree.nodes[stack[--top]];
    if (!meet(node.lo, node.hi, lo, hi)) continue;
    if (node.left >= 0) {
      stack[top++] = node.left;
      stack[top++] = node.left + 1;
      continue;
    }
    for (int k = node.begin; k < node.end; ++k)
      if (meet(tree.lo[tree.items[k]], tree.hi[tree.items[k]], lo, hi)) out.push_back(tree.items[k]);
  }
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

}  // namespace nscd::contact
