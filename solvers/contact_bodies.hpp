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
/// A body whose deformation has k modal coordinates (an FFR body with modal reduction,
/// nscd/step/ffr_coupling.hpp) has k more unknowns, its deformation velocity z_b, after the 6 of
/// every frame; a side on it adds, with T_is = H̄_αᵀ OtC_α and U_is = Z_α OtC_α (k × 3, the
/// point α's rows and response turned to the contact frame, orient_modal_points of ffr_coupling.hpp):
///
///  (5) z_b = Σ_{(i,s) on b} U_is r_i
///  (6) (W r + q)_i += Σ_s T_isᵀ z_b(i,s)
///  (7) W_ii += Σ_s T_isᵀ U_is
///
/// so W's blocks T_pᵀ U_q between two points of one body ([Lozovskiy & Dubois 2016] eq. (6) of
/// contact_jacobian.hpp: 9 k products each, for every pair of points on the body) are not formed.
/// Sides on bodies without unknowns (fixed, driven) are left out. Gauss–Seidel in this form
/// (nlgs_bodies.hpp, the position projection of nscd's step) updates Δv after each contact
/// instead of reading W's block row: O(1) work per contact, where W holds a block for every pair
/// of contacts that share a body [Tasora & Anitescu 2011; Bullet's and LMGC90's solvers].
///
/// References: [Jean 1999] CMAME 177; [Tasora & Anitescu 2011] A matrix-free cone complementarity
///             approach for solving large-scale, nonsmooth, rigid body dynamics, CMAME 200;
///             [Lozovskiy & Dubois 2016] Eur. J. Mech. A/Solids 58.

#include "solvers/body_coupling.hpp"
#include "solvers/friction_problem.hpp"
#include "solvers/modal_columns.hpp"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace nscd::solvers {

/// One contact's sides, eq. (1), and on a modal body eqs. (5)–(6).
struct ContactSides {
  int body[2] = {-1, -1};            // the body of each side, −1 for a side without unknowns
  Eigen::Matrix<double, 3, 6> G[2];  // H's blocks
  Eigen::Matrix<double, 6, 3> Y[2];  // eq. (1)
  int modal[2] = {-1, -1};           // a side on a modal body: the index of z_b's first unknown, else −1
  int column[2] = {0, 0};            // and of T_is's first column in ContactBodies::modal_rows (U_is's: + 3)
  int modes[2] = {0, 0};             // and k, z_b's size
};

/// The contacts of a problem on n_bodies bodies of 6 unknowns each, followed by n_modal modal
/// unknowns.
struct ContactBodies {
  int n_bodies = 0;
  int n_modal = 0;
  std::vector<ContactSides> contacts;
  Eigen::MatrixXd modal_rows;  // T_is and U_is of the sides on modal bodies, in their first k rows
  int nc() const { return static_cast<int>(contacts.size()); }
  Eigen::Index unknowns() const { return 6 * static_cast<Eigen::Index>(n_bodies) + n_modal; }
};

/// T_isᵀ z_b of eq. (6) for side s of contact c of b, a side on a modal body, whose z_b is in the
/// unknowns dv.
inline Eigen::Vector3d modal_velocity(const ContactBodies& b, const ContactSides& c, int s, const double* dv) {
  const Eigen::Index ld = b.modal_rows.rows();
  return transposed_times(b.modal_rows.data() + c.column[s] * ld, dv + c.modal[s], c.modes[s], ld);
}

/// z_b += U_is x, eq. (5)'s term of side s of contact c for the impulse x, into the unknowns dv.
inline void add_modal_change(const ContactBodies& b, const ContactSides& c, int s, const Eigen::Vector3d& x,
                             double* dv) {
  const Eigen::Index ld = b.modal_rows.rows();
  add_product(b.modal_rows.data() + (c.column[s] + 3) * ld, x, c.modes[s], ld, dv + c.modal[s]);
}

/// Eqs. (4) and (7) for contact i of b.
Eigen::Matrix3d diagonal_block(const ContactBodies& b, int i);

/// Eqs. (2) and (5) into dv (b.unknowns()), summed in contact order.
void body_velocity_change(const ContactBodies& b, const Eigen::VectorXd& r, Eigen::VectorXd& dv);

/// Eqs. (3) and (6) into u (3nc) for the velocity change dv, in parallel over fixed blocks of contacts.
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
