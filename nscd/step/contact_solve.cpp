#include "nscd/step/contact_solve.hpp"

#include "nscd/step/cohesion.hpp"
#include "nscd/step/contact_problem.hpp"
#include "nscd/step/penalty_contact.hpp"
#include "nscd/step/rolling_resistance.hpp"

#include "solvers/anderson_mixing.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solve.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

namespace nscd {
namespace {

// the inner loop of Algorithm 1 for impulses r: the Rotator of FFR bodies, Newton for TL bodies;
// returns the largest count of either
int solve_inner(const Model& m, const State& s, const Eigen::VectorXd& r, StepWorkspace& ws) {
  const int rotations = rotate_ffr_bodies(m, s, ws.mesh_points, r, ws.ffr, ws.free);
  return std::max(rotations, solve_tl_bodies(m, s, ws.mesh_points, r, ws.tl));
}

// the FFR bodies' current rotations O_{i+1}
std::vector<Mat3> ffr_rotations(const StepWorkspace& ws) {
  std::vector<Mat3> O;
  O.reserve(ws.ffr.size());
  for (const FfrStepData& data : ws.ffr) O.push_back(data.rotation.O);
  return O;
}

// the largest angle [rad] by which an FFR body has turned from its rotation in `from`
double largest_turn(const StepWorkspace& ws, const std::vector<Mat3>& from) {
  double angle = 0.0;
  for (std::size_t d = 0; d < from.size(); ++d)
    angle = std::max(angle, Eigen::AngleAxisd(Mat3(from[d].transpose() * ws.ffr[d].rotation.O)).angle());
  return angle;
}

// Outer iterations without a new lowest error after which the mixing of Algorithm 1 pauses for as
// many, then starts afresh: mixed outer iterations can fall into a cycle (on a step of the three
// blocks of [Lozovskiy & Dubois 2016] §4.2 with 12 modes at 1e-5, six errors from 6e-5 to 2e-3,
// repeated until the budget ran out), which plain sweeps leave. With 100, the arch's steps take
// the outer iterations they took without the pause, and §4.2 at 1e-7 a few fewer; with 30, the
// arch's full-mesh steps took a quarter more (docs/performance.md, "Pausing the mixing").
constexpr int kMixingPause = 100;

// Algorithm 1 by NLGS sweeps, one per outer iteration as in the paper, on q relinearised before
// each, until the error meets the tolerance after at least min_iterations sweeps; from r, after
// the inner loop's count `inner`; returns the largest inner count. An outer iteration is a map
// r ↦ G(r), the sweep from r at the linearisation of the inner loop's state for r; every outer
// iteration but the first starts from the Anderson mixing of the last ones
// (solvers/anderson_mixing.hpp eqs. (1)–(3), depth options.anderson_depth), and the inner loop
// then runs on the mixed r, so that the next linearisation is that of the r its sweep starts
// from. The last sweep's r is never mixed: the step ends on a sweep's output and its inner state.
// The mixing pauses, then starts afresh, after kMixingPause outer iterations without progress.
// W, whose assembly costs several sweeps on deformable bodies (every pair of points on one
// body), is assembled again only once a body has turned by more than the tolerance (in radians)
// since its last assembly, which the outer iterations of one step seldom add up to. A sweep on an
// older W that converges, or ends the budget, is judged again on W and q relinearised at the
// rotations of its own r: the loop stops only on an error measured at an exact linearisation.
int sweep_coupled(const Model& m, const State& s, const solvers::NlgsOptions& options, Eigen::VectorXd r, int inner,
                  StepWorkspace& ws) {
  solvers::PreparedNlgs nlgs(ws.contacts.problem, options);  // relinearize() keeps W's pattern
  solvers::detail::AndersonMixing mixing(options.anderson_depth, r.size(), 0);
  Eigen::VectorXd no_image;
  mixing.start_sweep(r, no_image);
  std::optional<std::vector<Mat3>> assembled_at;  // the rotations W was last assembled at
  const auto assemble = [&] {
    relinearize(m, s, ws);
    assembled_at = ffr_rotations(ws);
  };
  solvers::SolverResult& solution = ws.contacts.solution;
  double lowest_error = std::numeric_limits<double>::infinity();
  int lowest_at = 0;  // the outer iteration of lowest_error
  bool mixed = true;  // whether the next sweep starts from the mixing
  const auto next_start = [&] {
    if (mixed) mixing.start_sweep(r, no_image);
  };
  const auto finished = [&] {
    return solution.status == solvers::SolverStatus::Converged &&
           solution.iterations >= options.stopping.min_iterations;
  };
  while (nlgs.sweeps_left() > 0) {
    const double turn = assembled_at ? largest_turn(ws, *assembled_at) : std::numeric_limits<double>::infinity();
    if (turn > options.stopping.tolerance) {
      assemble();
    } else {
      relinearize_velocities(m, s, ws);
    }
    const bool older_w = turn > 0.0 && turn <= options.stopping.tolerance;
    solution = nlgs.sweep(r);
    if (solution.status == solvers::SolverStatus::NonFinite) return inner;
    r = solution.r;
    bool done = finished();
    if (solution.error < lowest_error || solution.iterations - lowest_at >= 2 * kMixingPause) {
      if (!mixed) mixing = solvers::detail::AndersonMixing(options.anderson_depth, r.size(), 0);
      lowest_error = solution.error;
      lowest_at = solution.iterations;
    }
    mixed = solution.iterations - lowest_at < kMixingPause;
    if (!done && nlgs.sweeps_left() > 0) next_start();
    inner = std::max(inner, solve_inner(m, s, r, ws));
    if (older_w && (done || nlgs.sweeps_left() == 0)) {
      assemble();
      const solvers::FrictionProblem& p = ws.contacts.problem;
      solution.error = solvers::error_measure(p, r, p.W.apply(r) + p.q);
      solution.status = solution.error <= options.stopping.tolerance ? solvers::SolverStatus::Converged
                                                                     : solvers::SolverStatus::MaxIterations;
      done = finished();
      if (!done && nlgs.sweeps_left() > 0) {  // the next sweep from the mixed r, at its rotations
        next_start();
        inner = std::max(inner, solve_inner(m, s, r, ws));
      }
    }
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
  const bool on_bodies = m.step.solver.type == solvers::SolverType::Auto &&
                         solvers::newton_stage_possible(m.step.solver.automatic, 6 * static_cast<Eigen::Index>(m.nb()));
  if (on_bodies) {
    ws.contacts.body_form = body_form(m, ws);
  } else {
    ws.contacts.body_form = {};
  }
  // NLGS sweeps on the contacts' sides; W assembled for the solvers and stages that read it
  const solvers::DeferredDelassus deferred{&ws.contacts.bodies,
                                           [&]() -> const solvers::FrictionProblem& { return assembled_problem(m, ws); }};
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
