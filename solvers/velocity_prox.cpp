#include "solvers/velocity_prox.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/alart_curnier_projection.hpp"
#include "solvers/body_newton_matrix.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solver_common.hpp"
#include "solvers/sparse_lu.hpp"

#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace nscd::solvers {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using Eigen::VectorXd;

// ρ's factor after a Newton step that found no descent or was heavily damped (and its inverse
// after a proximal step solved in at most two iterations)
constexpr double kSoften = 0.1;
// ρ grows back up to this factor of its initial value: near the solution, where Newton's steps
// are full, the proximal steps contract by about σ/(σ + λ) on each eigenvalue λ of W, so the
// smaller σ the fewer of them
constexpr double kStiffest = 1e6;
// the reduction factor of ψ that ends a proximal step, after a step that brought no new lowest
// error, and its smallest value
constexpr double kTighten = 1e-2;
constexpr double kTightest = 1e-12;

// eq. (2) at Δv for an anchor a: r = P(a − ρ ∘ u), D_i, F, and ψ = ½ Fᵀ M⁻¹ F
struct Evaluation {
  VectorXd r;
  std::vector<Matrix3d> D;
  VectorXd F;
  double psi = 0.0;
};

// eq. (2) at Δv for the anchor a on the body form `form`
void evaluate(const detail::BodyNewtonMatrix& form, const VectorXd& anchor, const VectorXd& rho, const VectorXd& dv,
              Evaluation& ev) {
  const FrictionProblem& p = form.problem();
  const VectorXd u = form.velocities(dv);
  ev.r.resize(u.size());
  ev.D.resize(static_cast<std::size_t>(p.nc()));
  for (int i = 0; i < p.nc(); ++i) {
    const Vector3d x = anchor.segment<3>(3 * i) - rho(i) * u.segment<3>(3 * i);
    ev.r.segment<3>(3 * i) = detail::ac_projection(x, p.mu(i), ev.D[i]);
  }
  ev.F = form.coupling().M * dv - form.generalized(ev.r);
  ev.psi = 0.5 * ev.F.dot(form.mass_solve(ev.F));
}

// the iterate of eqs. (1)–(3): the anchor r_k, ρ, Δv and the evaluation at Δv, with the LU of J
class ProximalNewton {
 public:
  ProximalNewton(const detail::BodyNewtonMatrix& form, VectorXd rho, const VectorXd& r0, double reduction)
      : m_form(form), m_rho(std::move(rho)), m_rho_max(kStiffest * m_rho), m_anchor(r0),
        m_dv(form.velocity_change(r0)), m_blocks(static_cast<std::size_t>(form.problem().nc())),
        m_reduction(reduction) {
    evaluate(m_form, m_anchor, m_rho, m_dv, m_ev);
    m_psi_start = m_ev.psi;
  }
  const Evaluation& current() const { return m_ev; }

  // whether the proximal step is solved (ψ fell by the reduction factor) or out of iterations
  bool step_done(const VelocityProxOptions& o) const {
    return m_inner >= o.inner_max_iterations || m_ev.psi <= m_reduction * m_psi_start;
  }
  // the next proximal steps solved further
  void tighten() { m_reduction = std::max(kTightest, kTighten * m_reduction); }
  // a new proximal step from the current r, ρ scaled by `factor` (at most kStiffest times its
  // initial value); a step solved in at most two iterations lets ρ grow back
  void new_anchor(double factor) {
    m_anchor = m_ev.r;
    m_rho = (factor * m_rho).cwiseMin(m_rho_max);
    evaluate(m_form, m_anchor, m_rho, m_dv, m_ev);
    m_psi_start = m_ev.psi;
    m_inner = 0;
  }
  void next_anchor() { new_anchor(m_inner <= 2 ? 1.0 / kSoften : 1.0); }
  // a new proximal step from r (and Δv = M⁻¹ Hᵀ r), ρ scaled by `factor`
  void restart(const VectorXd& r, double factor) {
    m_dv = m_form.velocity_change(r);
    m_ev.r = r;
    new_anchor(factor);
  }

  // one Newton step on eq. (2), damped by Armijo backtracking on ψ: the step length taken, 0 if
  // backtracking found no descent (nothing taken), −1 if J could not be factorised
  double newton_step(const VelocityProxOptions& o) {
    for (std::size_t i = 0; i < m_blocks.size(); ++i) m_blocks[i] = m_rho(static_cast<Eigen::Index>(i)) * m_ev.D[i];
    if (!m_lu.factorize(m_form.matrix(m_blocks))) return -1.0;
    const VectorXd step = m_lu.solve(-m_ev.F);
    if (!step.allFinite()) return -1.0;
    double t = 1.0;
    for (int h = 0; h <= o.max_halvings; ++h, t *= 0.5) {
      evaluate(m_form, m_anchor, m_rho, m_dv + t * step, m_trial);
      if (m_trial.psi <= (1.0 - 2.0 * o.armijo * t) * m_ev.psi) {
        m_dv += t * step;
        std::swap(m_ev, m_trial);
        ++m_inner;
        return t;
      }
    }
    return 0.0;
  }

 private:
  const detail::BodyNewtonMatrix& m_form;
  VectorXd m_rho, m_rho_max, m_anchor, m_dv;
  Evaluation m_ev, m_trial;
  std::vector<Matrix3d> m_blocks;  // ρ_i D_i of eq. (3)
  double m_psi_start = 0.0;
  double m_reduction;
  int m_inner = 0;
  detail::SparseLu m_lu;  // of J, eq. (3): one pattern, pivots reused
};

}  // namespace

SolverResult solve_velocity_prox(const FrictionProblem& p, const BodyCoupling& c, const VelocityProxOptions& options,
                                 const Eigen::VectorXd& r0) {
  detail::check_problem(p, "velocity PROX");
  detail::check_coupling(p, c, "velocity PROX");
  NSCD_THROW_UNLESS(options.sigma > 0.0 && options.stopping.max_iterations >= 0 && options.inner_max_iterations >= 1,
                    "velocity PROX needs sigma > 0, max_iterations ≥ 0 and inner_max_iterations ≥ 1");
  SolverResult result;
  result.stage = SolverType::VelocityProx;
  const detail::BodyNewtonMatrix form(p, c);
  // u = W r + q of result.r and its error, W r as H M⁻¹ Hᵀ r (W may hold its diagonal blocks alone)
  const auto measure = [&] {
    result.u = form.velocities_of(result.r);
    result.error = error_measure(p, result.r, result.u);
  };
  if (detail::start(p, r0, "velocity prox", result, detail::BlockCheck::Diagonal)) {
    measure();  // give_up's u read W's diagonal blocks alone
    return result;
  }
  const int nc = p.nc();
  VectorXd rho(nc);
  for (int i = 0; i < nc; ++i) {
    const double scale = options.sigma * p.W.diag(i).trace() / 3.0;
    rho(i) = scale > 0.0 ? 1.0 / scale : 1.0 / options.sigma;
  }
  NSCD_THROW_UNLESS(form.mass_factorized(), "velocity PROX: M is not symmetric positive definite");
  ProximalNewton newton(form, std::move(rho), result.r, options.inner_reduction);
  measure();
  double best_error = result.error;
  double step_start_error = best_error;  // the lowest error when the proximal step started
  while (best_error > options.stopping.tolerance && result.iterations < options.stopping.max_iterations) {
    ++result.iterations;
    if (newton.step_done(options)) {
      if (best_error >= step_start_error) newton.tighten();
      step_start_error = best_error;
      newton.next_anchor();
      continue;
    }
    ++result.factorizations;
    const double t = newton.newton_step(options);
    if (t < 0.0) break;
    if (t > 0.0) {
      const Evaluation& ev = newton.current();
      const double error = error_measure(p, ev.r, form.velocities_of(ev.r));
      nscd::logger().trace("velocity prox: iteration {}, step {:.3g}, ψ {:.3e}, error {:.3e}", result.iterations, t,
                           ev.psi, error);
      if (error < best_error) {
        best_error = error;
        result.r = ev.r;
      }
    }
    // no descent: Newton's model is poor at this stiffness; a softer proximal problem from the
    // best r so far (a heavily damped step that did descend is kept: docs/performance.md)
    if (t == 0.0) newton.restart(result.r, kSoften);
  }
  measure();
  detail::conclude(p.nc(), options.stopping.tolerance, "velocity prox", result);
  return result;
}

}  // namespace nscd::solvers
