#include "solvers/local_solver.hpp"

#include "solvers/error_measure.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>

namespace nscd::solvers::detail {
namespace {

using Eigen::Matrix2d;
using Eigen::Matrix3d;
using Eigen::RowVector3d;
using Eigen::Vector2d;
using Eigen::Vector3d;

constexpr int kNewtonMaxIterations = 50;
// ‖Φ‖ relative to ‖r‖ + ‖ρ ∘ q‖ (both impulses): a few ulps of the terms Φ is made of
constexpr double kNewtonTolerance = 1e-14;
// a stagnating Newton is still accepted at this level (rounding on ill-conditioned W)
constexpr double kNewtonAcceptTolerance = 1e-11;
constexpr double kArmijo = 1e-4;
constexpr int kMaxHalvings = 40;
constexpr int kFixedPointMaxIterations = 500;
constexpr double kFixedPointTolerance = 1e-15;
// W is taken as singular when |det W| < kSingular ‖W‖_F³
constexpr double kSingular = 1e-13;

// Φ of eq. (2) (or eq. (5) for Jean–Moreau) at r, and a generalized Jacobian J = ∂Φ/∂r
Vector3d alart_curnier(const LocalProblem& lp, const Vector3d& q, const Vector3d& r, Matrix3d& J) {
  const Vector3d u = lp.W * r + q;
  const Vector3d x = r - lp.rho.cwiseProduct(u);
  // dx/dr = I − diag(ρ) W, computed at each call: stored, it would add 72 bytes per contact to what a sweep reads
  const Matrix3d dx = Matrix3d::Identity() - lp.rho.asDiagonal() * lp.W;
  const bool jean_moreau = lp.kind == LocalSolverKind::JeanMoreau;
  const double radius_base = jean_moreau ? r(0) : x(0);
  const double radius = lp.mu * std::max(radius_base, 0.0);
  const Vector2d x_t = x.tail<2>();
  const double norm_x_t = x_t.norm();
  Vector3d phi;

  // normal part: r_n − max(0, x_n)
  phi(0) = r(0) - std::max(x(0), 0.0);
  J.row(0) = Matrix3d::Identity().row(0);
  if (x(0) > 0.0) J.row(0) -= dx.row(0);

  // tangential part inside the disc: Φ_T = ρ_T ∘ u_T
  if (norm_x_t <= radius) {
    phi.tail<2>() = r.tail<2>() - x_t;
    J.bottomRows<2>() = Matrix3d::Identity().bottomRows<2>() - dx.bottomRows<2>();
    return phi;
  }
  // outside: Φ_T = r_T − radius x_T / ‖x_T‖, differentiated through the radius and the direction
  const Vector2d e = x_t / norm_x_t;
  phi.tail<2>() = r.tail<2>() - radius * e;
  RowVector3d d_radius = RowVector3d::Zero();
  if (radius_base > 0.0) d_radius = jean_moreau ? RowVector3d(lp.mu, 0.0, 0.0) : RowVector3d(lp.mu * dx.row(0));
  const Matrix2d d_direction = (radius / norm_x_t) * (Matrix2d::Identity() - e * e.transpose());
  J.bottomRows<2>() = Matrix3d::Identity().bottomRows<2>() - e * d_radius - d_direction * dx.bottomRows<2>();
  return phi;
}

// semismooth Newton on eq. (2) with an Armijo line search on ½‖Φ‖², from r0 where Φ = phi and
// J = ∂Φ/∂r; converged tells whether ‖Φ‖ is small
Vector3d newton(const LocalProblem& lp, const Vector3d& q, const Vector3d& r0, Vector3d phi, Matrix3d J,
                bool& converged) {
  const double q_scale = lp.rho.cwiseProduct(q).norm();
  Vector3d r = r0;
  for (int it = 0; it < kNewtonMaxIterations; ++it) {
    if (phi.norm() <= kNewtonTolerance * (r.norm() + q_scale)) {
      converged = true;
      return r;
    }
    // Newton direction; a singular generalized Jacobian ends the iteration
    Matrix3d J_inv;
    bool invertible = false;
    const double norm_J = J.norm();
    J.computeInverseWithCheck(J_inv, invertible, kSingular * norm_J * norm_J * norm_J);
    if (!invertible) break;
    const Vector3d d = -J_inv * phi;

    // backtracking until ½‖Φ‖² decreases by the Armijo factor (its slope along d is −‖Φ‖²)
    const double psi0 = phi.squaredNorm();
    double t = 1.0;
    bool accepted = false;
    Matrix3d J_try;
    for (int h = 0; h < kMaxHalvings && !accepted; ++h, t *= 0.5) {
      const Vector3d r_try = r + t * d;
      const Vector3d phi_try = alart_curnier(lp, q, r_try, J_try);
      if (phi_try.squaredNorm() <= (1.0 - 2.0 * kArmijo * t) * psi0) {
        r = r_try;
        phi = phi_try;
        J = J_try;
        accepted = true;
      }
    }
    if (!accepted) break;
  }
  converged = phi.norm() <= kNewtonAcceptTolerance * (r.norm() + q_scale);
  return r;
}

// De Saxcé's projected fixed point, eq. (3), until r stops moving
Vector3d fixed_point(const LocalProblem& lp, const Vector3d& q, const Vector3d& r0) {
  const double rho = fixed_point_rho(lp.W);
  const double q_scale = rho * q.norm();
  Vector3d r = r0;
  for (int it = 0; it < kFixedPointMaxIterations; ++it) {
    const Vector3d u = lp.W * r + q;
    Vector3d u_hat = u;
    u_hat(0) += lp.mu * std::sqrt(u(1) * u(1) + u(2) * u(2));
    const Vector3d r_next = project_on_cone(r - rho * u_hat, lp.mu);
    if (!r_next.allFinite()) break;
    const double step = (r_next - r).norm();
    r = r_next;
    if (step <= kFixedPointTolerance * (r.norm() + q_scale)) break;
  }
  return r;
}

}  // namespace
}  // namespace nscd::solvers::detail

namespace nscd::solvers {

std::string_view to_string(LocalSolverKind kind) {
  switch (kind) {
    case LocalSolverKind::AlartCurnier:
      return "alart_curnier";
    case LocalSolverKind::JeanMoreau:
      return "jean_moreau";
    case LocalSolverKind::DeSaxceFixedPoint:
      return "de_saxce";
  }
  return "unknown";
}

}  // namespace nscd::solvers

namespace nscd::solvers::detail {

double fixed_point_rho(const Eigen::Matrix3d& W) {
  // largest eigenvalue of the symmetric part, else the Frobenius norm, else 1
  Eigen::SelfAdjointEigenSolver<Matrix3d> eigen;
  eigen.computeDirect(0.5 * (W + W.transpose()), Eigen::EigenvaluesOnly);
  const double lambda_max = eigen.eigenvalues()(2);
  const double norm_W = W.norm();
  if (std::isfinite(lambda_max) && lambda_max > 0.0) return 1.0 / lambda_max;
  if (std::isfinite(norm_W) && norm_W > 0.0) return 1.0 / norm_W;
  return 1.0;
}

LocalProblem make_local_problem(const Eigen::Matrix3d& W, double mu, LocalSolverKind kind) {
  LocalProblem lp;
  lp.W = W;
  lp.mu = mu;
  lp.kind = kind;

  // ρ_n = 1 / W_nn and ρ_t = 1 / λ_max(½(W_TT + W_TTᵀ)) of eq. (2), or the fixed-point ρ where
  // those are not positive; ρ_t is one value for t1 and t2, else r_T would oppose ρ_T ∘ u_T, not u_T
  const double w_mean = 0.5 * (W(1, 1) + W(2, 2));
  const double w_half_gap = 0.5 * (W(1, 1) - W(2, 2));
  const double w_off = 0.5 * (W(1, 2) + W(2, 1));
  const double lambda_t = w_mean + std::sqrt(w_half_gap * w_half_gap + w_off * w_off);
  const bool positive = W(0, 0) > 0.0 && lambda_t > 0.0;
  const double rho_fixed_point = positive ? 0.0 : fixed_point_rho(W);
  lp.rho(0) = W(0, 0) > 0.0 ? 1.0 / W(0, 0) : rho_fixed_point;
  lp.rho(1) = lp.rho(2) = lambda_t > 0.0 ? 1.0 / lambda_t : rho_fixed_point;

  // inverse for the stick candidate
  const double norm_W = W.norm();
  W.computeInverseWithCheck(lp.W_inv, lp.has_inverse, kSingular * norm_W * norm_W * norm_W);
  lp.has_inverse = lp.has_inverse && norm_W > 0.0 && lp.W_inv.allFinite();
  return lp;
}

Eigen::Vector3d solve_local(const LocalProblem& lp, const Eigen::Vector3d& q, const Eigen::Vector3d& r_guess) {
  // open: r = 0 satisfies eq. (1) whenever q_n ≥ 0
  if (q(0) >= 0.0) return Vector3d::Zero();

  // frictionless: u_n = 0 along the normal
  if (lp.mu == 0.0) return {lp.W(0, 0) > 0.0 ? -q(0) / lp.W(0, 0) : 0.0, 0.0, 0.0};

  // stick: u = 0 if −W⁻¹ q lies in the cone (three contacts in four on the shaking wall)
  const Vector3d r_stick = lp.has_inverse ? Vector3d(-lp.W_inv * q) : Vector3d::Zero();
  if (lp.has_inverse && r_stick(0) > 0.0 &&
      std::sqrt(r_stick(1) * r_stick(1) + r_stick(2) * r_stick(2)) <= lp.mu * r_stick(0))
    return r_stick;
  Vector3d start = r_guess;
  Matrix3d J;
  Vector3d phi = alart_curnier(lp, q, start, J);
  if (lp.has_inverse) {
    // otherwise Newton starts from the better of the warm start and the projected stick candidate
    const Vector3d projected = project_on_cone(r_stick, lp.mu);
    Matrix3d J_projected;
    const Vector3d phi_projected = alart_curnier(lp, q, projected, J_projected);
    if (phi_projected.squaredNorm() < phi.squaredNorm()) {
      start = projected;
      phi = phi_projected;
      J = J_projected;
    }
  }

  // slip, De Saxcé: the fixed point alone, from the warm start
  if (lp.kind == LocalSolverKind::DeSaxceFixedPoint) return fixed_point(lp, q, start);

  // slip (or any case left): Newton
  bool converged = false;
  const Vector3d r_newton = newton(lp, q, start, phi, J, converged);
  if (converged) return r_newton;

  // Newton stagnated: the fixed point brings r near the solution, where Newton converges
  const Vector3d r_fixed = fixed_point(lp, q, r_newton.allFinite() ? r_newton : r_guess);
  phi = alart_curnier(lp, q, r_fixed, J);
  const Vector3d r_polished = newton(lp, q, r_fixed, phi, J, converged);
  if (converged) return r_polished;
  Vector3d best = r_fixed;
  double best_error = local_error(lp, q, r_fixed);
  for (const Vector3d& candidate : {r_newton, r_polished}) {
    const double e = local_error(lp, q, candidate);
    if (e < best_error || !std::isfinite(best_error)) {
      best = candidate;
      best_error = e;
    }
  }
  return best;
}

double local_error(const LocalProblem& lp, const Eigen::Vector3d& q, const Eigen::Vector3d& r) {
  const Vector3d u = lp.W * r + q;
  Vector3d x = r - u;
  x(0) -= lp.mu * std::sqrt(u(1) * u(1) + u(2) * u(2));
  return (r - project_on_cone(x, lp.mu)).norm();
}

}  // namespace nscd::solvers::detail
