#include "ffr/ffr_body.hpp"

#include "ffr/linear_elasticity.hpp"
#include "nscd/core/error.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>

namespace nscd::ffr {
namespace {

// A₊⁻¹ b for every column of b
template <typename Dense>
Dense solve_columns(const Eigen::SimplicialLDLT<SparseMatrix>& factor, const Dense& b) {
  Dense x(b.rows(), b.cols());
  for (Eigen::Index c = 0; c < b.cols(); ++c) x.col(c) = factor.solve(b.col(c));
  return x;
}

// m, m_k, the centre of mass (the nodes moved onto it), (M X)_k and J_B from the x blocks of M
// (exact moments of the mesh)
void add_mass_properties(const SparseMatrix& M, Mesh& mesh, FfrBody& body) {
  const int nn = mesh.nn();
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
}

// eq. (R3) with θ_j = 1 on the modes with ω_j h > kResolvedOmegaH, whose entries of Â± (diagonal,
// set by add_step_matrices for θ = ½) it replaces; θ stays empty when every mode is resolved
void set_unresolved_theta(const SparseMatrix& C, SparseMatrix& A_plus, FfrBody& body) {
  const double h = body.h;
  const Eigen::VectorXd& omega2 = body.modes->omega2;
  if (std::none_of(omega2.begin(), omega2.end(), [h](double w2) { return unresolved(w2, h); })) return;
  body.theta = Eigen::VectorXd::Constant(omega2.size(), 0.5);
  for (Eigen::Index j = 0; j < omega2.size(); ++j) {
    if (!unresolved(omega2[j], h)) continue;
    body.theta[j] = 1.0;
    A_plus.coeffRef(j, j) = 1.0 + h * C.coeff(j, j) + h * h * omega2[j];
    body.explicit_matrix.coeffRef(j, j) = 1.0;
  }
}

// A± of eq. (19) with C = α M + β K, for M and K in the deformation coordinates (modal: I, Λ, eq. R1)
void add_step_matrices(const SparseMatrix& M, SparseMatrix K, FfrBody& body) {
  const FfrMaterial& material = body.material;
  const double h = body.h;
  body.stiffness = std::move(K);
  const SparseMatrix C = material.damping_mass * M + material.damping_stiffness * body.stiffness;
  SparseMatrix A_plus = M + 0.5 * h * C + 0.25 * h * h * body.stiffness;
  body.explicit_matrix = M - 0.5 * h * C - 0.25 * h * h * body.stiffness;
  if (body.modes && body.unresolved == UnresolvedModes::BackwardEuler) set_unresolved_theta(C, A_plus, body);
  auto factor = std::make_shared<Eigen::SimplicialLDLT<SparseMatrix>>(A_plus);
  if (factor->info() != Eigen::Success)
    throw InputError("the finite-element mesh gives a matrix M + h/2 C + h²/4 K that is not positive definite");
  body.implicit = factor;
  if (body.modes) body.implicit_inverse = A_plus.diagonal().cwiseInverse();
  body.mass_matrix = M;
}

// responses to 𝔸 x (Euler), E_ij (centrifugal) and the translational inertia of H̄, projected on
// Φ for a modal body (eq. R2; the mean part is 0 there)
void add_responses(FfrBody& body) {
  const int nn = body.mesh.nn(), ndof = 3 * nn;
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
  if (body.modes) {
    const ModeMatrix& phi = body.modes->phi;
    body.euler_response = solve_columns(*body.implicit, MatrixX3(phi.transpose() * euler));
    body.centrifugal_response =
        solve_columns(*body.implicit, Eigen::Matrix<double, Eigen::Dynamic, 9>(phi.transpose() * centrifugal));
    body.mean_response = MatrixX3::Zero(body.modes->size(), 3);
    return;
  }
  body.euler_response = solve_columns(*body.implicit, euler);
  body.centrifugal_response = solve_columns(*body.implicit, centrifugal);
  body.mean_response = solve_columns(*body.implicit, mean);
}

}  // namespace

FfrBody make_ffr_body(Mesh mesh, const FfrMaterial& material, double h, std::shared_ptr<const ModalBasis> modes,
                      UnresolvedModes unresolved) {
  NSCD_DEMAND(h > 0 && material.density > 0 && material.young > 0);
  NSCD_DEMAND(!modes || modes->phi.rows() == 3 * mesh.nn());
  FfrBody body;
  body.material = material;
  body.h = h;
  body.unresolved = unresolved;
  const SparseMatrix M = consistent_mass(mesh, material.density);
  add_mass_properties(M, mesh, body);
  if (modes) {
    const int k = modes->size();
    SparseMatrix identity(k, k), Lambda(k, k);
    identity.setIdentity();
    Lambda = SparseMatrix(modes->omega2.asDiagonal());
    body.modes = std::move(modes);
    add_step_matrices(identity, Lambda, body);
  } else {
    add_step_matrices(M, stiffness(mesh, material.young, material.poisson), body);
  }
  body.surface = boundary_surface(mesh);
  body.mesh = std::move(mesh);
  add_responses(body);
  return body;
}

MatrixX3 node_response(const FfrBody& body, int node) {
  if (body.modes) return body.implicit_inverse.asDiagonal() * body.modes->phi.middleRows<3>(3 * node).transpose();
  MatrixX3 unit = MatrixX3::Zero(body.ndof(), 3);
  unit.block<3, 3>(3 * node, 0).setIdentity();
  return solve_columns(*body.implicit, unit) - body.mean_response;
}

Eigen::VectorXd nodal_field(const FfrBody& body, const Eigen::VectorXd& v) {
  if (body.modes) return body.modes->phi * v;
  return v;
}

Vec3 mass_weighted_mean(const FfrBody& body, const Eigen::Ref<const Eigen::VectorXd>& v) {
  if (body.modes) return Vec3::Zero();
  Vec3 sum = Vec3::Zero();
  for (int k = 0; k < body.nn(); ++k) sum += body.nodal_mass[k] * v.segment<3>(3 * k);
  return sum / body.mass;
}

Vec3 relative_velocity(const FfrBody& body, const Eigen::VectorXd& lambda, int node) {
  return node_rows(body, lambda, node) - mass_weighted_mean(body, lambda);
}

}  // namespace nscd::ffr
