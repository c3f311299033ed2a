#pragma once
/// @file
/// The energy balance of a run, step by step (docs/method.md, "Energy balance"): where the
/// mechanical energy E = E_kin + E_grav + E_el went.
///
/// Over a step of the θ = 1/2 Moreau–Jean scheme a contact impulse r (contact frame, on body b)
/// works on the relative velocity u at the mid-step value
///   W_i = r_i · (u_i⁻ + u_i⁺) / 2,                                                   (1)
/// since for a rigid body ΔE_kin = (V⁻ + V⁺)/2 · M (V⁺ − V⁻) = (V⁻ + V⁺)/2 · (h f + H r) exactly
/// in translation for the Moreau–Jean scheme [Jean 1999] (docs/method.md, eqs. (1) and (4) of
/// the rigid body, with h (v⁻ + v⁺)/2 = x⁺ − x⁻). Its normal part is the
/// energy the impacts dissipate, its tangential part the energy friction dissipates:
///   D_impacts  = −Σ r_n (u_n⁻ + u_n⁺)/2,   D_friction = −Σ r_t · (u_t⁻ + u_t⁺)/2.        (2)
/// The rolling torque impulses m of rolling_resistance.hpp (on body b, −m on body a) work alike
/// on the angular velocities, and D_friction, sliding and rolling friction, also has
///   −Σ m · ((ω_b⁻ + ω_b⁺) − (ω_a⁻ + ω_a⁺))/2,                                            (2')
/// exact for a sphere, whose world inertia does not turn (the other side: as rotations below).
/// A driven side k of a contact (velocity prescribed, no mass) does the work
///   W_driven = −Σ r · G_k (V_k⁻ + V_k⁺)/2   (and −Σ σ_k m · (ω_k⁻ + ω_k⁺)/2, σ_a = −1, σ_b = 1), (3)
/// G_k its block of the contact Jacobian (contact_jacobian.hpp eq. (2)), so that the bodies
/// with mass receive r·u − Σ_k r·G_k V_k. Rayleigh damping C = α M + β K dissipates
///   D_damping = h λ_mid · C λ_mid,  λ_mid = (λ⁻ + λ⁺)/2                                (4)
/// (FFR and linear bodies; TL bodies: h λ_mid · d(ψ⁺, λ_mid) of tl_body.hpp eq. (1)). Gravity
/// works h m g · (v⁻ + v⁺)/2; what the gravitational energy changes beyond that is the work of
/// the position projection (position_projection.hpp), which moves bodies without velocity:
///   W_projection = ΔE_grav + Σ h m g · (v⁻ + v⁺)/2.                                   (5)
/// Applied loads (loads.hpp eq. (2): F_θ, M_θ and a body acceleration a_θ) do the work
///   W_loads = Σ h ((F_θ + m a_θ) · (v⁻ + v⁺)/2 + M_θ · (ω⁻ + ω⁺)/2).                   (7)
/// The balance error, zero for an exact balance:
///   ε = E_kin + E_grav + E_el − E₀ − W_driven − W_loads − W_projection + D_friction + D_impacts
///       + D_damping.                                                                     (6)
/// Not exact: rotations (the θ-method on ω with the gyroscopic term of rigid_dynamics.hpp),
/// θ ≠ 1/2, the modes of FFR bodies integrated with θ = 1 (ffr_body.hpp eq. R3), and the solver's
/// stopping tolerance.

#include "nscd/step/active_contacts.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"

#include <vector>

namespace nscd {

/// The energies of the current state [J] and the flows since the start of the run [J].
struct EnergyBalance {
  double kinetic = 0, gravitational = 0, elastic = 0;  // of the current state
  double initial = 0;                                  // E₀, the total at t = 0
  double friction = 0, impacts = 0, damping = 0;       // dissipated, eqs. (2), (4)
  double driven_work = 0, load_work = 0, projection_work = 0;  // done on the bodies, eqs. (3), (7), (5)

  /// Eq. (6).
  double error() const;
};

/// The velocities at the start of a step that eqs. (3)–(5) need.
struct StepStartVelocities {
  std::vector<Vec3> v, w;
  std::vector<Eigen::VectorXd> lambda, tl_lambda;
};

/// The balance of a run at its start, state s: E₀ = E(s), no flows.
EnergyBalance start_energy_balance(const Model& m, const State& s);

StepStartVelocities step_start_velocities(const State& s);

/// Adds the step from `start` to the committed state s, whose contact problem and solution are
/// `contacts`, to e: eqs. (2)–(5) and the energies of s.
void add_step(EnergyBalance& e, const Model& m, const StepStartVelocities& start, const State& s,
              const StepContacts& contacts);

}  // namespace nscd
