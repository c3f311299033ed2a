#pragma once
/// @file
/// Lemke's complementary pivoting for the linear complementarity problem
///
///  (1) w = M z + b,   0 ≤ z ⊥ w ≥ 0          (M: n × n, dense)
///
/// on the tableau [I | −M | −e | b] with the covering vector e = 1 and the artificial variable
/// z₀: z₀ enters first (leaving row: the most negative b_i), then the complement of each leaving
/// variable enters, until z₀ leaves (a solution) or the entering column has no positive entry
/// (ray termination: no solution found). Ties in the ratio test are broken lexicographically
/// on the rows of B⁻¹ (the w columns of the tableau), which prevents cycling on degenerate
/// problems, and z₀'s row is preferred among tied rows. Lemke's method solves (1) whenever M is
/// copositive-plus and (1) is feasible [Cottle, Pang & Stone 1992, Th. 4.4.13]; the pyramid LCP
/// of lcp_solver.hpp is of that kind. Each pivot costs O(n²): for small problems only.
///
/// Reference: [Lemke 1965] Bimatrix equilibrium points and mathematical programming, Management
///            Science 11; [Cottle, Pang, Stone 1992] The Linear Complementarity Problem, §4.4.

#include <Eigen/Core>

namespace nscd::solvers {

/// Result of lemke().
struct LemkeResult {
  Eigen::VectorXd z;    // (n) z of eq. (1); zero when not solved
  bool solved = false;  // z₀ left the basis: z, w = M z + b solve eq. (1) to round-off
  int pivots = 0;       // pivots done
};

/// Solves eq. (1) by at most max_pivots pivots. @pre M is square with the size of b.
LemkeResult lemke(const Eigen::MatrixXd& M, const Eigen::VectorXd& b, int max_pivots);

}  // namespace nscd::solvers
