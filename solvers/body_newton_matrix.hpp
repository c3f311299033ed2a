#pragma once
/// @file
/// Internal to solvers/: the body form (body_coupling.hpp eq. (1)) as the Newton solvers on the
/// bodies' velocity change use it (velocity_prox.hpp, interior_point.hpp). Besides the products
/// u = H Δv + q, Hᵀ r (by the dense blocks B_g below) and M⁻¹ x (M factorised once), it assembles
/// their Newton matrices
///
///  (1) J = M + Σ_i H_iᵀ B_i H_i
///
/// with one 3 × 3 block B_i per contact (ρ_i D_i for the velocity Newton, velocity_prox.hpp eq.
/// (3); the Nesterov–Todd scaling of the interior point method, interior_point.hpp eq. (4)), on a
/// pattern found once: the contacts whose rows of H have entries in the same columns form a group,
/// each group adds B_gᵀ (S_g B_g) (B_g its block rows stacked, S_g = blockdiag(B_i)) by one dense
/// product, summed into the values of J's pattern in the order M, then the groups in turn. The
/// same matrix at every call for the same blocks, explicit zeros included.

#include "solvers/body_coupling.hpp"
#include "solvers/friction_problem.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <vector>

namespace nscd::solvers::detail {

/// @throws nscd::InputError naming `solver` if c's H and M do not match p's contacts.
void check_coupling(const FrictionProblem& p, const BodyCoupling& c, const char* solver);

class BodyNewtonMatrix {
 public:
  /// p's body form c; M is factorised here (mass_factorized() says whether it could be).
  BodyNewtonMatrix(const FrictionProblem& p, const BodyCoupling& c);
  bool mass_factorized() const { return m_mass.info() == Eigen::Success; }

  const FrictionProblem& problem() const { return m_p; }
  const BodyCoupling& coupling() const { return m_c; }

  /// u = H Δv + q, by one dense product per group of contacts
  Eigen::VectorXd velocities(const Eigen::VectorXd& dv) const;
  /// Hᵀ r, likewise (the groups summed in turn)
  Eigen::VectorXd generalized(const Eigen::VectorXd& r) const;
  /// M⁻¹ x
  Eigen::VectorXd mass_solve(const Eigen::VectorXd& x) const { return m_mass.solve(x); }
  /// Δv = M⁻¹ Hᵀ r
  Eigen::VectorXd velocity_change(const Eigen::VectorXd& r) const { return mass_solve(generalized(r)); }
  /// W r + q = H M⁻¹ Hᵀ r + q
  Eigen::VectorXd velocities_of(const Eigen::VectorXd& r) const { return velocities(velocity_change(r)); }

  /// J of eq. (1) for the blocks B_i (one per contact).
  Eigen::SparseMatrix<double> matrix(const std::vector<Eigen::Matrix3d>& blocks) const;

 private:
  // the contacts whose rows of H have entries in the same columns
  struct ColumnGroup {
    std::vector<int> cols;            // those columns, increasing
    std::vector<int> contacts;        // the contacts, increasing
    Eigen::MatrixXd rows;             // 3 per contact × cols.size(): their entries
    std::vector<Eigen::Index> slots;  // of entry (cols[a], cols[b]) of J at b k + a, in J's values
  };

  void group_contacts();          // each contact's columns, then the groups in the order of their first contact
  void build_jacobian_pattern();  // J's pattern (M's and each group's k × k columns) and where each term lands

  const FrictionProblem& m_p;
  const BodyCoupling& m_c;
  std::vector<ColumnGroup> m_groups;
  Eigen::Index m_max_rows = 0, m_max_cols = 0;
  Eigen::SparseMatrix<double> m_pattern;   // J's, values unused
  std::vector<Eigen::Index> m_mass_slots;  // of M's entries (in their order) in J's values
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> m_mass;
};

}  // namespace nscd::solvers::detail
