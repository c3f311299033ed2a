#pragma once
/// @file
/// When a solver of the family (solve.hpp) stops: after at least min_iterations and at most
/// max_iterations iterations in its own unit (NLGS sweeps, Newton iterations, APGD steps or PGS
/// sweeps, Lemke pivots), as soon as its stopping measure (error_measure.hpp eq. (3) for the
/// exact solvers, e_ccp or e_lcp for the relaxed ones, see each header) is at most tolerance:
///
///  (1) stop at iteration k  ⇔  k = max_iterations  or  (k ≥ min_iterations  and  e_k ≤ tolerance).
///
/// Every options struct holds one, with its solver's defaults; SolverOptions::stopping() gives that
/// of the solver chosen.

namespace nscd::solvers {

/// Eq. (1).
struct Stopping {
  double tolerance = 1e-6;  // on the solver's stopping measure, unitless
  int max_iterations = 1000;  // the budget, ≥ 0
  int min_iterations = 1;   // NLGS and auto's NLGS stage only: sweeps before the test may end the solve
                            // (at most max_iterations); the other solvers test from their first iteration
};

}  // namespace nscd::solvers
