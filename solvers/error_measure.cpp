#include "solvers/error_measure.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>
#include <cmath>

namespace nscd::solvers {

Eigen::Vector3d project_on_cone(const Eigen::Vector3d& x, double mu) {
  const double norm_t = std::sqrt(x(1) * x(1) + x(2) * x(2));
  // polar cone first, as Siconos's projectionOnCone (decides the case μ = 0, x_T = 0, x_n < 0)
  if (mu * norm_t <= -x(0)) return Eigen::Vector3d::Zero();
  if (norm_t <= mu * x(0)) return x;
  // boundary: x_T ≠ 0 here, otherwise one of the two cases above holds
  const double rn = (mu * norm_t + x(0)) / (mu * mu + 1.0);
  const double scale = mu * rn / norm_t;
  return {rn, scale * x(1), scale * x(2)};
}

double impulse_scale(const FrictionProblem& p, int i) {
  return p.error_scaling == ErrorScaling::Velocity ? p.W.diag(i).trace() / 3.0 : 1.0;
}

double scaled_impulse_norm(const FrictionProblem& p, const Eigen::VectorXd& r) {
  if (p.error_scaling == ErrorScaling::Siconos) return r.norm();
  double sum = 0.0;
  for (int i = 0; i < p.nc(); ++i) sum += (impulse_scale(p, i) * r.segment<3>(3 * i)).squaredNorm();
  return std::sqrt(sum);
}

double error_denominator(const FrictionProblem& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u) {
  const double denominator = std::max({p.q.norm(), scaled_impulse_norm(p, r), u.norm()});
  return denominator > 0.0 ? denominator : 1.0;
}

double error_measure(const FrictionProblem& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u) {
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(p.nc());
  NSCD_DEMAND(r.size() == n && u.size() == n && p.q.size() == n && p.mu.size() == p.nc());
  // e_i = r̃_i − P_K(r̃_i − û_i), eqs. (1)–(2), summed in contact order
  double sum = 0.0;
  for (int i = 0; i < p.nc(); ++i) {
    const Eigen::Vector3d ri = impulse_scale(p, i) * r.segment<3>(3 * i);
    const Eigen::Vector3d ui = u.segment<3>(3 * i);
    const double mu = p.mu(i);
    const Eigen::Vector3d x(ri(0) - ui(0) - mu * std::sqrt(ui(1) * ui(1) + ui(2) * ui(2)), ri(1) - ui(1), ri(2) - ui(2));
    sum += (ri - project_on_cone(x, mu)).squaredNorm();
  }
  return std::sqrt(sum) / error_denominator(p, r, u);  // eq. (3)
}

}  // namespace nscd::solvers
