#pragma once
/// @file
/// The default solver policy `auto` on the problem of friction_problem.hpp: a first-order stage
/// while it makes progress, then a second-order stage from its r.
///
///  Stage 1, NLGS (nlgs.hpp) from r0, with its progress test: the sweeps go on while the error
///  (error_measure.hpp eq. (3)) falls by at least stall_factor every stall_window sweeps (every
///  local_stall_window sweeps without the body form below, whose Newton stage factorises the
///  larger matrix), and end at the tolerance or after max_iterations sweeps. A warm-started step of a structure at rest
///  ends here after a sweep or two. A window whose error fell, but by less, hands over only if
///  the sweeps still needed at its rate cost more than the Newton stage is expected to:
///
///  (4) sweep = 9 (n_b + nc) multiply-adds on W: a 3 × 3 block product per stored block (n_b off
///      the diagonal); 81 nc on the bodies (nlgs_bodies.hpp: two 3 × 6 and two 6 × 3 blocks and
///      W_ii per contact), plus 6 k per side on a modal body of k modes (T_isᵀ z_b and U_is Δr_i,
///      contact_bodies.hpp eqs. (5)–(6)); the local solves left out;
///  (5) patience = expected_newton_iterations · price / sweep  sweeps, asked only at such a window,
///  (6) price = one of stage 2's factorisations (below), plus on the body form the assembly of its
///      Jacobian, 3 k_i² per contact i whose rows have entries in k_i columns (velocity_prox.hpp
///      eq. (3)): 12 columns for two rigid bodies, 36 for two bodies of 12 modes. On the arch of 15
///      voussoirs of 12 modes in contact on their faces (64 contacts) the assembly is about as dear
///      as the factorisation: priced on the factorisation alone, NLGS handed 10 of its first 20
///      steps over to Newton stages of 12 to 178 factorisations (3.1 times the time of its sweeps
///      alone), priced so 7 (1.6 times; with modal bodies the step also gives NLGS the longer
///      window of the local form, nscd/step/contact_solve.cpp, and then none),
///
///  and the sweeps go on while the error, falling at the window's rate, reaches the tolerance
///  within the patience and the budget (nlgs.hpp stall_patience). On granular flows NLGS falls
///  slowly but steadily on impacts, where the Newton stage's active set changes at every
///  iteration: it took 200 factorisations (2.4 s, its budget then) on a step of a pour of 216
///  spheres that 241 sweeps (18 ms) solve.
///  Stage 2, only when stage 1 stopped short of the tolerance: the proximal point method from
///  NLGS's r, on the bodies' velocities (velocity_prox.hpp) when the caller gives the problem's
///  body form (rigid bodies; the frames and modal coordinates of modal FFR bodies), else on the
///  local form (prox.hpp), whose iterations factorise the larger matrix with the fill of W (a
///  hundred times the time on the 85-block wall).
///  Gauss–Seidel spreads a change of load a few contacts per sweep and stalls where redundant
///  contacts (the corners of a face–face joint) make W singular; the proximal term σ I keeps
///  Newton's Jacobian regular there, and Newton converges superlinearly near the solution
///  [Acary, Brémond & Huber 2018, §5], in the spirit of the hybrid Gauss–Seidel/Newton of
///  [Bertails-Descoubes, Cadoux, Daviet & Acary 2011].
///  On the body form, where every μ_i > 0, stage 2 first runs the interior point method of
///  interior_point.hpp (its own budget, AutoOptions::interior_point), which converges to the
///  centre of the impulses of redundant contacts instead of drifting along them: alone it solves
///  the resting and shaken walls' dumps (about ten iterations), and where its fixed point on the
///  shift stalls the velocity Newton starts from its r if that error is below centre_start_factor
///  times NLGS's. On the harder shake's dump (velocity measure) NLGS hands over at 3.7e-3 and the
///  interior point ends at 1.2e-5: from there the velocity Newton converges (188 iterations in
///  all), from NLGS's r it did not (4e-5 after a budget of 200). On Siconos's spheres in a box
///  the two starts are 1.1e-4 and 1.5e-4, and only NLGS's converges (docs/performance.md).
///  The interior point starts cold, inside the cones, whatever r NLGS had; it runs only where it
///  can help, when NLGS stopped above interior_point_above or its velocities u nearly stick:
///
///  (7) σ = ‖d‖ / max(‖q‖, ‖r̃‖, ‖u‖) ≤ error,   d_i = max(0, μ_i ‖u_T,i‖ − max(u_n,i, 0)),
///
///  d the part of De Saxcé's shift that the first solve (s = 0) leaves out, over the denominator
///  of error_measure.hpp eq. (3): within NLGS's own error, that solve is the answer (on the
///  shaking wall at 1e-8, σ is 0.1 to 1 times the error at all 952 hand-overs, and the interior
///  point finishes each). Where a warm-started NLGS stops close to the solution of a sliding
///  structure, the cold start cannot catch up: on the harder shake's first 0.1 s of shaking
///  NLGS hands over between 1e-8 and 5e-7 with σ above 1 000 times the error, and on 79 of those
///  80 steps the interior point's 120 iterations ended above NLGS's error (2e-6 to 5e-6), never
///  used (docs/performance.md). From r = 0 the dumps hand over above 1e-4 (the harder shake's at
///  3.7e-3, σ 92 times the error) or stick (the static wall's at 4.8e-5, σ 0.35 times).
///
/// Stage 2 factorises sparse matrices: with the block pattern of W on the local form, of M + Hᵀ H
/// on the body form (6 unknowns per rigid body or frame, k per body of k modes). Above
/// max_newton_unknowns unknowns it is not run, and stage 1 is plain NLGS (no progress test): a
/// packing of thousands of spheres fills the factors in. Below, its price is estimated first
/// (sparse_delassus.hpp eq. (2)); above max_factorization_operations NLGS goes on instead, up to
/// max_iterations sweeps in all. When stage 2 stops short of the tolerance, NLGS also goes on from
/// the best r so far for the rest of its sweeps (stage 3), while it finds a new lowest error every
/// rest_lowest_window sweeps. On 63 of the harder shake's first 100 steps (docs/performance.md;
/// measured before the velocity Newton kept its heavily damped steps, velocity_prox.hpp) the
/// velocity Newton ended 1.0 to 5.5 times above 1e-8, and the sweeps from there ran out their
/// 10 000 without coming below its error; on one step they reached 1e-8 after 8 700, their error
/// flat for the first 500 (512 sweeps without a new lowest error lost that step, 1 024 keep it). On the
/// committed hard-shake dump, where the Newton stage ends at 5.6e-5, they bring it down to 1.3e-7,
/// with a new lowest error at least every 208 sweeps.
///  Stage 4, only on the local form (no body form given), when stage 2 ran and stages 1–3 all
/// stopped short of the tolerance: PROX from r = 0 with the safeguarded rule of
/// AutoOptions::prox_restart (prox.hpp), at most max_restart_iterations Newton iterations and at
/// most restart_cost_ratio times the operations stages 1–3 may take in its factorisations (so that a
/// time step whose problem has no solution near the tolerance costs at most that much more). On
/// RockPile_tob1 (463 contacts; sym(W) has 646 of its 1 389 eigenvalues below 1e-8 of the
/// largest) stage 2's inner Newton fails at small σ, its failed r are kept and σ cycles: stages
/// 1–3 end at 1.2e-5. The safeguarded PROX reaches 1e-8 from r = 0 in about 2 200 Newton
/// iterations; from the best r of stages 1–3 it is still at 4.7e-7 after 5 000, and an earlier
/// trial of the rule as `prox` itself was slower on the arch dump and the Capsules problems
/// (docs/performance.md). Not on the body form: on the harder shake's dump (921 contacts) it took
/// the error from 1.2e-7 to 4.6e-8 only, in 5 000 iterations and 390 s (on a loaded machine).
/// Its result is kept if its error is lower.
/// The result is the r of lowest error of the stages run; SolverResult::stage says whose it is,
/// iterations counts the sweeps plus the Newton and interior point iterations, factorizations the
/// sparse factorisations.
///
/// References: [Acary, Brémond, Huber 2018] On solving contact problems with Coulomb friction:
///             formulations and numerical comparisons, Advanced Topics in Nonsmooth Dynamics;
///             [Bertails-Descoubes, Cadoux, Daviet, Acary 2011] A nonsmooth Newton solver for
///             capturing exact Coulomb friction in fiber assemblies, ACM TOG 30(1).

#include "solvers/body_coupling.hpp"
#include "solvers/friction_problem.hpp"
#include "solvers/contact_bodies.hpp"
#include "solvers/interior_point.hpp"
#include "solvers/nlgs.hpp"
#include "solvers/prox.hpp"
#include "solvers/solver_result.hpp"
#include "solvers/stopping.hpp"
#include "solvers/velocity_prox.hpp"

#include <Eigen/Core>

namespace nscd::solvers {

/// Options of solve_auto.
struct AutoOptions {
  Stopping stopping{1e-8, 1000, 1};  // on error_measure eq. (3); NLGS sweeps of stage 1 (all sweeps
                                     // when stage 2 cannot run), min_iterations before its test may end it
  int stall_window = 16;      // stage 1's progress test (nlgs.hpp): the error must fall by
  double stall_factor = 0.5;  // stall_factor every stall_window sweeps, with the body form;
  int local_stall_window = 64;  // without it every local_stall_window sweeps (the local Newton costs more)
  int max_newton_iterations = 600;  // stage 2 budget (its max_iterations): on the harder shake's second at
                                    // 1e-8, 200 left 356 of 1 000 steps short, 600 108, 1 000 86 at a
                                    // quarter more time per step (docs/performance.md)
  double expected_newton_iterations = 10;  // of stage 2, in eq. (5): the median on the shaking wall is 3 at
                                           // tolerance 1e-5 and 11 at 1e-8 (docs/performance.md)
  int max_newton_unknowns = 6000;  // above this many unknowns (6 per body with the body form, else 3 per
                                   // contact) stage 2 is not run and stage 1 is plain NLGS: a pile of
                                   // 2 592 spheres (15 552) took 0.6 s per factorisation
  double max_factorization_operations = 1e8;  // price above which stage 2 is not run (the 908-contact
                                              // wall prices at 8e7, about 0.05 s per LU here)
  int rest_lowest_window = 1024;  // stage 3 stops after this many sweeps without a new lowest error
  NlgsOptions nlgs;  // stage 1's local solver and relaxation (its stopping fields are set from the above)
  ProxOptions prox;  // stage 2 on the local form: σ schedule and line search (likewise)
  InteriorPointOptions interior_point;  // stage 2's first part on the body form (its tolerance set from the above)
  double interior_point_above = 1e-4;  // stage 2 runs the interior point where NLGS stopped above this error, or
                                       // where eq. (7) holds (the harder shake's scene hands over below it)
  double centre_start_factor = 0.1;  // the velocity Newton starts from the interior point's r if its error is
                                     // below this × NLGS's (docs/performance.md), else from NLGS's r
  VelocityProxOptions velocity_prox;  // stage 2 on the body form (likewise)
  int max_restart_iterations = 5000;  // stage 4 budget (Newton iterations): RockPile_tob1 takes 2 217
  double restart_cost_ratio = 4.0;    // and its factorisations at most this × the operations of stages
                                      // 1–3: on RockPile_tob1 the 2 217 cost 2.2 × (budget: 4 000)
  // stage 4, prox.hpp's safeguarded rule: an inner solve ends, failed, at a Newton iteration whose
  // line search finds no decrease at a step t ≥ 1/16; a failed inner solve leaves r_k unchanged and
  // sets σ ← 10 σ, a solved one σ ← σ / 2 (its stopping fields are set from the above)
  ProxOptions prox_restart{.sigma_decrease = 0.5, .sigma_increase = 10.0, .reject_failed = true,
                           .newton = {.min_step = 1.0 / 16.0}};
};

/// The options of stage 1: options.nlgs with options' stopping and progress test, the latter every
/// stall_window sweeps (0: none).
NlgsOptions nlgs_stage_options(const AutoOptions& options, int stall_window);

/// Whether stage 2 can run on a problem of `unknowns` unknowns (6 per body on the body form, 3 per
/// contact on the local form): at most options.max_newton_unknowns.
bool newton_stage_possible(const AutoOptions& options, Eigen::Index unknowns);

/// Solves p by the stages above from r0 (wrong size: zero); coupling, if not null, is p's body form. Status MaxIterations when neither
/// stage reaches the tolerance; NonFinite on non-finite data or iterates.
/// @throws nscd::InputError as solve_nlgs and solve_prox do (wrong sizes, μ < 0, options out of range).
/// deferred, if not null, gives p's body form: stages 1 and 3 then sweep on it (nlgs_bodies.hpp,
/// the same sweeps to round-off), p.W may hold its diagonal blocks only, and stage 2 asks for W
/// whole (DeferredDelassus::assembled) when it runs.
SolverResult solve_auto(const FrictionProblem& p, const AutoOptions& options, const Eigen::VectorXd& r0,
                        const BodyCoupling* coupling = nullptr, const DeferredDelassus* deferred = nullptr);

}  // namespace nscd::solvers
