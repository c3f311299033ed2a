#include "solvers/nlgs.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/local_solver.hpp"
#include "solvers/solver_common.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace nscd::solvers {
namespace {

// the full error of eq. (3) is evaluated at least every so many sweeps
constexpr int kFullErrorPeriod = 16;

// u = W r + q in place (DelassusMatrix::apply, parallel over fixed blocks of contacts)
void compute_u(const FrictionProblem& p, const Eigen::VectorXd& r, Eigen::VectorXd& u) {
  p.W.apply(r, u);
  u += p.q;
}

// the contacts [begin, end), eqs. (1)–(2), one after the other (from end − 1 down when
// backward); returns the sums of the chunk
detail::SweepNorms sweep_chunk(const FrictionProblem& p, const std::vector<detail::LocalProblem>& local, int begin,
                               int end, double omega, bool backward, double* r_data) {
  const double* q = p.q.data();
  detail::SweepNorms norms;
  for (int k = begin; k < end; ++k) {
    const int i = backward ? end - 1 - (k - begin) : k;
    // q_loc = q_i + Σ_{j≠i} W_ij r_j over the stored blocks of row i
    Eigen::Vector3d q_loc = Eigen::Map<const Eigen::Vector3d>(q + 3 * i);
    const int* col = p.W.row_cols_begin(i);
    const int* col_end = p.W.row_cols_end(i);
    const Eigen::Matrix3d* block = p.W.row_blocks_begin(i);
    for (; col != col_end; ++col, ++block) q_loc.noalias() += *block * Eigen::Map<const Eigen::Vector3d>(r_data + 3 * *col);
    // exact local solution, relaxed
    detail::relaxed_local_step(local[i], q_loc, omega, Eigen::Map<Eigen::Vector3d>(r_data + 3 * i), norms);
  }
  return norms;
}

}  // namespace

namespace detail {

SweepNorms colored_sweep(const FrictionProblem& p, const std::vector<LocalProblem>& local, const SweepPlan& plan,
                         const NlgsOptions& options, Eigen::VectorXd& r, std::vector<SweepNorms>& chunk_norms,
                         SweepDirection direction) {
  NSCD_DEMAND(chunk_norms.size() + 1 == plan.chunk_start.size() && r.size() == 3 * static_cast<Eigen::Index>(p.nc()));
  double* r_data = r.data();
  const bool backward = direction == SweepDirection::Backward;
  for_each_chunk_in_color_order(
      plan,
      [&](int chunk, int begin, int end) {
        chunk_norms[chunk] = sweep_chunk(p, local, begin, end, options.omega, backward, r_data);
      },
      direction);
  return sum_chunks(chunk_norms);
}

SweepNorms sum_chunks(const std::vector<SweepNorms>& chunk_norms) {
  // in chunk order, whatever thread computed them
  SweepNorms norms;
  for (const SweepNorms& chunk : chunk_norms) {
    norms.dr2 += chunk.dr2;
    norms.r2 += chunk.r2;
    norms.q_loc_finite = norms.q_loc_finite && chunk.q_loc_finite;
  }
  return norms;
}

void check_options(const NlgsOptions& options) {
  NSCD_THROW_UNLESS(options.omega > 0.0 && options.omega < 2.0, "NLGS relaxation omega must be in (0, 2), got {}",
                    options.omega);
  NSCD_THROW_UNLESS(options.anderson_depth >= 0 && options.anderson_depth <= NlgsOptions::max_anderson_depth,
                    "NLGS anderson_depth must be in [0, {}], got {}", NlgsOptions::max_anderson_depth,
                    options.anderson_depth);
  NSCD_THROW_UNLESS(options.stopping.max_iterations >= 0, "NLGS max_iterations must be ≥ 0, got {}",
                    options.stopping.max_iterations);
  NSCD_THROW_UNLESS(options.stopping.min_iterations >= 1, "NLGS min_iterations must be ≥ 1, got {}",
                    options.stopping.min_iterations);
  NSCD_THROW_UNLESS(options.stall_window >= 0 && options.stall_factor > 0.0 && options.stall_factor < 1.0,
                    "NLGS needs stall_window ≥ 0 and stall_factor in (0, 1), got {} and {}", options.stall_window,
                    options.stall_factor);
  NSCD_THROW_UNLESS(options.lowest_window >= 0, "NLGS needs lowest_window ≥ 0, got {}", options.lowest_window);
}

namespace {

// the progress tests of NlgsOptions (stall_window and stall_patience, lowest_window), fed with the
// full errors as they are evaluated
class ProgressTest {
 public:
  ProgressTest(const NlgsOptions& o, const Stopping& stopping) : m_options(o), m_stopping(stopping) {}
  // whether the error at sweep s has not fallen by the factor over at least the window, and
  // would not reach the tolerance soon enough at the window's rate; or has reached no new lowest
  // value over the last lowest_window sweeps
  bool stalled(int s, double error) {
    if (error < m_lowest) {
      m_lowest = error;
      m_lowest_at = s;
    } else if (m_options.lowest_window > 0 && s - m_lowest_at >= m_options.lowest_window) {
      nscd::logger().trace("nlgs: sweep {}, no error below {:.3e} since sweep {}: stops", s, m_lowest, m_lowest_at);
      return true;
    }
    const int window = m_options.stall_window;
    if (window == 0 || (m_sweep > 0 && s - m_sweep < window)) return false;
    if (m_sweep > 0 && error > m_options.stall_factor * m_error && !patient(s, error)) return true;
    m_sweep = s;
    m_error = error;
    return false;
  }

 private:
  // whether the error, falling on at the rate since the reference, reaches the tolerance within
  // the patience and the budget
  bool patient(int s, double error) {
    if (!m_options.stall_patience || !(error < m_error)) return false;
    const double needed = std::log(m_stopping.tolerance / error) / (std::log(error / m_error) / (s - m_sweep));
    if (m_patience < 0.0) m_patience = m_options.stall_patience();
    const bool waits = needed <= m_patience && needed <= m_stopping.max_iterations - s;
    nscd::logger().trace("nlgs: sweep {}, {:.0f} more sweeps to the tolerance at this rate, patience {:.0f}: {}", s,
                         needed, m_patience, waits ? "goes on" : "stops");
    return waits;
  }

  const NlgsOptions& m_options;
  const Stopping& m_stopping;
  double m_patience = -1.0;  // stall_patience(), once asked
  double m_lowest = std::numeric_limits<double>::infinity();  // the lowest full error so far
  int m_lowest_at = 0;                                        // and its sweep
  int m_sweep = 0;  // the reference: sweep and full error
  double m_error = 0.0;
};

}  // namespace

// the first sweep symmetric: a forward and a backward pass, their Δr summed;
// the full error of eq. (3) is evaluated after sweep min_iterations and the last sweep, every
// kFullErrorPeriod sweeps, and when the cheap estimate ‖Δr‖/‖r‖ · (last full/cheap ratio) reaches
// the tolerance; never before sweep min_iterations (or the last)
SweepsEnd run_sweeps(const Stopping& stopping, const NlgsOptions& options,
                     const std::function<SweepNorms(SweepDirection)>& sweep, const std::function<double()>& full_error,
                     const std::function<bool()>& data_finite, SolverResult& result) {
  const int first_check = std::min(stopping.min_iterations, stopping.max_iterations);
  bool error_is_current = false;
  double ratio = 1.0;
  int last_full = 0;
  ProgressTest progress(options, stopping);
  for (int s = 1; s <= stopping.max_iterations; ++s) {
    SweepNorms norms = sweep(SweepDirection::Forward);
    if (s == 1) {
      const SweepNorms back = sweep(SweepDirection::Backward);
      norms = {norms.dr2 + back.dr2, back.r2, norms.q_loc_finite && back.q_loc_finite};
    }
    const double dr2 = norms.dr2;
    const double r2 = norms.r2;
    if (s == 1 && !norms.q_loc_finite && !data_finite()) return SweepsEnd::NonFiniteData;
    result.iterations = s;
    error_is_current = false;
    if (!std::isfinite(dr2 + r2)) {
      result.status = SolverStatus::NonFinite;
      break;
    }
    const double cheap = r2 > 0.0 ? std::sqrt(dr2 / r2) : (dr2 > 0.0 ? std::numeric_limits<double>::infinity() : 0.0);
    const bool check = s == first_check || s == stopping.max_iterations ||
                       (s > first_check && (cheap * ratio <= stopping.tolerance || s - last_full >= kFullErrorPeriod));
    if (!check) continue;

    result.error = full_error();
    error_is_current = true;
    last_full = s;
    if (cheap > 0.0 && std::isfinite(cheap)) ratio = result.error / cheap;
    nscd::logger().trace("nlgs: sweep {} error {:.3e}", s, result.error);
    if (result.error <= stopping.tolerance || progress.stalled(s, result.error)) break;
  }
  return error_is_current ? SweepsEnd::ErrorCurrent : SweepsEnd::ErrorStale;
}

}  // namespace detail

SolverResult solve_nlgs(const FrictionProblem& p, const NlgsOptions& options, const Eigen::VectorXd& r0) {
  detail::check_problem(p, "nlgs");
  detail::check_options(options);
  const Stopping& stopping = options.stopping;
  // q, μ, r0 and the diagonal blocks here; the off-diagonal blocks by the first sweep, which
  // flags a non-finite q_loc (or, without sweeps, here too)
  SolverResult result;
  const detail::BlockCheck blocks =
      stopping.max_iterations == 0 ? detail::BlockCheck::All : detail::BlockCheck::Diagonal;
  if (detail::start(p, r0, "nlgs", result, blocks)) return result;

  // r and u below are in the plan's numbering, that of P
  const detail::SweepPlan plan = detail::make_sweep_plan(p.W);
  FrictionProblem renumbered_problem;
  const FrictionProblem& P = detail::in_plan_order(p, plan, renumbered_problem);
  std::vector<detail::LocalProblem> local(P.nc());
  for (int i = 0; i < P.nc(); ++i) local[i] = detail::make_local_problem(P.W.diag(i), P.mu(i), options.local_solver);
  std::vector<detail::SweepNorms> chunk_norms(plan.n_chunks());
  const std::vector<int>& order = plan.coloring.order;
  Eigen::VectorXd r(3 * static_cast<Eigen::Index>(p.nc())), u(r.size());
  detail::to_order(result.r, order, 3, r);
  detail::AndersonMixing mixing(options.anderson_depth, r.size(), 0);
  Eigen::VectorXd no_image;
  const detail::SweepsEnd end = detail::run_sweeps(
      stopping, options,
      [&](detail::SweepDirection direction) {
        if (direction == detail::SweepDirection::Forward) mixing.start_sweep(r, no_image);
        return detail::colored_sweep(P, local, plan, options, r, chunk_norms, direction);
      },
      [&] {
        compute_u(P, r, u);
        return error_measure(P, r, u);
      },
      [&] { return detail::is_finite(p, Eigen::VectorXd()); }, result);
  if (end == detail::SweepsEnd::NonFiniteData) {
    detail::give_up(p, "nlgs", result);
    return result;
  }
  // the reported error is always eq. (3) of the returned r
  if (end == detail::SweepsEnd::ErrorStale) {
    compute_u(P, r, u);
    result.error = error_measure(P, r, u);
  }
  detail::from_order(r, order, 3, result.r);
  result.u.resize(u.size());
  detail::from_order(u, order, 3, result.u);
  detail::conclude(p.nc(), stopping.tolerance, "nlgs", result);
  return result;
}

}  // namespace nscd::solvers
