#pragma once
/// @file
/// The body form of body_coupling.hpp, contact by contact, for a mass matrix M made of 6 × 6
/// blocks M_b (rigid bodies, [Jean 1999]): contact i acts on at most two bodies, its sides s,
/// through the 3 × 6 blocks G_is of H, and
///
///  (1) Y_is = M_b⁻¹ G_isᵀ                        (6 × 3, b the body of side s)
///  (2) Δv_b = Σ_{(i,s) on b} Y_is r_i            (the bodies' velocity change, M Δv = Hᵀ r)
///  (3) (W r + q)_i = q_i + Σ_s G_is Δv_b(i,s)    (W = H M⁻¹ Hᵀ never formed)
///  (4) W_ii = Σ_s G_is Y_is                      (body a's term first, as nscd's assembly)
///
/// Sides on bodies without unknowns (fixed, driven) are left out. Gauss–Seidel in this form
/// (nlgs_bodies.hpp, the position projection of nscd's step) updates Δv after each contact
/// instead of reading W's block row: O(1) work per contact, where W holds a block for every pair
/// of contacts that share a body [Tasora & Anitescu 2011; Bullet's and LMGC90's solvers].
///
/// References: [Jean 1999] CMAME 177; [Tasora & Anitescu 2011] A matrix-free cone complementarity
///             approach for solving large-scale, nonsmooth, rigid body dynamics, CMAME 200.

#include "solvers/body_coupling.hpp"
#include "solvers/friction_problem.hpp"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace nscd::solvers {

/// One contact's sides, eq. (1).
struct ContactSides {
  int body[2] = {-1, -1};            // the body of each side, −1 for a side without unknowns
  Eigen::Matrix<double, 3, 6> G[2];  // H's blocks
  Eigen::Matrix<double, 6, 3> Y[2];  // eq. (1)
};

/// The contacts of a problem on n_bodies bodies of 6 unknowns each.
struct ContactBodies {
  int n_bodies = 0;
  std::vector<ContactSides> contacts;
  int nc() const { return static_cast<int>(contacts.size()); }
};

/// Eq. (4).
Eigen::Matrix3d diagonal_block(const ContactSides& c);

/// Eq. (2) into dv (6 n_bodies), summed in contact order.
void body_velocity_change(const ContactBodies& b, const Eigen::VectorXd& r, Eigen::VectorXd& dv);

/// Eq. (3) into u (3nc) for the velocity change dv, in parallel over fixed blocks of contacts.
void contact_velocities(const ContactBodies& b, const Eigen::VectorXd& q, const Eigen::VectorXd& dv,
                        Eigen::VectorXd& u);

/// The contacts of the body form c, whose M must be block-diagonal with 6 × 6 blocks and whose
/// contacts each touch at most two of them (a global FCLIB problem of rigid bodies).
/// @throws nscd::InputError otherwise.
ContactBodies contact_bodies(const BodyCoupling& c);

/// A problem whose W may hold its diagonal blocks only, for the solvers that can work on the
/// body form (solve.hpp): the Gauss–Seidel sweeps of NLGS and of auto's NLGS stages use
/// `bodies`; a solver or stage that needs W whole calls `assembled`, which returns the problem
/// with W complete (the same q and μ), assembled on its first call.
struct DeferredDelassus {
  const ContactBodies* bodies = nullptr;
  std::function<const FrictionProblem&()> assembled;
};

}  // namespace nscd::solvers
