#include "solvers/auto_solver.hpp"

#include "nscd/core/logger.hpp"
#include "solvers/nlgs_bodies.hpp"
#include "solvers/sparse_delassus.hpp"

#include <cmath>
#include <utility>

namespace nscd::solvers {
namespace {

// whether stage 2 can run at all, known before stage 1 without pricing (the pricing's symbolic
// analysis itself grows faster than the problem)
bool newton_possible(const FrictionProblem& p, const BodyCoupling* coupling, const AutoOptions& options) {
  return newton_stage_possible(options, coupling != nullptr ? coupling->M.rows() : 3 * static_cast<Eigen::Index>(p.nc()));
}

// whether stage 2's factorisations are affordable
bool newton_affordable(const FrictionProblem& p, double max_operations) {
  return detail::factorization_operations(detail::to_sparse(p.W, 0.0)) <= max_operations;
}

// a Newton stage's result `stage` from best.r: best becomes it if its error is lower, with the
// counts of both stages; whether it converged
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

// whether stage 2's factorisations on the body form are affordable: the price of J's pattern,
// that of M + Hᵀ H (velocity_prox.hpp eq. (3))
bool body_newton_affordable(const BodyCoupling& c, double max_operations) {
  const Eigen::SparseMatrix<double> pattern = c.M + Eigen::SparseMatrix<double>(c.H.transpose() * c.H);
  return detail::factorization_operations(pattern) <= max_operations;
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
  SolverResult best = nlgs_stage(nlgs, r0);
  if (!newton || best.status != SolverStatus::MaxIterations || best.iterations >= options.stopping.max_iterations)
    return best;
  const int sweeps = best.iterations;

  // NLGS stalled: Newton from its r, on the body form if given, else on the local form, if its
  // factorisations are affordable; both need W whole
  const auto whole = [&]() -> const FrictionProblem& { return deferred != nullptr ? deferred->assembled() : p; };
  if (coupling != nullptr) {
    if (body_newton_affordable(*coupling, options.max_factorization_operations)) {
      VelocityProxOptions vprox = options.velocity_prox;
      vprox.stopping = {options.stopping.tolerance, options.max_newton_iterations};
      if (keep_better(best, solve_velocity_prox(whole(), *coupling, vprox, best.r), sweeps)) return best;
    }
  } else if (newton_affordable(whole(), options.max_factorization_operations)) {
    ProxOptions prox = options.prox;
    prox.stopping = {options.stopping.tolerance, options.max_newton_iterations};
    if (keep_better(best, solve_prox(whole(), prox, best.r), sweeps)) return best;
  }

  // no Newton stage, or none converged: NLGS for the rest of its budget from the best r
  nlgs.stall_window = 0;
  nlgs.stopping = {options.stopping.tolerance, options.stopping.max_iterations - sweeps};
  SolverResult rest = nlgs_stage(nlgs, best.r);
  if (rest.error > best.error && std::isfinite(best.error)) return best;
  rest.iterations += best.iterations;
  rest.factorizations = best.factorizations;
  return rest;
}

}  // namespace nscd::solvers
