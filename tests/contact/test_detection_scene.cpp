#include "contact/detection.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <random>
#include <tuple>

namespace nscd::contact {
namespace {

struct Scene {
  std::vector<Shape> shapes;
  std::vector<Pose> poses;
  std::vector<std::uint8_t> movable;
};

// 200 spheres of radii 0.05–0.15 in a 2 m cube, every tenth one fixed
Scene random_spheres() {
  Scene s;
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> pos(0.0, 2.0);
  std::uniform_real_distribution<double> rad(0.05, 0.15);
  for (int i = 0; i < 200; ++i) {
    s.shapes.push_back(Sphere{rad(rng)});
    s.poses.push_back(Pose{Vec3(pos(rng), pos(rng), pos(rng)), Quat::Identity()});
    s.movable.push_back(i % 10 == 0 ? 0 : 1);
  }
  return s;
}

// a running-bond wall of 0.4 × 0.2 × 0.1 bricks on a fixed ground, slightly perturbed, and
// spheres resting on its top
Scene wall() {
  Scene s;
  s.shapes.push_back(make_box(Vec3(6.0, 2.0, 0.2)));
  s.poses.push_back(Pose{Vec3(0.0, 0.0, -0.1), Quat::Identity()});
  s.movable.push_back(0);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> jitter(-1e-3, 1e-3);
  const Shape brick = make_box(Vec3(0.4, 0.2, 0.1));
  for (int row = 0; row < 10; ++row) {
    for (int k = 0; k < 8; ++k) {
      const double x = -1.6 + 0.4 * k + (row % 2 ? 0.2 : 0.0);
      s.shapes.push_back(brick);
      s.poses.push_back(Pose{Vec3(x + jitter(rng), jitter(rng), 0.05 + 0.1 * row + jitter(rng)),
                             exp_map(Vec3(jitter(rng), jitter(rng), jitter(rng)))});
      s.movable.push_back(1);
    }
  }
  for (int k = 0; k < 10; ++k) {
    s.shapes.push_back(Sphere{0.05});
    s.poses.push_back(Pose{Vec3(-1.5 + 0.3 * k, 0.0, 1.05 + jitter(rng)), Quat::Identity()});
    s.movable.push_back(1);
  }
  return s;
}

std::vector<ContactPoint> detect(const Scene& s, double alert) {
  std::vector<ContactPoint> out;
  detect_contacts(s.shapes, s.poses, s.movable, alert, out);
  return out;
}

// bitwise equality: the same computation on the same data, whatever the order of the pairs
void expect_identical(const std::vector<ContactPoint>& x, const std::vector<ContactPoint>& y) {
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    EXPECT_EQ(std::tie(x[k].a, x[k].b, x[k].feature, x[k].gap),
              std::tie(y[k].a, y[k].b, y[k].feature, y[k].gap));
    EXPECT_EQ(x[k].p_W, y[k].p_W);
    EXPECT_EQ(x[k].R_WC, y[k].R_WC);
  }
}

TEST(DetectionScene, SpheresMatchBruteForce) {
  const Scene s = random_spheres();
  const double alert = 0.02;
  std::vector<ContactPoint> brute;
  for (int a = 0; a < 200; ++a) {
    for (int b = a + 1; b < 200; ++b) {
      if (s.movable[a] || s.movable[b]) {
        collide_pair(s.shapes[a], s.poses[a], a, s.shapes[b], s.poses[b], b, alert, brute);
      }
    }
  }
  const auto out = detect(s, alert);
  // the scene is dense enough to exercise the broad phase
  EXPECT_GT(out.size(), 50u);
  expect_identical(out, brute);
}

TEST(DetectionScene, SortedAndIndependentOfThreadCount) {
  const Scene s = wall();
  std::vector<ContactPoint> one, two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = detect(s, 0.01);
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = detect(s, 0.01);
  }
  expect_identical(one, two);
  for (std::size_t k = 0; k < one.size(); ++k) {
    EXPECT_LT(one[k].a, one[k].b);
    if (k > 0) {
      EXPECT_LT(std::tie(one[k - 1].a, one[k - 1].b, one[k - 1].feature),
                std::tie(one[k].a, one[k].b, one[k].feature));
    }
  }
}

TEST(DetectionScene, WallContactsAreFaceContacts) {
  const Scene s = wall();
  const auto out = detect(s, 0.01);
  // 80 bricks: bed joints, head joints and the ground, each with ≥ 2 points; spheres on top
  EXPECT_GT(out.size(), 400u);
  for (const ContactPoint& cp : out) {
    // joints are within the 1 mm jitter of exact, normals within its ~2e-3 rad tilts
    EXPECT_LT(std::abs(cp.gap), 0.01) << cp.a << "-" << cp.b;
    EXPECT_GT(cp.R_WC.col(0).cwiseAbs().maxCoeff(), 1.0 - 1e-4) << cp.a << "-" << cp.b;
  }
}

// the wall with its spheres, every third brick kOnShape and every seventh kMeshed: the pairs of a
// kOnShape body and a polyhedron without a kMeshed one, collided one by one, in (a, b, feature)
// order; the others in `rigid`
void brute_force_by_route(const Scene& s, double alert, std::vector<ContactPoint>& rigid,
                          std::vector<ContactPoint>& on_shapes) {
  const int nb = static_cast<int>(s.shapes.size());
  auto sphere = [&](int i) { return std::holds_alternative<Sphere>(s.shapes[i]); };
  for (int a = 0; a < nb; ++a)
    for (int b = a + 1; b < nb; ++b) {
      const std::uint8_t ma = s.movable[a], mb = s.movable[b];
      if (ma == kMeshed || mb == kMeshed || (ma == kStatic && mb == kStatic)) continue;
      if (ma != kOnShape && mb != kOnShape)
        collide_pair(s.shapes[a], s.poses[a], a, s.shapes[b], s.poses[b], b, alert, rigid);
      else if (!sphere(a) && !sphere(b))
        collide_pair(s.shapes[a], s.poses[a], a, s.shapes[b], s.poses[b], b, alert, on_shapes);
    }
  for (std::vector<ContactPoint>* points : {&rigid, &on_shapes})
    std::stable_sort(points->begin(), points->end(), [](const ContactPoint& x, const ContactPoint& y) {
      return std::tie(x.a, x.b, x.feature) < std::tie(y.a, y.b, y.feature);
    });
}

TEST(DetectionScene, PairsWithBodiesOnTheirShapesGoToTheirOwnOutput) {
  Scene s = wall();
  for (std::size_t i = 1; i + 10 < s.shapes.size(); ++i) {
    if (i % 3 == 0) s.movable[i] = kOnShape;
    if (i % 7 == 0) s.movable[i] = kMeshed;
  }
  const double alert = 0.01;
  std::vector<ContactPoint> rigid, on_shapes;
  brute_force_by_route(s, alert, rigid, on_shapes);
  for (const int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    DetectionScratch scratch;
    std::vector<ContactPoint> out, out_on_shapes;
    detect_contacts(s.shapes, s.poses, s.movable, alert, scratch, out, &out_on_shapes);
    // both outputs hold joints with the ground, between bricks and with the spheres on top
    EXPECT_GT(out.size(), 100u);
    EXPECT_GT(out_on_shapes.size(), 100u);
    expect_identical(out, rigid);
    expect_identical(out_on_shapes, on_shapes);
  }
  // without `on_shapes` those pairs are skipped
  std::vector<ContactPoint> out;
  detect_contacts(s.shapes, s.poses, s.movable, alert, out);
  expect_identical(out, rigid);
}

}  // namespace
}  // namespace nscd::contact
