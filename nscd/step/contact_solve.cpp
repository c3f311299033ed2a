#include "nscd/step/contact_solve.hpp"

#include "nscd/step/cohesion.hpp"
#include "nscd/step/contact_problem.hpp"
#include "nscd/step/penalty_contact.hpp"
#include "nscd/step/rolling_resistance.hpp"

#include "solvers/anderson_mixing.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solve.hpp"

#include <algorithm>

namespace nscd {
namespace {

// the inner loop of Algorithm 1 for impulses r: the Rotator of FFR bodies, Newton for TL bodies;
// returns the largest count of either
int solve_inner(const Model& m, const State& s, const Eigen::VectorXd& r, StepWorkspace& ws) {
  const int rotations = rotate_ffr_bodies(m, s, ws.mesh_points, r, ws.ffr, ws.free);
  return std::max(rotations, solve_tl_bodies(m, s, ws.mesh_points, r, ws.tl));
}

// Algorithm 1 by NLGS sweeps, one per outer iteration as in the paper, on W and q relinearised
// before each, until the error meets the tolerance after at least min_iterations sweeps; from r,
// after the inner loop's count `inner`; returns the largest inner count. An outer iteration is a
// map r ↦ G(r), the sweep from r at the linearisation of the inner loop's state for r; every
// outer iteration but the first starts from the Anderson mixing of the last ones
// (solvers/anderson_mixing.hpp eqs. (1)–(3), depth options.anderson_depth), and the inner loop
// then runs on the mixed r, so that the next linearisation is that of the r its sweep starts
// from. The last sweep's r is never mixed: the step ends on a sweep's output and its inner state.
int sweep_coupled(const Model& m, const State& s, const solvers::NlgsOptions& options, Eigen::VectorXd r, int inner,
                  StepWorkspace& ws) {
  solvers::PreparedNlgs nlgs(ws.contacts.problem, options);  // relinearize() keeps W's pattern
  solvers::detail::AndersonMixing mixing(options.anderson_depth, r.size(), 0);
  Eigen::VectorXd no_image;
  mixing.start_sweep(r, no_image);
  while (nlgs.sweeps_left() > 0) {
    relinearize(m, s, ws);
    ws.contacts.solution = nlgs.sweep(r);
    if (ws.contacts.solution.status == solvers::SolverStatus::NonFinite) return inner;
    r = ws.contacts.solution.r;
    const bool done = ws.contacts.solution.status == solvers::SolverStatus::Converged &&
                      ws.contacts.solution.iterations >= options.stopping.min_iterations;
    if (!done && nlgs.sweeps_left() > 0) mixing.start_sweep(r, no_image);
    inner = std::max(inner, solve_inner(m, s, r, ws));
    if (done) break;
  }
  return inner;
}

// Algorithm 1 by full solves, one per outer iteration, until the impulses of the last solve
// already satisfy the relinearised problem to the tolerance (on eq. (3) of error_measure.hpp,
// whatever the solver's own measure); from r, after the inner count `inner`
int solve_coupled_fully(const Model& m, const State& s, Eigen::VectorXd r, int inner, StepWorkspace& ws) {
  const solvers::Stopping& stopping = m.step.solver.stopping();
  for (int j = 1; j <= stopping.max_iterations; ++j) {
    relinearize(m, s, ws);
    const solvers::FrictionProblem& p = ws.contacts.problem;
    if (j > 1 && solvers::error_measure(p, r, p.W.apply(r) + p.q) <= stopping.tolerance) break;
    ws.contacts.solution = solvers::solve(ws.contacts.problem, m.step.solver, r);
    ws.contacts.solution.iterations = j;
    if (ws.contacts.solution.status == solvers::SolverStatus::NonFinite) return inner;
    r = ws.contacts.solution.r;
    inner = std::max(inner, solve_inner(m, s, r, ws));
    ws.contacts.solution.status = ws.contacts.solution.error <= stopping.tolerance ? solvers::SolverStatus::Converged
                                                             : solvers::SolverStatus::MaxIterations;
  }
  return inner;
}

// stage 5 with FE bodies: Algorithm 1 of [Lozovskiy & Dubois 2016], outer iterations on R, each
// followed by the inner loop (solve_inner); returns the largest inner count. With NLGS an outer
// iteration is one sweep, as in the paper (also with auto, whose first stage is NLGS); with the
// other solvers it is a full solve at the current linearisation.
int solve_coupled(const Model& m, const State& s, StepWorkspace& ws) {
  const Eigen::VectorXd& r = ws.r0;
  int inner = solve_inner(m, s, r, ws);
  for (const TlStepData& data : ws.tl) inner = std::max(inner, data.iterations);  // and the free solves
  ws.contacts.solution = solvers::SolverResult{r, r, solvers::SolverStatus::Converged, 0, 0.0};
  if (ws.contacts.problem.nc() == 0) return inner;
  if (const std::optional<solvers::NlgsOptions> nlgs = solvers::nlgs_sweeps(m.step.solver))
    return sweep_coupled(m, s, *nlgs, r, inner, ws);
  return solve_coupled_fully(m, s, r, inner, ws);
}

}  // namespace

int solve_contacts(const Model& m, const State& s, StepWorkspace& ws) {
  if (m.step.penalty) {
    penalty_impulses(m, ws);
    return 0;
  }
  if (m.has_meshes()) return solve_coupled(m, s, ws);
  const bool body_form = m.step.solver.type == solvers::SolverType::Auto &&
                         solvers::newton_stage_possible(m.step.solver.automatic, 6 * static_cast<Eigen::Index>(m.nb()));
  if (body_form) {
    build_body_form(m, ws);
  } else {
    ws.contacts.body_form = {};
  }
  // NLGS sweeps on the contacts' sides; W assembled for the solvers and stages that read it
  const solvers::DeferredDelassus deferred{&ws.contacts.bodies,
                                           [&]() -> const solvers::FrictionProblem& { return assembled_problem(m, ws); }};
  const auto solve = [&](const Eigen::VectorXd& r0) {
    return solvers::solve(ws.contacts.problem, m.step.solver, r0, body_form ? &ws.contacts.body_form : nullptr,
                          &deferred);
  };
  // cohesion.hpp: the solve, again while bonds break (a scene has bonds or rolling resistance,
  // not both: the scene reader refuses the two together)
  ws.contacts.bond_breaks = solve_cohesive(m, ws, [&] { ws.contacts.solution = solve(ws.r0); });
  resist_rolling(m, ws, solve);
  return 0;
}

}  // namespace nscd
