#include "ffr/st_venant_kirchhoff.hpp"

#include "ffr/assembly.hpp"
#include "ffr/linear_elasticity.hpp"
#include "nscd/core/error.hpp"

#include <Eigen/LU>

namespace nscd::ffr {
namespace {

// deformation gradient at quadrature point k of cell c, eq. (1)
Mat3 deformation_gradient(const Mesh& mesh, int c, const ShapeGradients& G, const Eigen::VectorXd& u) {
  Mat3 F = Mat3::Identity();
  const auto nodes = mesh.cell(c);
  for (std::size_t a = 0; a < nodes.size(); ++a)
    F += u.segment<3>(3 * nodes[a]) * G.row(static_cast<Eigen::Index>(a));
  return F;
}

Mat3 green_lagrange(const Mat3& F) { return 0.5 * (F.transpose() * F - Mat3::Identity()); }

}  // namespace

void svk_internal_forces(const Mesh& mesh, const CellQuadrature& cq, double young, double poisson,
                         const Eigen::VectorXd& u, Eigen::VectorXd& f, Eigen::SparseMatrix<double>* K_T) {
  NSCD_DEMAND(u.size() == 3 * mesh.nn() && cq.dV.size() == static_cast<std::size_t>(mesh.ncells() * cq.nq));
  const auto [lambda, mu] = lame_constants(young, poisson);
  const int npc = mesh.nodes_per_cell();
  f.setZero(3 * mesh.nn());
  // a K_T of the right size keeps its storage: the cells are summed into its pattern
  const bool in_place = K_T && K_T->rows() == 3 * mesh.nn() && K_T->cols() == 3 * mesh.nn() && K_T->nonZeros() > 0;
  if (in_place) K_T->coeffs().setZero();
  Triplets triplets;
  if (K_T && !in_place) triplets.reserve(static_cast<std::size_t>(mesh.ncells()) * 9 * npc * npc);
  Eigen::MatrixXd Ke(3 * npc, 3 * npc);

  for (int c = 0; c < mesh.ncells(); ++c) {
    const auto nodes = mesh.cell(c);
    Ke.setZero();
    for (int q = 0; q < cq.nq; ++q) {
      const std::size_t k = static_cast<std::size_t>(c) * cq.nq + q;
      const ShapeGradients& G = cq.dN_dX[k];
      const double dV = cq.dV[k];

      // F, E, S, eqs. (1)–(2)
      const Mat3 F = deformation_gradient(mesh, c, G, u);
      const Mat3 E = green_lagrange(F);
      const Mat3 S = lambda * E.trace() * Mat3::Identity() + 2.0 * mu * E;

      // f_a += F S ∇N_a dV0, eq. (4)
      const Mat3 P = F * S;
      for (int a = 0; a < npc; ++a) f.segment<3>(3 * nodes[a]) += dV * (P * G.row(a).transpose());
      if (!K_T) continue;

      // blocks a <= b of eq. (5); the assembly mirrors the upper triangle
      const Mat3 FFt = F * F.transpose();
      for (int a = 0; a < npc; ++a) {
        const Vec3 ga = G.row(a).transpose();
        const Vec3 Fga = F * ga;
        for (int b = a; b < npc; ++b) {
          const Vec3 gb = G.row(b).transpose();
          const Vec3 Fgb = F * gb;
          Mat3 Kab = lambda * Fga * Fgb.transpose() + mu * Fgb * Fga.transpose() + mu * ga.dot(gb) * FFt;
          Kab.diagonal().array() += ga.dot(S * gb);
          Ke.block<3, 3>(3 * a, 3 * b) += dV * Kab;
        }
      }
    }
    if (!K_T) continue;
    if (in_place) add_symmetric_cell_matrix(mesh, c, Ke, *K_T);
    else add_symmetric_cell_matrix(mesh, c, Ke, triplets);
  }
  if (K_T && !in_place) *K_T = assemble(mesh, triplets);
}

double svk_strain_energy(const Mesh& mesh, const CellQuadrature& cq, double young, double poisson,
                         const Eigen::VectorXd& u) {
  NSCD_DEMAND(u.size() == 3 * mesh.nn() && cq.dV.size() == static_cast<std::size_t>(mesh.ncells() * cq.nq));
  const auto [lambda, mu] = lame_constants(young, poisson);
  double energy = 0.0;
  for (int c = 0; c < mesh.ncells(); ++c) {
    for (int q = 0; q < cq.nq; ++q) {
      // Ψ dV0, eq. (3)
      const std::size_t k = static_cast<std::size_t>(c) * cq.nq + q;
      const Mat3 E = green_lagrange(deformation_gradient(mesh, c, cq.dN_dX[k], u));
      const double trE = E.trace();
      energy += cq.dV[k] * (0.5 * lambda * trE * trE + mu * E.squaredNorm());
    }
  }
  return energy;
}

void svk_internal_forces(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u,
                         Eigen::VectorXd& f, Eigen::SparseMatrix<double>* K_T) {
  svk_internal_forces(mesh, cell_quadrature(mesh), young, poisson, u, f, K_T);
}

double svk_strain_energy(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u) {
  return svk_strain_energy(mesh, cell_quadrature(mesh), young, poisson, u);
}

Eigen::VectorXd svk_tangent_product(const Mesh& mesh, const CellQuadrature& cq, double young, double poisson,
                                    const Eigen::VectorXd& u, const Eigen::VectorXd& v) {
  NSCD_DEMAND(u.size() == 3 * mesh.nn() && v.size() == u.size());
  const auto [lambda, mu] = lame_constants(young, poisson);
  const int npc = mesh.nodes_per_cell();
  Eigen::VectorXd out = Eigen::VectorXd::Zero(u.size());
  for (int c = 0; c < mesh.ncells(); ++c) {
    const auto nodes = mesh.cell(c);
    for (int q = 0; q < cq.nq; ++q) {
      const std::size_t k = static_cast<std::size_t>(c) * cq.nq + q;
      const ShapeGradients& G = cq.dN_dX[k];
      // F, S of eqs. (1)–(2), ∇v and dE, dS of eq. (7)
      const Mat3 F = deformation_gradient(mesh, c, G, u);
      const Mat3 E = green_lagrange(F);
      const Mat3 S = lambda * E.trace() * Mat3::Identity() + 2.0 * mu * E;
      const Mat3 grad_v = deformation_gradient(mesh, c, G, v) - Mat3::Identity();
      const Mat3 FtG = F.transpose() * grad_v;
      const Mat3 dE = 0.5 * (FtG + FtG.transpose());
      const Mat3 dP = grad_v * S + F * (lambda * dE.trace() * Mat3::Identity() + 2.0 * mu * dE);
      for (int a = 0; a < npc; ++a) out.segment<3>(3 * nodes[a]) += cq.dV[k] * (dP * G.row(a).transpose());
    }
  }
  return out;
}

std::vector<Mat3> svk_centre_stresses(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u) {
  NSCD_DEMAND(u.size() == 3 * mesh.nn());
  const auto [lambda, mu] = lame_constants(young, poisson);
  const ShapeGradients dN_dxi = shape_derivatives(mesh.type, reference_centre(mesh.type));
  std::vector<Mat3> result(static_cast<std::size_t>(mesh.ncells()));
  for (int c = 0; c < mesh.ncells(); ++c) {
    // F, E, S at the centre, eqs. (1)–(2), then σ, eq. (6)
    const Mat3 F = deformation_gradient(mesh, c, dN_dxi * jacobian(mesh, c, dN_dxi).inverse(), u);
    const Mat3 E = green_lagrange(F);
    const Mat3 S = lambda * E.trace() * Mat3::Identity() + 2.0 * mu * E;
    result[static_cast<std::size_t>(c)] = F * S * F.transpose() / F.determinant();
  }
  return result;
}

std::vector<double> svk_von_mises(const Mesh& mesh, double young, double poisson, const Eigen::VectorXd& u) {
  const std::vector<Mat3> stresses = svk_centre_stresses(mesh, young, poisson, u);
  std::vector<double> result(stresses.size());
  for (std::size_t c = 0; c < stresses.size(); ++c) result[c] = von_mises_of(stresses[c]);
  return result;
}

}  // namespace nscd::ffr
