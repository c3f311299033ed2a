#pragma once
/// @file
/// Moreau–Jean θ-method for one rigid body between contacts [Jean 1999], with the rotational
/// equation written for the world angular momentum, as eq. (16) of [Lozovskiy & Dubois 2016]:
///
///  (1) m (v⁺ − v⁻) = h m (g + a_θ) + h F_θ + Σ_α R_α      (impulses R_α, world)
///  (2) J_W⁺ ω⁺ − J_W⁻ ω⁻ = h M_θ + Σ_α (p_α − x) × R_α,   J_W = R J_B Rᵀ
///  (3) R⁺ = exp([h ω_θ]×) R⁻,   ω_θ = θ ω⁺ + (1 − θ) ω⁻     (exponential map)
///  (4) x⁺ = x⁻ + h (θ v⁺ + (1 − θ) v⁻)
///
/// with F_θ, M_θ, a_θ the θ-averages of the applied force, moment and body acceleration over the
/// step (loads.hpp, eq. 2).
/// Eq. (2) contains the gyroscopic term exactly: d(J_W ω)/dt = τ is Euler's equation in the
/// world frame. Without impulses, (2)–(3) conserve the world angular momentum exactly and, for
/// θ = 1/2, form a symmetric scheme whose kinetic energy has bounded error O((h ω)²) and no
/// drift (without applied moment). The implicit free solution (impulses zero) is found by a fixed point on ω⁺, which
/// contracts with factor about θ h ‖ω‖. With impulses the end-of-step orientation R⁺ is frozen
/// at its free prediction R̃, so the velocity is affine in the impulses (the "Rotator" of
/// [Lozovskiy & Dubois 2016] Algorithm 1, with one outer pass):
///
///  (5) v⁺ = v_free + M̂⁻¹ Σ_α Gᵀ_α r_α,   M̂⁻¹ = diag(I/m, R̃ J_B⁻¹ R̃ᵀ)
///
/// References: [Jean 1999] The non-smooth contact dynamics method, CMAME 177.
///             [Lozovskiy & Dubois 2016] The method of a floating frame of reference for
///             non-smooth contact dynamics, Eur. J. Mech. A/Solids 58.

#include "nscd/core/math.hpp"
#include "nscd/step/loads.hpp"

namespace nscd {

/// Velocities at the end of a step without impulses, and the inverse mass operator of eq. (5).
struct FreeMotion {
  Vec3 v = Vec3::Zero();         // v_free [m/s]
  Vec3 w = Vec3::Zero();         // ω_free, world [rad/s]
  Mat3 inv_inertia_W = Mat3::Zero();  // R̃ J_B⁻¹ R̃ᵀ
  int iterations = 0;            // fixed-point iterations on eq. (2)
};

/// Solves eqs. (1)–(3) without impulses for a body of mass m and body-frame inertia J_B (and its
/// inverse) at orientation q_WB with velocities v, ω (world), under gravity g and the applied
/// F_θ, M_θ, a_θ of `load` (world); h is the step [s].
FreeMotion free_motion(double mass, const Mat3& inertia_B, const Mat3& inv_inertia_B, const Quat& q_WB,
                       const Vec3& v, const Vec3& w, const Vec3& gravity, const BodyLoad& load, double h,
                       double theta);

/// Advances a pose by eqs. (3)–(4) from the velocities at both ends of the step.
void integrate_pose(Vec3& x, Quat& q_WB, const Vec3& v_old, const Vec3& w_old, const Vec3& v_new,
                    const Vec3& w_new, double h, double theta);

/// Advances an orientation by eq. (3) alone.
void integrate_orientation(Quat& q_WB, const Vec3& w_old, const Vec3& w_new, double h, double theta);

/// Kinetic energy ½ m ‖v‖² + ½ ωᵀ J_W ω [J].
double kinetic_energy(double mass, const Mat3& inertia_B, const Quat& q_WB, const Vec3& v, const Vec3& w);

}  // namespace nscd
