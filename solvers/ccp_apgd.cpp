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

// f(x) = ½ xᵀ W x + q_sᵀ x evaluated from W x
double objective(int nc, const VectorXd& x, const VectorXd& Wx, const VectorXd& q_s) {
  return sum_over_contact_blocks(nc, [&](int begin, int end) {
    return contacts_of(x, begin, end).dot(0.5 * contacts_of(Wx, begin, end) + contacts_of(q_s, begin, end));
  });
}

// the iterates of eq. (1)–(3), allocated once, the Lipschitz estimate L, θ, and the best
// iterate on e_ccp
struct Apgd {
  explicit Apgd(Eigen::Index n)
      : gamma(n), W_gamma(n), y(n), W_y(n), grad(n), gamma_next(n), W_next(n), step(n), delta(n), u(n), best(n) {}
  VectorXd gamma, W_gamma, y, W_y, grad, gamma_next, W_next, step, delta, u, best;
  double L = 1.0;
  double theta = 1.0;
  double best_error = 0.0;
};

// γ₀ = P(r) (a step of length 0), L₀ from the secant of W between γ₀ and the vector of ones,
// y = γ₀, the best iterate γ₀
void start(const FrictionProblem& p, const VectorXd& s, const VectorXd& r, Apgd& a) {
  const int nc = p.nc();
  const Eigen::Index n = r.size();
  projected_step(p, r, VectorXd::Zero(n), 1.0, a.gamma, a.step);
  p.W.apply(a.gamma, a.W_gamma);
  const VectorXd ones = VectorXd::Ones(n);
  p.W.apply(ones, a.W_y);
  const double diff_norm = std::sqrt(squared_norm(nc, a.gamma - ones));
  a.L = diff_norm > 0.0 ? std::sqrt(squared_norm(nc, a.W_gamma - a.W_y)) / diff_norm : 1.0;
  if (!(a.L > 0.0) || !std::isfinite(a.L)) a.L = 1.0;
  copy(nc, a.gamma, a.y);
  copy(nc, a.W_gamma, a.W_y);
  a.theta = 1.0;
  copy(nc, a.gamma, a.best);
  add(nc, a.W_gamma, p.q, a.u);
  a.best_error = ccp_error(p, s, a.gamma, a.u);
}

// the projected gradient step from y with backtracking on L, eq. (1): γ_next and W γ_next
void gradient_step(const FrictionProblem& p, const VectorXd& q_s, Apgd& a) {
  const int nc = p.nc();
  add(nc, a.W_y, q_s, a.grad);
  const double f_y = objective(nc, a.y, a.W_y, q_s);
  for (int b = 0; b < kMaxBacktracks; ++b) {
    projected_step(p, a.y, a.grad, a.L, a.gamma_next, a.step);
    p.W.apply(a.gamma_next, a.W_next);
    if (objective(nc, a.gamma_next, a.W_next, q_s) <=
        f_y + dot(nc, a.grad, a.step) + 0.5 * a.L * squared_norm(nc, a.step) + 1e-15 * std::abs(f_y))
      break;
    a.L *= 2.0;
  }
}

// the momentum, eq. (2)–(3), the best iterate on e_ccp, the restart when the step goes against
// the gradient; then γ_next becomes γ
void accept_step(const FrictionProblem& p, const VectorXd& s, Apgd& a) {
  const int nc = p.nc();
  const double theta = a.theta;
  const double theta_next = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
  const double beta = theta * (1.0 - theta) / (theta * theta + theta_next);
  for_each_contact_block(nc, [&](int begin, int end) {
    contacts_of(a.delta, begin, end) = contacts_of(a.gamma_next, begin, end) - contacts_of(a.gamma, begin, end);
    contacts_of(a.y, begin, end) = contacts_of(a.gamma_next, begin, end) + beta * contacts_of(a.delta, begin, end);
  });
  a.theta = theta_next;
  add(nc, a.W_next, p.q, a.u);
  const double e = ccp_error(p, s, a.gamma_next, a.u);
  if (e < a.best_error) {
    a.best_error = e;
    copy(nc, a.gamma_next, a.best);
  }
  if (dot(nc, a.grad, a.delta) > 0.0) {
    copy(nc, a.gamma_next, a.y);
    a.theta = 1.0;
  }
  a.gamma.swap(a.gamma_next);
  a.W_gamma.swap(a.W_next);
}

}  // namespace

int ccp_apgd(const FrictionProblem& p, const Eigen::VectorXd& s, double tolerance, int max_iterations,
             Eigen::VectorXd& r, bool& converged) {
  converged = false;
  const int nc = p.nc();
  if (nc == 0) {
    converged = true;
    return 0;
  }
  VectorXd q_s = p.q;  // q_s = q + s e_n
  for (int i = 0; i < nc; ++i) q_s(3 * i) += s(i);
  Apgd a(3 * static_cast<Eigen::Index>(nc));
  start(p, s, r, a);
  int k = 0;
  while (!(a.best_error <= tolerance) && k < max_iterations) {  // a NaN start error runs the steps too
    ++k;
    gradient_step(p, q_s, a);
    if (!a.gamma_next.allFinite()) break;
    accept_step(p, s, a);
    if (a.best_error <= tolerance) break;
    // W y for the next step
    if (a.y == a.gamma) {
      copy(nc, a.W_gamma, a.W_y);
    } else {
      p.W.apply(a.y, a.W_y);
    }
    a.L *= kLipschitzDecay;
  }
  r = a.best;
  converged = a.best_error <= tolerance;
  return k;
}

}  // namespace nscd::solvers::detail
