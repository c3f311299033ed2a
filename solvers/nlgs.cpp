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

// the contacts [begin, end), eqs. (1)–(2), one after the other; returns the sums of the chunk
detail::SweepNorms sweep_chunk(const FrictionProblem& p, const std::vector<detail::LocalProblem>& local, int begin,
                               int end, double omega, double* r_data) {
  const double* q = p.q.data();
  detail::SweepNorms norms;
  for (int i = begin; i < end; ++i) {
    // q_loc = q_i + Σ_{j≠i} W_ij r_j over the stored blocks of row i
    Eigen::Vector3d q_loc = Eigen::Map<const Eigen::Vector3d>(q + 3 * i);
    const int* col = p.W.row_cols_begin(i);
    const int* col_end = p.W.row_cols_end(i);
    const Eigen::Matrix3d* block = p.W.row_blocks_begin(i);
    for (; col != col_end; ++col, ++block) q_loc.noalias() += *block * Eigen::Map<const Eigen::Vector3d>(r_data + 3 * *col);
    norms.q_loc_finite = norms.q_loc_finite && q_loc.allFinite();

    // exact local solution, relaxed
    Eigen::Map<Eigen::Vector3d> ri(r_data + 3 * i);
    const Eigen::Vector3d r_old = ri;
    Eigen::Vector3d r_new = detail::solve_local(local[i], q_loc, r_old);
    if (omega != 1.0) r_new = (1.0 - omega) * r_old + omega * r_new;
    ri = r_new;
    norms.dr2 += (r_new - r_old).squaredNorm();
    norms.r2 += r_new.squaredNorm();
  }
  return norms;
}

}  // namespace

namespace detail {

SweepNorms colored_sweep(const FrictionProblem& p, const std::vector<LocalProblem>& local, const SweepPlan& plan,
                         const NlgsOptions& options, Eigen::VectorXd& r, std::vector<SweepNorms>& chunk_norms) {
  NSCD_DEMAND(chunk_norms.size() + 1 == plan.chunk_start.size() && r.size() == 3 * static_cast<Eigen::Index>(p.nc()));
  double* r_data = r.data();
  for_each_chunk_in_color_order(plan, [&](int chunk, int begin, int end) {
    chunk_norms[chunk] = sweep_chunk(p, local, begin, end, options.omega, r_data);
  });
  // sums over the chunks in chunk order, whatever thread computed them
  SweepNorms norms;
  for (const SweepNorms& chunk : chunk_norms) {
    norms.dr2 += chunk.dr2;
    norms.r2 += chunk.r2;
    norms.q_loc_finite = norms.q_loc_finite && chunk.q_loc_finite;
  }
  return norms;
}

}  // namespace detail

namespace {

// the sizes of p and the options, as solve_nlgs documents
void check_nlgs(const FrictionProblem& p, const NlgsOptions& options) {
  const int nc = p.nc();
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(nc);
  NSCD_THROW_UNLESS(p.q.size() == n && p.mu.size() == nc,
                    "friction problem with {} contacts needs q of size {} and mu of size {}, got {} and {}", nc, n,
                    nc, p.q.size(), p.mu.size());
  NSCD_THROW_UNLESS(options.omega > 0.0 && options.omega < 2.0, "NLGS relaxation omega must be in (0, 2), got {}",
                    options.omega);
  NSCD_THROW_UNLESS(options.stopping.max_iterations >= 0, "NLGS max_iterations must be ≥ 0, got {}", options.stopping.max_iterations);
  NSCD_THROW_UNLESS(options.stopping.min_iterations >= 1, "NLGS min_iterations must be ≥ 1, got {}", options.stopping.min_iterations);
  NSCD_THROW_UNLESS(options.stall_window >= 0 && options.stall_factor > 0.0 && options.stall_factor < 1.0,
                    "NLGS needs stall_window ≥ 0 and stall_factor in (0, 1), got {} and {}", options.stall_window,
                    options.stall_factor);
  NSCD_THROW_UNLESS(!(p.mu.array() < 0.0).any(), "friction coefficients must be ≥ 0");
}

// the progress test of NlgsOptions::stall_window, fed with the full errors as they are evaluated
class ProgressTest {
 public:
  explicit ProgressTest(const NlgsOptions& o) : m_window(o.stall_window), m_factor(o.stall_factor) {}
  // whether the error at sweep s has not fallen by the factor over at least the window
  bool stalled(int s, double error) {
    if (m_window == 0 || (m_sweep > 0 && s - m_sweep < m_window)) return false;
    if (m_sweep > 0 && error > m_factor * m_error) return true;
    m_sweep = s;
    m_error = error;
    return false;
  }

 private:
  int m_window;
  double m_factor;
  int m_sweep = 0;  // the reference: sweep and full error
  double m_error = 0.0;
};

// non-finite data: nothing to solve, r stays the initial guess
SolverResult non_finite(const FrictionProblem& p, const Eigen::VectorXd& r0) {
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(p.nc());
  SolverResult result;
  result.r = r0.size() == n ? r0 : Eigen::VectorXd::Zero(n);
  result.u.resize(n);
  compute_u(p, result.r, result.u);
  result.error = error_measure(p, result.r, result.u);
  result.status = SolverStatus::NonFinite;
  nscd::logger().debug("nlgs: non-finite problem data or initial guess ({} contacts)", p.nc());
  return result;
}

}  // namespace

SolverResult solve_nlgs(const FrictionProblem& p, const NlgsOptions& options, const Eigen::VectorXd& r0) {
  check_nlgs(p, options);
  const int nc = p.nc();
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(nc);
  SolverResult result;
  result.r = r0.size() == n ? r0 : Eigen::VectorXd::Zero(n);
  result.u.resize(n);
  result.iterations = 0;

  // q, μ, r0 and the diagonal blocks here; the off-diagonal blocks by the first sweep, which
  // flags a non-finite q_loc (or, without sweeps, here too)
  bool finite = p.q.allFinite() && p.mu.allFinite() && result.r.allFinite();
  for (int i = 0; i < nc && finite; ++i) finite = p.W.diag(i).allFinite();
  if (!finite || (options.stopping.max_iterations == 0 && !detail::is_finite(p, Eigen::VectorXd()))) return non_finite(p, r0);

  // the order of the sweeps, the problem P renumbered in that order (p itself in index order),
  // and the data of the local solver, computed once; r and u below are in P's numbering
  const detail::SweepPlan plan = detail::make_sweep_plan(p.W);
  const std::vector<int>& order = plan.coloring.order;
  FrictionProblem renumbered_problem;
  const FrictionProblem& P = detail::in_plan_order(p, plan, renumbered_problem);
  std::vector<detail::LocalProblem> local(nc);
  for (int i = 0; i < nc; ++i) local[i] = detail::make_local_problem(P.W.diag(i), P.mu(i), options.local_solver);
  std::vector<detail::SweepNorms> chunk_norms(plan.n_chunks());
  Eigen::VectorXd r(n), u(n);
  detail::to_order(result.r, order, 3, r);

  // sweeps; the full error is evaluated after sweep min_iterations and the last sweep, every
  // kFullErrorPeriod sweeps, and when the cheap estimate ‖Δr‖/‖r‖ · (last full/cheap ratio)
  // reaches the tolerance; never before sweep min_iterations (or the last)
  const int first_check = std::min(options.stopping.min_iterations, options.stopping.max_iterations);
  result.status = SolverStatus::MaxIterations;
  bool error_is_current = false;
  double ratio = 1.0;
  int last_full = 0;
  ProgressTest progress(options);
  for (int s = 1; s <= options.stopping.max_iterations; ++s) {
    const detail::SweepNorms norms = detail::colored_sweep(P, local, plan, options, r, chunk_norms);
    const double dr2 = norms.dr2;
    const double r2 = norms.r2;
    if (s == 1 && !norms.q_loc_finite && !detail::is_finite(p, Eigen::VectorXd())) return non_finite(p, r0);
    result.iterations = s;
    error_is_current = false;
    if (!std::isfinite(dr2 + r2)) {
      result.status = SolverStatus::NonFinite;
      break;
    }
    const double cheap = r2 > 0.0 ? std::sqrt(dr2 / r2) : (dr2 > 0.0 ? std::numeric_limits<double>::infinity() : 0.0);
    const bool check = s == first_check || s == options.stopping.max_iterations ||
                       (s > first_check && (cheap * ratio <= options.stopping.tolerance || s - last_full >= kFullErrorPeriod));
    if (!check) continue;

    // full error of eq. (3) on u = W r + q
    compute_u(P, r, u);
    result.error = error_measure(P, r, u);
    error_is_current = true;
    last_full = s;
    if (cheap > 0.0 && std::isfinite(cheap)) ratio = result.error / cheap;
    nscd::logger().trace("nlgs: sweep {} error {:.3e}", s, result.error);
    if (result.error <= options.stopping.tolerance) {
      result.status = SolverStatus::Converged;
      break;
    }
    if (progress.stalled(s, result.error)) break;
  }

  // the reported error is always eq. (3) of the returned r
  if (!error_is_current) {
    compute_u(P, r, u);
    result.error = error_measure(P, r, u);
    if (options.stopping.max_iterations == 0 && result.error <= options.stopping.tolerance) result.status = SolverStatus::Converged;
  }
  detail::from_order(r, order, 3, result.r);
  detail::from_order(u, order, 3, result.u);
  if (result.status == SolverStatus::MaxIterations && !std::isfinite(result.error)) {
    result.status = SolverStatus::NonFinite;
  }
  if (result.status != SolverStatus::Converged) {
    nscd::logger().debug("nlgs: {} after {} sweeps, error {:.3e} (tolerance {:.1e}, {} contacts)",
                         to_string(result.status), result.iterations, result.error, options.stopping.tolerance, nc);
  }
  return result;
}

}  // namespace nscd::solvers
