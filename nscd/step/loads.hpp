#pragma once
/// @file
/// Applied loads on rigid bodies (docs/scene_format.md, Loads). A load l acts on a set of bodies
/// with a force F_l [N] and a moment M_l [N m] (world, the force at the centre of mass), and a body
/// acceleration a_l [m/s²] that acts on body b as the force m_b a_l, like an extra gravity; all
/// three are scaled by the load's time factor f_l(t). On body b:
///
///  (1) F_b(t) = Σ_{l ∋ b} f_l(t) (F_l + m_b a_l),   M_b(t) = Σ_{l ∋ b} f_l(t) M_l
///
/// The θ-method of rigid_dynamics.hpp [Jean 1999] takes their impulse over the step [t, t + h] as
///
///  (2) h F_θ = h (θ F_b(t + h) + (1 − θ) F_b(t)),   h M_θ = h (θ M_b(t + h) + (1 − θ) M_b(t))
///
/// Time factors, the value of a velocity table of driven_motion.hpp (eq. 3) along x:
///  - constant: f = 1;
///  - ramp:     f = 0 before t₀, (t − t₀)/(t₁ − t₀) on [t₀, t₁], 1 after t₁ (the table (t₀, 0), (t₁, 1));
///  - table:    samples (t_k, f_k), linear between them, f₀ before t₀ and f_n after t_n.
///
/// The work of the loads over a step is h (F_θ · v_θ + M_θ · ω_θ), v_θ = θ v⁺ + (1 − θ) v⁻.
///
/// Reference: [Jean 1999] The non-smooth contact dynamics method, CMAME 177.

#include "nscd/core/math.hpp"
#include "nscd/step/driven_motion.hpp"

#include <vector>

namespace nscd {

/// One load of eq. (1).
struct LoadModel {
  std::vector<int> bodies;            // indices of rigid bodies, increasing
  Vec3 force = Vec3::Zero();          // F_l, world [N]
  Vec3 moment = Vec3::Zero();         // M_l, world [N m]
  Vec3 acceleration = Vec3::Zero();   // a_l, world [m/s²]
  DrivenMotion factor = DrivenMotion::constant(Vec3::UnitX());  // f_l(t) = factor.velocity(t).x()
};

/// A force at the centre of mass and a moment, world [N], [N m].
struct BodyLoad {
  Vec3 force = Vec3::Zero();
  Vec3 moment = Vec3::Zero();
};

struct Model;

/// The time factor f_l(t).
double load_factor(const LoadModel& load, double t);

/// F_b(t), M_b(t) of eq. (1).
BodyLoad body_load(const Model& m, int b, double t);

/// F_θ, M_θ of eq. (2) for the step from t (Model::step's h and θ).
BodyLoad step_load(const Model& m, int b, double t);

}  // namespace nscd
