#pragma once
/// @file
/// Anderson mixing (type II, [Anderson 1965], [Walker & Ni 2011]) of a fixed-point iteration
/// x ← G(x), here a sweep of NLGS (nlgs.hpp, nlgs_bodies.hpp) on the impulses r. With
/// f_k = G(x_k) − x_k, what sweep k changed, and the differences of the last m sweeps
///
///  (1) ΔF = [f_{k−j+1} − f_{k−j}]_{j=1..m},   ΔG = [G(x_{k−j+1}) − G(x_{k−j})]_{j=1..m},
///  (2) γ = argmin_γ ‖f_k − ΔF γ‖               (normal equations, ΔFᵀΔF kept column by column),
///  (3) x_{k+1} = G(x_k) − ΔG γ,
///
/// sweep k + 1 starts from x_{k+1} instead of G(x_k). Gauss–Seidel on a masonry wall converges at
/// a slow linear rate, set by a few global modes of the wall (its shear and rocking); (2)–(3) is
/// then GMRES on those modes [Walker & Ni 2011, Theorem 2.2], and on the shaking wall it cuts the
/// sweeps per step from 132 to about 22 (docs/performance.md). A vector y = L x carried with x by a
/// linear map L (the bodies' velocity change Δv = M⁻¹Hᵀ r of nlgs_bodies.hpp) takes the same γ,
///
///  (4) y_{k+1} = L G(x_k) − ΔY γ,   ΔY the differences of L G(x),
///
/// without a product by L. The mixed x may leave the friction cones; the next sweep puts every
/// contact back, and a solve always ends on a sweep's output (the mixing is applied at the start
/// of the next sweep). The safeguard restarts the mixing, as [Zhang, O'Donoghue & Boyd 2020] do
/// for nonsmooth maps: when ‖f_k‖ > ‖f_{k−1}‖, the sweep from the mixed point did worse than the
/// one before it (an active set changed), the differences are dropped and sweep k + 1 starts
/// from G(x_k). Mixed sweeps can still fall into a cycle that the safeguard does not break (seen
/// on a step of the three blocks of [Lozovskiy & Dubois 2016] §4.2 with 12 modes: 1 000 sweeps
/// at an error of 1.6e-5 where plain sweeps from the same start converge): after kStall sweeps
/// without a new lowest ‖f_k‖ the mixing pauses for kStall plain sweeps, then starts afresh. All sums run on the calling thread in a fixed order: the result does not depend
/// on the number of threads. Memory is taken when the object is made and at the first two
/// sweeps, none after: eq. (2)'s small system lives on the stack (depth at most kMaxDepth).
///
/// References: [Anderson 1965] Iterative procedures for nonlinear integral equations, J. ACM 12;
///             [Walker & Ni 2011] Anderson acceleration for fixed-point iterations, SIAM J. Numer.
///             Anal. 49; [Zhang, O'Donoghue & Boyd 2020] Globally convergent type-I Anderson
///             acceleration for nonsmooth fixed-point iterations, SIAM J. Optim. 30.

#include <Eigen/Core>

#include <limits>

namespace nscd::solvers::detail {

/// Eqs. (1)–(4) over the sweeps of one solve; depth m = 0 leaves every sweep as it is.
class AndersonMixing {
 public:
  static constexpr int kMaxDepth = 16;
  /// Sweeps without a new lowest ‖f_k‖ after which the mixing pauses, and the plain sweeps of the
  /// pause.
  static constexpr int kStall = 100;

  /// For x of size nx and y of size ny (0: none). @pre 0 ≤ depth ≤ kMaxDepth.
  AndersonMixing(int depth, Eigen::Index nx, Eigen::Index ny);

  /// Before each sweep but the first: (x, y) = (G(x_k), L G(x_k)) are where the last sweep
  /// ended; records f_k and replaces (x, y) by eqs. (3)–(4). Before the first sweep: records its
  /// start x_0. Returns whether (x, y) were mixed.
  bool start_sweep(Eigen::Ref<Eigen::VectorXd> x, Eigen::Ref<Eigen::VectorXd> y);

  /// The mixed starts since the object was made, the restarts (of the safeguard, and at the end
  /// of each pause) and the pauses.
  int mixed() const { return m_mixed; }
  int restarts() const { return m_restarts; }
  int pauses() const { return m_pauses; }

 private:
  void record(const Eigen::Ref<const Eigen::VectorXd>& x, const Eigen::Ref<const Eigen::VectorXd>& y);
  bool mix(Eigen::Ref<Eigen::VectorXd> x, Eigen::Ref<Eigen::VectorXd> y);  // false, and a restart, if eq. (2) has no finite γ
  void restart();  // drops the differences
  void pause_if_stalled();  // counts the sweep recorded, and starts or ends a pause

  int m_depth;
  Eigen::MatrixXd m_dF, m_dG, m_dY;  // eq. (1), column j % m_depth of difference j
  Eigen::MatrixXd m_gram;            // ΔFᵀΔF, in the same columns
  int m_columns = 0;                 // differences held, at most m_depth
  int m_next = 0;                    // the column the next difference takes
  Eigen::VectorXd m_start;           // x_k, where the current sweep started
  Eigen::VectorXd m_f, m_g, m_y;     // f, G(x), L G(x) of the last sweep recorded
  Eigen::VectorXd m_f_next;          // workspace: f of the sweep being recorded
  double m_f_norm = 0.0;             // ‖f‖ of the last sweep recorded
  bool m_started = false, m_recorded = false;
  int m_mixed = 0, m_restarts = 0, m_pauses = 0;
  int m_sweeps = 0;                  // recorded
  double m_lowest = std::numeric_limits<double>::infinity();  // the lowest ‖f‖ since the last pause
  int m_lowest_at = 0;               // the sweep of m_lowest
  int m_pause_left = 0;              // plain sweeps left in a pause
};

}  // namespace nscd::solvers::detail
