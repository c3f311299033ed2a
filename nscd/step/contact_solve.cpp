#include "nscd/step/contact_solve.hpp"

#include "nscd/step/cohesion.hpp"
#include "nscd/step/contact_problem.hpp"
#include "nscd/step/penalty_contact.hpp"
#include "nscd/step/rolling_resistance.hpp"

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

// the problem whose W build_problem left to its diagonal blocks, for the solvers and stages that
// read W whole (contact_problem.hpp)
solvers::DeferredDelassus deferred_delassus(const Model& m, StepWorkspace& ws) {
  return {&ws.contacts.bodies, [&m, &ws]() -> const solvers::FrictionProblem& { return assembled_problem(m, ws); }};
}

// ws.contacts.body_form (body_form of contact_problem.hpp: rigid scenes and modal FFR bodies) if
// the step's solver is auto and runs its Newton stage on it, within its size limit, else empty;
// whether it is set
bool set_body_form(const Model& m, StepWorkspace& ws) {
  const Eigen::Index unknowns = 6 * static_cast<Eigen::Index>(m.nb()) + ws.contacts.bodies.n_modal;
  const bool on_bodies = m.step.solver.type == solvers::SolverType::Auto && sweeps_on_sides(ws) &&
                         solvers::newton_stage_possible(m.step.solver.automatic, unknowns);
  ws.contacts.body_form = on_bodies ? body_form(m, ws) : solvers::BodyCoupling{};
  return on_bodies;
}

// the forcing term of the outer iterations' solves (solve_coupled)
constexpr double kForcing = 0.1;

// stage 5 with FE bodies: Algorithm 1 of [Lozovskiy & Dubois 2016], outer iterations on R. Each
// outer iteration solves (W, q) with the step's solver from the last impulses, runs the inner loop
// (solve_inner) on the result and re-linearises q and W at the state it leaves; the loop ends when
// the impulses of the last solve meet the tolerance on the re-linearised problem (on eq. (3) of
// error_measure.hpp, whatever the solver's own measure, with W r formed body by body:
// delassus_product, W itself being assembled only for a next solve, so that the measure's
// weights tr(W_ii)/3 are those of the last assembly, at rotations a few micro-radians away), or
// once the solves have used the solver's budget of iterations (stopping.max_iterations for the
// whole step). The first solve is
// on the problem of build_problem, linearised at the free motion. The paper does one NLGS sweep per
// outer iteration; a solve to the tolerance does the same sweeps without the re-linearisations
// between them, which change q little within a step of stiff bodies: on the arch of 15 voussoirs
// with 12 modes each, and on §4.2, the first solve's impulses meet the tolerance on the
// re-linearised problem at nearly every step (docs/performance.md, "Algorithm 1 by solves").
// Where the re-linearisation does move the problem (the 200-block wall of full-mesh FFR blocks on
// its shaking table: errors of 6e-2 after the first solve, halving at each outer iteration), the
// solves after the first stop at kForcing times the error the last one left on the re-linearised
// problem (or at the tolerance), as inexact Newton methods do [Eisenstat & Walker 1996]: a solve
// to the tolerance on a linearisation that is still moving is wasted. On that wall this takes the
// sweeps per step from 295 to 166 (median); on §4.2 and the arch, where one solve suffices, it
// changes nothing. Where every deformable point is on a modal body (sweeps_on_sides), the sweeps
// work on the contacts' sides, formed again for each solve after the first.
// Returns the largest inner count; the solution's iterations sum those of the solves.
int solve_coupled(const Model& m, const State& s, StepWorkspace& ws) {
  Eigen::VectorXd r = ws.r0;
  int inner = 0;
  for (const TlStepData& data : ws.tl) inner = std::max(inner, data.iterations);  // the free solves
  solvers::SolverResult& solution = ws.contacts.solution;
  solution = solvers::SolverResult{r, r, solvers::SolverStatus::Converged, 0, 0.0};
  ws.contacts.outer_iterations = 0;
  if (ws.contacts.problem.nc() == 0) return std::max(inner, solve_inner(m, s, r, ws));
  const solvers::Stopping& stopping = m.step.solver.stopping();
  solvers::SolverOptions options = m.step.solver;
  int used = 0;  // the solves' iterations so far
  while (true) {
    if (ws.contacts.outer_iterations > 0) {
      relinearize(m, s, ws);
      const solvers::FrictionProblem& p = ws.contacts.problem;
      solution.error = solvers::error_measure(p, r, delassus_product(m, ws, r) + p.q);
      solution.status = solution.error <= stopping.tolerance ? solvers::SolverStatus::Converged
                                                             : solvers::SolverStatus::MaxIterations;
      if (solution.status == solvers::SolverStatus::Converged || used >= stopping.max_iterations) break;
    }
    options.stopping().max_iterations = stopping.max_iterations - used;
    if (ws.contacts.outer_iterations > 0)
      options.stopping().tolerance = std::max(stopping.tolerance, kForcing * solution.error);
    if (!sweeps_on_sides(ws)) {
      solution = solvers::solve(assembled_problem(m, ws), options, r);
    } else {
      if (ws.contacts.outer_iterations > 0) defer_assembly(m, ws);
      const bool on_bodies = set_body_form(m, ws);
      // a Newton iteration on modal bodies sums J's terms over 36 columns per contact and more, where
      // two rigid bodies have 12: NLGS keeps the window of the local form before it hands over (on
      // the 12-mode arch on its faces, with the rigid window it handed 7 of 20 steps over to
      // Newton stages of up to 178 factorisations, 1.6 times the time of its sweeps alone)
      if (on_bodies && ws.contacts.bodies.n_modal > 0)
        options.automatic.stall_window = options.automatic.local_stall_window;
      const solvers::DeferredDelassus deferred = deferred_delassus(m, ws);
      solution =
          solvers::solve(ws.contacts.problem, options, r, on_bodies ? &ws.contacts.body_form : nullptr, &deferred);
    }
    ++ws.contacts.outer_iterations;
    used += std::max(solution.iterations, 1);  // a solve without iterations still spends the budget
    solution.iterations = used;
    if (solution.status == solvers::SolverStatus::NonFinite) break;
    r = solution.r;
    inner = std::max(inner, solve_inner(m, s, r, ws));
  }
  return inner;
}

}  // namespace

int solve_contacts(const Model& m, const State& s, StepWorkspace& ws) {
  if (m.step.penalty) {
    penalty_impulses(m, ws);
    return 0;
  }
  if (m.has_meshes()) return solve_coupled(m, s, ws);
  const bool on_bodies = set_body_form(m, ws);
  // NLGS sweeps on the contacts' sides; W assembled for the solvers and stages that read it
  const solvers::DeferredDelassus deferred = deferred_delassus(m, ws);
  const auto solve = [&](const Eigen::VectorXd& r0) {
    return solvers::solve(ws.contacts.problem, m.step.solver, r0, on_bodies ? &ws.contacts.body_form : nullptr,
                          &deferred);
  };
  // cohesion.hpp: the solve, again while bonds break (a scene has bonds or rolling resistance,
  // not both: the scene reader refuses the two together)
  ws.contacts.bond_breaks = solve_cohesive(m, ws, [&] { ws.contacts.solution = solve(ws.r0); });
  resist_rolling(m, ws, solve);
  return 0;
}

}  // namespace nscd
