#include "nscd/step/penalty_contact.hpp"

#include "nscd/step/contact_problem.hpp"
#include "nscd/step/joints.hpp"

#include <algorithm>
#include <cmath>

namespace nscd {

double penalty_stable_step(const PenaltyLaw& law, double mass) {
  const double omega = std::sqrt(law.stiffness / mass);
  const double zeta = law.damping / (2 * std::sqrt(law.stiffness * mass));
  return 2 / omega * (std::sqrt(1 + zeta * zeta) - zeta);
}

void penalty_impulses(const Model& m, StepWorkspace& ws) {
  const PenaltyLaw& law = *m.step.penalty;
  const double h = m.step.h;
  const solvers::FrictionProblem& p = assembled_problem(m, ws);
  Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * p.nc());
  for (const Joint& joint : find_joints(ws.contacts.active)) {
    for (std::size_t k = 0; k < joint.contacts.size(); ++k) {
      const int i = joint.contacts[k];
      const ActiveContact& c = ws.contacts.active[i];
      const double gap = c.point.gap + (1 - m.step.theta) * h * c.u_old[0];  // eq. (1)
      if (gap >= 0) continue;
      const double w = joint.area > 0 ? joint.tributary_area[k] / joint.area : 1.0 / joint.contacts.size();
      const double f_n = std::max(0.0, -w * (law.stiffness * gap + law.damping * c.u_old[0]));  // eq. (2)
      const Eigen::Vector2d u_t = c.u_old.tail<2>();
      r[3 * i] = h * f_n;  // eqs. (3)–(4)
      r.segment<2>(3 * i + 1) = -h * p.mu[i] * f_n / std::max(u_t.norm(), law.regularisation_velocity) * u_t;
    }
  }
  Eigen::VectorXd u = p.W.apply(r) + p.q;
  ws.contacts.solution = solvers::SolverResult{std::move(r), std::move(u), solvers::SolverStatus::Converged, 0, 0.0};
}

}  // namespace nscd
