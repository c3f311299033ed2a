#pragma once
/// @file
/// Rigid shapes in their body frame B, whose origin is the centre of mass (conventions).
///  - ConvexPolyhedron: vertices, faces as vertex loops counter-clockwise seen from outside,
///    outward unit face normals, unique edges.
///  - Sphere: radius.
/// Shapes are built once (immutable); poses are passed in by the caller.

#include "nscd/core/math.hpp"

#include <array>
#include <optional>
#include <variant>
#include <vector>

namespace nscd::contact {

/// Convex polyhedron in its own frame.
struct ConvexPolyhedron {
  std::vector<Vec3> vertices;
  std::vector<std::vector<int>> faces;  // CCW seen from outside; coplanar facets merged
  std::vector<Vec3> face_normals;       // outward, unit, aligned with faces
  std::vector<std::array<int, 2>> edges;
  std::vector<int> edge_direction;      // per edge, its direction class: edges parallel (either sign)
                                        // within ~1.4e-6 rad share one
  std::vector<int> direction_edge;      // per direction class, its first edge
  std::optional<Vec3> box_half_size;    // a box centred on the origin (make_box): its half edge lengths;
                                        // its faces are then −e_0, +e_0, −e_1, +e_1, −e_2, +e_2, in order
};

/// Sphere centred on the frame origin.
struct Sphere {
  double radius = 0.0;
};

using Shape = std::variant<ConvexPolyhedron, Sphere>;

/// Axis-aligned box of edge lengths `size`, centred on the origin. @pre size > 0.
ConvexPolyhedron make_box(const Vec3& size);

/// Convex hull of `points` (Qhull), coplanar facets merged into polygons.
/// @throws nscd::InputError if fewer than 4 points or the points are coplanar or collinear
///         (zero volume); the message says what was found.
ConvexPolyhedron convex_hull(const std::vector<Vec3>& points);

/// The same polyhedron with every vertex moved by `offset` (to put the origin at the centroid).
ConvexPolyhedron translated(const ConvexPolyhedron& poly, const Vec3& offset);

/// Radius of the smallest origin-centred sphere that contains the shape [m].
double bounding_radius(const Shape& shape);

}  // namespace nscd::contact
