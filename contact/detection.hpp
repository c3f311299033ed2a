#pragma once
/// @file
/// Contact detection: a broad phase (a uniform grid of bounding boxes, with bodies much larger
/// than a cell, such as grounds and tables, tested directly; cost about linear in the number of
/// bodies, see broad_phase.hpp) and a narrow phase per shape pair:
///  - polyhedron–polyhedron: separating-axis test over face normals and edge–edge cross
///    products; for a face–face configuration the two faces are clipped on the common plane
///    (Sutherland–Hodgman) and every vertex of the intersection polygon is a contact point;
///    edge–edge and vertex–face configurations give one point;
///  - polyhedron–sphere, sphere–sphere: closest points, one contact point.
/// Each contact point lies midway between the two surfaces; its frame follows conventions C1
/// (n from a to b) and its gap C2. Pairs of two non-movable bodies (fixed or driven) are
/// skipped. Points whose gap exceeds the alert distance are dropped.
///
/// The output is sorted by (a, b, feature), so it does not depend on the broad phase order.

#include "contact/broad_phase.hpp"
#include "contact/shape.hpp"
#include "nscd/core/math.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace nscd::contact {

/// Pose of a body frame B in the world: p_WB (origin = centre of mass) and q_WB.
struct Pose {
  Vec3 p_WB = Vec3::Zero();
  Quat q_WB = Quat::Identity();
};

/// One contact point between bodies a < b.
struct ContactPoint {
  int a = 0;                 // body index
  int b = 0;                 // body index, a < b
  Vec3 p_W = Vec3::Zero();   // point midway between the surfaces [m]
  Mat3 R_WC = Mat3::Identity();  // columns (n, t1, t2), n from a to b
  double gap = 0.0;          // signed distance along n [m], > 0 separated
  std::uint64_t feature = 0; // identifies the contact within the pair (features of a and b
                             // and the polygon vertex) so that it persists across steps
};

/// Mobility of a body, as detect_contacts takes it.
enum Mobility : std::uint8_t {
  kStatic = 0,      // fixed or driven: pairs of two such bodies are skipped
  kRigid = 1,       // moves under the dynamics
  kMeshed = 2,      // moves and deforms: its contacts are found node to surface elsewhere
                    // (nscd/step/mesh_contacts.hpp), so every pair with it is skipped here
  kOnShape = 3,     // moves and deforms, a polyhedron whose contacts with other polyhedra are
                    // found here between the undeformed shapes and corrected for the deformation
                    // elsewhere (nscd/step/shape_contacts.hpp); its pairs with a sphere or a
                    // kMeshed body are skipped
};

/// Where detect_contacts puts the points of a pair of bodies.
enum class PairRoute : std::uint8_t {
  kSkipped,   // not detected here
  kContacts,  // `out`
  kOnShapes,  // `on_shapes`
};

/// The route of a pair of bodies of mobilities a and b, both polyhedra or not: skipped with a
/// kMeshed body; `out` without a kOnShape body; `on_shapes` for two polyhedra with one; skipped
/// for the other pairs with one.
PairRoute pair_route(Mobility a, Mobility b, bool polyhedra);

namespace detail {
struct NarrowPhaseBuffers;  // each thread's output and clipping buffers (detection.cpp)
}  // namespace detail

/// Buffers of the broad and narrow phases, which detect_contacts reuses from call to call: a
/// caller that detects every step keeps one (what it holds between calls means nothing). Two
/// concurrent calls need two scratches.
struct DetectionScratch {
  DetectionScratch();
  DetectionScratch(DetectionScratch&&) noexcept;
  DetectionScratch& operator=(DetectionScratch&&) noexcept;
  ~DetectionScratch();

  std::vector<detail::Aabb> boxes;         // per body, inflated by half the alert distance
  std::vector<std::pair<int, int>> pairs;  // candidate pairs
  detail::BroadPhaseScratch broad_phase;
  std::unique_ptr<detail::NarrowPhaseBuffers> narrow_phase;  // made by the first call
};

/// Detects every contact point with gap ≤ alert_distance, in the buffer of the pair's route
/// (pair_route): those of the pairs of two kStatic or kRigid bodies in `out`, those of the pairs of
/// two polyhedra with a kOnShape body and no kMeshed one in `on_shapes` (when given; else they are
/// skipped, as every other pair with a kOnShape or kMeshed body).
/// @param shapes   shape of each body (index = body index)
/// @param poses    pose of each body
/// @param movable  Mobility of each body
/// @param alert_distance [m], ≥ 0
/// @param scratch  buffers, see DetectionScratch
/// @param out      cleared, then filled sorted by (a, b, feature)
/// @param on_shapes cleared, then filled sorted alike (a pair's points of equal feature in the
///                 order collide_pair gives them); nullptr to skip those pairs
/// @throws nscd::InputError if the three spans differ in size or alert_distance < 0
void detect_contacts(std::span<const Shape> shapes, std::span<const Pose> poses,
                     std::span<const std::uint8_t> movable, double alert_distance,
                     DetectionScratch& scratch, std::vector<ContactPoint>& out,
                     std::vector<ContactPoint>* on_shapes = nullptr);

/// The same with buffers of its own, for a one-off detection, the pairs with a kOnShape body
/// skipped.
void detect_contacts(std::span<const Shape> shapes, std::span<const Pose> poses,
                     std::span<const std::uint8_t> movable, double alert_distance,
                     std::vector<ContactPoint>& out);

/// Narrow phase of one pair, appending to `out` (unsorted); exposed for tests.
/// @throws nscd::InputError unless a < b.
void collide_pair(const Shape& shape_a, const Pose& pose_a, int a, const Shape& shape_b,
                  const Pose& pose_b, int b, double alert_distance, std::vector<ContactPoint>& out);

}  // namespace nscd::contact
