#include "solvers/auto_solver.hpp"

#include "nscd/core/logger.hpp"
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

// the price of one of stage 2's factorisations (sparse_delassus.hpp eq. (2)), computed when first
// asked: of W's pattern on the local form, of J's on the body form, that of M + Hᵀ H
// (velocity_prox.hpp eq. (3))
class NewtonPrice {
 public:
  NewtonPrice(const FrictionProblem& p, const BodyCoupling* coupling) : m_p(p), m_coupling(coupling) {}
  double operations() {
    if (m_operations < 0.0)
      m_operations = m_coupling != nullptr
                         ? detail::factorization_operations(
                               m_coupling->M + Eigen::SparseMatrix<double>(m_coupling->H.transpose() * m_coupling->H))
                         : detail::factorization_operations(detail::to_sparse(m_p.W, 0.0));
    return m_operations;
  }

 private:
  const FrictionProblem& m_p;
  const BodyCoupling* m_coupling;
  double m_operations = -1.0;
};

// eq. (4): the operations of a sweep, a 3 × 3 block product (9 multiply-adds) per block of W
double sweep_operations(const FrictionProblem& p) { return 9.0 * (p.W.n_offdiag() + p.nc()); }

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
                        const BodyCoupling* coupling) {
  // without a possible stage 2, plain NLGS
  const bool newton = newton_possible(p, coupling, options);
  NlgsOptions nlgs = nlgs_stage_options(
      options, !newton ? 0 : coupling != nullptr ? options.stall_window : options.local_stall_window);
  NewtonPrice price(p, coupling);
  if (newton)  // eq. (5)
    nlgs.stall_patience = [&] { return options.expected_newton_iterations * price.operations() / sweep_operations(p); };
  SolverResult best = solve_nlgs(p, nlgs, r0);
  if (!newton || best.status != SolverStatus::MaxIterations || best.iterations >= options.stopping.max_iterations)
    return best;
  const int sweeps = best.iterations;

  // NLGS stalled: Newton from its r, on the body form if given, else on the local form, if its
  // factorisations are affordable
  const bool affordable = price.operations() <= options.max_factorization_operations;
  if (coupling != nullptr) {
    if (affordable) {
      VelocityProxOptions vprox = options.velocity_prox;
      vprox.stopping = {options.stopping.tolerance, options.max_newton_iterations};
      if (keep_better(best, solve_velocity_prox(p, *coupling, vprox, best.r), sweeps)) return best;
    }
  } else if (affordable) {
    ProxOptions prox = options.prox;
    prox.stopping = {options.stopping.tolerance, options.max_newton_iterations};
    if (keep_better(best, solve_prox(p, prox, best.r), sweeps)) return best;
  }

  // no Newton stage, or none converged: NLGS for the rest of its budget from the best r
  nlgs.stall_window = 0;
  nlgs.stopping = {options.stopping.tolerance, options.stopping.max_iterations - sweeps};
  SolverResult rest = solve_nlgs(p, nlgs, best.r);
  if (rest.error > best.error && std::isfinite(best.error)) return best;
  rest.iterations += best.iterations;
  rest.factorizations = best.factorizations;
  return rest;
}

}  // namespace nscd::solvers
