#include "ffr/shape_functions.hpp"

#include "nscd/core/error.hpp"

#include <array>
#include <cmath>

namespace nscd::ffr {
namespace {

// reference node positions of the Hex8 in VTK order, eq. (1)
constexpr std::array<std::array<double, 3>, 8> kHexNodes = {{{-1, -1, -1},
                                                            {1, -1, -1},
                                                            {1, 1, -1},
                                                            {-1, 1, -1},
                                                            {-1, -1, 1},
                                                            {1, -1, 1},
                                                            {1, 1, 1},
                                                            {-1, 1, 1}}};

std::array<QuadraturePoint, 8> hex_rule() {
  const double g = 1.0 / std::sqrt(3.0);
  std::array<QuadraturePoint, 8> rule;
  for (int k = 0; k < 8; ++k)
    rule[k] = {Vec3(g * kHexNodes[k][0], g * kHexNodes[k][1], g * kHexNodes[k][2]), 1.0};
  return rule;
}

std::array<QuadraturePoint, 4> tet_rule() {
  const double a = (5.0 + 3.0 * std::sqrt(5.0)) / 20.0;
  const double b = (5.0 - std::sqrt(5.0)) / 20.0;
  const double w = 1.0 / 24.0;
  return {{{Vec3(b, b, b), w}, {Vec3(a, b, b), w}, {Vec3(b, a, b), w}, {Vec3(b, b, a), w}}};
}

}  // namespace

std::span<const QuadraturePoint> gauss_rule(CellType type) {
  static const std::array<QuadraturePoint, 8> hex = hex_rule();
  static const std::array<QuadraturePoint, 4> tet = tet_rule();
  if (type == CellType::Hex8) return hex;
  return tet;
}

Vec3 reference_centre(CellType type) {
  return type == CellType::Hex8 ? Vec3::Zero() : Vec3::Constant(0.25);
}

ShapeValues shape_values(CellType type, const Vec3& xi) {
  ShapeValues N(nodes_per_cell(type));
  if (type == CellType::Hex8) {
    // eq. (1)
    for (int a = 0; a < 8; ++a)
      N(a) = 0.125 * (1 + kHexNodes[a][0] * xi.x()) * (1 + kHexNodes[a][1] * xi.y()) *
             (1 + kHexNodes[a][2] * xi.z());
  } else {
    // eq. (2)
    N << 1.0 - xi.x() - xi.y() - xi.z(), xi.x(), xi.y(), xi.z();
  }
  return N;
}

ShapeGradients shape_derivatives(CellType type, const Vec3& xi) {
  ShapeGradients dN(nodes_per_cell(type), 3);
  if (type == CellType::Hex8) {
    // derivatives of eq. (1), one factor at a time
    for (int a = 0; a < 8; ++a) {
      const double sx = kHexNodes[a][0], sy = kHexNodes[a][1], sz = kHexNodes[a][2];
      const double fx = 1 + sx * xi.x(), fy = 1 + sy * xi.y(), fz = 1 + sz * xi.z();
      dN(a, 0) = 0.125 * sx * fy * fz;
      dN(a, 1) = 0.125 * fx * sy * fz;
      dN(a, 2) = 0.125 * fx * fy * sz;
    }
  } else {
    // eq. (2): constant
    dN << -1, -1, -1, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  }
  return dN;
}

Mat3 jacobian(const Mesh& mesh, int c, const ShapeGradients& dN_dxi) {
  // J_ij = Σ_a X_a,i ∂N_a/∂ξ_j, eq. (3)
  Mat3 J = Mat3::Zero();
  const auto nodes = mesh.cell(c);
  for (std::size_t a = 0; a < nodes.size(); ++a)
    J += mesh.nodes[nodes[a]] * dN_dxi.row(static_cast<Eigen::Index>(a));
  return J;
}

CellQuadrature cell_quadrature(const Mesh& mesh) {
  const auto rule = gauss_rule(mesh.type);
  CellQuadrature cq;
  cq.type = mesh.type;
  cq.nq = static_cast<int>(rule.size());
  std::vector<ShapeGradients> dN_dxi;
  for (const QuadraturePoint& p : rule) {
    cq.N.push_back(shape_values(mesh.type, p.xi));
    dN_dxi.push_back(shape_derivatives(mesh.type, p.xi));
  }

  // ∂N/∂X = ∂N/∂ξ J⁻¹ (row form of eq. 3), dV = det J w
  const std::size_t n = static_cast<std::size_t>(mesh.ncells()) * rule.size();
  cq.dN_dX.resize(n);
  cq.dV.resize(n);
  for (int c = 0; c < mesh.ncells(); ++c) {
    for (int q = 0; q < cq.nq; ++q) {
      const Mat3 J = jacobian(mesh, c, dN_dxi[q]);
      const double det = J.determinant();
      if (!(det > 0.0))
        throw Error(fmt::format("ffr: cell {} has det J = {} at quadrature point {} (unchecked mesh)",
                                c, det, q));
      const std::size_t k = static_cast<std::size_t>(c) * cq.nq + q;
      cq.dN_dX[k] = dN_dxi[q] * J.inverse();
      cq.dV[k] = det * rule[q].weight;
    }
  }
  return cq;
}

}  // namespace nscd::ffr
