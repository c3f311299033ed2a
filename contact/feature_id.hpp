#pragma once
/// @file
/// Packing of ContactPoint::feature (internal to nscd::contact). The id is a plain bit field,
/// without hashing, so it is equal on two steps exactly when the same features touch:
///
///   bits 62–63  kind: 0 face clipping, 1 edge–edge, 2 one point involving a sphere
///   face clipping:  bit 61 reference face on body b; bits 45–60 reference face;
///                   bits 29–44 incident face; bits 0–28 clip vertex (clip_polygon.hpp)
///   edge–edge:      bits 30–59 edge of a; bits 0–29 edge of b
///   sphere:         0 (one point per pair)

#include <cstdint>

namespace nscd::contact::detail {

constexpr std::uint64_t kFaceBits = 16;
constexpr std::uint64_t kEdgeBits = 30;

constexpr std::uint64_t face_clip_feature(bool reference_is_b, int reference_face,
                                          int incident_face, std::uint32_t clip_vertex) {
  constexpr std::uint64_t kFaceMask = (std::uint64_t{1} << kFaceBits) - 1;
  return (std::uint64_t{reference_is_b} << 61) |
         ((static_cast<std::uint64_t>(reference_face) & kFaceMask) << 45) |
         ((static_cast<std::uint64_t>(incident_face) & kFaceMask) << 29) |
         (clip_vertex & ((std::uint64_t{1} << 29) - 1));
}

constexpr std::uint64_t edge_edge_feature(int edge_a, int edge_b) {
  constexpr std::uint64_t kEdgeMask = (std::uint64_t{1} << kEdgeBits) - 1;
  return (std::uint64_t{1} << 62) | ((static_cast<std::uint64_t>(edge_a) & kEdgeMask) << 30) |
         (static_cast<std::uint64_t>(edge_b) & kEdgeMask);
}

constexpr std::uint64_t kSphereFeature = std::uint64_t{2} << 62;

}  // namespace nscd::contact::detail
