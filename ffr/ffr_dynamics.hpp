#pragma once
/// @file
/// One time step of an FFR body [Lozovskiy & Dubois 2016, §3.1] given the contact impulses
/// P_α (world frame, impulse = h × force) at the material points X_α (body frame), with F_ext
/// homogeneous gravity g (so F_e = 0 in eq. 19):
///
///  (15) v_{i+1} = v_i + h g + (1/m) Σ_α P_α
///  (16) J_{i+1} ω_{i+1} = J_i ω_i + Σ_α (O_{i+1} X_α) × P_α,    J = O J_B Oᵀ
///  (24) O_{i+1} = (I − h/2 Q_{i+1})⁻¹ (I + h/2 Q_i) O_i,        Q = [ω]×
///  (19) A₊ λ_{i+1} = A₋ λ_i − h K ψ_i + h 𝐀 + 𝔸 (O_iᵀ ω_i − O_{i+1}ᵀ ω_{i+1})
///                    + Σ_α H̄_αᵀ O_{i+1}ᵀ P_α
///       x_{i+1} = x_i + h/2 (v_i + v_{i+1}),   ψ_{i+1} = ψ_i + h/2 (λ_i + λ_{i+1})
///
/// (for a modal body whose unresolved modes take θ_j = 1, ψ_{i+1} by eq. (R3) of ffr_body.hpp)
///
/// (16) and (24) couple ω_{i+1} and O_{i+1}: the "Rotator" of Algorithm 1 solves them by a fixed
/// point on ω_{i+1}, which contracts with a factor of about h ‖ω‖. The rigid part does not
/// depend on λ (the paper's zeroth-order angular momentum, eq. 13), so λ_{i+1} follows once ω_{i+1}
/// and O_{i+1} are known. Without impulses the rigid motion is that of a rigid body, whatever
/// the deformation. O_{i+1} of eq. (24) is orthogonal up to O(h² ‖ω_{i+1} − ω_i‖ ‖ω‖); the
/// caller stores it as a unit quaternion, which re-orthonormalises it every step.
///
/// References: [Lozovskiy & Dubois 2016] Eur. J. Mech. A/Solids 58, eqs. (15)–(24), Algorithm 1.

#include "ffr/ffr_body.hpp"

#include <span>

namespace nscd::ffr {

/// Eq. (24).
Mat3 cayley_rotation(const Mat3& O_i, const Vec3& w_i, const Vec3& w_next, double h);

/// End-of-step rotation of the Rotator: ω_{i+1} and O_{i+1} of eqs. (16) and (24).
struct Rotation {
  Mat3 O = Mat3::Identity();
  Vec3 w = Vec3::Zero();
  int iterations = 0;   // fixed-point iterations done
  bool converged = true;
};

/// Solves eqs. (16) and (24) by a fixed point on ω_{i+1} from the guess start.w, for the world
/// angular momentum L_i = J_i ω_i and the impulses P_W at the material points X_B, until
/// ‖Δω‖ ≤ tolerance · max(‖ω‖, ‖ω_i‖) (or ‖Δω‖ ≤ tolerance when both are below 1 rad/s).
Rotation rotate(const FfrBody& body, const Mat3& O_i, const Vec3& w_i, const Vec3& L_i, std::span<const Vec3> X_B,
                std::span<const Vec3> P_W, const Rotation& start, double tolerance, int max_iterations);

/// ψ_{i+1} of eq. (19) (the trapezoidal rule), or of eq. (R3) of ffr_body.hpp where body.theta is set.
Eigen::VectorXd next_deformation(const FfrBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda,
                                 const Eigen::VectorXd& lambda_next);

/// A₊⁻¹ (A₋ λ_i − h K ψ_i): the part of λ_{i+1} in eq. (19) known at the start of the step.
Eigen::VectorXd deformation_base(const FfrBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda);

/// Adds A₊⁻¹ (h 𝐀 + 𝔸 (O_iᵀ ω_i − O_{i+1}ᵀ ω_{i+1})) to lambda: the fictitious forces of eq. (18),
/// centrifugal by the trapezoidal rule, Euler by the mid-point rule.
void add_fictitious_response(const FfrBody& body, const Mat3& O_i, const Vec3& w_i, const Mat3& O_next,
                             const Vec3& w_next, Eigen::VectorXd& lambda);

}  // namespace nscd::ffr
