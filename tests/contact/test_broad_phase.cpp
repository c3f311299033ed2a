#include "contact/broad_phase.hpp"
#include "contact/posed_shapes.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <array>
#include <random>

namespace nscd::contact::detail {
namespace {

struct Scene {
  std::vector<Shape> shapes;
  std::vector<Pose> poses;
  std::vector<std::uint8_t> movable;
};

// a fixed ground and 4 fixed walls around a dense pile of 3000 spheres of radii 0.03–0.09 on a
// jittered 0.1 m lattice (many overlap), every 50th sphere fixed; optionally one sphere far
// away, so that the grid table is hashed rather than dense
Scene dense_pile(bool far_sphere) {
  Scene s;
  const auto fixed_box = [&](const Vec3& size, const Vec3& centre) {
    s.shapes.push_back(make_box(size));
    s.poses.push_back(Pose{centre, Quat::Identity()});
    s.movable.push_back(0);
  };
  fixed_box(Vec3(1.7, 1.7, 0.1), Vec3(0.0, 0.0, -0.05));
  fixed_box(Vec3(0.1, 1.7, 1.5), Vec3(-0.8, 0.0, 0.75));
  fixed_box(Vec3(0.1, 1.7, 1.5), Vec3(0.8, 0.0, 0.75));
  fixed_box(Vec3(1.5, 0.1, 1.5), Vec3(0.0, -0.8, 0.75));
  fixed_box(Vec3(1.5, 0.1, 1.5), Vec3(0.0, 0.8, 0.75));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> jitter(-0.01, 0.01);
  std::uniform_real_distribution<double> radius(0.03, 0.09);
  for (int n = 0; n < 3000; ++n) {
    const int i = n % 15, j = n / 15 % 15, k = n / 225;
    s.shapes.push_back(Sphere{radius(rng)});
    s.poses.push_back(Pose{Vec3(-0.7 + 0.1 * i + jitter(rng), -0.7 + 0.1 * j + jitter(rng),
                                0.05 + 0.09 * k + jitter(rng)),
                           Quat::Identity()});
    s.movable.push_back(n % 50 == 0 ? 0 : 1);
  }
  if (far_sphere) {
    s.shapes.push_back(Sphere{0.05});
    s.poses.push_back(Pose{Vec3(-1e4, 3e3, 50.0), Quat::Identity()});
    s.movable.push_back(1);
  }
  return s;
}

// boxes inflated by half the alert distance, as in detect_contacts
std::vector<Aabb> inflated_boxes(const Scene& s, double alert) {
  PosedShapes posed;
  posed.build(s.shapes, s.poses);
  std::vector<Aabb> boxes(s.shapes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const Aabb& box = posed.aabb(static_cast<int>(i));
    boxes[i] = {box.lo.array() - 0.5 * alert, box.hi.array() + 0.5 * alert};
  }
  return boxes;
}

std::vector<std::pair<int, int>> candidates(const Scene& s, const std::vector<Aabb>& boxes) {
  std::vector<std::pair<int, int>> pairs;
  BroadPhaseScratch scratch;
  find_candidate_pairs(boxes, s.movable, scratch, pairs);
  return pairs;
}

void expect_brute_force(bool far_sphere) {
  const Scene s = dense_pile(far_sphere);
  const std::vector<Aabb> boxes = inflated_boxes(s, 0.005);
  std::vector<std::pair<int, int>> brute;
  const int nb = static_cast<int>(boxes.size());
  for (int a = 0; a < nb; ++a) {
    for (int b = a + 1; b < nb; ++b) {
      if ((s.movable[a] || s.movable[b]) && (boxes[a].lo.array() <= boxes[b].hi.array()).all() &&
          (boxes[b].lo.array() <= boxes[a].hi.array()).all()) {
        brute.emplace_back(a, b);
      }
    }
  }
  // the pile touches the ground and every wall
  EXPECT_GT(brute.size(), 10000u);
  for (int wall = 0; wall < 5; ++wall) {
    EXPECT_TRUE(std::any_of(brute.begin(), brute.end(), [&](auto p) { return p.first == wall; }));
  }
  std::vector<std::pair<int, int>> pairs = candidates(s, boxes);
  // each pair once, a < b
  for (const auto& [a, b] : pairs) EXPECT_LT(a, b);
  std::sort(pairs.begin(), pairs.end());
  EXPECT_EQ(pairs, brute);
}

TEST(BroadPhase, DensePileMatchesBruteForce) { expect_brute_force(false); }

TEST(BroadPhase, HashedGridMatchesBruteForce) { expect_brute_force(true); }

TEST(BroadPhase, IndependentOfThreadCount) {
  const Scene s = dense_pile(false);
  const std::vector<Aabb> boxes = inflated_boxes(s, 0.005);
  std::vector<std::pair<int, int>> one, two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = candidates(s, boxes);
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = candidates(s, boxes);
  }
  EXPECT_EQ(one, two);
}

// one scratch through a hashed table, a dense one and a smaller scene: stale buffers change
// nothing
TEST(BroadPhase, ScratchReusedAcrossCalls) {
  const Scene hashed = dense_pile(true);
  const Scene dense = dense_pile(false);
  Scene few = dense_pile(false);
  few.shapes.resize(400);
  few.poses.resize(400);
  few.movable.resize(400);
  BroadPhaseScratch scratch;
  for (const Scene* s : std::array<const Scene*, 3>{&hashed, &dense, &few}) {
    const std::vector<Aabb> boxes = inflated_boxes(*s, 0.005);
    std::vector<std::pair<int, int>> reused;
    find_candidate_pairs(boxes, s->movable, scratch, reused);
    EXPECT_EQ(reused, candidates(*s, boxes));
  }
}

TEST(BroadPhase, NoPairWithoutMovableBody) {
  Scene s = dense_pile(false);
  std::fill(s.movable.begin(), s.movable.end(), 0);
  EXPECT_TRUE(candidates(s, inflated_boxes(s, 0.005)).empty());
}

}  // namespace
}  // namespace nscd::contact::detail
