#pragma once
/// @file
/// Contact Jacobians and the Delassus operator of rigid bodies [Jean 1999; Acary & Brogliato
/// 2008, §10]. For contact α at point p between bodies a and b with frame R_WC (conventions C1):
///
///  (1) u_α = G_αb [v_b; ω_b] + G_αa [v_a; ω_a]        (u in the contact frame, C3)
///  (2) G_αb = R_WCᵀ [I | −[p − x_b]×],   G_αa = −R_WCᵀ [I | −[p − x_a]×]     (3 × 6)
///  (3) Y_αb = M̂_b⁻¹ G_αbᵀ                                                    (6 × 3)
///  (4) W_αβ = Σ_b G_αb Y_βb      (sum over the movable bodies shared by α and β)
///
/// Fixed and driven bodies have no degrees of freedom: their blocks are absent from W and
/// their prescribed velocity enters u through eq. (1) only.
///
/// An FFR body [Lozovskiy & Dubois 2016, eq. 21–22] adds its deformation to eq. (1),
///  (5) u_α += σ C_αᵀ O H̄_α λ        (σ = +1 on body b, −1 on body a),
/// with the lever arm p − x of eq. (2) replaced by O X_α (its material point, undeformed), and
/// since A₊ is block-diagonal, W gains for two contacts α, β on the same FFR body
///  (6) W_αβ += σ_α σ_β C_αᵀ O H̄_α A₊⁻¹ H̄_βᵀ Oᵀ C_β,
/// supplied by the caller for each pair of deformable sides (DeformableBlock). The impulses r
/// change the velocities of the rigid frames by
///  (7) Δ[v; ω]_b = Σ_α Y_αb r_α.
///
/// References: [Jean 1999] CMAME 177; [Acary & Brogliato 2008] Numerical Methods for Nonsmooth
///             Dynamical Systems, Springer; [Lozovskiy & Dubois 2016] Eur. J. Mech. A/Solids 58.

#include "contact/detection.hpp"
#include "nscd/core/math.hpp"
#include "solvers/delassus.hpp"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace nscd {

using Mat36 = Eigen::Matrix<double, 3, 6>;
using Mat63 = Eigen::Matrix<double, 6, 3>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

/// The two body blocks of one contact; side 0 is body a, side 1 body b.
struct ContactJacobian {
  int body[2] = {0, 0};
  bool movable[2] = {false, false};
  Mat36 G[2];   // eq. (2)
  Mat63 Y[2];   // eq. (3), zero for non-movable sides
  int point[2] = {-1, -1};  // sides on FFR bodies: the caller's index of their material point
};

/// Eq. (2) for contact `c` with lever arms r_a, r_b from the bodies' centres to the point.
void fill_jacobian(const contact::ContactPoint& c, const Vec3& r_a, const Vec3& r_b, ContactJacobian& J);

/// Eq. (6) for the material points of two deformable sides (ContactJacobian::point).
using DeformableBlock = std::function<Eigen::Matrix3d(int point_i, int point_j)>;

/// The generalised velocity [v; ω] of a body, as eq. (1) takes it.
inline Vec6 body_velocity(const Vec3& v, const Vec3& w) {
  Vec6 V;
  V << v, w;
  return V;
}

/// Eq. (1).
inline Eigen::Vector3d contact_velocity(const ContactJacobian& J, const Vec6& V_a, const Vec6& V_b) {
  return J.G[0] * V_a + J.G[1] * V_b;
}

/// Eq. (7) for the contacts `jacobians` on bodies [0, nb) and their impulses r (3 per contact),
/// summed in contact order (deterministic); zero for bodies without a movable side.
std::vector<Vec6> body_velocity_changes(const std::vector<ContactJacobian>& jacobians, int nb, const Eigen::VectorXd& r);

/// Eq. (4) for the contacts `jacobians`, whose bodies range over [0, nb): each block W_αβ with
/// α < β is computed once, by merging the contact lists of α's two bodies, and W_βα = W_αβᵀ is
/// stored exactly (off-diagonal symmetry is exact). Deterministic whatever the thread count: each
/// block sums its bodies' terms in the order (body a of α, body b of α).
/// Adds eq. (6) where both sides on a shared body are deformable; `deformable` may be empty when
/// no side is. It is called concurrently and must be thread-safe.
solvers::DelassusMatrix assemble_delassus(const std::vector<ContactJacobian>& jacobians, int nb,
                                          const DeformableBlock& deformable = {});

}  // namespace nscd
