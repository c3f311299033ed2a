#pragma once
/// @file
/// The mechanical energy of a state.

#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"

namespace nscd {

/// Total kinetic energy [J] and potential energy [J].
/// Kinetic: rigid bodies ½ m |v|² + ½ ωᵀ J ω; TL and linear bodies ½ λᵀ M λ; FFR bodies the exact
///   T = ½ ∫ ρ |v + ω × O (X + ψ) + O λ|² dV
/// of the velocity of [Lozovskiy & Dubois 2016] eq. (8). The finite-element interpolation
/// X + ψ = Σ N_l (X_l + ψ_l), λ = Σ N_l λ_l with Σ N_l = 1 makes the body-frame velocity
/// Σ N_l u_l, so T = ½ uᵀ M u exactly, with M the consistent mass ∫ ρ Nᵀ N dV and
/// u_k = Oᵀ v + Oᵀ ω × (X_k + ψ_k) + λ_k. This needs no assumption on the frame, unlike Remark 2's
/// split ½ m |v|² + ½ ωᵀ J ω + ½ ∫ ρ |v_D|² dV, v_D = O (λ + Oᵀ ω × ψ) (eq. 9), which holds when
/// the deformation carries no momentum (eq. 4).
/// Potential: gravitational −Σ m g·x plus, for FFR and linear bodies, ½ ψᵀ K ψ, for TL bodies
/// the SVK strain energy.
double kinetic_energy(const Model& m, const State& s);
double potential_energy(const Model& m, const State& s);
/// The two parts of the potential energy: gravitational −Σ m g·x, and elastic (FFR, TL, linear
/// bodies; body_elastic_energy for body b, 0 for bodies without a mesh).
double gravitational_energy(const Model& m, const State& s);
double elastic_energy(const Model& m, const State& s);
double body_elastic_energy(const Model& m, const State& s, int b);

}  // namespace nscd
