#include "ffr/linear_elasticity.hpp"

#include "ffr/assembly.hpp"
#include "ffr/shape_functions.hpp"
#include "nscd/core/error.hpp"

#include <cmath>

namespace nscd::ffr {

std::pair<double, double> lame_constants(double young, double poisson) {
  NSCD_DEMAND(young > 0.0 && poisson > -1.0 && poisson < 0.5);
  // eq. (2)
  return {young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson)), young / (2.0 * (1.0 + poisson))};
}

Eigen::SparseMatrix<double> consistent_mass(const Mesh& mesh, double density) {
  const CellQuadrature cq = cell_quadrature(mesh);
  const int npc = mesh.nodes_per_cell();
  Triplets triplets;
  triplets.reserve(static_cast<std::size_t>(mesh.ncells()) * 9 * npc * npc);
  Eigen::MatrixXd Ke(3 * npc, 3 * npc);
  for (int c = 0; c < mesh.ncells(); ++c) {
    // m_ab = ∫ ρ N_a N_b dV, then m_ab I₃, eq. (1)
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(npc, npc);
    for (int q = 0; q < cq.nq; ++q)
      m.noalias() += (density * cq.dV[static_cast<std::size_t>(c) * cq.nq + q]) * cq.N[q] * cq.N[q].transpose();
    Ke.setZero();
    for (int a = 0; a < npc; ++a)
      for (int b = 0; b < npc; ++b) Ke.block<3, 3>(3 * a, 3 * b).diagonal().setConstant(m(a, b));
    add_symmetric_cell_matrix(mesh, c, Ke, triplets);
  }
  return assemble(mesh, triplets);
}

Eigen::SparseMatrix<double> stiffness(const Mesh& mesh, double young, double poisson) {
  const auto [lambda, mu] = lame_constants(young, poisson);
  const CellQuadrature cq = cell_quadrature(mesh);
  const int npc = mesh.nodes_per_cell();
  Triplets triplets;
  triplets.reserve(static_cast<std::size_t>(mesh.ncells()) * 9 * npc * npc);
  Eigen::MatrixXd Ke(3 * npc, 3 * npc);
  for (int c = 0; c < mesh.ncells(); ++c) {
    // blocks a <= b of eq. (4); the assembly mirrors the upper triangle
    Ke.setZero();
    for (int q = 0; q < cq.nq; ++q) {
      const std::size_t k = static_cast<std::size_t>(c) * cq.nq + q;
      const ShapeGradients& G = cq.dN_dX[k];
      const double dV = cq.dV[k];
      for (int a = 0; a < npc; ++a) {
        const Vec3 ga = G.row(a).transpose();
        for (int b = a; b < npc; ++b) {
          const Vec3 gb = G.row(b).transpose();
          Mat3 Kab = lambda * ga * gb.transpose() + mu * gb * ga.transpose();
          Kab.diagonal().array() += mu * ga.dot(gb);
          Ke.block<3, 3>(3 * a, 3 * b) += dV * Kab;
        }
      }
    }
    add_symmetric_cell_matrix(mesh, c, Ke, triplets);
  }
  return assemble(mesh, triplets);
}

double von_mises_of(const Mat3& s) {
  // eq. (5)
  const double d = 0.5 * ((s(0, 0) - s(1, 1)) * (s(0, 0) - s(1, 1)) + (s(1, 1) - s(2, 2)) * (s(1, 1) - s(2, 2)) +
                          (s(2, 2) - s(0, 0)) * (s(2, 2) - s(0, 0)));
  const double shear = s(0, 1) * s(0, 1) + s(1, 2) * s(1, 2) + s(2, 0) * s(2, 0);
  return std::sqrt(d + 3.0 * shear);
}

std::vector<Mat3> centre_strains(const Mesh& mesh, const Eigen::VectorXd& u) {
  NSCD_DEMAND(u.size() == 3 * mesh.nn());
  const ShapeGradients dN_dxi = shape_derivatives(mesh.type, reference_centre(mesh.type));
  std::vector<Mat3> result(static_cast<std::size_t>(mesh.ncells()));
  for (int c = 0; c < mesh.ncells(); ++c) {
    // ∇u at the centre, then ε, eq. (3)
    const ShapeGradients G = dN_dxi * jacobian(mesh, c, dN_dxi).inverse();
    const auto nodes = mesh.cell(c);
    Mat3 grad_u = Mat3::Zero();
    for (std::size_t a = 0; a < nodes.size(); ++a)
      grad_u += u.segment<3>(3 * nodes[a]) * G.row(static_cast<Eigen::Index>(a));
    result[static_cast<std::size_t>(c)] = 0.5 * (grad_u + grad_u.transpose());
  }
  return result;
}

std::vector<Mat3> centre_stresses(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u) {
  const auto [lambda, mu] = lame_constants(young, poisson);
  std::vector<Mat3> result = centre_strains(mesh, u);
  // σ of eq. (3) at each centre
  for (Mat3& e : result) e = lambda * e.trace() * Mat3::Identity() + 2.0 * mu * e;
  return result;
}

std::vector<double> von_mises(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u) {
  const std::vector<Mat3> stresses = centre_stresses(mesh, young, poisson, u);
  std::vector<double> result(stresses.size());
  for (std::size_t c = 0; c < stresses.size(); ++c) result[c] = von_mises_of(stresses[c]);
  return result;
}

}  // namespace nscd::ffr
