#pragma once
/// @file
/// Axis-aligned bounding box (internal to nscd::contact), shared by the posed shapes that
/// compute it and the broad phase that sorts it.

#include "nscd/core/math.hpp"

namespace nscd::contact::detail {

/// Axis-aligned box in W [m].
struct Aabb {
  Vec3 lo = Vec3::Zero();
  Vec3 hi = Vec3::Zero();
};

}  // namespace nscd::contact::detail
