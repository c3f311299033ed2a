// The warm start's matching (warm_start.hpp): a contact takes last step's impulse of the nearest
// remembered contact of its pair within the radius, the first in memory order among equally near
// ones, and nothing from farther or from another pair; against a scan of every remembered contact.

#include "nscd/step/warm_start.hpp"
#include "scene_builder.hpp"

#include <gtest/gtest.h>

#include <random>

namespace nscd {
namespace {

// the impulse a contact at p_A (body a's frame, a = 0 at the origin unturned) of pair (a, b) takes
// by scanning every remembered contact: the nearest within `radius`, the first of equally near ones
Vec3 scanned(const std::vector<WarmContact>& warm, int a, int b, const Vec3& p_A, double radius) {
  double best = radius * radius;
  Vec3 r = Vec3::Zero();
  for (const WarmContact& w : warm)
    if (w.a == a && w.b == b && (w.p_A - p_A).squaredNorm() < best) {
      best = (w.p_A - p_A).squaredNorm();
      r = w.r_W;
    }
  return r;
}

// initial_impulses on contacts of pair (0, 1) at the remembered points, between them (ties), at
// random and beyond the radius, with `remembered` remembered contacts per pair on a lattice of 7
// columns of equal x, spacings 2⁻⁷ and 2⁻⁶ m (exact in binary, so that the ties are exact), for
// pairs (0, 1) and (1, 2), sorted by pair as State::warm is; each contact's impulse against the
// scan. Most contacts match (fewer random ones than remembered), so the stick prediction, which
// would need the problem, is not taken.
void expect_the_scans_match(int remembered) {
  io::Scene scene = test::stone_scene(1e-3, 1e-3, 0.5);
  for (int i = 0; i < 3; ++i) test::add_box(scene, "box" + std::to_string(i), BodyKind::Rigid, Vec3(1, 1, 1), Vec3(3.0 * i, 0, 0));
  test::Simulation sim(scene);
  const double radius = 0.05 * sim.model.bodies[0].bounding_radius;  // kWarmMatchFraction of equal boxes
  constexpr double dx = 0.0078125, dy = 0.015625;
  std::vector<WarmContact>& warm = sim.state.warm;
  for (int pair = 0; pair < 2; ++pair)
    for (int k = 0; k < remembered; ++k)
      warm.push_back({pair, pair + 1, Vec3(dx * (k % 7), dy * (k / 7), 0.25), Vec3(k, pair, 1.0)});
  std::mt19937 random(5);
  std::uniform_real_distribution<double> coordinate(-0.02, 0.15);
  std::vector<Vec3> points;
  for (int k = 0; k < remembered; ++k) points.push_back(warm[k].p_A);
  points.push_back(Vec3(dx / 2, dy, 0.25));          // midway between k = 7 and 8 (along x)
  points.push_back(Vec3(3 * dx, 1.5 * dy, 0.25));    // midway between k = 10 and 17 (along y)
  points.push_back(Vec3(1.5 * dx, 1.5 * dy, 0.25));  // midway between k = 8, 9, 15 and 16
  for (int k = 0; k < remembered / 3; ++k) points.push_back(Vec3(coordinate(random), coordinate(random), 0.25 + 0.1 * coordinate(random)));
  points.push_back(Vec3(0.0, 0.0, 0.25 + 2 * radius));  // nothing within the radius
  StepWorkspace& ws = sim.workspace;
  for (const Vec3& p : points) {
    ActiveContact contact;
    contact.point.a = 0;
    contact.point.b = 1;
    contact.point.p_W = p;  // body 0 is at the origin, unturned: p_A = p_W
    ws.contacts.active.add(contact, ContactJacobian{});
  }
  initial_impulses(sim.model, sim.state, ws);
  ASSERT_EQ(ws.r0.size(), 3 * static_cast<Eigen::Index>(points.size()));
  for (std::size_t i = 0; i < points.size(); ++i)
    EXPECT_EQ(Vec3(ws.r0.segment<3>(3 * static_cast<Eigen::Index>(i))), scanned(warm, 0, 1, points[i], radius)) << i;
  // the tie between k = 7 and 8: the first in memory order
  EXPECT_EQ(Vec3(ws.r0.segment<3>(3 * remembered)), Vec3(7, 0, 1));
  EXPECT_EQ(Vec3(ws.r0.tail<3>()), Vec3::Zero());
}

// 60 remembered contacts per pair: searched along x; the other ties as well
TEST(WarmStart, TakesTheImpulseOfTheNearestRememberedContactOfThePair) {
  expect_the_scans_match(60);
}

// 12: scanned (warm_start.cpp, kScannedPair)
TEST(WarmStart, TakesTheImpulseOfTheNearestRememberedContactOfASmallPair) {
  expect_the_scans_match(12);
}

}  // namespace
}  // namespace nscd
