#pragma once
/// @file
/// A cold-start guess for the frictional contact problem (W, q, μ): the impulses that stop every
/// contact,
///
///  (1) r_stick = argmin ‖r‖  subject to  W r + q = 0,
///
/// computed by Tikhonov regularisation, (W + ε I) r = −q with ε = 1e-12 · mean(diag W), through a
/// sparse LDLᵀ factorisation (Eigen SimplicialLDLT), then projected contact by contact on the
/// Coulomb cones:
///
///  (2) r₀,i = P_{K_μi}(r_stick,i).
///
/// Where every contact sticks (a structure at rest, the common case of masonry) r₀ is the exact
/// solution, and among the equivalent solutions of redundant contacts (the four corners of a
/// face–face contact) it is the least-norm one, which spreads the load evenly. Gauss–Seidel
/// alone converges very slowly on such problems: the rocking modes of a tall stack give W tiny
/// eigenvalues [Acary, Brémond & Huber 2018], and its ordering spreads the load unevenly.
///
/// Reference: [Acary, Brémond, Huber 2018] On solving contact problems with Coulomb friction:
///            formulations and numerical comparisons, Advanced Topics in Nonsmooth Dynamics.

#include "solvers/friction_problem.hpp"

#include <Eigen/Core>

namespace nscd::solvers {

/// Eq. (1)–(2). Returns zeros if the factorisation fails (it cannot for a positive
/// semi-definite W, the Delassus operator of a mechanical system).
Eigen::VectorXd stick_prediction(const FrictionProblem& p);

}  // namespace nscd::solvers
