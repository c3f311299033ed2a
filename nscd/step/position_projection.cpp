#include "nscd/step/position_projection.hpp"

#include <algorithm>
#include <cmath>

namespace nscd {

ProjectionResult project_gaps(const solvers::DelassusMatrix& W, const Eigen::VectorXd& gap_end,
                              const std::vector<ProjectedRow>& rows, double tolerance, int max_sweeps,
                              Eigen::VectorXd& P) {
  const int nc = W.nc();
  P.setZero(nc);
  ProjectionResult result;
  for (result.sweeps = 1; result.sweeps <= max_sweeps; ++result.sweeps) {
    result.change = 0;
    for (int i = 0; i < nc; ++i) {
      const double w_ii = W.diag(i)(0, 0);
      if (rows[i] == ProjectedRow::Skipped || !(w_ii > 0)) continue;
      // eq. (2), summed in increasing column order
      double gamma = gap_end[i] + w_ii * P[i];
      W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& block) { gamma += block(0, 0) * P[j]; });
      // eq. (3): the scalar complementarity of row i, the others fixed
      const double lower = rows[i] == ProjectedRow::Closed ? -std::max(gap_end[i], 0.0) / w_ii : 0.0;
      const double next = std::max(P[i] - gamma / w_ii, lower);
      result.change = std::max(result.change, std::abs(next - P[i]) * w_ii);
      P[i] = next;
    }
    if (result.change <= tolerance) break;
  }
  result.sweeps = std::min(result.sweeps, max_sweeps);
  return result;
}

}  // namespace nscd
