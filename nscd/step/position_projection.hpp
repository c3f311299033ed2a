#pragma once
/// @file
/// Position projection after the velocity step: the projected Moreau–Jean scheme of [Acary 2013]
/// (the projection of the end-of-step positions onto the admissible set), on the linearised gaps of
/// the step's active contacts, with the Delassus operator of the bodies' frames. After v⁺ and the
/// poses q̃⁺ of stage 6, for every active contact α between rigid, fixed or driven bodies, and
/// every corner of a joint of modal FFR blocks (below):
///
///  (1) g⁺_α = g_α + h (θ u⁺_n,α + (1 − θ) u⁻_n,α)     end-of-step gap, linearised as eq. (4) of
///                                                     rigid_dynamics.hpp moves the bodies
///  (2) γ_α = g⁺_α + Σ_β (W_nn)_αβ P_β,   (W_nn)_αβ = n-rows of H_n M̂⁻¹ H_nᵀ on the frames
///                                        (contact_jacobian.hpp eq. (4), without the FFR
///                                        deformation of its eq. (6))
///  (3) 0 ≤ γ_α ⊥ P_α − P̲_α ≥ 0,  with the lower bound
///        P̲_α = 0                            unilateral (r_n,α = 0): [Acary 2013], linearised
///        P̲_α = −max(g⁺_α, 0) / (W_nn)_αα    closed (r_n,α > 0): a bounded post-stabilisation
///  (4) Δ[x; φ]_b = M̂_b⁻¹ Σ_α H_n,αbᵀ P_α = Σ_α Y_αb e_n P_α,
///      x_b ← x_b + Δx_b,   R_b ← exp([Δφ_b]×) R_b         (velocities and deformations unchanged)
///
/// Eq. (3) with P̲ = 0 removes the overlap an impact leaves (the velocity-level law never does);
/// closed contacts, which carried a compressive impulse in the step, may also pull (P < 0), so
/// that they end touching, γ = 0, instead of resting at a gap up to h θ |Δu_n| (Signorini on
/// velocities stops a body anywhere inside that distance). The pull is bounded by the one that
/// closes the contact's gap alone: overdetermined sets of closed contacts (a lattice of touching
/// grains, the corners of a rotating face) have no exact solution, and an unbounded pull would
/// let Gauss–Seidel drift without limit.
/// Velocities are not changed, so the correction adds no kinetic energy; its translation moves
/// no centre of mass of the bodies a contact joins (Σ_b m_b Δx_b = 0 for a contact between two
/// movable bodies), so potential energy changes only at contacts with fixed and driven bodies.
///
/// The problem is solved by projected Gauss–Seidel over the normal rows in contact order
/// (sequential, so deterministic for any thread count), from P = 0, until no sweep changes a
/// γ_α by more than `tolerance` [m], or `max_sweeps`; where P = 0 already solves eq. (3) to 10⁻³
/// `tolerance` (no closed gap farther from 0, no overlap deeper), it is kept without a sweep.
/// W is singular for redundant contacts (the corners of a face on a face); the component of P in
/// its null space does not move any body (null W = null Hᵀ). The sweeps work on the bodies
/// (solvers/contact_bodies.hpp) and never read W off its diagonal: with Δq_b the sum of eq. (4)
/// for the current P,
///  (5) γ_α = g⁺_α + Σ_s G_n,αs Δq_b(α,s),   and after a change δ of P_α,  Δq_b(α,s) += Y_αs e_n δ,
/// which is eq. (2) with the products summed in another order: O(1) per row where W_nn's row holds
/// a term for every contact sharing a body with α. Each sweep after the first starts from the
/// Anderson mixing of the last sweeps (solvers/anderson_mixing.hpp eqs. (1)–(4)):
///  (6) x = P, y = Δq, the image of P by eq. (4),
/// so a sweep ends, and the projection stops, on P within its bounds. On a granular pile,
/// Gauss–Seidel spreads a correction a few grains per sweep; mixing takes the sweeps per step of
/// scenes/pile.json from 107 to 25 (docs/performance.md).
///
/// An FFR body [Lozovskiy & Dubois 2016] is moved by its frame (x_b, R_b) alone, its deformation
/// ψ left as the step made it: the overlap the velocity-level law leaves is a drift of positions,
/// which the frame carries. The gap of an FFR contact moves with the frame as with a rigid body
/// (contact_jacobian.hpp eq. (1), its lever arm on the material point), so eqs. (2)–(4) hold with
/// the frame's M̂_b; u⁺_n,α in eq. (1) includes the deformation (eq. (5) there). The caller
/// (stepper.cpp) projects only the FFR contacts on the shapes' faces of blocks of modes alone
/// (contact_problem.hpp, is_projected), whose gaps follow the frames, and makes their rows
/// unilateral: the corners of vibrating elastic blocks open and close within a step, and pulling
/// the loaded ones shut at every step ratchets the joints (docs/performance.md, "FFR blocks on
/// their faces, projected").
/// The other contacts of FE bodies are not projected (P = 0).
///
/// References: [Acary 2013] Projected event-capturing time-stepping schemes for nonsmooth
///             mechanical systems with unilateral contact and Coulomb's friction, CMAME 256.
///             [Lozovskiy & Dubois 2016] Eur. J. Mech. A/Solids 58.

#include "nscd/step/contact_jacobian.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace nscd {

/// How a contact's row enters eq. (3).
enum class ProjectedRow : std::uint8_t {
  Skipped,     // P = 0 (an FE side not carried by its frame)
  Unilateral,  // 0 ≤ γ ⊥ P ≥ 0
  Closed,      // 0 ≤ γ ⊥ P − P̲ ≥ 0, P̲ = −max(g⁺, 0) / W_αα: may pull the contact closed
};

/// When the sweeps stop, and how they start.
struct ProjectionOptions {
  double tolerance = 0;    // on the largest change of a γ_α in a sweep [m]
  int max_sweeps = 1;
  int anderson_depth = 0;  // differences mixed, eq. (6); 0: plain projected Gauss–Seidel
};

struct ProjectionResult {
  int sweeps = 0;     // 0: P = 0 solved eq. (3) to 10⁻³ of the tolerance
  double change = 0;  // largest change of a γ_α in the last sweep, or that the first would make [m]
};

/// Solves eqs. (2)–(3) for P (size nc) by projected Gauss–Seidel on the normal rows, eqs. (5)–(6), for
/// the contacts `jacobians` on nb bodies, (W_nn)_αα = Σ_s G_n,αs Y_αs e_n; dq (nb) receives
/// eq. (4)'s Δ[x; φ] of every body (zero for bodies without unknowns).
/// @pre gap_end.size() == rows.size() == jacobians.size().
ProjectionResult project_gaps(const std::vector<ContactJacobian>& jacobians, int nb, const Eigen::VectorXd& gap_end,
                              const std::vector<ProjectedRow>& rows, const ProjectionOptions& options, Eigen::VectorXd& P,
                              std::vector<Vec6>& dq);

}  // namespace nscd
