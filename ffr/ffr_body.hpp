#pragma once
/// @file
/// The constant data of one body in the floating frame of reference (FFR) of
/// [Lozovskiy & Dubois 2016], assembled once before the time loop (Algorithm 1, "necessary
/// preprocessing and caching"). The body frame CXYZ has its origin at the centre of mass C of
/// the undeformed mesh; X are the nodes' reference positions in it, λ and ψ the nodal velocities
/// and displacements relative to the frame (3 per node, dof 3 k + d).
///
///  M, K                    consistent mass and linear-elastic stiffness (linear_elasticity.hpp),
///  C = α M + β K           Rayleigh damping (material "damping": {"mass": α, "stiffness": β}),
///  A₊ = M + h/2 C + h²/4 K,  A₋ = M − h/2 C − h²/4 K   deformable blocks of 𝔸± (eq. 19, 23),
///  m_k = Σ_l M_kl,  (M X)_k = Σ_l M_kl X_l    nodal masses and first moments (x blocks of M),
///  J_B = Σ_kl M_kl (X_k·X_l I − X_k X_lᵀ)      inertia tensor about C in the body frame,
///  𝔸 x = [x × (M X)_k]_k                      Euler-force matrix 𝔸 of eq. (19) applied to x,
///  𝐀 = [T (M X)_k]_k,  T = 𝕊 + s I             centrifugal vector 𝐀 of eq. (19),
///  H̄_k λ = λ_k − (1/m) Σ_l m_l λ_l            eq. (20) at node k.
///
/// Each of these integrals is exact for the finite-element interpolation X = Σ N_l X_l, so J_B
/// and m are those of the mesh. The responses A₊⁻¹ 𝔸, A₊⁻¹ E_ij (the nine 3×3 entries of T) and
/// A₊⁻¹ [m_l / m e_d]_l are solved once, so that a step needs one sparse solve per body and the
/// fictitious forces cost a few vector updates.
///
/// Deformation coordinates. ψ and λ are the nodal fields (3nn) or, for a modal body, the
/// coordinates ξ, η (k) of ψ = Φ ξ, λ = Φ η in the basis Φ of k free–free elastic modes of
/// modal_basis.hpp. Projecting eq. (19) on Φ with Φᵀ M Φ = I, Φᵀ K Φ = Λ:
///
///  (R1) Â₊ η_{i+1} = Â₋ η_i − h Λ ξ_i + h Φᵀ𝐀 + Φᵀ𝔸 (O_iᵀ ω_i − O_{i+1}ᵀ ω_{i+1}) + Σ_α Φ_αᵀ O_{i+1}ᵀ P_α,
///       Â± = I ± h/2 (α I + β Λ) ± h²/4 Λ   (diagonal),
///  (R2) 𝔸 → Φᵀ 𝔸 (= 0, the modes' angular momentum),   E_ij → Φᵀ E_ij,
///       H̄_kᵀ → Φᵀ H̄_kᵀ = Φ_kᵀ   (Φ_k: the 3 rows of node k),
///
/// the mean part of H̄ being 0 since Φ is mass-orthogonal to the translations. So a modal body
/// holds the same members in its k coordinates: mass_matrix = I, stiffness = Λ, A± = Â±, and
/// the responses Â₊⁻¹ Φᵀ 𝔸 (k × 3), Â₊⁻¹ Φᵀ E_ij (k × 9), mean_response = 0; its node
/// response is z_k = Â₊⁻¹ Φ_kᵀ (k × 3), and node_rows gives the nodal values Φ_k ξ where a nodal
/// field is needed. Eq. (19) and Algorithm 1 are otherwise unchanged: the modal truncation keeps
/// the k slowest elastic motions and drops the others (docs/method.md, "Modal reduction").
///
/// Modes the step does not resolve. The trapezoidal rule keeps a mode with ω_j h ≫ 1 ringing
/// undamped, its velocity changing sign at every step. With UnresolvedModes::BackwardEuler, each
/// mode with ω_j h > kResolvedOmegaH (a period below π h) follows the θ-method of
/// [Jean 1999] with θ_j = 1 instead of ½: with ξ_θ = ξ_i + h θ η_θ, η_θ = θ η_{i+1} + (1 − θ) η_i,
///
///  (R3) Â₊,jj = 1 + h θ_j c_j + h² θ_j² ω_j²,   Â₋,jj = 1 − h (1 − θ_j) c_j − h² θ_j (1 − θ_j) ω_j²,
///       ξ_{j,i+1} = ξ_{j,i} + h (θ_j η_{j,i+1} + (1 − θ_j) η_{j,i}),    c_j = α + β ω_j²,
///
/// (R1) for θ_j = ½. For θ_j = 1 the free mode's two eigenvalues per step have the product
/// 1/(1 + c_j h + ω_j² h²), so its amplitude falls by 1/√(1 + ω_j² h²) ≤ 0.45 a step when undamped:
/// it comes to its quasi-static response to the step's loads within a few steps, as the
/// mode-acceleration method treats truncated modes [Craig & Kurdila 2006], instead of ringing
/// about it. The rule dissipates ½ (Δη_j² + ω_j² Δξ_j²) a step, which the energy balance
/// (nscd/step/energy_balance.hpp) does not count.
///
/// References: [Lozovskiy & Dubois 2016] The method of a floating frame of reference for
///             non-smooth contact dynamics, Eur. J. Mech. A/Solids 58, eqs. (15)–(24);
///             [Jean 1999] The non-smooth contact dynamics method, CMAME 177 (the θ-method);
///             [Craig & Kurdila 2006] Fundamentals of Structural Dynamics, 2nd ed., Wiley.

#include "ffr/mesh.hpp"
#include "ffr/modal_basis.hpp"
#include "nscd/core/math.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <array>
#include <memory>

namespace nscd::ffr {

using SparseMatrix = Eigen::SparseMatrix<double>;
using MatrixX3 = Eigen::Matrix<double, Eigen::Dynamic, 3>;

/// Linear-elastic material with Rayleigh damping, SI units.
struct FfrMaterial {
  double density = 0.0;            // ρ [kg/m³]
  double young = 0.0;              // E [Pa]
  double poisson = 0.0;            // ν
  double damping_mass = 0.0;       // α [1/s]
  double damping_stiffness = 0.0;  // β [s]
};

/// How a modal body integrates the modes with ω_j h > kResolvedOmegaH (eq. R3).
enum class UnresolvedModes { Trapezoidal, BackwardEuler };

/// ω_j h above which a mode counts as unresolved by the step h (eq. R3).
constexpr double kResolvedOmegaH = 2.0;

/// Whether a mode of ω² = omega2 is unresolved by the step h: ω h > kResolvedOmegaH.
inline bool unresolved(double omega2, double h) { return omega2 * h * h > kResolvedOmegaH * kResolvedOmegaH; }

struct FfrBody {
  Mesh mesh;                    // nodes X in the body frame (origin at the centre of mass)
  Surface surface;              // boundary triangles and nodes
  Vec3 centre_in_input = Vec3::Zero();  // the centre of mass in the coordinates the mesh was given in
  FfrMaterial material;
  double h = 0.0;               // the time step the matrices are built for [s]
  double mass = 0.0;            // m [kg]
  Mat3 inertia_B = Mat3::Zero();      // J_B [kg m²]
  Mat3 inv_inertia_B = Mat3::Zero();
  std::shared_ptr<const ModalBasis> modes;  // Φ of a modal body; null: nodal coordinates
  SparseMatrix mass_matrix;     // M (modal: I), in the deformation coordinates
  SparseMatrix stiffness;       // K (modal: Λ)
  SparseMatrix explicit_matrix; // A₋ (modal: Â₋)
  std::shared_ptr<const Eigen::SimplicialLDLT<SparseMatrix>> implicit;  // factorisation of A₊ (modal: Â₊)
  Eigen::VectorXd implicit_inverse;  // a modal body's Â₊⁻¹, diagonal as M = I and K = Λ (eq. R1); empty if nodal
  Eigen::VectorXd nodal_mass;   // m_k (nn)
  Eigen::Matrix3Xd first_moment;  // (M X)_k, one column per node
  MatrixX3 euler_response;      // A₊⁻¹ 𝔸 (ncoordinates × 3)
  Eigen::Matrix<double, Eigen::Dynamic, 9> centrifugal_response;  // column 3i + j: A₊⁻¹ E_ij
  MatrixX3 mean_response;       // A₊⁻¹ [m_l / m e_d]_l (ncoordinates × 3; modal: 0)
  UnresolvedModes unresolved = UnresolvedModes::Trapezoidal;
  Eigen::VectorXd theta;        // θ_j of eq. (R3) per modal coordinate; empty when every θ_j = ½

  int nn() const { return mesh.nn(); }
  int ndof() const { return 3 * mesh.nn(); }
  /// The number of deformation coordinates: 3nn, or k for a modal body.
  int ncoordinates() const { return modes ? modes->size() : ndof(); }
};

/// Assembles the constants above for `mesh` (any coordinates; its nodes are moved so that the
/// centre of mass is the origin) and the time step h [s]; in the modal coordinates of `modes`
/// (a basis of this mesh, modal_basis.hpp) when it is not null, its modes with ω_j h >
/// kResolvedOmegaH integrated as `unresolved` says (eq. R3; unused without modes).
/// @throws nscd::InputError if the mass or the inertia is not positive (degenerate mesh).
FfrBody make_ffr_body(Mesh mesh, const FfrMaterial& material, double h,
                      std::shared_ptr<const ModalBasis> modes = nullptr,
                      UnresolvedModes unresolved = UnresolvedModes::Trapezoidal);

/// Z_k = A₊⁻¹ H̄_kᵀ (ncoordinates × 3): the deformation velocities λ caused by a unit impulse
/// along each axis of the body frame at node k, translational inertia included (eq. 19–20, R2);
/// on a modal body Â₊⁻¹ Φ_kᵀ, Φ_kᵀ's rows scaled by implicit_inverse.
MatrixX3 node_response(const FfrBody& body, int node);

/// Σ_i w_i Φ_{k_i} v (3) over N nodes k_i with weights w_i, of the modal basis phi (3nn × k, by
/// rows), for each of V vectors v (k values from v[c], into column c): the point's rows
/// P = Σ_i w_i Φ_{k_i} (summed in node order) formed two entries at a time and dotted at once with
/// the V vectors, the terms of even and odd j summed apart (the two lanes of an Array2d), then
/// added; the vectors share the reads of Φ.
template <int N, int V>
Eigen::Matrix<double, 3, V> modal_point_values(const ModeMatrix& phi, const std::array<const double*, V>& v,
                                               const std::array<int, N>& nodes, const std::array<double, N>& weights) {
  using Lanes = Eigen::Array2d;
  const Eigen::Index k = phi.cols();
  std::array<const double*, N> x;  // node i's x row; y at x + k, z at x + 2k
  for (int i = 0; i < N; ++i) x[i] = phi.data() + 3 * static_cast<Eigen::Index>(nodes[i]) * k;
  auto row = [&](int c, Eigen::Index j) {  // P_c at j, j + 1
    Lanes p = Lanes::Map(x[0] + c * k + j) * weights[0];
    for (int i = 1; i < N; ++i) p += Lanes::Map(x[i] + c * k + j) * weights[i];
    return p;
  };
  std::array<Lanes, 3 * V> sums;  // coordinate c for vector w at 3 w + c
  sums.fill(Lanes::Zero());
  Eigen::Index j = 0;
  for (; j + 1 < k; j += 2)
    for (int c = 0; c < 3; ++c) {
      const Lanes p = row(c, j);
      for (int w = 0; w < V; ++w) sums[3 * w + c] += p * Lanes::Map(v[w] + j);
    }
  Eigen::Matrix<double, 3, V> value;
  for (int c = 0; c < 3; ++c) {
    double p_last = 0;  // P_c at the last j of an odd k
    for (int i = 0; i < N && j < k; ++i) p_last += x[i][c * k + j] * weights[i];
    for (int w = 0; w < V; ++w) value(c, w) = sums[3 * w + c].sum() + (j < k ? p_last * v[w][j] : 0.0);
  }
  return value;
}

/// modal_point_values for the one vector v.
template <int N, class Derived>
Vec3 modal_point_values(const ModeMatrix& phi, const Eigen::MatrixBase<Derived>& v, const std::array<int, N>& nodes,
                        const std::array<double, N>& weights) {
  return modal_point_values<N, 1>(phi, {v.derived().data()}, nodes, weights);
}

/// Φ_node v (3): modal_point_values for the one node.
template <class Derived>
Vec3 modal_node_values(const ModeMatrix& phi, const Eigen::MatrixBase<Derived>& v, int node) {
  return modal_point_values<1>(phi, v, {node}, {1.0});
}

/// The nodal values at node `node` of the deformation coordinates v (ncoordinates × c, e.g. ψ,
/// λ or a response Z): the rows 3 node … 3 node + 2 of v, or Φ_node v for a modal body (3 × c;
/// modal_node_values for a vector).
template <class Derived>
Eigen::Matrix<double, 3, Derived::ColsAtCompileTime> node_rows(const FfrBody& body, const Eigen::MatrixBase<Derived>& v,
                                                               int node) {
  if (!body.modes) return v.template middleRows<3>(3 * node);
  if constexpr (Derived::ColsAtCompileTime == 1) {
    return modal_node_values(body.modes->phi, v, node);
  } else {
    return body.modes->phi.middleRows<3>(3 * node) * v;
  }
}

/// The nodal field (3nn) of deformation coordinates v: v, or Φ v for a modal body.
Eigen::VectorXd nodal_field(const FfrBody& body, const Eigen::VectorXd& v);

/// H̄_k λ of eq. (20) for one node (3), body frame.
Vec3 relative_velocity(const FfrBody& body, const Eigen::VectorXd& lambda, int node);

/// (1/m) Σ_l m_l v_l of the nodal field of v, the translational-inertia part of H̄; 0 for a
/// modal body (every mode has mean 0, modal_basis.hpp eq. 3).
Vec3 mass_weighted_mean(const FfrBody& body, const Eigen::Ref<const Eigen::VectorXd>& v);

}  // namespace nscd::ffr
