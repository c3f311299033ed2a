#pragma once
/// @file
/// A cold-start guess for the frictional contact problem (W, q, μ): the impulses that stop every
/// contact,
///
///  (1) r_stick = argmin ‖r‖  subject to  W r + q = 0,
///
/// computed by the proximal point method on W r = −q from r = 0 [Rockafellar 1976],
///
///  (2) r_{k+1} = r_k + (W + ε I)⁻¹ (−q − W r_k),   ε = 1e-8 · mean(diag W),
///
/// whose iterates converge to the solution nearest to the start, the least-norm one, with a
/// residual reduced by about ε/(λ + ε) per iteration for each eigenvalue λ of W; four
/// iterations reuse one sparse LDLᵀ factorisation (Eigen SimplicialLDLT). A single regularised
/// solve would not do: with ε small its null-space part is round-off, with ε large its
/// residual is. The result is projected contact by contact on the Coulomb cones:
///
///  (3) r₀,i = P_{K_μi}(r_stick,i).
///
/// The factorisation is priced first from Eigen's symbolic analysis, at Σ_k c_k² operations for
/// the column counts c_k of L. A dense packing of 10⁴ spheres (3·10⁴ contacts) would cost over a
/// minute and gigabytes, so above a budget (2·10⁹ by default, under a second on one core here:
/// 4.9·10⁸ take 0.18 s for a packed pile of 10³ spheres, 8·10⁷ take 0.03 s for the 908 contacts
/// of the running-bond wall) no prediction is made, and the caller keeps its guess. The pricing
/// itself (the symbolic analysis) grows faster than the problem: above 2·10⁴ contacts no
/// prediction is made either (the analysis alone took 7 s and 2 GiB for 3·10⁵ contacts).
///
/// On the body form of a problem of rigid bodies (body_coupling.hpp eq. (1), W = H M⁻¹ Hᵀ, with
/// M of n × n and H of 3nc × n), each solve of eq. (2) is made without W, by the identity
///
///  (4) (W + ε I)⁻¹ b = (b − H z) / ε,   (ε M + Hᵀ H) z = Hᵀ b
///
/// [Woodbury 1950]: the factorisation is of the bodies' size (6 unknowns per rigid body), where
/// W has 3 rows per contact and fills in with the redundant corner contacts (2 ms against 54 ms
/// for the 908 contacts of the running-bond wall, perf). The range part of (b − H z) / ε carries
/// a relative round-off of about 1e-16 λ/ε for the eigenvalues λ of W, which the proximal
/// iterations, whose residuals −q − W r are computed on the body form, correct; the null-space
/// part carries that of the factorisation of W + ε I, as above.
///
/// Where every contact sticks (a structure at rest, the common case of masonry) r₀ is the exact
/// solution, and among the equivalent solutions of redundant contacts (the four corners of a
/// face–face contact) it is the least-norm one, which spreads the load evenly. Gauss–Seidel
/// alone converges very slowly on such problems: the rocking modes of a tall stack give W tiny
/// eigenvalues [Acary, Brémond & Huber 2018], and its ordering spreads the load unevenly.
///
/// References: [Acary, Brémond, Huber 2018] On solving contact problems with Coulomb friction:
///             formulations and numerical comparisons, Advanced Topics in Nonsmooth Dynamics.
///             [Woodbury 1950] Inverting modified matrices, Memorandum Report 42, Princeton.
///             [Rockafellar 1976] Monotone operators and the proximal point algorithm, SIAM J.
///             Control Optim. 14(5).

#include "solvers/body_coupling.hpp"
#include "solvers/friction_problem.hpp"

#include <Eigen/Core>

#include <optional>

namespace nscd::solvers {

/// Default budget of stick_prediction: operations of the LDLᵀ factorisation.
inline constexpr double kStickPredictionMaxOperations = 2e9;
/// Above this many contacts stick_prediction is not even priced.
inline constexpr int kStickPredictionMaxContacts = 20000;

/// Eq. (1)–(3); std::nullopt when p has more than kStickPredictionMaxContacts contacts or the
/// factorisation would take more than max_operations (Σ c_k²).
/// Returns zeros if the factorisation fails (it cannot for a positive semi-definite W, the
/// Delassus operator of a mechanical system).
std::optional<Eigen::VectorXd> stick_prediction(const FrictionProblem& p,
                                                double max_operations = kStickPredictionMaxOperations);

/// Eqs. (1)–(4) on the body form c of a problem with velocities q and friction coefficients μ of
/// its c.nc() contacts, ε = 1e-8 · mean_diagonal (the mean of W's diagonal entries); std::nullopt
/// when M has more than 3 kStickPredictionMaxContacts rows or the factorisation of ε M + Hᵀ H
/// would take more than max_operations (Σ c_k²). Returns zeros if a factorisation fails.
std::optional<Eigen::VectorXd> stick_prediction(const BodyCoupling& c, const Eigen::VectorXd& q,
                                                const Eigen::VectorXd& mu, double mean_diagonal,
                                                double max_operations = kStickPredictionMaxOperations);

}  // namespace nscd::solvers
