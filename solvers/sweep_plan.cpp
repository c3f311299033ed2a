#include "solvers/sweep_plan.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace nscd::solvers::detail {
namespace {

// contacts per task of make_renumbering() and fill_renumbered()
constexpr int kRenumberGrain = 256;

// where the entries of renumbered(p, order) come from, for every p of W's pattern: contact k is
// contact order[k] of p; the off-diagonal block rows of the result (row_start, cols), and for
// each of its blocks the index of its source among W's off-diagonal blocks (row-major)
struct Renumbering {
  std::vector<int> order;
  std::vector<int> row_start;     // (order.size() + 1)
  std::vector<int> cols;          // increasing in each row
  std::vector<int> block_source;  // aligned with cols
};

// the renumbering of W's pattern into order; order holds distinct contacts of W
Renumbering make_renumbering(const DelassusMatrix& W, const std::vector<int>& order) {
  const int nc = W.nc(), n = static_cast<int>(order.size());
  NSCD_DEMAND(n <= nc);
  Renumbering r;
  r.order = order;
  std::vector<int> position(nc, -1);  // −1: a contact left out
  for (int k = 0; k < n; ++k) position[order[k]] = k;
  r.row_start.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) {
    int kept = 0;
    W.for_each_offdiag(order[k], [&](int j, const Eigen::Matrix3d&) { kept += position[j] >= 0 ? 1 : 0; });
    r.row_start[k + 1] = r.row_start[k] + kept;
  }
  r.cols.resize(r.row_start[n]);
  r.block_source.resize(r.row_start[n]);
  // rows independently (each writes its own slice), columns sorted by their new index
  const Eigen::Matrix3d* first_block = W.row_blocks_begin(0);
  tbb::parallel_for(tbb::blocked_range<int>(0, n, kRenumberGrain), [&](const tbb::blocked_range<int>& range) {
    std::vector<std::pair<int, int>> row;  // (new column, source block)
    for (int k = range.begin(); k < range.end(); ++k) {
      row.clear();
      W.for_each_offdiag(order[k], [&](int j, const Eigen::Matrix3d& block) {
        if (position[j] >= 0) row.push_back({position[j], static_cast<int>(&block - first_block)});
      });
      std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t e = 0; e < row.size(); ++e) {
        r.cols[r.row_start[k] + e] = row[e].first;
        r.block_source[r.row_start[k] + e] = row[e].second;
      }
    }
  });
  return r;
}

// out = renumbered(p, r.order), for p of the pattern r was made for
void fill_renumbered(const FrictionProblem& p, const Renumbering& r, FrictionProblem& out) {
  const int n = static_cast<int>(r.order.size());
  out.W = DelassusMatrix::from_block_rows(std::vector<Eigen::Matrix3d>(n), r.row_start, r.cols,
                                          std::vector<Eigen::Matrix3d>(r.cols.size()));
  out.q.resize(3 * n);
  out.mu.resize(n);
  out.error_scaling = p.error_scaling;
  const Eigen::Matrix3d* source = p.W.row_blocks_begin(0);
  Eigen::Matrix3d* blocks = out.W.row_blocks_begin(0);
  tbb::parallel_for(tbb::blocked_range<int>(0, n, kRenumberGrain), [&](const tbb::blocked_range<int>& range) {
    for (int k = range.begin(); k < range.end(); ++k) {
      const int i = r.order[k];
      out.W.diag(k) = p.W.diag(i);
      out.q.segment<3>(3 * k) = p.q.segment<3>(3 * i);
      out.mu(k) = p.mu(i);
      for (int e = r.row_start[k]; e < r.row_start[k + 1]; ++e) blocks[e] = source[r.block_source[e]];
    }
  });
}

// the fewest contacts a colour needs to be swept in parallel
int smallest_parallel_color(int chunk_size) { return SweepPlan{}.min_parallel_chunks * chunk_size; }

}  // namespace

SweepPlan make_sweep_plan(const DelassusMatrix& W, int chunk_size) {
  // no colour can be larger than W
  if (W.nc() < smallest_parallel_color(chunk_size)) return index_order_plan(W.nc());
  return make_sweep_plan(color_contacts(W), chunk_size);
}

SweepPlan make_sweep_plan(ContactColoring coloring, int chunk_size) {
  NSCD_DEMAND(chunk_size >= 1);
  SweepPlan plan;
  plan.coloring = std::move(coloring);
  const int nc = static_cast<int>(plan.coloring.color.size());
  // no colour large enough to run in parallel: index order, one sequential group
  bool worth_coloring = false;
  for (int c = 0; c < plan.coloring.n_colors(); ++c) {
    const int size = plan.coloring.color_start[c + 1] - plan.coloring.color_start[c];
    worth_coloring = worth_coloring || size >= smallest_parallel_color(chunk_size);
  }
  if (!worth_coloring) return index_order_plan(nc);
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

SweepPlan make_sweep_plan(const ContactBodies& b, int chunk_size) {
  std::vector<char> touched(b.n_bodies, 0);
  int largest_color = 0;  // bound on the size of a colour
  for (const ContactSides& c : b.contacts) {
    bool any = false;
    for (const int body : c.body)
      if (body >= 0) {
        largest_color += touched[body] == 0 ? 1 : 0;
        touched[body] = 1;
        any = true;
      }
    largest_color += any ? 0 : 1;
  }
  if (largest_color < smallest_parallel_color(chunk_size)) return index_order_plan(b.nc());
  return make_sweep_plan(color_contacts(b), chunk_size);
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

FrictionProblem renumbered(const FrictionProblem& p, const std::vector<int>& order) {
  FrictionProblem out;
  detail::fill_renumbered(p, detail::make_renumbering(p.W, order), out);
  return out;
}

}  // namespace nscd::solvers
