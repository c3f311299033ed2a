#include "ffr/point_location.hpp"

#include "ffr/shape_functions.hpp"

#include <Eigen/LU>

namespace nscd::ffr {
namespace {

// tolerance on reference coordinates for a point on a cell's boundary
constexpr double kInsideTolerance = 1e-9;
constexpr int kNewtonIterations = 30;

bool inside_reference_cell(CellType type, const Vec3& xi) {
  if (type == CellType::Hex8) return (xi.array().abs() <= 1 + kInsideTolerance).all();
  return (xi.array() >= -kInsideTolerance).all() && xi.sum() <= 1 + kInsideTolerance;
}

}  // namespace

std::optional<PointWeights> locate_point(const Mesh& mesh, const Vec3& X) {
  for (int c = 0; c < mesh.ncells(); ++c) {
    const std::span<const int> cell = mesh.cell(c);
    Vec3 lo = mesh.nodes[cell[0]], hi = lo;
    for (const int a : cell) lo = lo.cwiseMin(mesh.nodes[a]), hi = hi.cwiseMax(mesh.nodes[a]);
    const double slack = kInsideTolerance * (hi - lo).norm();
    if ((X.array() < lo.array() - slack).any() || (X.array() > hi.array() + slack).any()) continue;
    Vec3 xi = reference_centre(mesh.type);
    for (int iteration = 0; iteration < kNewtonIterations; ++iteration) {
      const ShapeValues N = shape_values(mesh.type, xi);
      Vec3 x = Vec3::Zero();
      for (std::size_t a = 0; a < cell.size(); ++a) x += N[static_cast<Eigen::Index>(a)] * mesh.nodes[cell[a]];
      xi += jacobian(mesh, c, shape_derivatives(mesh.type, xi)).lu().solve(X - x);
    }
    if (!inside_reference_cell(mesh.type, xi)) continue;
    const ShapeValues N = shape_values(mesh.type, xi);
    PointWeights out;
    out.cell = c;
    for (std::size_t a = 0; a < cell.size(); ++a) {
      out.nodes.push_back(cell[a]);
      out.weights.push_back(N[static_cast<Eigen::Index>(a)]);
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace nscd::ffr
