#include "solvers/body_newton_matrix.hpp"

#include "nscd/core/error.hpp"

#include <algorithm>
#include <map>

namespace nscd::solvers::detail {

void check_coupling(const FrictionProblem& p, const BodyCoupling& c, const char* solver) {
  NSCD_THROW_UNLESS(c.H.rows() == 3 * static_cast<Eigen::Index>(p.nc()) && c.M.rows() == c.M.cols() &&
                        c.H.cols() == c.M.rows(),
                    "{}: H ({} × {}) and M ({} × {}) do not match the problem's {} contacts", solver, c.H.rows(),
                    c.H.cols(), c.M.rows(), c.M.cols(), p.nc());
}

BodyNewtonMatrix::BodyNewtonMatrix(const FrictionProblem& p, const BodyCoupling& c)
    : m_p(p), m_c(c) {
  m_mass.compute(c.M);
  group_contacts();
  build_jacobian_pattern();
}

Eigen::VectorXd BodyNewtonMatrix::velocities(const Eigen::VectorXd& dv) const {
  Eigen::VectorXd u = m_p.q;
  Eigen::VectorXd x(m_max_cols), ug(m_max_rows);
  for (const ColumnGroup& g : m_groups) {
    const Eigen::Index k = static_cast<Eigen::Index>(g.cols.size()), n = g.rows.rows();
    for (Eigen::Index a = 0; a < k; ++a) x(a) = dv(g.cols[static_cast<std::size_t>(a)]);
    ug.head(n).noalias() = g.rows * x.head(k);
    for (std::size_t j = 0; j < g.contacts.size(); ++j)
      u.segment<3>(3 * static_cast<Eigen::Index>(g.contacts[j])) += ug.segment<3>(3 * static_cast<Eigen::Index>(j));
  }
  return u;
}

Eigen::VectorXd BodyNewtonMatrix::generalized(const Eigen::VectorXd& r) const {
  Eigen::VectorXd f = Eigen::VectorXd::Zero(m_c.M.rows());
  Eigen::VectorXd rg(m_max_rows), fg(m_max_cols);
  for (const ColumnGroup& g : m_groups) {
    const Eigen::Index k = static_cast<Eigen::Index>(g.cols.size()), n = g.rows.rows();
    for (std::size_t j = 0; j < g.contacts.size(); ++j)
      rg.segment<3>(3 * static_cast<Eigen::Index>(j)) = r.segment<3>(3 * static_cast<Eigen::Index>(g.contacts[j]));
    fg.head(k).noalias() = g.rows.transpose() * rg.head(n);
    for (Eigen::Index a = 0; a < k; ++a) f(g.cols[static_cast<std::size_t>(a)]) += fg(a);
  }
  return f;
}

Eigen::SparseMatrix<double> BodyNewtonMatrix::matrix(const std::vector<Eigen::Matrix3d>& blocks) const {
  Eigen::SparseMatrix<double> J = m_pattern;
  double* values = J.valuePtr();
  std::fill(values, values + J.nonZeros(), 0.0);
  std::size_t e = 0;
  for (Eigen::Index j = 0; j < m_c.M.outerSize(); ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(m_c.M, j); it; ++it) values[m_mass_slots[e++]] += it.value();
  Eigen::MatrixXd scaled(m_max_rows, m_max_cols);  // S_g B_g
  Eigen::MatrixXd product(m_max_cols, m_max_cols);  // B_gᵀ S_g B_g
  for (const ColumnGroup& g : m_groups) {
    const Eigen::Index k = static_cast<Eigen::Index>(g.cols.size()), n = g.rows.rows();
    for (std::size_t j = 0; j < g.contacts.size(); ++j) {
      const int i = g.contacts[j];
      const Eigen::Index row = 3 * static_cast<Eigen::Index>(j);
      scaled.block(row, 0, 3, k).noalias() = blocks[static_cast<std::size_t>(i)] * g.rows.middleRows(row, 3);
    }
    product.topLeftCorner(k, k).noalias() = g.rows.transpose() * scaled.topLeftCorner(n, k);
    for (Eigen::Index b = 0; b < k; ++b)
      for (Eigen::Index a = 0; a < k; ++a) values[g.slots[b * k + a]] += product(a, b);
  }
  return J;
}

void BodyNewtonMatrix::group_contacts() {
  const Eigen::SparseMatrix<double, Eigen::RowMajor> rows(m_c.H);
  std::map<std::vector<int>, std::size_t> group_of;
  std::vector<int> cols;
  for (int i = 0; i < m_p.nc(); ++i) {
    cols.clear();
    for (int a = 0; a < 3; ++a)
      for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(rows, 3 * i + a); it; ++it)
        cols.push_back(static_cast<int>(it.col()));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    const auto [at, added] = group_of.try_emplace(cols, m_groups.size());
    if (added) m_groups.push_back({cols, {}, {}, {}});
    m_groups[at->second].contacts.push_back(i);
  }
  for (ColumnGroup& g : m_groups) {
    const Eigen::Index k = static_cast<Eigen::Index>(g.cols.size());
    g.rows = Eigen::MatrixXd::Zero(3 * static_cast<Eigen::Index>(g.contacts.size()), k);
    for (std::size_t j = 0; j < g.contacts.size(); ++j)
      for (int a = 0; a < 3; ++a)
        for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(rows, 3 * g.contacts[j] + a); it; ++it) {
          const auto col =
              std::lower_bound(g.cols.begin(), g.cols.end(), static_cast<int>(it.col())) - g.cols.begin();
          g.rows(3 * static_cast<Eigen::Index>(j) + a, col) = it.value();
        }
    m_max_rows = std::max(m_max_rows, g.rows.rows());
    m_max_cols = std::max(m_max_cols, k);
  }
}

void BodyNewtonMatrix::build_jacobian_pattern() {
  std::vector<Eigen::Triplet<double>> triplets;
  for (Eigen::Index j = 0; j < m_c.M.outerSize(); ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(m_c.M, j); it; ++it)
      triplets.emplace_back(static_cast<int>(it.row()), static_cast<int>(it.col()), 0.0);
  for (const ColumnGroup& g : m_groups)
    for (const int a : g.cols)
      for (const int b : g.cols) triplets.emplace_back(a, b, 0.0);
  m_pattern.resize(m_c.M.rows(), m_c.M.cols());
  m_pattern.setFromTriplets(triplets.begin(), triplets.end());
  m_pattern.makeCompressed();
  // the position of (row, col) among the values of J's compressed columns
  const auto slot = [this](int r, int c) {
    const int* first = m_pattern.innerIndexPtr() + m_pattern.outerIndexPtr()[c];
    const int* last = m_pattern.innerIndexPtr() + m_pattern.outerIndexPtr()[c + 1];
    return static_cast<Eigen::Index>(std::lower_bound(first, last, r) - m_pattern.innerIndexPtr());
  };
  m_mass_slots.clear();
  for (Eigen::Index j = 0; j < m_c.M.outerSize(); ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(m_c.M, j); it; ++it)
      m_mass_slots.push_back(slot(static_cast<int>(it.row()), static_cast<int>(it.col())));
  for (ColumnGroup& g : m_groups) {
    g.slots.clear();
    for (const int b : g.cols)
      for (const int a : g.cols) g.slots.push_back(slot(a, b));
  }
}

}  // namespace nscd::solvers::detail
