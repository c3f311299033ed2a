#pragma once
/// @file
/// The TL and linear bodies' part of a time step (ffr/tl_body.hpp), between their body
/// equations and the contact problem of stepper.hpp, following Algorithm 1 of
/// [Lozovskiy & Dubois 2016] with Newton's method as the inner loop (§4):
///
///  - at the start of a step: b of tl_body.hpp and λ_free, the solution of eq. (1) without
///    impulses (TL: Newton from λ_i; linear: one solve), whose last tangent A_T is kept for the
///    step (linear: A₊, for the run);
///  - the contact side α on such a body: its nodes k with weights N_k, the response
///    Z_α = Σ_k N_k A_T⁻¹ E_k (3nn × 3, E_k the unit columns of node k), the constant rotation
///    OtC = σ R(q₀)ᵀ C_α, its relative velocity OtCᵀ Σ_k N_k λ_k (no rigid part: G = 0), and
///    the W blocks OtC_αᵀ (Σ_k N_k Z_β,k) OtC_β (ffr_coupling.hpp's mesh_block, mean_Z = 0);
///  - the inner loop for impulses r: the nodal impulses P = Σ_α N_αᵀ OtC_α r_α, then eq. (1)
///    for λ₊(r) (TL: Newton from the linear prediction λ_free + Σ_α Z_α OtC_α r_α, whose first
///    correction uses A_T; linear: that prediction, which is exact), and the linearisation at r
///    for the next NLGS sweep, λ_free ← λ₊(r) − Σ_α Z_α OtC_α r_α, so that when r stops
///    changing u = W r + q is the relative velocity of the exact λ₊(r);
///  - at the end: λ_{i+1} = λ₊(r), ψ_{i+1} = ψ_i + h/2 (λ_i + λ_{i+1}), and the body's row of
///    bodies.csv: its centre of mass x₀ + R(q₀) x̄, velocity R(q₀) v̄ and the angular velocity
///    of its mean rigid motion (tl_body.hpp).
///
/// References: [Lozovskiy & Dubois 2016] Eur. J. Mech. A/Solids 58, §3.2 (Algorithm 1), §4,
///             eq. (28); [Jean 1999] CMAME 177.

#include "contact/detection.hpp"
#include "nscd/step/mesh_contacts.hpp"
#include "nscd/step/ffr_coupling.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCholesky>

#include <memory>
#include <vector>

namespace nscd {

/// One TL or linear body during a step.
struct TlStepData {
  Eigen::VectorXd base;          // b of tl_body.hpp, this step
  Eigen::VectorXd lambda_free;   // λ₊(r) − Σ_α Z_α OtC_α r_α (without impulses: λ₊(0))
  Eigen::VectorXd lambda_next;   // λ₊(r) for the current impulses
  std::shared_ptr<Eigen::SimplicialLDLT<ffr::SparseMatrix>> tangent;  // TL: last A_T (kept over the run)
  std::vector<ffr::MatrixX3> node_responses;  // A_T⁻¹ E_k when first needed (TL: this step; linear: the run)
  int iterations = 0;            // TL: tangent factorisations of the free solve
  bool converged = true;         // TL: Newton met the tolerance at every solve of the step
};

/// Start of a step for every TL and linear body: b and λ_free = λ₊(0).
void begin_tl_step(const Model& m, const State& s, std::vector<TlStepData>& tl);

/// Writes into `point` the TL or linear side `side` (0: body a, 1: body b) of active contact
/// `contact`.
void set_tl_point(const Model& m, const contact::ContactPoint& c, int contact, int side, const MeshSide& material_point,
                  std::vector<TlStepData>& tl, MeshPoint& point);

/// OtC = σ R(q₀)ᵀ C_α of a side on TL or linear body b (σ C_α = sigma_C).
Mat3 tl_orientation(const Model& m, int b, const Mat3& sigma_C);

/// The inner loop for impulses r (3nc, contact frames): λ₊(r) and the new λ_free of every TL
/// and linear body with contact points. Returns the largest number of tangent factorisations.
int solve_tl_bodies(const Model& m, const State& s, const std::vector<MeshPoint>& points,
                    const Eigen::VectorXd& r, std::vector<TlStepData>& tl);

/// End of the step of TL or linear body b: ψ_{i+1}, λ_{i+1} and the centre of mass x, its
/// velocity v and the mean angular velocity w (world).
void end_tl_step(const Model& m, const State& s, int b, const TlStepData& data, Eigen::VectorXd& psi,
                 Eigen::VectorXd& lambda, Vec3& x, Vec3& v, Vec3& w);

}  // namespace nscd
