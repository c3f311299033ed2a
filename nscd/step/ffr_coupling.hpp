#pragma once
/// @file
/// The FFR bodies' part of a time step [Lozovskiy & Dubois 2016, §3.2, Algorithm 1], between
/// the body equations of ffr/ffr_dynamics.hpp and the contact problem of stepper.hpp:
///
///  - at the start of a step: O_i, the world angular momentum L_i = J_i ω_i, the part of λ_{i+1}
///    known in advance A₊⁻¹ (A₋ λ_i − h K ψ_i), and the free rotation (no impulses);
///  - the Rotator: for given impulses r, the fixed point of eqs. (16), (24) on every FFR body,
///    then λ_free (eq. 19 without impulses, fictitious forces at the new ω_{i+1}, O_{i+1});
///  - the deformable side of a contact α: its response Z_α = A₊⁻¹ H̄_αᵀ (ncoordinates × 3, the
///    sum of the node responses of its nodes, cached per node over the run; on a modal body, whose
///    Â₊ is diagonal, H̄_αᵀ's rows scaled), the rotation
///    σ O_{i+1}ᵀ C_α, its relative velocity σ C_αᵀ O H̄_α λ, and the blocks of W of
///    contact_jacobian.hpp eq. (6): (σ Oᵀ C_α)ᵀ (H̄_α Z_β) (σ Oᵀ C_β);
///  - at the end: λ_{i+1} = λ_free + Σ_α Z_α σ O_{i+1}ᵀ C_α r_α, and the trapezoidal rule.
///
/// All of it works on the body's deformation coordinates (ffr_body.hpp): nodal, or the modal ξ, η
/// of a modal body, whose H̄_α is Σ w_i Φ_{k_i} (eq. R2): node_rows gives a node's rows of the
/// coordinates, and a modal point keeps its H̄_αᵀ (k × 3) for the W blocks.
///
/// References: [Lozovskiy & Dubois 2016] Eur. J. Mech. A/Solids 58, eqs. (15)–(27), Algorithm 1.

#include "contact/detection.hpp"
#include "ffr/ffr_dynamics.hpp"
#include "nscd/step/mesh_contacts.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/rigid_dynamics.hpp"
#include "nscd/step/state.hpp"

#include <Eigen/Core>

#include <array>
#include <vector>

namespace nscd {

/// One FFR body during a step.
struct FfrStepData {
  Mat3 O_i = Mat3::Identity();
  Vec3 L_i = Vec3::Zero();              // J_i ω_i, world [kg m²/s]
  ffr::Rotation rotation;               // ω_{i+1}, O_{i+1} (current iterate of the Rotator)
  Eigen::VectorXd lambda_base;          // A₊⁻¹ (A₋ λ_i − h K ψ_i)
  Eigen::VectorXd lambda_free;          // λ_{i+1} without impulses, at the current rotation
  Vec3 mean_lambda_i = Vec3::Zero();    // (1/m) Σ m_k λ_k of λ_i and of λ_free
  Vec3 mean_lambda_free = Vec3::Zero();
  std::vector<ffr::MatrixX3> node_responses;  // Z_k per node of a nodal body, when first needed (kept over the run)
};

/// The deformable side of an active contact, on an FFR body or (tl_coupling.hpp) on a TL or
/// linear body, where O is the constant R(q₀) and H̄ has no mean part (mean_Z = 0).
struct MeshPoint {
  int contact = 0;          // index of the contact among the active ones
  int body = 0;             // the body's index in the model
  int ffr_index = -1;      // and among the FFR bodies (−1 on TL and linear bodies)
  int tl_index = -1;           // and among the TL and linear bodies (−1 on FFR bodies)
  MeshSide side;
  Mat3 sigma_C = Mat3::Identity();  // σ C_α: σ = +1 on body b, −1 on body a
  ffr::MatrixX3 Z;          // A₊⁻¹ H̄_αᵀ
  ffr::MatrixX3 rows_t;     // a modal body's H̄_αᵀ = Σ w_i Φ_{k_i}ᵀ (k × 3); empty on nodal bodies
  Mat3 mean_Z = Mat3::Zero();  // (1/m) Σ_l m_l Z_l, the translational-inertia part of H̄ Z
  Mat3 OtC = Mat3::Identity(); // σ O_{i+1}ᵀ C_α at the current rotation
};

/// out = Σ_i w_i a_i over the three nodes of a material point, a_i an array of n values, in node
/// order and in one pass; a node whose a_i is null is left out.
void weighted_node_sum(const std::array<const double*, 3>& a, const Vec3& w, Eigen::Index n, double* out);

/// The mesh points of each FFR body, in point order: the indices of those of the body with
/// deformable index d are points[start[d]] … points[start[d + 1] − 1].
struct PointsByBody {
  std::vector<int> start;   // n_ffr + 1 offsets
  std::vector<int> points;  // indices into the points
};

/// Groups the FFR points of `points` (ffr_index ≥ 0) by their body, one of n_ffr.
PointsByBody points_by_ffr_body(const std::vector<MeshPoint>& points, std::size_t n_ffr);

/// Writes into `point` what the deformable point of side `side` (0: body a, 1: body b) of active
/// contact `contact` has on every deformable body: contact, body, side and σ C_α; the rest is
/// reset, but the matrices Z and rows_t keep their storage (a step's points are rewritten in place)
/// and are left to the caller, as are the body's indices among the FFR or TL bodies.
void reset_mesh_point(const contact::ContactPoint& c, int contact, int side, const MeshSide& material_point,
                      MeshPoint& point);

/// reset_mesh_point, and Z = Σ_i w_i Z_{k_i} over the nodes k_i and weights w_i of the material
/// point, where Z_k = responses[k] (fe.ncoordinates() × 3, fe the body's finite-element constants)
/// is computed by response(k) when still empty.
template <class Response>
void set_mesh_point_base(const contact::ContactPoint& c, int contact, int side, const MeshSide& material_point,
                         const ffr::FfrBody& fe, std::vector<ffr::MatrixX3>& responses, Response&& response,
                         MeshPoint& point) {
  reset_mesh_point(c, contact, side, material_point, point);
  std::array<const double*, 3> node_responses{};
  for (int i = 0; i < 3; ++i) {
    const int k = material_point.nodes[i];
    if (k < 0 || material_point.weights[i] == 0.0) continue;
    if (responses[k].size() == 0) responses[k] = response(k);
    node_responses[i] = responses[k].data();
  }
  point.Z.resize(fe.ncoordinates(), 3);
  weighted_node_sum(node_responses, material_point.weights, point.Z.size(), point.Z.data());
}

/// Start of a step for every FFR body: the data above and its free motion (v + h g, free
/// rotation, inverse world inertia at O_{i+1}) into free[b].
void begin_ffr_step(const Model& m, const State& s, std::vector<FfrStepData>& ffr, std::vector<FreeMotion>& free);

/// Writes into `point` the deformable point of side `side` (0: body a, 1: body b) of active
/// contact `contact`, on an FFR body.
void set_ffr_point(const Model& m, const contact::ContactPoint& c, int contact, int side,
                   const MeshSide& material_point, std::vector<FfrStepData>& ffr, MeshPoint& point);

/// Sets point.OtC = σ O_{i+1}ᵀ C_α for the body's current rotation (FFR points only).
void orient_ffr_point(const std::vector<FfrStepData>& ffr, MeshPoint& point);

/// The Rotator for impulses r (3nc, contact frames): updates every FFR body's rotation, its
/// free[b].w = O J_B⁻¹ Oᵀ L_i and free[b].inv_inertia_W at the new O_{i+1}, and λ_free. Returns
/// the largest number of fixed-point iterations over the bodies.
int rotate_ffr_bodies(const Model& m, const State& s, const std::vector<MeshPoint>& points,
                      const Eigen::VectorXd& r, std::vector<FfrStepData>& ffr, std::vector<FreeMotion>& free);

/// σ C_αᵀ O H̄_α λ = OtCᵀ H̄_α λ: the deformation's part of the relative velocity at the material
/// point `side` of a body with finite-element constants fe, for deformation velocities lambda,
/// their mass-weighted mean (eq. 20) and the rotation OtC = σ Oᵀ C_α.
Vec3 deformable_velocity(const ffr::FfrBody& fe, const MeshSide& side, const Mat3& OtC, const Eigen::VectorXd& lambda,
                         const Vec3& mean_lambda);

/// deformable_velocity at a mesh point of a body with finite-element constants fe, at the point's
/// current rotation: OtCᵀ (H̄_α λ − mean), H̄_α λ = rows_tᵀ λ (3 dot products of length k) on a
/// modal body.
Vec3 point_deformable_velocity(const ffr::FfrBody& fe, const MeshPoint& point, const Eigen::VectorXd& lambda,
                               const Vec3& mean_lambda);

/// point_deformable_velocity of an FFR point for λ_free.
Vec3 free_deformable_velocity(const Model& m, const std::vector<FfrStepData>& ffr, const MeshPoint& point);

/// The modal points' H̄ᵀ and Z turned to their contact frames at the current rotations, for the
/// blocks of eq. (6) between two points p, q of the same modal body, whose mean part is 0:
///   OtC_pᵀ H̄_p Z_q OtC_q = T_pᵀ U_q,   T_p = H̄_pᵀ OtC_p = p.rows_t OtC_p,   U_p = Z_p OtC_p = Â₊⁻¹ T_p
/// (k × 3 each; Â₊ diagonal, ffr_body.hpp implicit_inverse). Columns 6p … 6p + 2 hold T_p and
/// 6p + 3 … 6p + 5 hold U_p, in their first k rows; the columns of points on nodal bodies are left
/// unset. Formed once per assembly of W, so that a block costs 9 k products and only the blocks W
/// stores are formed (one per pair of contacts), and once per forming of the contacts' sides,
/// whose sweeps read T_p and U_p instead of W's blocks (solvers/contact_bodies.hpp eqs. (5)–(7),
/// contact_problem.hpp defer_assembly).
Eigen::MatrixXd orient_modal_points(const Model& m, const std::vector<MeshPoint>& points);

/// W block of contact_jacobian.hpp eq. (6) for the deformable points p and q of the same body:
/// OtC_pᵀ (H̄_p Z_q) OtC_q, which is T_pᵀ U_q of `oriented` (orient_modal_points) on a modal body.
Mat3 mesh_block(const Eigen::MatrixXd& oriented, const std::vector<MeshPoint>& points, int p, int q);

/// λ_{i+1} of the FFR body with deformable index d: λ_free + Σ Z σ Oᵀ C r over its points
/// (by_body: points_by_ffr_body of points), in point order.
Eigen::VectorXd end_of_step_lambda(const FfrStepData& data, const std::vector<MeshPoint>& points,
                                   const PointsByBody& by_body, const Eigen::VectorXd& r, int d);

}  // namespace nscd
