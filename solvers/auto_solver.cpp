#include "solvers/auto_solver.hpp"

#include "nscd/core/logger.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/nlgs_bodies.hpp"
#include "solvers/sparse_delassus.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

namespace nscd::solvers {
namespace {

// whether stage 2 can run at all, known before stage 1 without pricing (the pricing's symbolic
// analysis itself grows faster than the problem)
bool newton_possible(const FrictionProblem& p, const BodyCoupling* coupling, const AutoOptions& options) {
  return newton_stage_possible(options, coupling != nullptr ? coupling->M.rows() : 3 * static_cast<Eigen::Index>(p.nc()));
}

// the price of one of stage 2's factorisations (sparse_delassus.hpp eq. (2)), computed when first
// asked: of W's pattern on the local form (the whole problem from `whole`), of J's on the body
// form, that of M + Hᵀ H (velocity_prox.hpp eq. (3)); and of one of its iterations, eq. (6)
class NewtonPrice {
 public:
  NewtonPrice(const BodyCoupling* coupling, std::function<const FrictionProblem&()> whole)
      : m_coupling(coupling), m_whole(std::move(whole)) {}
  double operations() {
    if (m_operations < 0.0)
      m_operations = m_coupling != nullptr
                         ? detail::factorization_operations(
                               m_coupling->M + Eigen::SparseMatrix<double>(m_coupling->H.transpose() * m_coupling->H))
                         : detail::factorization_operations(detail::to_sparse(m_whole().W, 0.0));
    return m_operations;
  }
  // eq. (6): the factorisation and, on the body form, J's contact terms, 3 k_i² per contact
  double iteration_operations() {
    if (m_iteration < 0.0) {
      m_iteration = operations();
      if (m_coupling != nullptr) {  // k_i: the entries of contact i's first row of H
        const Eigen::SparseMatrix<double>& H = m_coupling->H;
        std::vector<int> row_entries(static_cast<std::size_t>(H.rows()), 0);
        for (Eigen::Index j = 0; j < H.outerSize(); ++j)
          for (Eigen::SparseMatrix<double>::InnerIterator it(H, j); it; ++it) ++row_entries[it.row()];
        for (Eigen::Index i = 0; i < H.rows(); i += 3) {
          const double k = row_entries[static_cast<std::size_t>(i)];
          m_iteration += 3.0 * k * k;
        }
      }
    }
    return m_iteration;
  }

 private:
  const BodyCoupling* m_coupling;
  std::function<const FrictionProblem&()> m_whole;
  double m_operations = -1.0;
  double m_iteration = -1.0;
};

// eq. (4): the multiply-adds of a sweep, on W or on the contacts' sides `bodies`
double sweep_operations(const FrictionProblem& p, const ContactBodies* bodies) {
  if (bodies == nullptr) return 9.0 * (p.W.n_offdiag() + p.nc());
  double modal = 0.0;
  for (const ContactSides& c : bodies->contacts) modal += 6.0 * (c.modes[0] + c.modes[1]);
  return 81.0 * p.nc() + modal;
}

// a Newton stage's result `stage`: best becomes it if its error is lower, with the counts of both
// stages; whether it converged
bool keep_better(SolverResult& best, SolverResult stage, int sweeps) {
  nscd::logger().trace("auto: nlgs {} sweeps, then {} {} iterations from {:.3e} to {:.3e}", sweeps,
                       to_string(stage.stage), stage.iterations, best.error, stage.error);
  const int iterations = best.iterations + stage.iterations;
  const int factorizations = best.factorizations + stage.factorizations;
  if (stage.error <= best.error || !std::isfinite(best.error)) best = std::move(stage);
  best.iterations = iterations;
  best.factorizations = factorizations;
  return best.status == SolverStatus::Converged;
}

// eq. (7)'s σ at r, whose velocities are u
double unshifted_sliding(const FrictionProblem& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u) {
  double sum = 0.0;
  for (int i = 0; i < p.nc(); ++i) {
    const double d = std::max(0.0, p.mu(i) * u.segment<2>(3 * i + 1).norm() - std::max(u(3 * i), 0.0));
    sum += d * d;
  }
  return std::sqrt(sum) / error_denominator(p, r, u);
}

// whether stage 2 runs the interior point first, eq. (7), after NLGS's `best`
bool interior_point_worth_it(const FrictionProblem& p, const AutoOptions& options, const SolverResult& best) {
  return interior_point_applies(p) && (best.error > options.interior_point_above ||
                                       unshifted_sliding(p, best.r, best.u) <= best.error);
}

}  // namespace

NlgsOptions nlgs_stage_options(const AutoOptions& options, int stall_window) {
  NlgsOptions nlgs = options.nlgs;
  nlgs.stopping = options.stopping;
  nlgs.stall_window = stall_window;
  nlgs.stall_factor = options.stall_factor;
  return nlgs;
}

bool newton_stage_possible(const AutoOptions& options, Eigen::Index unknowns) {
  return unknowns <= options.max_newton_unknowns;
}

SolverResult solve_auto(const FrictionProblem& p, const AutoOptions& options, const Eigen::VectorXd& r0,
                        const BodyCoupling* coupling, const DeferredDelassus* deferred) {
  // NLGS on the body form when given (nlgs_bodies.hpp), else on W
  const auto nlgs_stage = [&](const NlgsOptions& o, const Eigen::VectorXd& r) {
    return deferred != nullptr ? solve_nlgs_bodies(p, *deferred->bodies, o, r) : solve_nlgs(p, o, r);
  };
  // without a possible stage 2, plain NLGS
  const bool newton = newton_possible(p, coupling, options);
  NlgsOptions nlgs = nlgs_stage_options(
      options, !newton ? 0 : coupling != nullptr ? options.stall_window : options.local_stall_window);
  // stage 2 on the local form needs W whole (on the body form, W's diagonal blocks)
  const auto whole = [&]() -> const FrictionProblem& { return deferred != nullptr ? deferred->assembled() : p; };
  NewtonPrice price(coupling, whole);
  const double sweep = sweep_operations(p, deferred != nullptr ? deferred->bodies : nullptr);
  if (newton)  // eq. (5)
    nlgs.stall_patience = [&] { return options.expected_newton_iterations * price.iteration_operations() / sweep; };
  SolverResult best = nlgs_stage(nlgs, r0);
  if (!newton || best.status != SolverStatus::MaxIterations || best.iterations >= options.stopping.max_iterations)
    return best;
  const int sweeps = best.iterations;

  // NLGS stalled: Newton from its r, on the body form if given, else on the local form, if its
  // factorisations are affordable
  const bool affordable = price.operations() <= options.max_factorization_operations;
  if (coupling != nullptr) {
    if (affordable) {
      // where every contact has friction and eq. (7) holds, the interior point method first;
      // the velocity Newton then starts from its r if that is well below NLGS's error, else from
      // NLGS's
      Eigen::VectorXd start = best.r;
      if (interior_point_worth_it(p, options, best)) {
        InteriorPointOptions ipm = options.interior_point;
        ipm.stopping.tolerance = options.stopping.tolerance;
        SolverResult centred = solve_interior_point(p, *coupling, ipm);
        if (centred.error <= options.centre_start_factor * best.error) start = centred.r;
        if (keep_better(best, std::move(centred), sweeps)) return best;
      }
      VelocityProxOptions vprox = options.velocity_prox;
      vprox.stopping = {options.stopping.tolerance, options.max_newton_iterations};
      if (keep_better(best, solve_velocity_prox(p, *coupling, vprox, start), sweeps)) return best;
    }
  } else if (affordable) {
    ProxOptions prox = options.prox;
    prox.stopping = {options.stopping.tolerance, options.max_newton_iterations};
    if (keep_better(best, solve_prox(whole(), prox, best.r), sweeps)) return best;
  }

  // no Newton stage, or none converged: NLGS from the best r for the rest of its budget, while it
  // finds new lowest errors
  nlgs.stall_window = 0;
  nlgs.lowest_window = options.rest_lowest_window;
  nlgs.stopping = {options.stopping.tolerance, options.stopping.max_iterations - sweeps};
  keep_better(best, nlgs_stage(nlgs, best.r), sweeps);
  // the operations stages 1–3 may take: the sweeps of the budget and stage 2's factorisations
  const double spent = options.stopping.max_iterations * sweep +
                       best.factorizations * price.operations();
  if (best.status != SolverStatus::MaxIterations || coupling != nullptr || !affordable) return best;

  // still short on the local form: the safeguarded PROX from r = 0 (from the best r it stays short),
  // its factorisations costing at most restart_cost_ratio × what stages 1–3 spent
  const int budget = static_cast<int>(std::min<double>(options.max_restart_iterations,
                                                       options.restart_cost_ratio * spent / price.operations()));
  if (budget < 1) return best;
  ProxOptions restart = options.prox_restart;
  restart.stopping = {options.stopping.tolerance, budget};
  SolverResult last = solve_prox(whole(), restart, Eigen::VectorXd());
  last.stage = SolverType::ProxRestart;
  keep_better(best, std::move(last), sweeps);
  return best;
}

}  // namespace nscd::solvers
