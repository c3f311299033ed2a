#include "solvers/interior_point.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/body_newton_matrix.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solver_common.hpp"

#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace nscd::solvers {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using Eigen::VectorXd;

// the fraction of the way to the cones' boundary a step goes (eq. (5))
constexpr double kToBoundary = 0.99;
// a step shorter than this ends a solve: the iterates no longer move
constexpr double kShortestStep = 1e-10;
// eq. (7): a solve's restart point is at least this many iterations into it, past the first steps
// toward its own shift's residuals, and no deeper than this fraction of restart_level (a point
// nearer the cones' boundary leaves the next solve short steps: the sliding box of the tests then
// stalls at 2e-4, and at 3e-8 with a band down to 10⁻⁴)
constexpr int kRestartAfter = 2;
constexpr double kRestartBand = 1e-2;

const Matrix3d kJ = Vector3d(1.0, -1.0, -1.0).asDiagonal();

// det t = tᵀ J t, as (t_n − ‖t_T‖)(t_n + ‖t_T‖) for its accuracy near the boundary
double jordan_det(const Vector3d& t) {
  const double tangential = t.tail<2>().norm();
  return (t(0) - tangential) * (t(0) + tangential);
}

// a ∘ b
Vector3d jordan_product(const Vector3d& a, const Vector3d& b) {
  Vector3d c;
  c(0) = a.dot(b);
  c.tail<2>() = a(0) * b.tail<2>() + b(0) * a.tail<2>();
  return c;
}

// ξ with l ∘ ξ = c, l inside L
Vector3d jordan_solve(const Vector3d& l, const Vector3d& c) {
  Vector3d xi;
  xi(0) = (l(0) * c(0) - l.tail<2>().dot(c.tail<2>())) / jordan_det(l);
  xi.tail<2>() = (c.tail<2>() - xi(0) * l.tail<2>()) / l(0);
  return xi;
}

// the largest α ≥ 0 with t + α d in L (t inside it): the first positive root of
// det(t + α d) = a α² + 2 b α + c, or where its normal component vanishes
double step_to_boundary(const Vector3d& t, const Vector3d& d) {
  double alpha = std::numeric_limits<double>::infinity();
  if (d(0) < 0.0) alpha = -t(0) / d(0);
  const double a = jordan_det(d), b = t(0) * d(0) - t.tail<2>().dot(d.tail<2>()), c = jordan_det(t);
  if (a == 0.0) {
    if (b < 0.0) alpha = std::min(alpha, -c / (2.0 * b));
    return alpha;
  }
  const double discriminant = b * b - a * c;
  if (discriminant < 0.0) return alpha;
  const double root = std::sqrt(discriminant);
  for (const double r : {(-b - root) / a, (-b + root) / a})
    if (r > 0.0) alpha = std::min(alpha, r);
  return alpha;
}

// eq. (3) for one cone
struct Scaling {
  Matrix3d W, W_inv;
  Vector3d lambda;
};

Scaling nesterov_todd(const Vector3d& x, const Vector3d& z) {
  const double root_x = std::sqrt(std::max(jordan_det(x), std::numeric_limits<double>::min()));
  const double root_z = std::sqrt(std::max(jordan_det(z), std::numeric_limits<double>::min()));
  const Vector3d x_bar = x / root_x, z_bar = z / root_z;
  const double gamma = std::sqrt(0.5 * (1.0 + x_bar.dot(z_bar)));
  const Vector3d w_bar = (x_bar + kJ * z_bar) / (2.0 * gamma);
  const Vector3d v = (w_bar + Vector3d::UnitX()) / std::sqrt(2.0 * (w_bar(0) + 1.0));
  const double beta = std::sqrt(root_x / root_z);
  Scaling s;
  s.W = beta * (2.0 * v * v.transpose() - kJ);
  s.W_inv = (2.0 * kJ * v * v.transpose() * kJ - kJ) / beta;
  s.lambda = s.W * z;
  return s;
}

// w_i of eq. (2), 1 for a contact whose W_ii vanishes
double contact_scale(const FrictionProblem& p, int i) {
  const double w = p.W.diag(i).trace() / 3.0;
  return w > 0.0 ? w : 1.0;
}

// the change of variables of eq. (2): x_i = scale_i ∘ r_i, scale_i = √w_i (μ_i, 1, 1), and
// z_i = y_i / scale_i
class ConeVariables {
 public:
  explicit ConeVariables(const FrictionProblem& p) : m_scale(3 * static_cast<Eigen::Index>(p.nc())) {
    for (int i = 0; i < p.nc(); ++i)
      m_scale.segment<3>(3 * i) = std::sqrt(contact_scale(p, i)) * Vector3d(p.mu(i), 1.0, 1.0);
  }
  VectorXd impulses(const VectorXd& x) const { return x.cwiseQuotient(m_scale); }
  VectorXd dual(const VectorXd& y) const { return y.cwiseQuotient(m_scale); }
  // r = x / scale as H's weights: Hᵀ r = Gᵀ x
  VectorXd g_transpose(const detail::BodyNewtonMatrix& form, const VectorXd& x) const {
    return form.generalized(impulses(x));
  }
  // G Δv = (H Δv) / scale
  VectorXd g(const BodyCoupling& c, const VectorXd& dv) const { return dual(c.H * dv); }
  // B_i of eq. (4) for W_i²: diag(1/scale_i) W_i² diag(1/scale_i)
  Matrix3d block(int i, const Matrix3d& W2) const {
    const Vector3d inv = m_scale.segment<3>(3 * i).cwiseInverse();
    return inv.asDiagonal() * W2 * inv.asDiagonal();
  }

 private:
  VectorXd m_scale;
};

// one solve of eq. (2) for z₀, from the start of the file comment: where it ends, Δv and
// r = x / scale
struct ConeSolve {
  VectorXd dv, r;
  int iterations = 0;
};

class InteriorPoint {
 public:
  InteriorPoint(const detail::BodyNewtonMatrix& form, const InteriorPointOptions& options)
      : m_form(form), m_options(options), m_cones(form.problem()), m_nc(form.problem().nc()),
        m_blocks(static_cast<std::size_t>(m_nc)), m_scalings(static_cast<std::size_t>(m_nc)) {
    const FrictionProblem& p = form.problem();
    const double level = p.q.norm() / std::sqrt(static_cast<double>(m_nc));
    m_start.resize(3 * static_cast<Eigen::Index>(m_nc));
    for (int i = 0; i < m_nc; ++i) {
      const double t = (level > 0.0 ? level : 1.0) / std::sqrt(contact_scale(p, i));
      m_start.segment<3>(3 * i) = Vector3d(t, 0.0, 0.0);
    }
  }

  // eqs. (2)–(5) for the shift s, at most max_iterations iterations, from the start of the file
  // comment on the first call and from the restart point of eq. (7) after it
  ConeSolve solve(const VectorXd& s, int max_iterations) {
    const FrictionProblem& p = m_form.problem();
    const BodyCoupling& c = m_form.coupling();
    VectorXd shifted = p.q;
    for (int i = 0; i < m_nc; ++i) shifted(3 * i) += s(i);
    const VectorXd z0 = m_cones.dual(shifted);
    ConeSolve out{VectorXd::Zero(c.M.rows()), VectorXd(), 0};
    VectorXd x = m_start, z = m_start;
    const double tau0 = x.dot(z) / m_nc;
    if (m_restart.x.size() > 0) {
      x = m_restart.x;
      z = m_restart.z;
      out.dv = m_restart.dv;
    }
    bool restart_kept = m_options.restart_level == 0.0;
    while (out.iterations < max_iterations) {
      const VectorXd load = m_cones.g_transpose(m_form, x);  // Gᵀx
      const VectorXd r_d = c.M * out.dv - load;
      const VectorXd r_p = z - m_cones.g(c, out.dv) - z0;
      const double tau = x.dot(z) / m_nc;
      if (!restart_kept && out.iterations >= kRestartAfter && tau <= m_options.restart_level * tau0 &&
          tau >= kRestartBand * m_options.restart_level * tau0) {
        m_restart = {x, z, out.dv};
        restart_kept = true;
      }
      const bool feasible = r_p.norm() <= m_options.feasibility * (1.0 + z0.norm()) &&
                            r_d.norm() <= m_options.feasibility * (1.0 + load.norm());
      if (!std::isfinite(tau) || (feasible && tau <= m_options.complementarity * tau0)) break;
      ++out.iterations;
      if (!factorize(x, z)) break;
      // the affine step (ξ̂ = −λ∘λ), then Mehrotra's corrector, eq. (5)
      VectorXd xi(3 * static_cast<Eigen::Index>(m_nc));
      for (int i = 0; i < m_nc; ++i) {
        const Vector3d& l = m_scalings[static_cast<std::size_t>(i)].lambda;
        xi.segment<3>(3 * i) = jordan_solve(l, -jordan_product(l, l));
      }
      const Direction affine = direction(xi, r_d, r_p);
      const double alpha_affine = std::min(1.0, largest_step(x, z, affine));
      const double tau_affine = (x + alpha_affine * affine.dx).dot(z + alpha_affine * affine.dz) / m_nc;
      const double sigma = std::pow(std::clamp(tau_affine / tau, 0.0, 1.0), 3);
      for (int i = 0; i < m_nc; ++i) {
        const Scaling& sc = m_scalings[static_cast<std::size_t>(i)];
        const Vector3d a = sc.W_inv * affine.dx.segment<3>(3 * i), b = sc.W * affine.dz.segment<3>(3 * i);
        xi.segment<3>(3 * i) =
            jordan_solve(sc.lambda, Vector3d(sigma * tau, 0.0, 0.0) - jordan_product(sc.lambda, sc.lambda) -
                                        jordan_product(a, b));
      }
      const Direction step = direction(xi, r_d, r_p);
      const double alpha = std::min(1.0, kToBoundary * largest_step(x, z, step));
      if (!(alpha >= kShortestStep) || !step.dv.allFinite()) break;
      out.dv += alpha * step.dv;
      x += alpha * step.dx;
      z += alpha * step.dz;
    }
    out.r = m_cones.impulses(x);
    return out;
  }

 private:
  struct Direction {
    VectorXd dv, dx, dz;
  };
  struct Iterate {
    VectorXd x, z, dv;
  };

  // the scalings of eq. (3) at (x, z) and the LDLᵀ of eq. (4)'s matrix; false if it failed
  bool factorize(const VectorXd& x, const VectorXd& z) {
    for (int i = 0; i < m_nc; ++i) {
      Scaling& sc = m_scalings[static_cast<std::size_t>(i)];
      sc = nesterov_todd(x.segment<3>(3 * i), z.segment<3>(3 * i));
      m_blocks[static_cast<std::size_t>(i)] = m_cones.block(i, sc.W * sc.W);
    }
    const Eigen::SparseMatrix<double> K = m_form.matrix(m_blocks);
    if (!m_analysed) {
      m_ldlt.analyzePattern(K);
      m_analysed = true;
    }
    m_ldlt.factorize(K);
    return m_ldlt.info() == Eigen::Success;
  }

  // eq. (4) for ξ̂'s ξ
  Direction direction(const VectorXd& xi, const VectorXd& r_d, const VectorXd& r_p) const {
    const Eigen::Index n = 3 * static_cast<Eigen::Index>(m_nc);
    VectorXd w_xi(n), w2_rp(n);
    for (int i = 0; i < m_nc; ++i) {
      const Matrix3d& W = m_scalings[static_cast<std::size_t>(i)].W;
      w_xi.segment<3>(3 * i) = W * xi.segment<3>(3 * i);
      w2_rp.segment<3>(3 * i) = W * (W * r_p.segment<3>(3 * i));
    }
    Direction d;
    d.dv = m_ldlt.solve(VectorXd(-r_d + m_cones.g_transpose(m_form, w_xi + w2_rp)));
    d.dz = m_cones.g(m_form.coupling(), d.dv) - r_p;
    d.dx.resize(n);
    for (int i = 0; i < m_nc; ++i) {
      const Matrix3d& W = m_scalings[static_cast<std::size_t>(i)].W;
      d.dx.segment<3>(3 * i) = w_xi.segment<3>(3 * i) - W * (W * d.dz.segment<3>(3 * i));
    }
    return d;
  }

  // the largest step along d that keeps every x_i and z_i in L
  double largest_step(const VectorXd& x, const VectorXd& z, const Direction& d) const {
    double alpha = std::numeric_limits<double>::infinity();
    for (int i = 0; i < m_nc; ++i)
      alpha = std::min({alpha, step_to_boundary(x.segment<3>(3 * i), d.dx.segment<3>(3 * i)),
                        step_to_boundary(z.segment<3>(3 * i), d.dz.segment<3>(3 * i))});
    return alpha;
  }

  const detail::BodyNewtonMatrix& m_form;
  const InteriorPointOptions& m_options;
  ConeVariables m_cones;
  int m_nc;
  VectorXd m_start;
  Iterate m_restart;  // eq. (7), empty before the first solve kept one
  std::vector<Matrix3d> m_blocks;
  std::vector<Scaling> m_scalings;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> m_ldlt;
  bool m_analysed = false;
};

}  // namespace

bool interior_point_applies(const FrictionProblem& p) {
  return p.nc() == 0 || p.mu.minCoeff() > 0.0;
}

SolverResult solve_interior_point(const FrictionProblem& p, const BodyCoupling& c,
                                  const InteriorPointOptions& options) {
  detail::check_problem(p, "interior point");
  detail::check_coupling(p, c, "interior point");
  NSCD_THROW_UNLESS(interior_point_applies(p),
                    "interior point: every friction coefficient must be > 0 (the smallest is {})",
                    p.nc() == 0 ? 0.0 : p.mu.minCoeff());
  NSCD_THROW_UNLESS(options.stopping.max_iterations >= 0 && options.max_solves >= 1 && options.shift_progress > 0.0 &&
                        options.shift_progress <= 1.0 && options.complementarity > 0.0 && options.feasibility > 0.0 &&
                        options.max_solve_iterations >= 1 && options.restart_level >= 0.0 &&
                        options.restart_level < 1.0,
                    "interior point needs max_iterations ≥ 0, max_solves ≥ 1, shift_progress in (0, 1], "
                    "complementarity > 0, feasibility > 0, max_solve_iterations ≥ 1 and restart_level in [0, 1)");
  SolverResult result;
  result.stage = SolverType::InteriorPoint;
  if (p.nc() == 0) return result;  // nothing to solve: converged after no iteration
  const detail::BodyNewtonMatrix form(p, c);
  // not finite data: nothing to solve, r = 0 given up on
  const bool given_up = detail::start(p, Eigen::VectorXd(), "interior point", result, detail::BlockCheck::Diagonal);
  NSCD_THROW_UNLESS(given_up || form.mass_factorized(), "interior point: M is not symmetric positive definite");
  result.u = form.velocities_of(result.r);
  result.error = error_measure(p, result.r, result.u);
  if (given_up) return result;
  InteriorPoint method(form, options);
  VectorXd s = VectorXd::Zero(p.nc());
  double previous = std::numeric_limits<double>::infinity();
  for (int k = 0; k < options.max_solves && result.error > options.stopping.tolerance; ++k) {
    const int left = options.stopping.max_iterations - result.iterations;
    if (left <= 0) break;
    const ConeSolve solved = method.solve(s, std::min(left, options.max_solve_iterations));
    result.iterations += solved.iterations;
    result.factorizations += solved.iterations;
    const VectorXd& r = solved.r;
    const VectorXd u = form.velocities_of(r);
    const double error = error_measure(p, r, u);
    nscd::logger().trace("interior point: solve {} ({} iterations), error {:.3e}", k, solved.iterations, error);
    if (!std::isfinite(error)) break;
    if (error < result.error) {
      result.r = r;
      result.u = u;
      result.error = error;
    }
    if (!(error <= options.shift_progress * previous)) break;
    previous = error;
    const VectorXd u_solve = form.velocities(solved.dv);  // eq. (6)
    for (int i = 0; i < p.nc(); ++i) s(i) = p.mu(i) * u_solve.segment<2>(3 * i + 1).norm();
  }
  detail::conclude(p.nc(), options.stopping.tolerance, "interior point", result);
  return result;
}

}  // namespace nscd::solvers
