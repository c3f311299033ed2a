#pragma once
/// @file
/// The initial impulses r0 of stage 5 (stepper.hpp): the warm start from last step's impulses, or
/// the stick prediction of solvers/stick_prediction.hpp when most contacts are new.

#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"
#include "nscd/step/step_workspace.hpp"

namespace nscd {

/// The initial impulses: last step's impulse of the same contact (same bodies, point within a small
/// distance in body a's frame; features are not used, as the clipping of coincident faces may
/// relabel them), turned into the new contact frame; when most contacts are new, the stick
/// prediction instead. Not extrapolated from two steps: impulses of redundant contacts are not
/// unique, and an extrapolation would make their drift grow without bound. The nearest is looked
/// for among the pair's n remembered contacts sorted along x, outwards from the contact's x while
/// within the best distance so far: O(log n) plus that window's contacts, not n, per contact, and
/// the result of a scan of all n (the first in memory order among equally near ones).
/// Reads ws.contacts (built by build_problem, contact_problem.hpp) and State::warm; writes ws.r0.
void initial_impulses(const Model& m, const State& s, StepWorkspace& ws);

}  // namespace nscd
