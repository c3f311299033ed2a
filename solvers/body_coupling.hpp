#pragma once
/// @file
/// The contact problem of rigid bodies in body coordinates, beside its local form (W, q, μ) of
/// friction_problem.hpp: the velocity change Δv of the bodies and the contact velocities
///
///  (1) M̂ Δv = Hᵀ r,    u = H Δv + q,    hence W = H M̂⁻¹ Hᵀ  (delassus.hpp eq. (2))
///
/// with M̂ = blockdiag(M̂_b) the iteration matrix of the bodies (6 × 6 each: m I and the world
/// inertia, [Jean 1999]) and the block row of contact i made of its 3 × 6 blocks G_i,side on the
/// bodies body[side] (contact_jacobian.hpp eq. (2)); a fixed or driven side has no unknowns
/// (body −1). Solvers working on Δv (velocity_prox.hpp) factorise matrices of the size of the
/// bodies' unknowns, 6 per body, where W has 3 rows per contact and fills in with redundant
/// contacts.
///
/// References: [Jean 1999] The non-smooth contact dynamics method, CMAME 177.

#include <Eigen/Core>

#include <array>
#include <vector>

namespace nscd::solvers {

using Matrix36 = Eigen::Matrix<double, 3, 6>;
using Matrix66 = Eigen::Matrix<double, 6, 6>;

/// Eq. (1) for nc contacts over mass.size() bodies.
struct BodyCoupling {
  std::vector<Matrix66> mass;                   // M̂_b, symmetric positive definite, per body
  std::vector<std::array<int, 2>> body;         // per contact: the body of each side, −1 without unknowns
  std::vector<std::array<Matrix36, 2>> G;       // per contact: the blocks of each side
  int nc() const { return static_cast<int>(body.size()); }
};

}  // namespace nscd::solvers
