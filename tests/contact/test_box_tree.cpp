// The bounding-volume hierarchy of contact/box_tree.hpp against testing every box.

#include "contact/box_tree.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace nscd::contact {
namespace {

TEST(BoxTree, FindsTheBoxesEveryTestFindsInIncreasingOrder) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> corner(-1.0, 1.0), size(0.0, 0.2);
  auto random_box = [&](double scale) {
    const Vec3 lo(corner(random), corner(random), corner(random));
    return std::pair(lo, Vec3(lo + scale * Vec3(size(random), size(random), size(random))));
  };
  std::vector<Vec3> lo, hi;
  for (int i = 0; i < 500; ++i) {
    const auto [a, b] = random_box(1.0);
    lo.push_back(a);
    hi.push_back(b);
  }
  lo.push_back(Vec3(0.5, 0.5, 0.5));  // a point box, as the tree over nodes holds
  hi.push_back(lo.back());
  const BoxTree tree = box_tree(lo, hi);
  int found_in_all = 0;
  for (int q = 0; q < 300; ++q) {
    auto [q_lo, q_hi] = random_box(q % 3 == 0 ? 5.0 : 1.0);
    if (q == 0) q_lo = q_hi = Vec3(0.5, 0.5, 0.5);  // touching counts: closed boxes
    std::vector<int> expected, found = {-7};  // appended after what out holds
    for (int i = 0; i < static_cast<int>(lo.size()); ++i)
      if ((lo[i].array() <= q_hi.array()).all() && (hi[i].array() >= q_lo.array()).all()) expected.push_back(i);
    boxes_meeting(tree, q_lo, q_hi, found);
    expected.insert(expected.begin(), -7);
    EXPECT_EQ(found, expected) << "query " << q;
    found_in_all += static_cast<int>(expected.size()) - 1;
  }
  EXPECT_GT(found_in_all, 300);  // the queries do meet boxes
}

TEST(BoxTree, WithoutBoxesFindsNothing) {
  const BoxTree tree = box_tree({}, {});
  std::vector<int> found;
  boxes_meeting(tree, Vec3::Constant(-1), Vec3::Constant(1), found);
  EXPECT_TRUE(found.empty());
}

}  // namespace
}  // namespace nscd::contact
