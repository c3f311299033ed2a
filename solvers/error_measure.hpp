#pragma once
/// @file
/// The solver-independent error of a frictional contact solution. With s_i = 1 it is Siconos's
/// fc3d_compute_error (the measure of `nscd solve` on FCLIB files, docs/commands.md):
///
///  (1) u = W r + q,   r̃_i = s_i r_i
///  (2) e_i = r̃_i − P_{K_μi}(r̃_i − (u_i + μ_i ‖u_Ti‖ e_n))
///  (3) error = sqrt(Σ_i ‖e_i‖²) / max(‖q‖, ‖r̃‖, ‖u‖)   (denominator replaced by 1 if it is 0)
///
/// Siconos's measure adds impulses to velocities, so its meaning depends on the units: for blocks
/// of a tonne, ‖r‖ [N s] dwarfs ‖q‖ [m/s], and a tolerance of 1e-5 lets the contacts keep a
/// velocity of 1e-5 ‖r‖, enough for the arch of scenes/arch.json to creep 1.5 mm in 2 s. The
/// problems of a scene's steps (ErrorScaling::Velocity) therefore measure each impulse by the
/// velocity it gives its contact alone, s_i = tr(W_ii)/3: e and the denominator are velocities,
/// and the error is Siconos's for the same problem in the impulses r̃ = S r (S = diag(s_i), u =
/// W S⁻¹ r̃ + q; the cones are invariant under S), whatever the units and masses.
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

/// s_i of eq. (1): 1 for ErrorScaling::Siconos, tr(W_ii)/3 for ErrorScaling::Velocity.
double impulse_scale(const FrictionProblem& p, int i);

/// ‖r̃‖ of eq. (3), (Σ_i s_i² ‖r_i‖²)^½ (‖r‖ itself for ErrorScaling::Siconos).
double scaled_impulse_norm(const FrictionProblem& p, const Eigen::VectorXd& r);

/// The denominator of eq. (3), max(‖q‖, ‖r̃‖, ‖u‖), or 1 where that is 0.
double error_denominator(const FrictionProblem& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u);

/// Error of eq. (3) given r and u = W r + q (u is not recomputed).
double error_measure(const FrictionProblem& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u);

}  // namespace nscd::solvers
