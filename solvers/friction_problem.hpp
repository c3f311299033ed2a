#pragma once
/// @file
/// The three-dimensional frictional contact problem on (W, q, μ), exactly FCLIB's local problem
/// [Acary et al. 2018]: find u, r ∈ R^{3nc} with
///
///  (1) u = W r + q
///  (2) K*_μ ∋ û ⊥ r ∈ K_μ  per contact, û = u + μ‖u_T‖ e_n   (Signorini–Coulomb, [De Saxcé 1998])
///
/// with K_μ the Coulomb cone (conventions C5) and e_n = (1, 0, 0). The problem owns its data and
/// knows nothing of bodies.

#include "solvers/delassus.hpp"

#include <Eigen/Core>

namespace nscd::solvers {

/// How the error measure (solvers/error_measure.hpp) weighs a contact's impulse against its
/// velocity: as they are (Siconos's fc3d_compute_error, the convention of FCLIB problems), or with
/// the impulse turned into the velocity it gives the contact alone, s_i r_i with s_i = tr(W_ii)/3
/// (the problems of a scene's steps, whose impulses and velocities have units).
enum class ErrorScaling { Siconos, Velocity };

/// Local frictional contact problem, FCLIB-compatible.
struct FrictionProblem {
  DelassusMatrix W;    // (3nc × 3nc)
  Eigen::VectorXd q;   // (3nc), free local velocity (+ restitution terms) [m/s]
  Eigen::VectorXd mu;  // (nc), friction coefficients
  ErrorScaling error_scaling = ErrorScaling::Siconos;
  int nc() const { return W.nc(); }
};

}  // namespace nscd::solvers
