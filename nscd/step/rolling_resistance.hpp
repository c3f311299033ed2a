#pragma once
/// @file
/// Rolling resistance at the contacts with a sphere side, after [Tasora & Anitescu 2013] without
/// spinning resistance: part of stage 5 of a rigid scene's step (contact_solve.hpp).
///
/// At active contact α between bodies a and b, at least one of them a sphere, whose interaction
/// has μ_r > 0 (dimensionless), a torque impulse m_α in the contact's tangent plane acts on b
/// (−m_α on a), bounded by the contact's normal impulse r_n,α:
///  (1) ‖m_α‖ ≤ μ_r R_eff r_n,α,   R_eff = R (sphere and another shape), R_a R_b / (R_a + R_b) (two spheres)
/// and dissipating maximally against the relative rolling velocity at the end of the step,
///  (2) ω_r,α = T_αᵀ (ω_b⁺ − ω_a⁺),   T_α = [t1 t2] the tangent axes of the contact frame R_WC
///      (the plane of sliding friction; the normal part of ω_b − ω_a, spinning, is free),
///  (3) m_α = −μ_r R_eff r_n,α ω_r,α / ‖ω_r,α‖ if ω_r,α ≠ 0, else any m_α of (1) with ω_r,α = 0;
/// for given r, (1)–(3) are the optimality conditions of min ½ mᵀ W_rr m + mᵀ ω_r⁰ over the disks
/// (1), ω_r⁰ the rolling velocities without rolling torques and
///  (4) W_rr,αβ = Σ_k σ_α,k σ_β,k T_αᵀ I_k⁻¹ T_β   (σ = −1 on side a, +1 on side b),
/// over the movable bodies k the two contacts share, I_k⁻¹ = R̃ J_B⁻¹ R̃ᵀ (rigid_dynamics.hpp
/// eq. (5)). The torques change a body's angular velocity as its contact impulses do:
///  (5) ω⁺ = ω_free + Δω + I⁻¹ Σ_α (p_α − x) × R_α,   Δω_k = I_k⁻¹ Σ_α σ_α,k T_α m_α.
/// They are folded into the free motion: ws.free[k].w gains Δω_k, and q of every contact of
/// those bodies (contact_problem.hpp eq. (3)) gains what Δω adds to its free velocity,
///  (6) q_α = q_α⁰ + G_α,a [0; Δω_a] + G_α,b [0; Δω_b]   (contact_jacobian.hpp eq. (2)),
/// so that the velocity update (stage 6) applies them with no change and r solves (W, q, μ).
///
/// Solution: block Gauss–Seidel between the contact problem (W, q(m), μ), solved by the scene's
/// solver warm-started from the last r, and the rolling problem (1)–(4) given r_n, solved by
/// projected Gauss–Seidel over the rolling contacts in contact order,
///  (7) m_α ← Π_α(m_α − ω_r,α / λ_max(W_rr,αα)),   Π_α the projection on the disk (1),
/// whose fixed points are exactly (3). A pass solves the rolling problem, then the contact problem
/// with its torques; the passes end when no m_α changed by more than the solver's tolerance times
/// the largest bound of (1), with r solved for those torques, else after kMaxRollingPasses passes
/// with the solver status MaxIterations. Each block is exact at convergence, and any solver can
/// take the contact problem. The reported solver iterations are those of all the solves.
///
/// Closed form: a solid sphere (J = 2/5 m R²) rolling without slip on a fixed plane under gravity
/// g has m v̇ = F, J ω̇ = −R F − μ_r R m g and v = R ω, hence v̇ = −5/7 μ_r g: from v0 it stops after
///  (8) d = 7 v0² / (10 μ_r g).
///
/// With μ_r = 0 in every interaction nothing here runs. Rigid scenes only (io::read_scene refuses
/// a nonzero μ_r with finite-element bodies). Deterministic: sequential sweeps in contact order.
///
/// Reference: [Tasora & Anitescu 2013] A complementarity-based rolling friction model for rigid
///            contacts, Meccanica 48, 1643–1659 (their coefficient, a length, is μ_r R_eff here).

#include "nscd/step/model.hpp"
#include "nscd/step/step_workspace.hpp"

#include <functional>

namespace nscd {

/// Passes of the block Gauss–Seidel between the contact and the rolling problem, at most.
inline constexpr int kMaxRollingPasses = 100;

/// One solve of the step's contact problem ws.contacts.problem from the initial impulses r0.
using ContactSolve = std::function<solvers::SolverResult(const Eigen::VectorXd& r0)>;

/// After ws.contacts.solution has solved the step's problem without rolling torques: the torques
/// (1)–(3) with the impulses r that go with them, by the passes above, each solving the contact
/// problem with `solve`; the torques into ws.free (5), ws.contacts.problem.q (6) and
/// ws.contacts.rolling, the impulses into ws.contacts.solution. Clears ws.contacts.rolling and
/// does nothing else when no interaction of m has rolling resistance.
void resist_rolling(const Model& m, StepWorkspace& ws, const ContactSolve& solve);

}  // namespace nscd
