#include "nscd/step/position_projection.hpp"

#include "nscd/core/error.hpp"
#include "solvers/anderson_mixing.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace nscd {
namespace {

// P = 0 is kept, without a sweep, where its residual is below this fraction of the tolerance.
// Not the tolerance itself: the first sweep closes an isolated contact exactly and leaves the
// others far inside the tolerance, and skipping it up to the tolerance let the shaken wall's
// overlaps grow from 5.5e-8 to 4.6e-7 m (docs/performance.md, "The projection kept at P = 0")
constexpr double kKeptBelow = 1e-3;

// the normal row of a contact on its movable sides: G_n,αs and Y_αs e_n (body −1: no unknowns),
// contiguous for the sweeps
struct NormalRow {
  int body[2];
  double w;  // (W_nn)_αα of eq. (2), on the frames
  Vec6 g[2];
  Vec6 y[2];
};

// contact J's normal row
NormalRow normal_row(const ContactJacobian& J) {
  NormalRow row;
  row.w = 0;
  for (int side = 0; side < 2; ++side) {
    row.body[side] = J.movable[side] ? J.body[side] : -1;
    row.g[side] = J.G[side].row(0).transpose();
    row.y[side] = J.Y[side].col(0);
    row.w += row.g[side].dot(row.y[side]);
  }
  return row;
}

}  // namespace

ProjectionResult project_gaps(const std::vector<ContactJacobian>& jacobians, int nb, const Eigen::VectorXd& gap_end,
                              const std::vector<ProjectedRow>& rows, const ProjectionOptions& options, Eigen::VectorXd& P,
                              std::vector<Vec6>& dq) {
  const int nc = static_cast<int>(jacobians.size());
  NSCD_DEMAND(gap_end.size() == nc && static_cast<int>(rows.size()) == nc);
  P.setZero(nc);
  dq.assign(nb, Vec6::Zero());
  ProjectionResult result;
  // P = 0 kept where it solves eq. (3) to kKeptBelow × the tolerance: there γ = g⁺, and the first
  // sweep would change a closed row's γ by |g⁺|, a unilateral row's by max(−g⁺, 0)
  for (int i = 0; i < nc; ++i)
    if (rows[i] != ProjectedRow::Skipped)
      result.change = std::max(result.change, rows[i] == ProjectedRow::Closed ? std::abs(gap_end[i]) : -gap_end[i]);
  if (result.change <= kKeptBelow * options.tolerance) return result;
  std::vector<NormalRow> normal;  // made by the first sweep as it goes, not value-initialised first
  normal.reserve(jacobians.size());
  // eq. (6): P with Δq, its image by eq. (4)
  solvers::detail::AndersonMixing mixing(options.anderson_depth, nc, 6 * static_cast<Eigen::Index>(nb));
  Eigen::Map<Eigen::VectorXd> dq_all(dq.empty() ? nullptr : dq.data()->data(), 6 * static_cast<Eigen::Index>(nb));
  for (result.sweeps = 1; result.sweeps <= options.max_sweeps; ++result.sweeps) {
    mixing.start_sweep(P, dq_all);
    result.change = 0;
    for (int i = 0; i < nc; ++i) {
      if (result.sweeps == 1) normal.push_back(normal_row(jacobians[i]));
      const NormalRow& n = normal[i];
      const double w_ii = n.w;
      if (rows[i] == ProjectedRow::Skipped || !(w_ii > 0)) continue;
      // eq. (5)
      double gamma = gap_end[i];
      for (int side = 0; side < 2; ++side)
        if (n.body[side] >= 0) gamma += n.g[side].dot(dq[n.body[side]]);
      // eq. (3): the scalar complementarity of row i, the others fixed
      const double lower = rows[i] == ProjectedRow::Closed ? -std::max(gap_end[i], 0.0) / w_ii : 0.0;
      const double next = std::max(P[i] - gamma / w_ii, lower);
      const double delta = next - P[i];
      result.change = std::max(result.change, std::abs(delta) * w_ii);
      for (int side = 0; side < 2; ++side)
        if (n.body[side] >= 0 && delta != 0) dq[n.body[side]] += n.y[side] * delta;
      P[i] = next;
    }
    if (result.change <= options.tolerance) break;
  }
  result.sweeps = std::min(result.sweeps, options.max_sweeps);
  return result;
}

}  // namespace nscd
