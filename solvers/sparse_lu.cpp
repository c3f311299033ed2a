#include "solvers/sparse_lu.hpp"

#include <klu.h>

#include <algorithm>

namespace nscd::solvers::detail {

struct SparseLu::Klu {
  klu_common common{};
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;

  Klu() { klu_defaults(&common); }
  ~Klu() {
    free_numeric();
    if (symbolic != nullptr) klu_free_symbolic(&symbolic, &common);
  }
  void free_numeric() {
    if (numeric != nullptr) klu_free_numeric(&numeric, &common);
  }
  // KLU takes the values as non-const; it reads them only
  static double* values(const double* p) { return const_cast<double*>(p); }
};

SparseLu::SparseLu() : m_klu(std::make_unique<Klu>()) {}
SparseLu::~SparseLu() = default;

bool SparseLu::factorize(const Eigen::SparseMatrix<double>& A) {
  Klu& k = *m_klu;
  const int n = static_cast<int>(A.cols());
  const int nnz = static_cast<int>(A.nonZeros());
  const bool same_pattern = k.symbolic != nullptr && m_outer.size() == n + 1 && m_inner.size() == nnz &&
                            std::equal(A.outerIndexPtr(), A.outerIndexPtr() + n + 1, m_outer.data()) &&
                            std::equal(A.innerIndexPtr(), A.innerIndexPtr() + nnz, m_inner.data());
  if (!same_pattern) {
    k.free_numeric();
    if (k.symbolic != nullptr) klu_free_symbolic(&k.symbolic, &k.common);
    m_outer = Eigen::Map<const Eigen::VectorXi>(A.outerIndexPtr(), n + 1);
    m_inner = Eigen::Map<const Eigen::VectorXi>(A.innerIndexPtr(), nnz);
    k.symbolic = klu_analyze(n, m_outer.data(), m_inner.data(), &k.common);
    if (k.symbolic == nullptr) return false;
    return factorize_pivoting(A);
  }
  if (k.numeric == nullptr) return factorize_pivoting(A);
  double* values = Klu::values(A.valuePtr());
  const double least_rcond = std::max(kRepivot * m_pivoting_rcond, kSingular);
  if (klu_refactor(m_outer.data(), m_inner.data(), values, k.symbolic, k.numeric, &k.common) == 1 &&
      klu_rcond(k.symbolic, k.numeric, &k.common) == 1 && k.common.rcond >= least_rcond)
    return true;
  return factorize_pivoting(A);
}

bool SparseLu::factorize_pivoting(const Eigen::SparseMatrix<double>& A) {
  Klu& k = *m_klu;
  k.free_numeric();
  ++m_pivotings;
  double* values = Klu::values(A.valuePtr());
  k.numeric = klu_factor(m_outer.data(), m_inner.data(), values, k.symbolic, &k.common);
  if (k.numeric == nullptr || k.common.status != KLU_OK) {
    k.free_numeric();
    return false;
  }
  if (klu_rcond(k.symbolic, k.numeric, &k.common) != 1) return false;
  m_pivoting_rcond = k.common.rcond;
  return m_pivoting_rcond >= kSingular;
}

Eigen::VectorXd SparseLu::solve(const Eigen::VectorXd& b) {
  Klu& k = *m_klu;
  Eigen::VectorXd x = b;
  klu_solve(k.symbolic, k.numeric, static_cast<int>(x.size()), 1, x.data(), &k.common);
  return x;
}

}  // namespace nscd::solvers::detail
