#include "solvers/nlgs.hpp"

#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/local_solver.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace nscd::solvers {
namespace {

// the full error of eq. (3) is evaluated at least every so many sweeps
constexpr int kFullErrorPeriod = 16;

bool is_finite(const FrictionProblem& p) {
  if (!p.q.allFinite() || !p.mu.allFinite()) return false;
  for (int i = 0; i < p.nc(); ++i) {
    if (!p.W.diag(i).allFinite()) return false;
    bool finite = true;
    p.W.for_each_offdiag(i, [&](int, const Eigen::Matrix3d& block) { finite = finite && block.allFinite(); });
    if (!finite) return false;
  }
  return true;
}

// u = W r + q in place, summed in the order of DelassusMatrix::apply
void compute_u(const FrictionProblem& p, const Eigen::VectorXd& r, Eigen::VectorXd& u) {
  for (int i = 0; i < p.nc(); ++i) {
    Eigen::Vector3d ui = p.W.diag(i) * r.segment<3>(3 * i);
    p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& block) { ui.noalias() += block * r.segment<3>(3 * j); });
    u.segment<3>(3 * i) = ui + p.q.segment<3>(3 * i);
  }
}

// one Gauss–Seidel sweep, eq. (1)–(2); returns Σ‖Δr_i‖² and Σ‖r_i‖² through the arguments, and
// whether some q_loc was not finite (a non-finite W_ij makes q_loc non-finite whatever r_j is)
bool sweep(const FrictionProblem& p, const std::vector<detail::LocalProblem>& local, double omega,
           Eigen::VectorXd& r, double& dr2, double& r2) {
  const double* q = p.q.data();
  double* r_data = r.data();
  bool q_loc_finite = true;
  dr2 = 0.0;
  r2 = 0.0;
  for (int i = 0; i < p.nc(); ++i) {
    // q_loc = q_i + Σ_{j≠i} W_ij r_j over the stored blocks of row i
    Eigen::Vector3d q_loc = Eigen::Map<const Eigen::Vector3d>(q + 3 * i);
    const int* col = p.W.row_cols_begin(i);
    const int* col_end = p.W.row_cols_end(i);
    const Eigen::Matrix3d* block = p.W.row_blocks_begin(i);
    for (; col != col_end; ++col, ++block) q_loc.noalias() += *block * Eigen::Map<const Eigen::Vector3d>(r_data + 3 * *col);
    q_loc_finite = q_loc_finite && q_loc.allFinite();

    // exact local solution, relaxed
    Eigen::Map<Eigen::Vector3d> ri(r_data + 3 * i);
    const Eigen::Vector3d r_old = ri;
    Eigen::Vector3d r_new = detail::solve_local(local[i], q_loc, r_old);
    if (omega != 1.0) r_new = (1.0 - omega) * r_old + omega * r_new;
    ri = r_new;
    dr2 += (r_new - r_old).squaredNorm();
    r2 += r_new.squaredNorm();
  }
  return !q_loc_finite;
}

}  // namespace

std::string_view to_string(SolverStatus status) {
  switch (status) {
    case SolverStatus::Converged:
      return "converged";
    case SolverStatus::MaxIterations:
      return "max_iterations";
    case SolverStatus::NonFinite:
      return "non_finite";
  }
  return "unknown";
}

SolverResult solve_nlgs(const FrictionProblem& p, const NlgsOptions& options, const Eigen::VectorXd& r0) {
  const int nc = p.nc();
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(nc);
  NSCD_THROW_UNLESS(p.q.size() == n && p.mu.size() == nc,
                    "friction problem with {} contacts needs q of size {} and mu of size {}, got {} and {}", nc, n,
                    nc, p.q.size(), p.mu.size());
  NSCD_THROW_UNLESS(options.omega > 0.0 && options.omega < 2.0, "NLGS relaxation omega must be in (0, 2), got {}",
                    options.omega);
  NSCD_THROW_UNLESS(options.max_iterations >= 0, "NLGS max_iterations must be ≥ 0, got {}", options.max_iterations);
  NSCD_THROW_UNLESS(!(p.mu.array() < 0.0).any(), "friction coefficients must be ≥ 0");

  SolverResult result;
  result.r = r0.size() == n ? r0 : Eigen::VectorXd::Zero(n);
  result.u.resize(n);
  result.iterations = 0;

  // non-finite data: nothing to solve, r stays the initial guess
  auto non_finite_data = [&] {
    result.r = r0.size() == n ? r0 : Eigen::VectorXd::Zero(n);
    result.iterations = 0;
    compute_u(p, result.r, result.u);
    result.error = error_measure(p, result.r, result.u);
    result.status = SolverStatus::NonFinite;
    nscd::logger().debug("nlgs: non-finite problem data or initial guess ({} contacts)", nc);
    return result;
  };
  // q, μ, r0 and the diagonal blocks here; the off-diagonal blocks by the first sweep, which
  // flags a non-finite q_loc (or, without sweeps, here too)
  bool finite = p.q.allFinite() && p.mu.allFinite() && result.r.allFinite();
  for (int i = 0; i < nc && finite; ++i) finite = p.W.diag(i).allFinite();
  if (!finite || (options.max_iterations == 0 && !is_finite(p))) return non_finite_data();

  // per-contact data of the local solver, computed once
  std::vector<detail::LocalProblem> local(nc);
  for (int i = 0; i < nc; ++i) local[i] = detail::make_local_problem(p.W.diag(i), p.mu(i));

  // sweeps; the full error is evaluated after the first and the last sweep, every kFullErrorPeriod
  // sweeps, and when the cheap estimate ‖Δr‖/‖r‖ · (last full/cheap ratio) reaches the tolerance
  result.status = SolverStatus::MaxIterations;
  bool error_is_current = false;
  double ratio = 1.0;
  int last_full = 0;
  for (int s = 1; s <= options.max_iterations; ++s) {
    double dr2 = 0.0;
    double r2 = 0.0;
    const bool q_loc_non_finite = sweep(p, local, options.omega, result.r, dr2, r2);
    if (s == 1 && q_loc_non_finite && !is_finite(p)) return non_finite_data();
    result.iterations = s;
    error_is_current = false;
    if (!std::isfinite(dr2 + r2)) {
      result.status = SolverStatus::NonFinite;
      break;
    }
    const double cheap = r2 > 0.0 ? std::sqrt(dr2 / r2) : (dr2 > 0.0 ? std::numeric_limits<double>::infinity() : 0.0);
    const bool check = s == 1 || cheap * ratio <= options.tolerance || s - last_full >= kFullErrorPeriod ||
                       s == options.max_iterations;
    if (!check) continue;

    // full error of eq. (3) on u = W r + q
    compute_u(p, result.r, result.u);
    result.error = error_measure(p, result.r, result.u);
    error_is_current = true;
    last_full = s;
    if (cheap > 0.0 && std::isfinite(cheap)) ratio = result.error / cheap;
    nscd::logger().trace("nlgs: sweep {} error {:.3e}", s, result.error);
    if (result.error <= options.tolerance) {
      result.status = SolverStatus::Converged;
      break;
    }
  }

  // the reported error is always eq. (3) of the returned r
  if (!error_is_current) {
    compute_u(p, result.r, result.u);
    result.error = error_measure(p, result.r, result.u);
    if (options.max_iterations == 0 && result.error <= options.tolerance) result.status = SolverStatus::Converged;
  }
  if (result.status == SolverStatus::MaxIterations && !std::isfinite(result.error)) {
    result.status = SolverStatus::NonFinite;
  }
  if (result.status != SolverStatus::Converged) {
    nscd::logger().debug("nlgs: {} after {} sweeps, error {:.3e} (tolerance {:.1e}, {} contacts)",
                         to_string(result.status), result.iterations, result.error, options.tolerance, nc);
  }
  return result;
}

}  // namespace nscd::solvers
