#pragma once
/// @file
/// The contact problem in body coordinates ("global" form), beside its local form (W, q, μ) of
/// friction_problem.hpp: the velocity change Δv of the bodies' unknowns and the contact velocities
///
///  (1) M Δv = Hᵀ r,    u = H Δv + q,    hence W = H M⁻¹ Hᵀ  (delassus.hpp eq. (2))
///
/// with M (n × n, symmetric positive definite) the iteration matrix of the bodies, 6 × 6 blocks
/// m I and the world inertia for rigid bodies [Jean 1999], and H (3nc × n) the contact Jacobian,
/// the block row of contact i made of its 3 × 6 blocks on its bodies (contact_jacobian.hpp eq.
/// (2)); fixed and driven bodies have no unknowns. FCLIB's global problem M v = H_F r + f,
/// u = H_Fᵀ v + w has this form with H = H_Fᵀ and q = H M⁻¹ f + w (nscd/io/fclib_file.hpp).
/// Solvers working on Δv (velocity_prox.hpp) factorise matrices of the size of the bodies'
/// unknowns, where W has 3 rows per contact and fills in with redundant contacts.
///
/// References: [Jean 1999] The non-smooth contact dynamics method, CMAME 177; [Acary, Brémond,
///             Koziara, Pérignon 2014] FCLIB, INRIA RT-0444.

#include <Eigen/SparseCore>

namespace nscd::solvers {

/// Eq. (1).
struct BodyCoupling {
  Eigen::SparseMatrix<double> M;  // n × n
  Eigen::SparseMatrix<double> H;  // 3nc × n
  int nc() const { return static_cast<int>(H.rows() / 3); }
};

}  // namespace nscd::solvers
