#include "solvers/sweep_plan.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace nscd::solvers::detail {

SweepPlan make_sweep_plan(const DelassusMatrix& W, int chunk_size) {
  NSCD_DEMAND(chunk_size >= 1);
  SweepPlan plan;
  plan.coloring = color_contacts(W);
  // no colour large enough to run in parallel: index order, one sequential group
  bool worth_coloring = false;
  for (int c = 0; c < plan.coloring.n_colors(); ++c) {
    const int size = plan.coloring.color_start[c + 1] - plan.coloring.color_start[c];
    worth_coloring = worth_coloring || size >= plan.min_parallel_chunks * chunk_size;
  }
  if (!worth_coloring) return index_order_plan(W.nc());
  // each colour cut into chunks of chunk_size positions, the last one shorter
  const std::vector<int>& color_start = plan.coloring.color_start;
  plan.chunk_start.assign(1, 0);
  plan.color_chunk_start.assign(1, 0);
  for (int c = 0; c < plan.coloring.n_colors(); ++c) {
    for (int k = color_start[c] + chunk_size; k < color_start[c + 1]; k += chunk_size) {
      plan.chunk_start.push_back(k);
    }
    plan.chunk_start.push_back(color_start[c + 1]);
    plan.color_chunk_start.push_back(static_cast<int>(plan.chunk_start.size()) - 1);
  }
  return plan;
}

SweepPlan index_order_plan(int nc) {
  SweepPlan plan;
  plan.coloring.color.assign(nc, 0);
  plan.coloring.order.resize(nc);
  std::iota(plan.coloring.order.begin(), plan.coloring.order.end(), 0);
  plan.coloring.color_start = {0};
  plan.chunk_start = {0};
  plan.color_chunk_start = {0};
  if (nc > 0) {
    plan.coloring.color_start.push_back(nc);
    plan.chunk_start.push_back(nc);
    plan.color_chunk_start.push_back(1);
  }
  return plan;
}

const FrictionProblem& in_plan_order(const FrictionProblem& p, const SweepPlan& plan, FrictionProblem& storage) {
  if (!plan.renumbers()) return p;
  storage = renumbered(p, plan.coloring.order);
  return storage;
}

void to_order(const Eigen::VectorXd& x, const std::vector<int>& order, int size, Eigen::VectorXd& y) {
  const Eigen::Index n = static_cast<Eigen::Index>(size) * static_cast<Eigen::Index>(order.size());
  NSCD_DEMAND(x.size() == n && y.size() == n);
  for (int k = 0; k < static_cast<int>(order.size()); ++k) y.segment(size * k, size) = x.segment(size * order[k], size);
}

void from_order(const Eigen::VectorXd& y, const std::vector<int>& order, int size, Eigen::VectorXd& x) {
  const Eigen::Index n = static_cast<Eigen::Index>(size) * static_cast<Eigen::Index>(order.size());
  NSCD_DEMAND(x.size() == n && y.size() == n);
  for (int k = 0; k < static_cast<int>(order.size()); ++k) x.segment(size * order[k], size) = y.segment(size * k, size);
}

}  // namespace nscd::solvers::detail

namespace nscd::solvers {
namespace {

// contacts per task of renumbered()
constexpr int kRenumberGrain = 256;

}  // namespace

FrictionProblem renumbered(const FrictionProblem& p, const std::vector<int>& order) {
  const int nc = p.nc(), n = static_cast<int>(order.size());
  NSCD_DEMAND(n <= nc);
  std::vector<int> position(nc, -1);  // −1: a contact left out
  for (int k = 0; k < n; ++k) position[order[k]] = k;
  std::vector<Eigen::Matrix3d> diag(n);
  std::vector<int> row_start(n + 1, 0);
  for (int k = 0; k < n; ++k) {
    int kept = 0;
    p.W.for_each_offdiag(order[k], [&](int j, const Eigen::Matrix3d&) { kept += position[j] >= 0 ? 1 : 0; });
    row_start[k + 1] = row_start[k] + kept;
  }
  std::vector<int> cols(row_start[n]);
  std::vector<Eigen::Matrix3d> blocks(row_start[n]);
  FrictionProblem out;
  out.q.resize(3 * n);
  out.mu.resize(n);
  // rows independently (each writes its own slice), columns sorted by their new index
  tbb::parallel_for(tbb::blocked_range<int>(0, n, kRenumberGrain), [&](const tbb::blocked_range<int>& range) {
    std::vector<std::pair<int, const Eigen::Matrix3d*>> row;
    for (int k = range.begin(); k < range.end(); ++k) {
      const int i = order[k];
      diag[k] = p.W.diag(i);
      out.q.segment<3>(3 * k) = p.q.segment<3>(3 * i);
      out.mu(k) = p.mu(i);
      row.clear();
      p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& block) {
        if (position[j] >= 0) row.push_back({position[j], &block});
      });
      std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t e = 0; e < row.size(); ++e) {
        cols[row_start[k] + e] = row[e].first;
        blocks[row_start[k] + e] = *row[e].second;
      }
    }
  });
  out.W = DelassusMatrix::from_block_rows(std::move(diag), std::move(row_start), std::move(cols), std::move(blocks));
  return out;
}

}  // namespace nscd::solvers
