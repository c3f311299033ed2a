#pragma once
/// @file
/// The cell holding a point of the reference configuration and the point's shape-function
/// weights, so that nodal fields can be interpolated there (probes at material points):
///
///  (1) find ξ with X(ξ) = Σ_a N_a(ξ) X_a = X by Newton's method, J(ξ) Δξ = X − X(ξ)
///      (shape_functions.hpp eq. 3), from the cell's reference centre;
///  (2) the point is in the cell when ξ lies in the reference cell up to 1e-9 (points on a
///      shared face belong to the first such cell, in cell order).

#include "ffr/mesh.hpp"

#include <optional>
#include <vector>

namespace nscd::ffr {

/// Nodes of the cell holding a point and the weights N_a of eq. (1) (summing to 1).
struct PointWeights {
  int cell = -1;
  std::vector<int> nodes;
  std::vector<double> weights;
};

/// Eqs. (1)–(2) for the reference point X [m]; nothing when no cell holds it.
std::optional<PointWeights> locate_point(const Mesh& mesh, const Vec3& X);

}  // namespace nscd::ffr
