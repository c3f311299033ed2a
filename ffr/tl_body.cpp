#include "ffr/tl_body.hpp"

#include "ffr/quadratic_form.hpp"
#include "ffr/st_venant_kirchhoff.hpp"
#include "nscd/core/error.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <limits>

namespace nscd::ffr {
namespace {

// velocity floor of the Newton test, per dof [m/s]: corrections of resting bodies are round-off
constexpr double kVelocityFloor = 1e-3;
// the rounding of R in velocity units, per dof, in units of ε L / h (L the body's size): the
// Green–Lagrange strain of F = I + ∇u is rounded by ~ε, i.e. its stress by E ε, and D⁻¹ (h/2 f)
// turns that into ~ε Δx / h; 8 ε L / h bounds it with a margin
constexpr double kRoundoffFactor = 8.0;

// the nodal field p_k = X_k + ψ_k, flattened (3nn)
Eigen::VectorXd positions(const TlBody& body, const Eigen::VectorXd& psi) {
  Eigen::VectorXd p = psi;
  for (int k = 0; k < body.nn(); ++k) p.segment<3>(3 * k) += body.fe.mesh.nodes[k];
  return p;
}

}  // namespace

TlBody make_tl_body(Mesh mesh, const FfrMaterial& material, double h, bool nonlinear) {
  TlBody body;
  body.fe = make_ffr_body(std::move(mesh), material, h);
  body.nonlinear = nonlinear;
  if (nonlinear) body.quadrature = cell_quadrature(body.fe.mesh);
  const SparseMatrix& M = body.fe.mass_matrix;
  body.damping = material.damping_mass * M + material.damping_stiffness * body.fe.stiffness;
  body.mass_damping = nonlinear ? SparseMatrix((1 + 0.5 * h * material.damping_mass) * M) : SparseMatrix(M + 0.5 * h * body.damping);
  Vec3 lo = body.fe.mesh.nodes[0], hi = lo;
  for (const Vec3& X : body.fe.mesh.nodes) lo = lo.cwiseMin(X), hi = hi.cwiseMax(X);
  body.size = (hi - lo).norm();
  body.inverse_diagonal = SparseMatrix(M + 0.5 * h * body.damping + 0.25 * h * h * body.fe.stiffness).diagonal().cwiseInverse();
  return body;
}

void internal_forces(const TlBody& body, const Eigen::VectorXd& psi, Eigen::VectorXd& f, SparseMatrix* K_T) {
  const FfrMaterial& mat = body.fe.material;
  if (body.nonlinear) {
    svk_internal_forces(body.fe.mesh, body.quadrature, mat.young, mat.poisson, psi, f, K_T);
    return;
  }
  f = body.fe.stiffness * psi;
  if (K_T) *K_T = body.fe.stiffness;
}

Eigen::VectorXd damping_forces(const TlBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda) {
  const FfrMaterial& mat = body.fe.material;
  if (!body.nonlinear) return body.damping * lambda;
  Eigen::VectorXd d = mat.damping_mass * (body.fe.mass_matrix * lambda);
  if (mat.damping_stiffness != 0.0)
    d += mat.damping_stiffness * svk_tangent_product(body.fe.mesh, body.quadrature, mat.young, mat.poisson, psi, lambda);
  return d;
}

double strain_energy(const TlBody& body, const Eigen::VectorXd& psi) {
  const FfrMaterial& mat = body.fe.material;
  if (body.nonlinear) return svk_strain_energy(body.fe.mesh, body.quadrature, mat.young, mat.poisson, psi);
  return 0.5 * symmetric_quadratic_form(body.fe.stiffness, psi);
}

Eigen::VectorXd step_base(const TlBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda,
                          const Vec3& g_B) {
  const double h = body.fe.h;
  Eigen::VectorXd f;
  internal_forces(body, psi, f, nullptr);
  Eigen::VectorXd base = body.fe.mass_matrix * lambda - 0.5 * h * damping_forces(body, psi, lambda) - 0.5 * h * f;
  for (int k = 0; k < body.nn(); ++k) base.segment<3>(3 * k) += h * body.fe.nodal_mass[k] * g_B;
  return base;
}

TlSolve solve_velocity(const TlBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda,
                       const Eigen::VectorXd& base, const Eigen::VectorXd& P, const Eigen::VectorXd& start,
                       double tolerance, int max_iterations, FirstTangent first,
                       Eigen::SimplicialLDLT<SparseMatrix>& tangent) {
  const double h = body.fe.h;
  TlSolve out;
  if (!body.nonlinear) {
    // eq. (28) without n: (1) is linear, A₊ λ₊ = base − h/2 K (ψ + h/2 λ) + P
    out.lambda = body.fe.implicit->solve(base + P - 0.5 * h * (body.fe.stiffness * (psi + 0.5 * h * lambda)));
    out.iterations = 1;
    return out;
  }
  out.lambda = start;
  out.converged = false;
  const double sqrt_ndof = std::sqrt(static_cast<double>(body.ndof()));
  const double floor = kVelocityFloor * sqrt_ndof;
  const double roundoff = kRoundoffFactor * std::numeric_limits<double>::epsilon() * body.size / h * sqrt_ndof;
  Eigen::VectorXd f;
  SparseMatrix K_T = body.fe.stiffness;  // the pattern of the tangent, so that its storage is reused
  for (int it = 0;; ++it) {
    // R(λ₊) of eq. (1), and the test (3) on D⁻¹ R
    const Eigen::VectorXd psi_next = psi + 0.5 * h * (lambda + out.lambda);
    internal_forces(body, psi_next, f, nullptr);
    const Eigen::VectorXd R = body.fe.mass_matrix * out.lambda + 0.5 * h * (damping_forces(body, psi_next, out.lambda) + f) -
                              base - P;
    const double scale = std::max({out.lambda.norm(), lambda.norm(), floor});
    out.converged = R.cwiseProduct(body.inverse_diagonal).norm() <= std::max(tolerance * scale, roundoff);
    if (out.converged && tangent.rows() == R.rows()) out.lambda -= tangent.solve(R);  // its last, cheap, correction
    if (out.converged || it == max_iterations) break;
    if (it > 0 || first == FirstTangent::Fresh) {
      // eq. (2): the consistent tangent at ψ₊
      internal_forces(body, psi_next, f, &K_T);
      const SparseMatrix A = body.mass_damping + (0.5 * h * body.fe.material.damping_stiffness + 0.25 * h * h) * K_T;
      if (tangent.rows() != A.rows()) tangent.analyzePattern(A);
      tangent.factorize(A);
      NSCD_DEMAND(tangent.info() == Eigen::Success);
      ++out.iterations;
    }
    out.lambda -= tangent.solve(R);
  }
  return out;
}

Vec3 centre_of_mass_motion(const TlBody& body, const Eigen::VectorXd& v) { return mass_weighted_mean(body.fe, v); }

std::pair<Vec3, Vec3> momenta(const TlBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda) {
  const Eigen::VectorXd Ml = body.fe.mass_matrix * lambda;
  const Eigen::VectorXd p = positions(body, psi);
  Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
  for (int k = 0; k < body.nn(); ++k) {
    linear += Ml.segment<3>(3 * k);
    angular += Vec3(p.segment<3>(3 * k)).cross(Vec3(Ml.segment<3>(3 * k)));
  }
  return {linear, angular};
}

Vec3 mean_angular_velocity(const TlBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda) {
  // y_k = p_k − x̄, then L = Σ y_k × (M λ)_k and J = Σ_k ((My)_k·y_k I − y_k (My)_kᵀ)
  Eigen::VectorXd y = positions(body, psi);
  const Vec3 centre = mass_weighted_mean(body.fe, y);
  for (int k = 0; k < body.nn(); ++k) y.segment<3>(3 * k) -= centre;
  const Eigen::VectorXd My = body.fe.mass_matrix * y, Ml = body.fe.mass_matrix * lambda;
  Vec3 L = Vec3::Zero();
  Mat3 J = Mat3::Zero();
  for (int k = 0; k < body.nn(); ++k) {
    const Vec3 yk = y.segment<3>(3 * k), Myk = My.segment<3>(3 * k);
    L += yk.cross(Vec3(Ml.segment<3>(3 * k)));
    J += yk.dot(Myk) * Mat3::Identity() - yk * Myk.transpose();
  }
  return J.ldlt().solve(L);
}

}  // namespace nscd::ffr
