#pragma once
/// @file
/// Shapes placed in the world once per detection call (internal to nscd::contact): polyhedron
/// vertices p_WV = p_WB + R_WB p_BV, outward face normals n_W = R_WB n_B with plane offsets
/// n_W · p_WV, the distinct edge directions (the edge–edge axes of the separating-axis test
/// need one cross product per pair of directions, not per pair of edges), world AABBs, and for a
/// box (ConvexPolyhedron::box_half_size) its half edges u_k = h_k R_WB e_k, whose support
/// function h(L) = Σ_k |L · u_k| about its centre bounds the separating-axis test cheaply.

#include "contact/aabb.hpp"
#include "contact/detection.hpp"
#include "contact/shape.hpp"

#include <array>
#include <span>
#include <vector>

namespace nscd::contact::detail {

/// A convex polyhedron in W; the spans point into PosedShapes.
struct PosedPolyhedron {
  const ConvexPolyhedron* shape = nullptr;  // topology: faces (CCW loops) and edges
  std::span<const Vec3> vertices;           // p_WV
  std::span<const Vec3> normals;            // outward unit face normals in W
  std::span<const double> offsets;          // n_W · p_WV for the vertices V of each face [m]
  std::span<const Vec3> directions;         // distinct edge directions in W, unit, either sign
  std::span<const int> edge_direction;      // per edge, its index into `directions` (the shape's classes)
  double radius = 0.0;                      // bounding radius about p_WB [m]
  Vec3 centre = Vec3::Zero();               // p_WB [m]
  const std::array<Vec3, 3>* half_edges = nullptr;  // a box's u_k, else none
};

/// A sphere in W.
struct PosedSphere {
  Vec3 centre = Vec3::Zero();  // p_WB [m]
  double radius = 0.0;         // [m]
};

/// Every body's shape placed at its pose, stored contiguously.
class PosedShapes {
 public:
  /// Places every shape. @pre shapes.size() == poses.size().
  void build(std::span<const Shape> shapes, std::span<const Pose> poses);

  bool is_sphere(int body) const { return m_bodies[body].is_sphere; }
  PosedPolyhedron polyhedron(int body) const;
  PosedSphere sphere(int body) const { return {m_bodies[body].centre, m_bodies[body].radius}; }
  const Aabb& aabb(int body) const { return m_bodies[body].box; }
  int size() const { return static_cast<int>(m_bodies.size()); }

 private:
  struct Body {
    const ConvexPolyhedron* shape = nullptr;
    bool is_sphere = false;
    Vec3 centre = Vec3::Zero();
    double radius = 0.0;
    Aabb box;
    std::size_t first_vertex = 0, first_face = 0, first_direction = 0;
    std::array<Vec3, 3> half_edges;  // boxes only
  };
  std::vector<Body> m_bodies;
  std::vector<Vec3> m_vertices;
  std::vector<Vec3> m_normals;
  std::vector<double> m_offsets;
  std::vector<Vec3> m_directions;
};

}  // namespace nscd::contact::detail
