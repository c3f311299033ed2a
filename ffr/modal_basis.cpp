#include "ffr/modal_basis.hpp"

#include "ffr/linear_elasticity.hpp"
#include "nscd/core/error.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <Spectra/MatOp/SparseSymMatProd.h>
#include <Spectra/MatOp/SymShiftInvert.h>
#include <Spectra/SymGEigsShiftSolver.h>

#include <algorithm>
#include <numeric>

namespace nscd::ffr {
namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;

// the shift σ = −kShiftFraction · tr K / tr M: tr K / tr M is about the mean ω² of the mesh, and the
// lowest elastic ω² of a block meshed with n cells per edge about (π / n)² of it or more, so σ sits
// well below the elastic spectrum while K − σ M stays well conditioned (condition ≲ 1/kShiftFraction)
constexpr double kShiftFraction = 1e-6;
// Lanczos: residual tolerance (relative to the Ritz value, Spectra's test) and restarts
constexpr double kEigenTolerance = 1e-12;
constexpr int kMaxRestarts = 1000;
// a kept mode with ω² below this fraction of tr K / tr M is a free motion (a mesh in pieces)
constexpr double kFreeMotionFraction = 1e-9;
// eq. (6): fixed-point passes, each dividing the error by (ω₁² − σ) / |σ| ≳ 1e5
constexpr int kStaticPasses = 3;
// eq. (7): a correction whose M-norm off the modes and the other corrections is below this
// fraction of the largest is dependent on them, and dropped
constexpr double kDependentFraction = 1e-12;

// the centre of mass of the mesh, from the nodal masses M [1 0 0 1 0 0 …]ᵀ at the x dofs
Vec3 centre_of_mass(const Mesh& mesh, const SparseMatrix& M) {
  Eigen::VectorXd ones_x = Eigen::VectorXd::Zero(M.rows());
  for (int k = 0; k < mesh.nn(); ++k) ones_x[3 * k] = 1;
  const Eigen::VectorXd masses = M * ones_x;
  Vec3 moment = Vec3::Zero();
  for (int k = 0; k < mesh.nn(); ++k) moment += masses[3 * k] * mesh.nodes[k];
  return moment / masses.sum();
}

// the 6 rigid motions R of eq. (3): translations e_d and rotations e_d × (X_k − c)
Eigen::MatrixXd rigid_modes(const Mesh& mesh, const Vec3& centre) {
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(3 * mesh.nn(), 6);
  for (int k = 0; k < mesh.nn(); ++k) {
    R.block<3, 3>(3 * k, 0).setIdentity();
    for (int d = 0; d < 3; ++d) R.block<3, 1>(3 * k, 3 + d) = Vec3::Unit(d).cross(mesh.nodes[k] - centre);
  }
  return R;
}

// the 6 + k eigenpairs of K φ = ω² M φ nearest σ < 0, ascending
std::pair<Eigen::VectorXd, Eigen::MatrixXd> lowest_eigenpairs(const SparseMatrix& K, const SparseMatrix& M, int count,
                                                              double sigma) {
  using Op = Spectra::SymShiftInvert<double, Eigen::Sparse, Eigen::Sparse>;
  using BOp = Spectra::SparseSymMatProd<double>;
  Op op(K, M);
  BOp bop(M);
  const Eigen::Index n = M.rows();
  const Eigen::Index ncv = std::min<Eigen::Index>(n, std::max(2 * count + 1, 20));
  Spectra::SymGEigsShiftSolver<Op, BOp, Spectra::GEigsMode::ShiftInvert> eigs(op, bop, count, ncv, sigma);
  eigs.init();
  eigs.compute(Spectra::SortRule::LargestMagn, kMaxRestarts, kEigenTolerance, Spectra::SortRule::SmallestAlge);
  if (eigs.info() != Spectra::CompInfo::Successful)
    throw InputError(fmt::format("the modal analysis of the mesh ({} nodes) did not converge for {} modes",
                                 n / 3, count - 6));
  const Eigen::VectorXd values = eigs.eigenvalues();
  const Eigen::MatrixXd vectors = eigs.eigenvectors();
  std::vector<Eigen::Index> order(static_cast<std::size_t>(values.size()));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return values[a] < values[b]; });
  Eigen::VectorXd sorted_values(values.size());
  Eigen::MatrixXd sorted_vectors(vectors.rows(), vectors.cols());
  for (Eigen::Index j = 0; j < values.size(); ++j) {
    sorted_values[j] = values[order[j]];
    sorted_vectors.col(j) = vectors.col(order[j]);
  }
  return {sorted_values, sorted_vectors};
}

// P_ab and Q_a of eq. (4), X about the centre of mass
void add_invariants(const Mesh& mesh, const Vec3& centre, const SparseMatrix& M, ModalBasis& basis) {
  const int k = basis.size();
  const Eigen::MatrixXd MPhi = M * basis.phi;
  basis.P.assign(static_cast<std::size_t>(k) * k, Mat3::Zero());
  basis.Q.assign(static_cast<std::size_t>(k), Mat3::Zero());
  for (int node = 0; node < mesh.nn(); ++node) {
    const Vec3 X = mesh.nodes[node] - centre;
    for (int a = 0; a < k; ++a) {
      basis.Q[a] += X * MPhi.block<3, 1>(3 * node, a).transpose();
      for (int b = 0; b < k; ++b)
        basis.P[a + k * b] += basis.phi.block<3, 1>(3 * node, a) * MPhi.block<3, 1>(3 * node, b).transpose();
    }
  }
}

// ax(A) of eq. (4): ax(A)_i = ε_ijk A_jk
Vec3 axial(const Mat3& A) { return {A(1, 2) - A(2, 1), A(2, 0) - A(0, 2), A(0, 1) - A(1, 0)}; }

// X − R (Rᵀ M R)⁻¹ (M R)ᵀ X: X projected M-orthogonally off the rigid motions R
struct RigidProjection {
  Eigen::MatrixXd R, MR;
  Eigen::LDLT<Eigen::MatrixXd> RtMR;

  RigidProjection(const Mesh& mesh, const Vec3& centre, const SparseMatrix& M)
      : R(rigid_modes(mesh, centre)), MR(M * R), RtMR((R.transpose() * MR).ldlt()) {}
  Eigen::MatrixXd operator()(const Eigen::MatrixXd& X) const { return X - R * RtMR.solve(MR.transpose() * X); }
};

// eqs. (5)–(6): the static responses ψ_j to the relieved unit loads f_j, by the fixed point
// (K − σ M) ψ⁽ⁱ⁺¹⁾ = f_j − σ M ψ⁽ⁱ⁾ from ψ⁽⁰⁾ = 0, then projected off R
Eigen::MatrixXd static_corrections(const SparseMatrix& K, const SparseMatrix& M, double sigma,
                                   const RigidProjection& rigid, std::span<const NodalLoad> loads) {
  const Eigen::Index n = M.rows(), m = static_cast<Eigen::Index>(loads.size());
  Eigen::MatrixXd F = Eigen::MatrixXd::Zero(n, m);
  for (Eigen::Index j = 0; j < m; ++j) F.block<3, 1>(3 * loads[j].node, j) = loads[j].direction;
  F -= rigid.MR * rigid.RtMR.solve(rigid.R.transpose() * F);
  const SparseMatrix shifted = K - sigma * M;
  const Eigen::SimplicialLDLT<SparseMatrix> factor(shifted);
  if (factor.info() != Eigen::Success)
    throw InputError(fmt::format("the static correction of the mesh ({} nodes) failed: K − σ M is singular", n / 3));
  Eigen::MatrixXd psi = Eigen::MatrixXd::Zero(n, m);
  for (int pass = 0; pass < kStaticPasses; ++pass) psi = factor.solve(F - sigma * (M * psi));
  return rigid(psi);
}

// eq. (7): Ψ projected M-orthogonally off Φ, then an M-orthonormal basis of what is left, without
// its dependent directions
Eigen::MatrixXd independent_corrections(const SparseMatrix& M, const Eigen::MatrixXd& phi, Eigen::MatrixXd psi) {
  const Eigen::MatrixXd MPhi = M * phi;
  const auto PhiMPhi = (phi.transpose() * MPhi).ldlt();
  for (int pass = 0; pass < 2; ++pass) psi -= phi * PhiMPhi.solve(MPhi.transpose() * psi);
  Eigen::MatrixXd G = psi.transpose() * (M * psi);
  G = 0.5 * (G + G.transpose()).eval();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> gram(G);
  const Eigen::VectorXd& g = gram.eigenvalues();  // ascending
  Eigen::Index keep = 0;
  while (keep < g.size() && g[g.size() - 1 - keep] > kDependentFraction * g[g.size() - 1]) ++keep;
  return psi * gram.eigenvectors().rightCols(keep) * g.tail(keep).cwiseSqrt().cwiseInverse().asDiagonal();
}

// eq. (2): Rayleigh–Ritz on the columns of phi, in place; returns the Ritz values
Eigen::VectorXd rayleigh_ritz(const SparseMatrix& K, const SparseMatrix& M, Eigen::MatrixXd& phi) {
  const Eigen::MatrixXd MPhi = M * phi, KPhi = K * phi;
  Eigen::MatrixXd Mr = phi.transpose() * MPhi, Kr = phi.transpose() * KPhi;
  Mr = 0.5 * (Mr + Mr.transpose()).eval();
  Kr = 0.5 * (Kr + Kr.transpose()).eval();
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ritz(Kr, Mr);
  if (ritz.info() != Eigen::Success)
    throw InputError(fmt::format("the modal analysis of the mesh ({} nodes) gave dependent modes", phi.rows() / 3));
  phi = phi * ritz.eigenvectors();
  return ritz.eigenvalues();
}

}  // namespace

ModalBasis modal_basis(const Mesh& mesh, double density, double young, double poisson, int k,
                       std::span<const NodalLoad> corrections) {
  const int n = 3 * mesh.nn();
  if (k < 1 || k >= n - 6)
    throw InputError(fmt::format("{} modes for a mesh of {} nodes; expected 1 to {} (3 × nodes − 7)", k, mesh.nn(),
                                 n - 7));
  for (const NodalLoad& load : corrections)
    NSCD_DEMAND(load.node >= 0 && load.node < mesh.nn() && load.direction.norm() > 0);
  const SparseMatrix M = consistent_mass(mesh, density);
  const SparseMatrix K = stiffness(mesh, young, poisson);
  const double scale = K.diagonal().sum() / M.diagonal().sum();  // ≈ the mean ω² [1/s²]
  const double sigma = -kShiftFraction * scale;
  auto [values, vectors] = lowest_eigenpairs(K, M, k + 6, sigma);

  // eq. (3): the elastic modes projected M-orthogonally off the rigid motions
  const Vec3 centre = centre_of_mass(mesh, M);
  const RigidProjection rigid(mesh, centre, M);
  Eigen::MatrixXd phi = rigid(vectors.rightCols(k));
  int added = 0;
  if (!corrections.empty()) {  // eqs. (5)–(7)
    const Eigen::MatrixXd psi = independent_corrections(M, phi, static_corrections(K, M, sigma, rigid, corrections));
    added = static_cast<int>(psi.cols());
    phi.conservativeResize(Eigen::NoChange, k + added);
    phi.rightCols(added) = psi;
  }

  ModalBasis basis;
  basis.omega2 = rayleigh_ritz(K, M, phi);
  basis.phi = std::move(phi);
  basis.corrections = added;
  if (!(basis.omega2[0] > kFreeMotionFraction * scale))
    throw InputError(fmt::format("the mesh ({} nodes) has an elastic mode of ω² = {:.3g} 1/s², a free motion "
                                 "besides the 6 rigid ones: is the mesh in pieces?",
                                 mesh.nn(), basis.omega2[0]));
  add_invariants(mesh, centre, M, basis);
  return basis;
}

ModalBasis rotated(const ModalBasis& basis, const Mat3& R) {
  ModalBasis turned = basis;
  for (Eigen::Index node = 0; node < basis.phi.rows() / 3; ++node)
    turned.phi.middleRows<3>(3 * node) = R * basis.phi.middleRows<3>(3 * node);
  for (Mat3& P : turned.P) P = R * P * R.transpose();
  for (Mat3& Q : turned.Q) Q = R * Q * R.transpose();
  return turned;
}

double modal_kinetic_energy(const ModalBasis& basis, double mass, const Mat3& inertia_B, const Vec3& v_B,
                            const Vec3& w_B, const Eigen::VectorXd& xi, const Eigen::VectorXd& eta) {
  const int k = basis.size();
  const double w2 = w_B.squaredNorm();
  double twice = mass * v_B.squaredNorm() + w_B.dot(inertia_B * w_B) + eta.squaredNorm();
  Vec3 coupling = Vec3::Zero();  // Σ_a η_a ax(Q_a) + Σ_ab ξ_a η_b ax(P_ab)
  for (int a = 0; a < k; ++a) {
    const Mat3& Q = basis.Q[a];
    twice += 2 * xi[a] * (w2 * Q.trace() - w_B.dot(Q * w_B));
    coupling += eta[a] * axial(Q);
    for (int b = 0; b < k; ++b) {
      const Mat3& P = basis.P[a + k * b];
      twice += xi[a] * xi[b] * ((a == b ? w2 : 0.0) - w_B.dot(P * w_B));
      coupling += xi[a] * eta[b] * axial(P);
    }
  }
  return 0.5 * (twice + 2 * w_B.dot(coupling));
}

}  // namespace nscd::ffr
