#pragma once
/// @file
/// Stage 5 of a step (stepper.hpp): the solution r of the step's problem (W, q, μ), built by
/// stages 3–4 (contact_problem.hpp), into ws.contacts.solution.
///
/// On a rigid scene, one solve by the scene's solver (solvers/solve.hpp), given the body form
/// (M, H) when `auto` can use its Newton stage, and the contacts' sides, on which NLGS and auto's
/// NLGS stages sweep (solvers/nlgs_bodies.hpp) while W is assembled only for a solver or stage
/// that reads it (contact_problem.hpp assembled_problem); with intact cohesive bonds, on the shifted
/// problem of cohesion.hpp, again while bonds break (ws.contacts.bond_breaks); with rolling
/// resistance in an interaction, then the passes of rolling_resistance.hpp, each with a solve of
/// the same kind. With finite-element bodies, Algorithm 1 of
/// [Lozovskiy & Dubois 2016]: outer iterations on r, each followed by the inner loop (the Rotator
/// of FFR bodies, Newton on TL and linear bodies), with W and q relinearised before each. An outer
/// iteration is a solve by the scene's solver at the current linearisation (the paper: one NLGS
/// sweep), until the impulses of the last solve satisfy the relinearised problem to the
/// tolerance; the solves share the solver's budget of iterations. Where every deformable point is
/// on a modal FFR body, each solve is given the body form of its linearisation (frames and modal
/// coordinates, contact_problem.hpp body_form) as on a rigid scene, so that `auto`'s Newton stage
/// runs where its sweeps stall: node to surface, the points of a joint on nearly rigid blocks
/// make W as degenerate as a rigid wall's (docs/performance.md).
///
/// With penalty contact (penalty_contact.hpp) r follows from each contact's gap and velocity,
/// without a solver.
///
/// Reference: [Lozovskiy & Dubois 2016] Eur. J. Mech. A/Solids 58, §3.3, Algorithm 1.

#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"
#include "nscd/step/step_workspace.hpp"

namespace nscd {

/// Solves the problem of ws.contacts from the warm start ws.r0; returns the largest inner-loop
/// count of Algorithm 1 (0 on a rigid scene).
int solve_contacts(const Model& m, const State& s, StepWorkspace& ws);

}  // namespace nscd
