#pragma once
/// @file
/// The solver-independent error of a frictional contact solution, identical to Siconos's
/// fc3d_compute_error (the measure of `nscd solve`, docs/commands.md):
///
///  (1) u = W r + q
///  (2) e_i = r_i − P_{K_μi}(r_i − (u_i + μ_i ‖u_Ti‖ e_n))
///  (3) error = sqrt(Σ_i ‖e_i‖²) / max(‖q‖, ‖r‖, ‖u‖)   (denominator replaced by 1 if it is 0)
///
/// and the projection on the Coulomb cone used by every solver:
///
///  (4) P_K(x) = 0                                  if μ‖x_T‖ ≤ −x_n   (tested first, as Siconos)
///             = x                                  else if ‖x_T‖ ≤ μ x_n
///             = (μ‖x_T‖ + x_n)/(μ² + 1) (1, μ x_T/‖x_T‖)   otherwise.

#include "solvers/friction_problem.hpp"

#include <Eigen/Core>

namespace nscd::solvers {

/// Projects x = (x_n, x_t1, x_t2) on the cone K_μ, eq. (4).
Eigen::Vector3d project_on_cone(const Eigen::Vector3d& x, double mu);

/// Error of eq. (3) given r and u = W r + q (u is not recomputed).
double error_measure(const FrictionProblem& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u);

}  // namespace nscd::solvers
