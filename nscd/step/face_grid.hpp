#pragma once
/// @file
/// A uniform grid over the boundary triangles that lie on one face of a convex shape, to find
/// without scanning them all the triangles whose axis-aligned bounding boxes, inflated by a
/// distance `reach`, hold a point X (the candidates of the projection on the face,
/// shape_contacts.hpp).
///
/// The grid spans two body-frame coordinates, those of the face normal's two smallest components
/// (the face projects on their plane without degenerating). Triangle t is listed in every cell its
/// box [lo_t − R, hi_t + R] meets in those coordinates, R the grid's reach. The cell of a
/// coordinate x is
///   (1) i(x) = clamp(⌊(x − o) / s⌋, 0, n − 1)   (o the grid's lower corner, s the cell's size),
/// a non-decreasing function of x in floating point, as is x ↦ lo − r: for r ≤ R, X inside the box
/// [lo − r, hi + r] as evaluated in floating point has i(lo − R) ≤ i(X) ≤ i(hi + R), so X's cell
/// lists t. The lists are thus a superset of the triangles whose boxes hold X, round-off included.

#include "nscd/core/math.hpp"

#include <array>
#include <span>
#include <vector>

namespace nscd {

/// The grid of one face: cell (i, j), i along axes[0] and j along axes[1], lists in increasing
/// order the indices of the face's triangles whose bounding boxes inflated by `reach` meet it; a
/// last list holds every triangle.
struct FaceGrid {
  std::array<int, 2> axes = {0, 1};        // the body-frame coordinates of the grid
  std::array<double, 2> origin = {0, 0};   // o of (1), the lower corner [m]
  std::array<double, 2> inverse_cell = {0, 0};  // 1 / s of (1) [1/m]
  std::array<int, 2> cells = {1, 1};       // n of (1), the number of cells along each axis
  double reach = 0.0;                      // R, the boxes' inflation [m]
  std::vector<int> start;      // list k (cell i + cells[0] j, then all) is triangles[start[k], start[k + 1])
  std::vector<int> triangles;  // indices into the face's triangles
};

/// The grid over `triangles` (node indices into `nodes`, body frame; at least one) lying on a face
/// of outward normal `normal`, for reaches up to `reach` [m] (> 0), with about one cell per triangle.
FaceGrid face_grid(std::span<const Vec3> nodes, std::span<const std::array<int, 3>> triangles, const Vec3& normal,
                   double reach);

/// The indices, in increasing order, of the triangles to test for a bounding box inflated by
/// `reach` holding X (body frame): those of X's cell when reach ≤ grid.reach, else all.
std::span<const int> grid_candidates(const FaceGrid& grid, const Vec3& X, double reach);

}  // namespace nscd
