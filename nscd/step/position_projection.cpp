#include "nscd/step/position_projection.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>
#include <cmath>

namespace nscd {

ProjectionResult project_gaps(const std::vector<ContactJacobian>& jacobians, const solvers::DelassusMatrix& W, int nb,
                              const Eigen::VectorXd& gap_end, const std::vector<ProjectedRow>& rows, double tolerance,
                              int max_sweeps, Eigen::VectorXd& P, std::vector<Vec6>& dq) {
  const int nc = W.nc();
  NSCD_DEMAND(static_cast<int>(jacobians.size()) == nc && gap_end.size() == nc && static_cast<int>(rows.size()) == nc);
  P.setZero(nc);
  dq.assign(nb, Vec6::Zero());
  ProjectionResult result;
  for (result.sweeps = 1; result.sweeps <= max_sweeps; ++result.sweeps) {
    result.change = 0;
    for (int i = 0; i < nc; ++i) {
      const double w_ii = W.diag(i)(0, 0);
      if (rows[i] == ProjectedRow::Skipped || !(w_ii > 0)) continue;
      const ContactJacobian& J = jacobians[i];
      // eq. (5)
      double gamma = gap_end[i];
      for (int side = 0; side < 2; ++side)
        if (J.movable[side]) gamma += J.G[side].row(0).dot(dq[J.body[side]]);
      // eq. (3): the scalar complementarity of row i, the others fixed
      const double lower = rows[i] == ProjectedRow::Closed ? -std::max(gap_end[i], 0.0) / w_ii : 0.0;
      const double next = std::max(P[i] - gamma / w_ii, lower);
      const double delta = next - P[i];
      result.change = std::max(result.change, std::abs(delta) * w_ii);
      for (int side = 0; side < 2; ++side)
        if (J.movable[side] && delta != 0) dq[J.body[side]] += J.Y[side].col(0) * delta;
      P[i] = next;
    }
    if (result.change <= tolerance) break;
  }
  result.sweeps = std::min(result.sweeps, max_sweeps);
  return result;
}

}  // namespace nscd
