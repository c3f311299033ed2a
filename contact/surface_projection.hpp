#pragma once
/// @file
/// Orthogonal projection of a point on a body's surface, the geometric kernel of node-to-surface
/// contact [Lozovskiy & Dubois 2016, §3.1]: "the position of its contact point is found from the
/// orthogonal projection of the point of the first body to the surface of the second".
///
/// For a point p and a closed surface S with outward normals, the projection returns the closest
/// point q ∈ S, the signed distance
///  (1) d = ±‖p − q‖   (+ outside, − inside),
/// and the contact normal, outward from S:
///  (2) n = (p − q) / ‖p − q‖ when p is outside and q lies on an edge or a vertex of S,
///      n = the normal of the face holding q otherwise (q inside a face, or p inside S),
/// so that a point resting on a face (d ≈ 0) gets the face normal exactly.
///
/// Surfaces: a convex polyhedron (shape.hpp), a sphere, or a triangulated surface given by node
/// positions and counter-clockwise triangles (the boundary of a finite-element mesh, deformed);
/// for the latter, q is also given by the triangle's nodes and barycentric weights, so that
/// quantities defined at the nodes (velocities) can be interpolated at q.
///
/// References: [Lozovskiy & Dubois 2016] The method of a floating frame of reference for
///             non-smooth contact dynamics, Eur. J. Mech. A/Solids 58;
///             [Ericson 2005] Real-Time Collision Detection, §5.1.5 (closest point on a triangle).

#include "contact/shape.hpp"
#include "nscd/core/math.hpp"

#include <array>
#include <optional>
#include <span>
#include <vector>

namespace nscd::contact {

/// The projection of a point on a surface, in the frame the surface was given in.
struct SurfaceProjection {
  Vec3 point = Vec3::Zero();      // q, the closest point of the surface [m]
  Vec3 normal = Vec3::UnitZ();    // n of eq. (2), unit, outward
  double distance = 0.0;          // d of eq. (1) [m]
  std::array<int, 3> nodes = {-1, -1, -1};  // triangulated surfaces: the triangle holding q
  Vec3 weights = Vec3::Zero();    // barycentric weights of q on those nodes
};

/// Projection of p (body frame) on a convex polyhedron (body frame).
SurfaceProjection project_on_polyhedron(const ConvexPolyhedron& poly, const Vec3& p);

/// Projection of p on the sphere of radius r centred on the origin. p at the centre gets n = e_z.
SurfaceProjection project_on_sphere(double radius, const Vec3& p);

/// Projection of p on the closed triangulated surface (nodes, triangles counter-clockwise seen
/// from outside), or nothing when no triangle lies within max_distance of p. Ties between
/// triangles go to the first in order, so the result is deterministic.
std::optional<SurfaceProjection> project_on_triangles(std::span<const Vec3> nodes,
                                                      std::span<const std::array<int, 3>> triangles,
                                                      const Vec3& p, double max_distance);

/// A triangle with what every projection on it uses: its unit normal n = (b − a) × (c − a) / 2A,
/// twice its area 2A and its bounding box, for projecting many points on the same triangles.
struct PreparedTriangle {
  std::array<int, 3> nodes = {-1, -1, -1};
  Vec3 normal = Vec3::UnitZ();
  double twice_area = 0.0;
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();
};

/// The triangles of non-zero area among `triangles`, in their order, prepared (appended to out).
void prepare_triangles(std::span<const Vec3> nodes, std::span<const std::array<int, 3>> triangles,
                       std::vector<PreparedTriangle>& out);

/// project_on_triangles on prepared triangles, with the same result: a triangle whose bounding
/// box lies farther from p than the closest triangle so far is skipped without projecting on it.
std::optional<SurfaceProjection> project_on_triangles(std::span<const Vec3> nodes,
                                                      std::span<const PreparedTriangle> triangles,
                                                      const Vec3& p, double max_distance);

}  // namespace nscd::contact
