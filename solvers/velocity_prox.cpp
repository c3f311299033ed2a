#include "solvers/velocity_prox.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/alart_curnier_projection.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solver_common.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <map>
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

// eq. (2) at Δv for the anchor a: r = P(a − ρ ∘ u), D_i, F, and ψ = ½ Fᵀ M⁻¹ F
struct Evaluation {
  VectorXd r;
  std::vector<Matrix3d> D;
  VectorXd F;
  double psi = 0.0;
};

class BodyForm {
 public:
  BodyForm(const FrictionProblem& p, const BodyCoupling& c) : m_p(p), m_c(c), m_Ht(c.H.transpose()) {
    m_mass.compute(c.M);
    group_contacts();
    build_jacobian_pattern();
  }
  bool mass_factorized() const { return m_mass.info() == Eigen::Success; }

  // u = H Δv + q
  VectorXd velocities(const VectorXd& dv) const { return m_c.H * dv + m_p.q; }
  // Hᵀ r
  VectorXd generalized(const VectorXd& r) const { return m_Ht * r; }
  // M⁻¹ x
  VectorXd mass_solve(const VectorXd& x) const { return m_mass.solve(x); }
  // Δv = M⁻¹ Hᵀ r, eq. (1)
  VectorXd velocity_change(const VectorXd& r) const { return mass_solve(generalized(r)); }
  // W r + q = H M⁻¹ Hᵀ r + q
  VectorXd velocities_of(const VectorXd& r) const { return velocities(velocity_change(r)); }

  void evaluate(const VectorXd& anchor, const VectorXd& rho, const VectorXd& dv, Evaluation& ev) const {
    const VectorXd u = velocities(dv);
    ev.r.resize(u.size());
    ev.D.resize(static_cast<std::size_t>(m_p.nc()));
    for (int i = 0; i < m_p.nc(); ++i) {
      const Vector3d x = anchor.segment<3>(3 * i) - rho(i) * u.segment<3>(3 * i);
      ev.r.segment<3>(3 * i) = detail::ac_projection(x, m_p.mu(i), ev.D[i]);
    }
    ev.F = m_c.M * dv - generalized(ev.r);
    ev.psi = 0.5 * ev.F.dot(mass_solve(ev.F));
  }

  // J of eq. (3) = M + Σ_i H_iᵀ (ρ_i D_i) H_i, group by group of contacts on the same columns:
  // B_gᵀ (S_g B_g), B_g their block rows stacked and S_g = blockdiag(ρ_i D_i), one dense product
  // per group summed into the values of J's pattern (built once: the same at every call,
  // explicit zeros included) in the order M, then the groups in turn
  Eigen::SparseMatrix<double> jacobian(const VectorXd& rho, const std::vector<Matrix3d>& D) const {
    Eigen::SparseMatrix<double> J = m_pattern;
    double* values = J.valuePtr();
    std::fill(values, values + J.nonZeros(), 0.0);
    std::size_t e = 0;
    for (Eigen::Index j = 0; j < m_c.M.outerSize(); ++j)
      for (Eigen::SparseMatrix<double>::InnerIterator it(m_c.M, j); it; ++it) values[m_mass_slots[e++]] += it.value();
    Eigen::MatrixXd scaled(m_max_rows, m_max_cols);  // S_g B_g
    Eigen::MatrixXd product(m_max_cols, m_max_cols);  // B_gᵀ S_g B_g
    for (const ColumnGroup& g : m_groups) {
      const Eigen::Index k = static_cast<Eigen::Index>(g.cols.size()), n = g.rows.rows();
      for (std::size_t j = 0; j < g.contacts.size(); ++j) {
        const int i = g.contacts[j];
        const Eigen::Index row = 3 * static_cast<Eigen::Index>(j);
        scaled.block(row, 0, 3, k).noalias() = (rho(i) * D[i]) * g.rows.middleRows(row, 3);
      }
      product.topLeftCorner(k, k).noalias() = g.rows.transpose() * scaled.topLeftCorner(n, k);
      for (Eigen::Index b = 0; b < k; ++b)
        for (Eigen::Index a = 0; a < k; ++a) values[g.slots[b * k + a]] += product(a, b);
    }
    return J;
  }

 private:
  // the contacts whose rows of H have entries in the same columns
  struct ColumnGroup {
    std::vector<int> cols;            // those columns, increasing
    std::vector<int> contacts;        // the contacts, increasing
    Eigen::MatrixXd rows;             // 3 per contact × cols.size(): their entries
    std::vector<Eigen::Index> slots;  // of entry (cols[a], cols[b]) of J at b k + a, in J's values
  };

  // each contact's columns, then the groups in the order of their first contact
  void group_contacts() {
    const Eigen::SparseMatrix<double, Eigen::RowMajor> rows(m_c.H);
    std::map<std::vector<int>, std::size_t> group_of;
    std::vector<int> cols;
    for (int i = 0; i < m_p.nc(); ++i) {
      cols.clear();
      for (int a = 0; a < 3; ++a)
        for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(rows, 3 * i + a); it; ++it)
          cols.push_back(static_cast<int>(it.col()));
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
      const auto [at, added] = group_of.try_emplace(cols, m_groups.size());
      if (added) m_groups.push_back({cols, {}, {}, {}});
      m_groups[at->second].contacts.push_back(i);
    }
    for (ColumnGroup& g : m_groups) {
      const Eigen::Index k = static_cast<Eigen::Index>(g.cols.size());
      g.rows = Eigen::MatrixXd::Zero(3 * static_cast<Eigen::Index>(g.contacts.size()), k);
      for (std::size_t j = 0; j < g.contacts.size(); ++j)
        for (int a = 0; a < 3; ++a)
          for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(rows, 3 * g.contacts[j] + a); it; ++it) {
            const auto col =
                std::lower_bound(g.cols.begin(), g.cols.end(), static_cast<int>(it.col())) - g.cols.begin();
            g.rows(3 * static_cast<Eigen::Index>(j) + a, col) = it.value();
          }
      m_max_rows = std::max(m_max_rows, g.rows.rows());
      m_max_cols = std::max(m_max_cols, k);
    }
  }

  // the pattern of J (M's and each group's k × k columns) and where each term lands in it
  void build_jacobian_pattern() {
    std::vector<Eigen::Triplet<double>> triplets;
    for (Eigen::Index j = 0; j < m_c.M.outerSize(); ++j)
      for (Eigen::SparseMatrix<double>::InnerIterator it(m_c.M, j); it; ++it)
        triplets.emplace_back(static_cast<int>(it.row()), static_cast<int>(it.col()), 0.0);
    for (const ColumnGroup& g : m_groups)
      for (const int a : g.cols)
        for (const int b : g.cols) triplets.emplace_back(a, b, 0.0);
    m_pattern.resize(m_c.M.rows(), m_c.M.cols());
    m_pattern.setFromTriplets(triplets.begin(), triplets.end());
    m_pattern.makeCompressed();
    // the position of (row, col) among the values of J's compressed columns
    const auto slot = [this](int r, int c) {
      const int* first = m_pattern.innerIndexPtr() + m_pattern.outerIndexPtr()[c];
      const int* last = m_pattern.innerIndexPtr() + m_pattern.outerIndexPtr()[c + 1];
      return static_cast<Eigen::Index>(std::lower_bound(first, last, r) - m_pattern.innerIndexPtr());
    };
    m_mass_slots.clear();
    for (Eigen::Index j = 0; j < m_c.M.outerSize(); ++j)
      for (Eigen::SparseMatrix<double>::InnerIterator it(m_c.M, j); it; ++it)
        m_mass_slots.push_back(slot(static_cast<int>(it.row()), static_cast<int>(it.col())));
    for (ColumnGroup& g : m_groups) {
      g.slots.clear();
      for (const int b : g.cols)
        for (const int a : g.cols) g.slots.push_back(slot(a, b));
    }
  }

  const FrictionProblem& m_p;
  const BodyCoupling& m_c;
  Eigen::SparseMatrix<double> m_Ht;
  std::vector<ColumnGroup> m_groups;
  Eigen::Index m_max_rows = 0, m_max_cols = 0;
  Eigen::SparseMatrix<double> m_pattern;   // J's, values unused
  std::vector<Eigen::Index> m_mass_slots;  // of M's entries (in their order) in J's values
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> m_mass;
};

void check_coupling(const FrictionProblem& p, const BodyCoupling& c) {
  NSCD_THROW_UNLESS(c.H.rows() == 3 * static_cast<Eigen::Index>(p.nc()) && c.M.rows() == c.M.cols() &&
                        c.H.cols() == c.M.rows(),
                    "velocity PROX: H ({} × {}) and M ({} × {}) do not match the problem's {} contacts", c.H.rows(),
                    c.H.cols(), c.M.rows(), c.M.cols(), p.nc());
}

// the iterate of eqs. (1)–(3): the anchor r_k, ρ, Δv and the evaluation at Δv, with the LU of J
class ProximalNewton {
 public:
  ProximalNewton(const BodyForm& form, VectorXd rho, const VectorXd& r0, double reduction)
      : m_form(form), m_rho(std::move(rho)), m_rho_max(kStiffest * m_rho), m_anchor(r0),
        m_dv(form.velocity_change(r0)), m_reduction(reduction) {
    m_form.evaluate(m_anchor, m_rho, m_dv, m_ev);
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
    m_form.evaluate(m_anchor, m_rho, m_dv, m_ev);
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
    const Eigen::SparseMatrix<double> J = m_form.jacobian(m_rho, m_ev.D);
    if (!m_analysed) {
      m_lu.analyzePattern(J);
      m_analysed = true;
    }
    m_lu.factorize(J);
    if (m_lu.info() != Eigen::Success) return -1.0;
    const VectorXd step = m_lu.solve(-m_ev.F);
    if (!step.allFinite()) return -1.0;
    double t = 1.0;
    for (int h = 0; h <= o.max_halvings; ++h, t *= 0.5) {
      m_form.evaluate(m_anchor, m_rho, m_dv + t * step, m_trial);
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
  const BodyForm& m_form;
  VectorXd m_rho, m_rho_max, m_anchor, m_dv;
  Evaluation m_ev, m_trial;
  double m_psi_start = 0.0;
  double m_reduction;
  int m_inner = 0;
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> m_lu;
  bool m_analysed = false;
};

}  // namespace

SolverResult solve_velocity_prox(const FrictionProblem& p, const BodyCoupling& c, const VelocityProxOptions& options,
                                 const Eigen::VectorXd& r0) {
  detail::check_problem(p, "velocity PROX");
  check_coupling(p, c);
  NSCD_THROW_UNLESS(options.sigma > 0.0 && options.stopping.max_iterations >= 0 && options.inner_max_iterations >= 1,
                    "velocity PROX needs sigma > 0, max_iterations ≥ 0 and inner_max_iterations ≥ 1");
  SolverResult result;
  result.stage = SolverType::VelocityProx;
  const BodyForm form(p, c);
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
