#include "solvers/velocity_prox.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/alart_curnier_projection.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solver_common.hpp"

#include <Eigen/Cholesky>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <cmath>
#include <limits>
#include <vector>

namespace nscd::solvers {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using Eigen::VectorXd;

// ρ's factor after a proximal step whose Newton iterations found no descent (and its inverse,
// up to the initial ρ, after a step solved in at most two iterations)
constexpr double kSoften = 0.1;

// eq. (2) at Δv for the anchor a: r = P(a − ρ ∘ u), D_i, F, and ψ = ½ Fᵀ M̂⁻¹ F
struct Evaluation {
  VectorXd r;
  std::vector<Matrix3d> D;
  VectorXd F;
  double psi = 0.0;
};

class BodyForm {
 public:
  BodyForm(const FrictionProblem& p, const BodyCoupling& c) : m_p(p), m_c(c) {
    m_inverse_mass.reserve(c.mass.size());
    for (const Matrix66& M : c.mass) m_inverse_mass.push_back(M.llt().solve(Matrix66::Identity()));
  }
  Eigen::Index n() const { return 6 * static_cast<Eigen::Index>(m_c.mass.size()); }

  // u = H Δv + q
  VectorXd velocities(const VectorXd& dv) const {
    VectorXd u = m_p.q;
    for (int i = 0; i < m_c.nc(); ++i)
      for (int side = 0; side < 2; ++side)
        if (const int b = m_c.body[i][side]; b >= 0) u.segment<3>(3 * i) += m_c.G[i][side] * dv.segment<6>(6 * b);
    return u;
  }
  // f = Hᵀ r, summed in contact order
  VectorXd generalized(const VectorXd& r) const {
    VectorXd f = VectorXd::Zero(n());
    for (int i = 0; i < m_c.nc(); ++i)
      for (int side = 0; side < 2; ++side)
        if (const int b = m_c.body[i][side]; b >= 0) f.segment<6>(6 * b) += m_c.G[i][side].transpose() * r.segment<3>(3 * i);
    return f;
  }
  // M̂ x and M̂⁻¹ x body by body
  VectorXd mass_times(const VectorXd& x, bool inverse) const {
    VectorXd y(n());
    for (std::size_t b = 0; b < m_c.mass.size(); ++b) {
      const Eigen::Index k = 6 * static_cast<Eigen::Index>(b);
      y.segment<6>(k) = (inverse ? m_inverse_mass[b] : m_c.mass[b]) * x.segment<6>(k);
    }
    return y;
  }

  void evaluate(const VectorXd& anchor, const VectorXd& rho, const VectorXd& dv, Evaluation& ev) const {
    const VectorXd u = velocities(dv);
    ev.r.resize(u.size());
    ev.D.resize(static_cast<std::size_t>(m_c.nc()));
    for (int i = 0; i < m_c.nc(); ++i) {
      const Vector3d x = anchor.segment<3>(3 * i) - rho(i) * u.segment<3>(3 * i);
      ev.r.segment<3>(3 * i) = detail::ac_projection(x, m_p.mu(i), ev.D[i]);
    }
    ev.F = mass_times(dv, false) - generalized(ev.r);
    ev.psi = 0.5 * ev.F.dot(mass_times(ev.F, true));
  }

  // J of eq. (3); the triplets come in the same order at every call, so the pattern is fixed
  Eigen::SparseMatrix<double> jacobian(const VectorXd& rho, const std::vector<Matrix3d>& D) const {
    std::vector<Eigen::Triplet<double>> triplets;
    triplets.reserve(36 * (m_c.mass.size() + 4 * static_cast<std::size_t>(m_c.nc())));
    auto add_block = [&](int a, int b, const Matrix66& block) {
      for (int k = 0; k < 6; ++k)
        for (int l = 0; l < 6; ++l) triplets.emplace_back(6 * a + k, 6 * b + l, block(k, l));
    };
    for (std::size_t b = 0; b < m_c.mass.size(); ++b) add_block(static_cast<int>(b), static_cast<int>(b), m_c.mass[b]);
    for (int i = 0; i < m_c.nc(); ++i)
      for (int s = 0; s < 2; ++s)
        for (int t = 0; t < 2; ++t) {
          const int a = m_c.body[i][s], b = m_c.body[i][t];
          if (a >= 0 && b >= 0) add_block(a, b, rho(i) * m_c.G[i][s].transpose() * D[i] * m_c.G[i][t]);
        }
    Eigen::SparseMatrix<double> J(n(), n());
    J.setFromTriplets(triplets.begin(), triplets.end());
    return J;
  }

 private:
  const FrictionProblem& m_p;
  const BodyCoupling& m_c;
  std::vector<Matrix66> m_inverse_mass;
};

void check_coupling(const FrictionProblem& p, const BodyCoupling& c) {
  NSCD_THROW_UNLESS(c.nc() == p.nc() && static_cast<int>(c.G.size()) == p.nc(),
                    "velocity PROX: the body coupling has {} contacts, the problem {}", c.nc(), p.nc());
  const int nb = static_cast<int>(c.mass.size());
  for (const std::array<int, 2>& sides : c.body)
    for (const int b : sides)
      NSCD_THROW_UNLESS(b >= -1 && b < nb, "velocity PROX: body {} out of range [-1, {})", b, nb);
}

}  // namespace

SolverResult solve_velocity_prox(const FrictionProblem& p, const BodyCoupling& c, const VelocityProxOptions& options,
                                 const Eigen::VectorXd& r0) {
  detail::check_problem(p, "velocity PROX");
  check_coupling(p, c);
  NSCD_THROW_UNLESS(options.sigma > 0.0 && options.max_iterations >= 0 && options.inner_max_iterations >= 1,
                    "velocity PROX needs sigma > 0, max_iterations ≥ 0 and inner_max_iterations ≥ 1");
  SolverResult result;
  result.stage = SolverType::VelocityProx;
  if (detail::start(p, r0, result)) return result;
  const int nc = p.nc();
  if (nc == 0) {
    detail::finish(p, options.tolerance, "velocity prox", result);
    return result;
  }

  VectorXd rho(nc);
  for (int i = 0; i < nc; ++i) {
    const double scale = options.sigma * p.W.diag(i).trace() / 3.0;
    rho(i) = scale > 0.0 ? 1.0 / scale : 1.0 / options.sigma;
  }
  const BodyForm form(p, c);
  const VectorXd rho_max = rho;
  VectorXd anchor = result.r;
  VectorXd dv = form.mass_times(form.generalized(anchor), true);
  double best_error = error_measure(p, result.r, p.W.apply(result.r) + p.q);
  Evaluation ev, trial;
  form.evaluate(anchor, rho, dv, ev);
  double psi_start = ev.psi;
  int inner = 0;
  // a new proximal step from the current r, with ρ scaled by `factor` (at most its initial value)
  auto new_anchor = [&](double factor) {
    anchor = ev.r;
    rho = (factor * rho).cwiseMin(rho_max);
    form.evaluate(anchor, rho, dv, ev);
    psi_start = ev.psi;
    inner = 0;
  };
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu;
  bool analysed = false;
  while (best_error > options.tolerance && result.iterations < options.max_iterations) {
    ++result.iterations;
    // a proximal step done: its r becomes the anchor, and a quick one lets ρ grow back
    if (inner >= options.inner_max_iterations || ev.psi <= options.inner_reduction * psi_start) {
      new_anchor(inner <= 2 ? 1.0 / kSoften : 1.0);
      continue;
    }
    // Newton step on eq. (2), damped by Armijo backtracking on ψ
    const Eigen::SparseMatrix<double> J = form.jacobian(rho, ev.D);
    if (!analysed) {
      lu.analyzePattern(J);
      analysed = true;
    }
    lu.factorize(J);
    ++result.factorizations;
    if (lu.info() != Eigen::Success) break;
    const VectorXd step = lu.solve(-ev.F);
    if (!step.allFinite()) break;
    double t = 1.0;
    bool decreased = false;
    for (int h = 0; h <= options.max_halvings && !decreased; ++h) {
      if (h > 0) t *= 0.5;
      form.evaluate(anchor, rho, dv + t * step, trial);
      decreased = trial.psi <= (1.0 - 2.0 * options.armijo * t) * ev.psi;
    }
    // no descent: the proximal problem is too stiff for Newton here; a softer one from this r
    if (!decreased) {
      new_anchor(kSoften);
      continue;
    }
    dv += t * step;
    std::swap(ev, trial);
    ++inner;
    const double error = error_measure(p, ev.r, p.W.apply(ev.r) + p.q);
    nscd::logger().trace("velocity prox: iteration {}, step {:.3g}, ψ {:.3e}, error {:.3e}", result.iterations, t,
                         ev.psi, error);
    if (error < best_error) {
      best_error = error;
      result.r = ev.r;
    }
  }
  detail::finish(p, options.tolerance, "velocity prox", result);
  return result;
}

}  // namespace nscd::solvers
