#include "solvers/ccp_apgd.hpp"

#include "solvers/ccp_solver.hpp"
#include "solvers/error_measure.hpp"

#include <cmath>
#include <limits>

namespace nscd::solvers::detail {
namespace {

using Eigen::VectorXd;

constexpr int kMaxBacktracks = 60;
constexpr double kLipschitzDecay = 0.9;

// P: projection of every contact's 3-vector on its cone
VectorXd project(const FrictionProblem& p, const VectorXd& x) {
  VectorXd out(x.size());
  for (int i = 0; i < p.nc(); ++i) out.segment<3>(3 * i) = project_on_cone(x.segment<3>(3 * i), p.mu(i));
  return out;
}

}  // namespace

int ccp_apgd(const FrictionProblem& p, const Eigen::VectorXd& s, double tolerance, int max_iterations,
             Eigen::VectorXd& r, bool& converged) {
  converged = false;
  const int nc = p.nc();
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(nc);
  if (nc == 0) {
    converged = true;
    return 0;
  }
  // q_s = q + s e_n; f(x) = ½ xᵀ W x + q_sᵀ x evaluated from W x
  VectorXd q_s = p.q;
  for (int i = 0; i < nc; ++i) q_s(3 * i) += s(i);
  auto f_of = [&](const VectorXd& x, const VectorXd& Wx) { return x.dot(0.5 * Wx + q_s); };

  // start: γ₀ = P(r), L₀ from the secant of W between γ₀ and the vector of ones
  VectorXd gamma = project(p, r);
  VectorXd W_gamma = p.W.apply(gamma);
  const VectorXd diff = gamma - VectorXd::Ones(n);
  double L = diff.norm() > 0.0 ? (W_gamma - p.W.apply(VectorXd::Ones(n))).norm() / diff.norm() : 1.0;
  if (!(L > 0.0) || !std::isfinite(L)) L = 1.0;
  VectorXd y = gamma;
  VectorXd W_y = W_gamma;
  double theta = 1.0;

  VectorXd best = gamma;
  double best_error = ccp_error(p, s, gamma, W_gamma + p.q);
  if (best_error <= tolerance) {
    r = best;
    converged = true;
    return 0;
  }

  int k = 0;
  VectorXd gamma_next, W_next;
  while (k < max_iterations) {
    ++k;
    // projected gradient step from y with backtracking on L, eq. (1)
    const VectorXd grad = W_y + q_s;
    const double f_y = f_of(y, W_y);
    for (int b = 0; b < kMaxBacktracks; ++b) {
      gamma_next = project(p, y - grad / L);
      W_next = p.W.apply(gamma_next);
      const VectorXd step = gamma_next - y;
      if (f_of(gamma_next, W_next) <= f_y + grad.dot(step) + 0.5 * L * step.squaredNorm() + 1e-15 * std::abs(f_y))
        break;
      L *= 2.0;
    }
    if (!gamma_next.allFinite()) break;

    // momentum, eq. (2)–(3)
    const double theta_next = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
    const double beta = theta * (1.0 - theta) / (theta * theta + theta_next);
    const VectorXd delta = gamma_next - gamma;
    y = gamma_next + beta * delta;
    theta = theta_next;

    // keep the best iterate on e_ccp
    const double e = ccp_error(p, s, gamma_next, W_next + p.q);
    if (e < best_error) {
      best_error = e;
      best = gamma_next;
    }
    // restart when the step goes against the gradient
    if (grad.dot(delta) > 0.0) {
      y = gamma_next;
      theta = 1.0;
    }
    gamma.swap(gamma_next);
    W_gamma.swap(W_next);
    if (best_error <= tolerance) break;
    W_y = (y == gamma) ? W_gamma : p.W.apply(y);
    L *= kLipschitzDecay;
  }
  r = best;
  converged = best_error <= tolerance;
  return k;
}

}  // namespace nscd::solvers::detail
