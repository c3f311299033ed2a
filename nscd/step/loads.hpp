#pragma once
/// @file
/// Applied loads (docs/scene_format.md, Loads). A load l acts on a set of bodies with a force F_l
/// [N] and a moment M_l [N m] (world, the force at the centre of mass), and a body acceleration
/// a_l [m/s²] that acts on body b as the force m_b a_l, like an extra gravity; all three are
/// scaled by the load's time factor f_l(t). On body b:
///
///  (1) F_b(t) = Σ_{l ∋ b} f_l(t) F_l,   M_b(t) = Σ_{l ∋ b} f_l(t) M_l,   a_b(t) = Σ_{l ∋ b} f_l(t) a_l
///
/// and the total force at the centre of mass is F_b + m_b a_b. Forces and moments act on rigid
/// bodies only; a body acceleration also acts on finite-element bodies, added to gravity g
/// wherever it enters them (the FFR translation, the TL and linear bodies' F_g).
///
/// The θ-method of rigid_dynamics.hpp [Jean 1999] takes their impulse over the step [t, t + h] as
///
///  (2) h F_θ = h (θ F_b(t + h) + (1 − θ) F_b(t)), and the same for M_θ and a_θ
///
/// Time factors, the value of a velocity table of driven_motion.hpp (eq. 3) along x:
///  - constant: f = 1;
///  - ramp:     f = 0 before t₀, (t − t₀)/(t₁ − t₀) on [t₀, t₁], 1 after t₁ (the table (t₀, 0), (t₁, 1));
///  - table:    samples (t_k, f_k), linear between them, f₀ before t₀ and f_n after t_n.
///
/// The work of the loads on a rigid body over a step is h ((F_θ + m a_θ) · v_θ + M_θ · ω_θ),
/// v_θ = θ v⁺ + (1 − θ) v⁻, ω_θ likewise.
///
/// Reference: [Jean 1999] The non-smooth contact dynamics method, CMAME 177.

#include "nscd/core/math.hpp"
#include "nscd/step/driven_motion.hpp"

#include <vector>

namespace nscd {

/// One load of eq. (1).
struct LoadModel {
  std::vector<int> bodies;            // indices, increasing: rigid bodies; finite-element ones if F = M = 0
  Vec3 force = Vec3::Zero();          // F_l, world [N]
  Vec3 moment = Vec3::Zero();         // M_l, world [N m]
  Vec3 acceleration = Vec3::Zero();   // a_l, world [m/s²]
  DrivenMotion factor = DrivenMotion::constant(Vec3::UnitX());  // f_l(t) = factor.velocity(t).x()
};

/// The loads of eq. (1) on one body, world.
struct BodyLoad {
  Vec3 force = Vec3::Zero();         // F_b at the centre of mass [N]
  Vec3 moment = Vec3::Zero();        // M_b [N m]
  Vec3 acceleration = Vec3::Zero();  // a_b [m/s²]
};

struct Model;

/// The time factor f_l(t).
double load_factor(const LoadModel& load, double t);

/// F_b(t), M_b(t), a_b(t) of eq. (1).
BodyLoad body_load(const Model& m, int b, double t);

/// F_θ, M_θ, a_θ of eq. (2) for the step from t (Model::step's h and θ).
BodyLoad step_load(const Model& m, int b, double t);

/// g + a_θ for the step from t: the acceleration field of a finite-element body b (g itself,
/// bit for bit, when no load accelerates b).
Vec3 step_gravity(const Model& m, int b, double t);

}  // namespace nscd
