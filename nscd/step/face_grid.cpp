#include "nscd/step/face_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace nscd {
namespace {

// i(x) of (1) along the grid's axis k; a NaN x falls in the first cell
int cell_of(const FaceGrid& grid, int k, double x) {
  const double i = std::floor((x - grid.origin[k]) * grid.inverse_cell[k]);
  return i > 0.0 ? static_cast<int>(std::min(i, grid.cells[k] - 1.0)) : 0;
}

// a triangle's bounding box inflated by the grid's reach in the grid's coordinates: lower
// corner, upper corner
using GridBox = std::array<std::array<double, 2>, 2>;

}  // namespace

FaceGrid face_grid(std::span<const Vec3> nodes, std::span<const std::array<int, 3>> triangles, const Vec3& normal,
                   double reach) {
  FaceGrid grid;
  int across = 0;
  normal.cwiseAbs().maxCoeff(&across);
  grid.axes = {(across + 1) % 3, (across + 2) % 3};
  grid.reach = reach;
  const std::size_t n = triangles.size();
  std::vector<GridBox> boxes(n);
  std::array<double, 2> upper;
  grid.origin.fill(std::numeric_limits<double>::infinity());
  upper.fill(-std::numeric_limits<double>::infinity());
  for (std::size_t t = 0; t < n; ++t) {
    const Vec3 &a = nodes[triangles[t][0]], &b = nodes[triangles[t][1]], &c = nodes[triangles[t][2]];
    const Vec3 lo = a.cwiseMin(b).cwiseMin(c), hi = a.cwiseMax(b).cwiseMax(c);
    for (int k = 0; k < 2; ++k) {
      boxes[t][0][k] = lo[grid.axes[k]] - reach;
      boxes[t][1][k] = hi[grid.axes[k]] + reach;
      grid.origin[k] = std::min(grid.origin[k], boxes[t][0][k]);
      upper[k] = std::max(upper[k], boxes[t][1][k]);
    }
  }
  // square cells of the mean area per triangle, at most n along an axis
  const double side = std::sqrt((upper[0] - grid.origin[0]) * (upper[1] - grid.origin[1]) / static_cast<double>(n));
  for (int k = 0; k < 2; ++k) {
    const double extent = upper[k] - grid.origin[k];
    grid.cells[k] = static_cast<int>(std::clamp(std::ceil(extent / side), 1.0, static_cast<double>(n)));
    grid.inverse_cell[k] = grid.cells[k] / extent;
  }
  // the lists, counted then filled in the triangles' order
  const int n_cells = grid.cells[0] * grid.cells[1];
  auto for_each_cell = [&](const GridBox& box, auto&& visit) {
    for (int j = cell_of(grid, 1, box[0][1]); j <= cell_of(grid, 1, box[1][1]); ++j)
      for (int i = cell_of(grid, 0, box[0][0]); i <= cell_of(grid, 0, box[1][0]); ++i) visit(i + grid.cells[0] * j);
  };
  grid.start.assign(n_cells + 2, 0);
  for (const GridBox& box : boxes) for_each_cell(box, [&](int cell) { ++grid.start[cell + 1]; });
  grid.start[n_cells + 1] = static_cast<int>(n);
  std::partial_sum(grid.start.begin(), grid.start.end(), grid.start.begin());
  grid.triangles.resize(grid.start.back());
  std::vector<int> next(grid.start.begin(), grid.start.end() - 2);
  for (std::size_t t = 0; t < n; ++t)
    for_each_cell(boxes[t], [&](int cell) { grid.triangles[next[cell]++] = static_cast<int>(t); });
  std::iota(grid.triangles.begin() + grid.start[n_cells], grid.triangles.end(), 0);
  return grid;
}

std::span<const int> grid_candidates(const FaceGrid& grid, const Vec3& X, double reach) {
  const int list = reach <= grid.reach
                       ? cell_of(grid, 0, X[grid.axes[0]]) + grid.cells[0] * cell_of(grid, 1, X[grid.axes[1]])
                       : grid.cells[0] * grid.cells[1];
  return std::span(grid.triangles).subspan(grid.start[list], grid.start[list + 1] - grid.start[list]);
}

}  // namespace nscd
