#include "solvers/nlgs_bodies.hpp"

#include "nscd/core/error.hpp"
#include "solvers/anderson_mixing.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/local_solver.hpp"
#include "solvers/solver_common.hpp"
#include "solvers/sweep_plan.hpp"

#include <vector>

namespace nscd::solvers {
namespace {

using Vector6 = Eigen::Matrix<double, 6, 1>;

// eqs. (1)–(3) for the contacts at positions [begin, end) of `order`, one after the other (from
// end − 1 down when backward)
detail::SweepNorms sweep_chunk(const FrictionProblem& p, const ContactBodies& bodies,
                               const std::vector<detail::LocalProblem>& local, const std::vector<int>& order, int begin,
                               int end, double omega, bool backward, double* r_data, double* dv_data) {
  detail::SweepNorms norms;
  for (int k = begin; k < end; ++k) {
    const int i = order[backward ? end - 1 - (k - begin) : k];
    const ContactSides& c = bodies.contacts[i];
    Eigen::Map<Eigen::Vector3d> ri(r_data + 3 * i);
    Eigen::Vector3d q_loc = p.q.segment<3>(3 * i);
    for (int s = 0; s < 2; ++s) {
      if (c.body[s] >= 0) q_loc.noalias() += c.G[s] * Eigen::Map<const Vector6>(dv_data + 6 * c.body[s]);
      if (c.modal[s] >= 0) q_loc += modal_velocity(bodies, c, s, dv_data);
    }
    q_loc.noalias() -= p.W.diag(i) * ri;
    const Eigen::Vector3d dr = detail::relaxed_local_step(local[i], q_loc, omega, ri, norms);
    for (int s = 0; s < 2; ++s) {
      if (c.body[s] >= 0) Eigen::Map<Vector6>(dv_data + 6 * c.body[s]).noalias() += c.Y[s] * dr;
      if (c.modal[s] >= 0) add_modal_change(bodies, c, s, dr, dv_data);
    }
  }
  return norms;
}

// whether T_is and U_is of side s of contact c are finite
bool modal_rows_finite(const ContactBodies& bodies, const ContactSides& c, int s) {
  const Eigen::Index ld = bodies.modal_rows.rows();
  return Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>(bodies.modal_rows.data() + c.column[s] * ld,
                                                                     c.modes[s], 6, Eigen::OuterStride<>(ld))
      .allFinite();
}

// whether the blocks of every side are finite
bool sides_finite(const ContactBodies& bodies) {
  for (const ContactSides& c : bodies.contacts)
    for (int s = 0; s < 2; ++s)
      if ((c.body[s] >= 0 && !(c.G[s].allFinite() && c.Y[s].allFinite())) ||
          (c.modal[s] >= 0 && !modal_rows_finite(bodies, c, s)))
        return false;
  return true;
}

// as detail::give_up, with u = H Δv + q of result.r
void give_up(const FrictionProblem& p, const ContactBodies& bodies, SolverResult& result) {
  Eigen::VectorXd dv;
  body_velocity_change(bodies, result.r, dv);
  contact_velocities(bodies, p.q, dv, result.u);
  result.error = error_measure(p, result.r, result.u);
  result.status = SolverStatus::NonFinite;
  result.iterations = 0;
}

}  // namespace

SolverResult solve_nlgs_bodies(const FrictionProblem& p, const ContactBodies& bodies, const NlgsOptions& options,
                               const Eigen::VectorXd& r0) {
  detail::check_problem(p, "nlgs");
  detail::check_options(options);
  NSCD_THROW_UNLESS(bodies.nc() == p.nc(), "nlgs: the body form has {} contacts, the problem {}", bodies.nc(), p.nc());
  // q, μ, r0 and the diagonal blocks here; the sides by the first sweep, which flags a non-finite
  // q_loc (or, without sweeps, here too)
  SolverResult result;
  if (detail::start(p, r0, "nlgs", result, detail::BlockCheck::Diagonal)) return result;
  if (options.stopping.max_iterations == 0 && !sides_finite(bodies)) {
    give_up(p, bodies, result);
    return result;
  }

  const detail::SweepPlan plan = detail::make_sweep_plan(bodies);
  std::vector<detail::LocalProblem> local;  // filled, not value-initialised: no zeroing of nc blocks first
  local.reserve(p.nc());
  for (int i = 0; i < p.nc(); ++i) local.push_back(detail::make_local_problem(p.W.diag(i), p.mu(i), options.local_solver));
  std::vector<detail::SweepNorms> chunk_norms(plan.n_chunks());
  Eigen::VectorXd r = result.r, dv, u;
  body_velocity_change(bodies, r, dv);
  const auto full_error = [&] {
    contact_velocities(bodies, p.q, dv, u);
    return error_measure(p, r, u);
  };
  detail::AndersonMixing mixing(options.anderson_depth, r.size(), dv.size());
  const detail::SweepsEnd end = detail::run_sweeps(
      options.stopping, options,
      [&](detail::SweepDirection direction) {
        const bool backward = direction == detail::SweepDirection::Backward;
        if (!backward) mixing.start_sweep(r, dv);
        detail::for_each_chunk_in_color_order(
            plan,
            [&](int chunk, int first, int last) {
              chunk_norms[chunk] = sweep_chunk(p, bodies, local, plan.coloring.order, first, last, options.omega,
                                               backward, r.data(), dv.data());
            },
            direction);
        return detail::sum_chunks(chunk_norms);
      },
      full_error, [&] { return sides_finite(bodies); }, result);
  if (end == detail::SweepsEnd::NonFiniteData) {
    give_up(p, bodies, result);
    return result;
  }
  // the reported error is always eq. (3) of the returned r
  if (end == detail::SweepsEnd::ErrorStale) result.error = full_error();
  result.r = std::move(r);
  result.u = std::move(u);
  detail::conclude(p.nc(), options.stopping.tolerance, "nlgs", result);
  return result;
}

}  // namespace nscd::solvers
