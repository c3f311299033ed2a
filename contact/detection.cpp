#include "contact/detection.hpp"

#include "contact/broad_phase.hpp"
#include "contact/polyhedron_polyhedron.hpp"
#include "contact/posed_shapes.hpp"
#include "contact/sphere_contacts.hpp"
#include "nscd/core/error.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>

namespace nscd::contact {

PairRoute pair_route(Mobility a, Mobility b, bool polyhedra) {
  if (a == kMeshed || b == kMeshed) return PairRoute::kSkipped;
  if (a != kOnShape && b != kOnShape) return PairRoute::kContacts;
  return polyhedra ? PairRoute::kOnShapes : PairRoute::kSkipped;
}

namespace {

// candidate pairs per narrow-phase task
constexpr std::size_t kPairGrain = 32;

// per-thread outputs and clipping buffers
struct NarrowPhaseLocal {
  std::vector<ContactPoint> contacts;
  std::vector<ContactPoint> on_shapes;
  detail::ClipScratch scratch;
};

using Locals = tbb::enumerable_thread_specific<NarrowPhaseLocal>;

// where the narrow phase put the points of one candidate pair: `count` points from `first` in
// one thread's buffer of the pair's route (none for a skipped pair)
struct PairPoints {
  PairRoute route = PairRoute::kSkipped;
  const std::vector<ContactPoint>* buffer = nullptr;
  std::size_t first = 0, count = 0;
};

}  // namespace

struct detail::NarrowPhaseBuffers {
  Locals local;
  std::vector<PairPoints> found;  // per candidate pair
};

DetectionScratch::DetectionScratch() = default;
DetectionScratch::DetectionScratch(DetectionScratch&&) noexcept = default;
DetectionScratch& DetectionScratch::operator=(DetectionScratch&&) noexcept = default;
DetectionScratch::~DetectionScratch() = default;

namespace {

// the route of bodies a and b (pair_route), kSkipped for a kOnShapes pair when those are not wanted
PairRoute route_of(const detail::PosedShapes& posed, std::span<const std::uint8_t> movable, int a, int b,
                   bool with_on_shapes) {
  const PairRoute route = pair_route(static_cast<Mobility>(movable[a]), static_cast<Mobility>(movable[b]),
                                     !posed.is_sphere(a) && !posed.is_sphere(b));
  return route == PairRoute::kOnShapes && !with_on_shapes ? PairRoute::kSkipped : route;
}

// narrow phase of bodies a < b, dispatched on their shape kinds
void collide_posed(const detail::PosedShapes& posed, int ia, int ib, int a, int b, double alert,
                   detail::ClipScratch& scratch, std::vector<ContactPoint>& out) {
  const bool sphere_a = posed.is_sphere(ia);
  const bool sphere_b = posed.is_sphere(ib);
  if (sphere_a && sphere_b) {
    detail::collide_spheres(posed.sphere(ia), a, posed.sphere(ib), b, alert, out);
  } else if (sphere_a) {
    detail::collide_polyhedron_sphere(posed.polyhedron(ib), posed.sphere(ia), a, b, false, alert,
                                      out);
  } else if (sphere_b) {
    detail::collide_polyhedron_sphere(posed.polyhedron(ia), posed.sphere(ib), a, b, true, alert,
                                      out);
  } else {
    detail::collide_polyhedra(posed.polyhedron(ia), a, posed.polyhedron(ib), b, alert, scratch,
                              out);
  }
}

// the points of the pairs of `route`, pair by pair in the order of `found` (the pairs sorted by
// (a, b)), each pair's points sorted by feature, equal features in narrow-phase order: so sorted
// by (a, b, feature) whatever the threads (C6)
void merge_sorted(const std::vector<PairPoints>& found, PairRoute route, std::vector<ContactPoint>& out) {
  std::size_t n = 0;
  for (const PairPoints& pair : found) n += pair.route == route ? pair.count : 0;
  out.clear();
  out.reserve(n);
  std::vector<std::size_t> order;
  for (const PairPoints& pair : found) {
    if (pair.route != route) continue;
    const ContactPoint* points = pair.buffer->data() + pair.first;
    // insertion sort of the pair's few points by feature: stable, and linear in clipping order
    order.resize(pair.count);
    for (std::size_t k = 0; k < pair.count; ++k) {
      std::size_t j = k;
      for (; j > 0 && points[k].feature < points[order[j - 1]].feature; --j) order[j] = order[j - 1];
      order[j] = k;
    }
    for (const std::size_t k : order) out.push_back(points[k]);
  }
}

}  // namespace

void detect_contacts(std::span<const Shape> shapes, std::span<const Pose> poses,
                     std::span<const std::uint8_t> movable, double alert_distance,
                     DetectionScratch& scratch, std::vector<ContactPoint>& out,
                     std::vector<ContactPoint>* on_shapes) {
  NSCD_THROW_UNLESS(shapes.size() == poses.size() && shapes.size() == movable.size(),
                    "detect_contacts: {} shapes, {} poses and {} movable flags differ in number",
                    shapes.size(), poses.size(), movable.size());
  NSCD_THROW_UNLESS(alert_distance >= 0.0, "detect_contacts: alert distance {} must be ≥ 0",
                    alert_distance);

  // world geometry once per body, and boxes inflated by half the alert distance
  detail::PosedShapes posed;
  posed.build(shapes, poses);
  std::vector<detail::Aabb>& boxes = scratch.boxes;
  boxes.resize(shapes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const detail::Aabb& box = posed.aabb(static_cast<int>(i));
    boxes[i] = {box.lo.array() - 0.5 * alert_distance, box.hi.array() + 0.5 * alert_distance};
  }

  // broad phase, its pairs sorted by (a, b) so that the points come out pair by pair in order
  std::vector<std::pair<int, int>>& pairs = scratch.pairs;
  detail::find_candidate_pairs(boxes, movable, scratch.broad_phase, pairs);
  std::ranges::sort(pairs);

  // narrow phase over candidate pairs, output buffers per thread, kept from call to call
  if (!scratch.narrow_phase) scratch.narrow_phase = std::make_unique<detail::NarrowPhaseBuffers>();
  Locals& local = scratch.narrow_phase->local;
  for (NarrowPhaseLocal& mine : local) {
    mine.contacts.clear();
    mine.on_shapes.clear();
  }
  std::vector<PairPoints>& found = scratch.narrow_phase->found;
  found.assign(pairs.size(), {});
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs.size(), kPairGrain),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      NarrowPhaseLocal& mine = local.local();
                      for (std::size_t k = range.begin(); k != range.end(); ++k) {
                        const auto [a, b] = pairs[k];
                        const PairRoute route = route_of(posed, movable, a, b, on_shapes != nullptr);
                        if (route == PairRoute::kSkipped) continue;
                        std::vector<ContactPoint>& output =
                            route == PairRoute::kContacts ? mine.contacts : mine.on_shapes;
                        const std::size_t first = output.size();
                        collide_posed(posed, a, b, a, b, alert_distance, mine.scratch, output);
                        found[k] = {route, &output, first, output.size() - first};
                      }
                    });
  merge_sorted(found, PairRoute::kContacts, out);
  if (on_shapes != nullptr) merge_sorted(found, PairRoute::kOnShapes, *on_shapes);
}

void detect_contacts(std::span<const Shape> shapes, std::span<const Pose> poses,
                     std::span<const std::uint8_t> movable, double alert_distance,
                     std::vector<ContactPoint>& out) {
  DetectionScratch scratch;
  detect_contacts(shapes, poses, movable, alert_distance, scratch, out);
}

void collide_pair(const Shape& shape_a, const Pose& pose_a, int a, const Shape& shape_b,
                  const Pose& pose_b, int b, double alert_distance, std::vector<ContactPoint>& out) {
  NSCD_THROW_UNLESS(a < b, "collide_pair: body indices {} and {} must satisfy a < b", a, b);
  const std::array<Shape, 2> shapes = {shape_a, shape_b};
  const std::array<Pose, 2> poses = {pose_a, pose_b};
  detail::PosedShapes posed;
  posed.build(shapes, poses);
  detail::ClipScratch scratch;
  collide_posed(posed, 0, 1, a, b, alert_distance, scratch, out);
}

}  // namespace nscd::contact
