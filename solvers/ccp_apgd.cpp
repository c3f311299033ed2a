#include "solvers/ccp_apgd.hpp"

#include "solvers/ccp_solver.hpp"
#include "solvers/contact_blocks.hpp"
#include "solvers/error_measure.hpp"

#include <cmath>
#include <limits>

namespace nscd::solvers::detail {
namespace {

using Eigen::VectorXd;

constexpr int kMaxBacktracks = 60;
constexpr double kLipschitzDecay = 0.9;

// aᵀb and ‖a‖² summed over the blocks of contact_blocks.hpp
double dot(int nc, const VectorXd& a, const VectorXd& b) {
  return sum_over_contact_blocks(
      nc, [&](int begin, int end) { return contacts_of(a, begin, end).dot(contacts_of(b, begin, end)); });
}
double squared_norm(int nc, const VectorXd& a) {
  return sum_over_contact_blocks(nc, [&](int begin, int end) { return contacts_of(a, begin, end).squaredNorm(); });
}

// out = P(x − t g) with P the projection of every contact's 3-vector on its cone, and
// step = out − x
void projected_step(const FrictionProblem& p, const VectorXd& x, const VectorXd& g, double L, VectorXd& out,
                    VectorXd& step) {
  for_each_contact_block(p.nc(), [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      out.segment<3>(3 * i) = project_on_cone(x.segment<3>(3 * i) - g.segment<3>(3 * i) / L, p.mu(i));
    }
    contacts_of(step, begin, end) = contacts_of(out, begin, end) - contacts_of(x, begin, end);
  });
}

// out = a + b
void add(int nc, const VectorXd& a, const VectorXd& b, VectorXd& out) {
  for_each_contact_block(nc, [&](int begin, int end) {
    contacts_of(out, begin, end) = contacts_of(a, begin, end) + contacts_of(b, begin, end);
  });
}

// out = a
void copy(int nc, const VectorXd& a, VectorXd& out) {
  for_each_contact_block(nc, [&](int begin, int end) { contacts_of(out, begin, end) = contacts_of(a, begin, end); });
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
  auto f_of = [&](const VectorXd& x, const VectorXd& Wx) {
    return sum_over_contact_blocks(nc, [&](int begin, int end) {
      return contacts_of(x, begin, end).dot(0.5 * contacts_of(Wx, begin, end) + contacts_of(q_s, begin, end));
    });
  };
  // every vector of the iteration, allocated once
  VectorXd gamma(n), W_gamma(n), y(n), W_y(n), grad(n), gamma_next(n), W_next(n), step(n), delta(n), u(n), best(n);

  // start: γ₀ = P(r) (a step of length 0), L₀ from the secant of W between γ₀ and the vector of ones
  projected_step(p, r, VectorXd::Zero(n), 1.0, gamma, step);
  p.W.apply(gamma, W_gamma);
  const VectorXd ones = VectorXd::Ones(n);
  p.W.apply(ones, W_y);
  const double diff_norm = std::sqrt(squared_norm(nc, gamma - ones));
  double L = diff_norm > 0.0 ? std::sqrt(squared_norm(nc, W_gamma - W_y)) / diff_norm : 1.0;
  if (!(L > 0.0) || !std::isfinite(L)) L = 1.0;
  copy(nc, gamma, y);
  copy(nc, W_gamma, W_y);
  double theta = 1.0;

  copy(nc, gamma, best);
  add(nc, W_gamma, p.q, u);
  double best_error = ccp_error(p, s, gamma, u);
  if (best_error <= tolerance) {
    r = best;
    converged = true;
    return 0;
  }

  int k = 0;
  while (k < max_iterations) {
    ++k;
    // projected gradient step from y with backtracking on L, eq. (1)
    add(nc, W_y, q_s, grad);
    const double f_y = f_of(y, W_y);
    for (int b = 0; b < kMaxBacktracks; ++b) {
      projected_step(p, y, grad, L, gamma_next, step);
      p.W.apply(gamma_next, W_next);
      if (f_of(gamma_next, W_next) <=
          f_y + dot(nc, grad, step) + 0.5 * L * squared_norm(nc, step) + 1e-15 * std::abs(f_y))
        break;
      L *= 2.0;
    }
    if (!gamma_next.allFinite()) break;

    // momentum, eq. (2)–(3)
    const double theta_next = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
    const double beta = theta * (1.0 - theta) / (theta * theta + theta_next);
    for_each_contact_block(nc, [&](int begin, int end) {
      contacts_of(delta, begin, end) = contacts_of(gamma_next, begin, end) - contacts_of(gamma, begin, end);
      contacts_of(y, begin, end) = contacts_of(gamma_next, begin, end) + beta * contacts_of(delta, begin, end);
    });
    theta = theta_next;

    // keep the best iterate on e_ccp
    add(nc, W_next, p.q, u);
    const double e = ccp_error(p, s, gamma_next, u);
    if (e < best_error) {
      best_error = e;
      copy(nc, gamma_next, best);
    }
    // restart when the step goes against the gradient
    if (dot(nc, grad, delta) > 0.0) {
      copy(nc, gamma_next, y);
      theta = 1.0;
    }
    gamma.swap(gamma_next);
    W_gamma.swap(W_next);
    if (best_error <= tolerance) break;
    if (y == gamma) {
      copy(nc, W_gamma, W_y);
    } else {
      p.W.apply(y, W_y);
    }
    L *= kLipschitzDecay;
  }
  r = best;
  converged = best_error <= tolerance;
  return k;
}

}  // namespace nscd::solvers::detail
