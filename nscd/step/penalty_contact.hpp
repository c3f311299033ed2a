#pragma once
/// @file
/// Penalty contact: the comparison model that replaces the non-smooth law of stage 5
/// (contact_solve.hpp) when a scene asks for it (docs/scene_format.md, Contact). No solver: each
/// contact's impulse follows from its own gap and velocity at the start of the step, like the
/// compliant models of multibody codes [Yu 2021, §3.2; Refachinho de Campos 2018, §3.4], so that users can see
/// what the exact law buys: the step each needs, the penetration, the energy drift.
///
/// A joint J (joints.hpp) of stiffness k_n and damping c_n shares them among its contacts by
/// their tributary areas, w_i = A_i / A (w_i = 1/|J| for a joint without area), so that a block
/// resting on a face carries m g with a penetration m g / k_n however many corners it has:
///  (1) g̃_i = g_i + (1 − θ) h u_n,i⁻,
///  (2) f_n,i = max(0, −w_i k_n g̃_i − w_i c_n u_n,i⁻)  where g̃_i < 0, else 0,
///  (3) f_t,i = −μ f_n,i u_t,i⁻ / max(‖u_t,i⁻‖, v_ε)   (Coulomb, regularised below v_ε),
///  (4) r_i = h (f_n,i, f_t,i)  in the contact frame (n, t1, t2),
/// with g_i the gap and u_i⁻ the relative velocity at the start of the step. The gap of eq. (1)
/// is taken (1 − θ) h ahead so that, with the θ-method's positions x⁺ = x⁻ + h (θ v⁺ + (1 − θ) v⁻),
/// an undamped spring keeps its energy (the update matrix has determinant 1 for any θ): the
/// scheme is the Störmer–Verlet one for θ = 1/2 and symplectic Euler for θ = 1.
///
/// Stability: a mass m on a spring k_n, ω² = k_n / m, damping ratio ζ = c_n / (2 √(k_n m)), is
/// stable for [Belytschko, Liu & Moran 2000, ch. 6, central differences with damping]
///  (5) h ≤ h_crit = (2 / ω) (√(1 + ζ²) − ζ).
/// A body pressed by several joints, or between two light bodies, has a higher ω: eq. (5) with
/// the lightest body's mass is a necessary condition, not a sufficient one.
/// Friction, eq. (3), creeps at about v_ε tan α / μ on a slope of angle α below the friction
/// angle, and chatters unless v_ε > h μ |g| / 2 for a body resting under gravity.
///
/// References: [Yu 2021] Contact modelling in multibody applications, Acta Univ. Lappeenrantaensis
/// 976; [Refachinho de Campos 2018] A rigid body and a master-master contact formulation for
/// multibody railway applications, MSc dissertation, Univ. São Paulo; [Belytschko, Liu & Moran
/// 2000] Nonlinear finite elements for continua and structures, Wiley.

#include "nscd/step/model.hpp"
#include "nscd/step/step_workspace.hpp"

namespace nscd {

/// h_crit of eq. (5) for a body of mass m [kg] on one joint of `law`.
double penalty_stable_step(const PenaltyLaw& law, double mass);

/// Eqs. (1)–(4) for the active contacts of ws.contacts, into ws.contacts.solution: r, and
/// u = W r + q as every solver returns it (the end-of-step velocity is u less q's shift,
/// contact_problem.hpp); 0 iterations, Converged.
void penalty_impulses(const Model& m, StepWorkspace& ws);

}  // namespace nscd
