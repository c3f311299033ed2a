#include "ffr/ffr_body.hpp"

#include "ffr/linear_elasticity.hpp"
#include "nscd/core/error.hpp"

#include <Eigen/Eigenvalues>

namespace nscd::ffr {
namespace {

// A₊⁻¹ b for every column of b
template <typename Dense>
Dense solve_columns(const Eigen::SimplicialLDLT<SparseMatrix>& factor, const Dense& b) {
  Dense x(b.rows(), b.cols());
  for (Eigen::Index c = 0; c < b.cols(); ++c) x.col(c) = factor.solve(b.col(c));
  return x;
}

}  // namespace

FfrBody make_ffr_body(Mesh mesh, const FfrMaterial& material, double h) {
  NSCD_DEMAND(h > 0 && material.density > 0 && material.young > 0);
  FfrBody body;
  body.material = material;
  body.h = h;
  const int nn = mesh.nn();
  const SparseMatrix M = consistent_mass(mesh, material.density);

  // nodal masses and the centre of mass from the x blocks of M (exact moments of the mesh)
  body.nodal_mass = Eigen::VectorXd::Zero(nn);
  Vec3 moment = Vec3::Zero();
  for (int col = 0; col < M.outerSize(); col += 3)
    for (SparseMatrix::InnerIterator it(M, col); it; ++it)
      if (it.row() % 3 == 0) {
        body.nodal_mass[it.row() / 3] += it.value();
        moment += it.value() * mesh.nodes[col / 3];
      }
  body.mass = body.nodal_mass.sum();
  if (!(body.mass > 0)) throw InputError(fmt::format("the finite-element mesh has mass {} (expected > 0)", body.mass));
  body.centre_in_input = moment / body.mass;
  for (Vec3& X : mesh.nodes) X -= body.centre_in_input;

  // first moments (M X)_k and the inertia tensor Σ_kl M_kl (X_k·X_l I − X_k X_lᵀ)
  body.first_moment = Eigen::Matrix3Xd::Zero(3, nn);
  for (int col = 0; col < M.outerSize(); col += 3)
    for (SparseMatrix::InnerIterator it(M, col); it; ++it)
      if (it.row() % 3 == 0) {
        const Vec3& Xk = mesh.nodes[it.row() / 3];
        const Vec3& Xl = mesh.nodes[col / 3];
        body.first_moment.col(it.row() / 3) += it.value() * Xl;
        body.inertia_B += it.value() * (Xk.dot(Xl) * Mat3::Identity() - Xk * Xl.transpose());
      }
  body.inertia_B = 0.5 * (body.inertia_B + body.inertia_B.transpose()).eval();
  if (!(Eigen::SelfAdjointEigenSolver<Mat3>(body.inertia_B).eigenvalues().minCoeff() > 0))
    throw InputError("the finite-element mesh has a degenerate inertia tensor (is it flat?)");
  body.inv_inertia_B = body.inertia_B.inverse();

  // A± of eq. (19) with C = α M + β K
  body.stiffness = stiffness(mesh, material.young, material.poisson);
  const SparseMatrix C = material.damping_mass * M + material.damping_stiffness * body.stiffness;
  const SparseMatrix A_plus = M + 0.5 * h * C + 0.25 * h * h * body.stiffness;
  body.explicit_matrix = M - 0.5 * h * C - 0.25 * h * h * body.stiffness;
  auto factor = std::make_shared<Eigen::SimplicialLDLT<SparseMatrix>>(A_plus);
  if (factor->info() != Eigen::Success)
    throw InputError("the finite-element mesh gives a matrix M + h/2 C + h²/4 K that is not positive definite");
  body.implicit = factor;

  // responses to 𝔸 x (Euler), E_ij (centrifugal) and the translational inertia of H̄
  const int ndof = 3 * nn;
  MatrixX3 euler(ndof, 3), mean(ndof, 3);
  Eigen::Matrix<double, Eigen::Dynamic, 9> centrifugal(ndof, 9);
  for (int k = 0; k < nn; ++k) {
    const Vec3 MX = body.first_moment.col(k);
    for (int d = 0; d < 3; ++d) {
      euler.block<3, 1>(3 * k, d) = Vec3::Unit(d).cross(MX);
      mean.block<3, 1>(3 * k, d) = body.nodal_mass[k] / body.mass * Vec3::Unit(d);
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        centrifugal.block<3, 1>(3 * k, 3 * i + j).setZero();
        centrifugal(3 * k + i, 3 * i + j) = MX[j];
      }
  }
  body.euler_response = solve_columns(*factor, euler);
  body.centrifugal_response = solve_columns(*factor, centrifugal);
  body.mean_response = solve_columns(*factor, mean);
  body.mass_matrix = M;
  body.surface = boundary_surface(mesh);
  body.mesh = std::move(mesh);
  return body;
}

MatrixX3 node_response(const FfrBody& body, int node) {
  MatrixX3 unit = MatrixX3::Zero(body.ndof(), 3);
  unit.block<3, 3>(3 * node, 0).setIdentity();
  return solve_columns(*body.implicit, unit) - body.mean_response;
}

Vec3 mass_weighted_mean(const FfrBody& body, const Eigen::Ref<const Eigen::VectorXd>& v) {
  Vec3 sum = Vec3::Zero();
  for (int k = 0; k < body.nn(); ++k) sum += body.nodal_mass[k] * v.segment<3>(3 * k);
  return sum / body.mass;
}

Vec3 relative_velocity(const FfrBody& body, const Eigen::VectorXd& lambda, int node) {
  return lambda.segment<3>(3 * node) - mass_weighted_mean(body, lambda);
}

}  // namespace nscd::ffr
