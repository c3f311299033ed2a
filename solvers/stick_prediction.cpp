#include "solvers/stick_prediction.hpp"

#include "solvers/error_measure.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <vector>

namespace nscd::solvers {
namespace {
// proximal weight relative to the mean diagonal of W, and the number of proximal iterations: each
// reduces the residual in the range of W by at least ε/(λ_min + ε); the null-space part of the
// first iterate carries round-off of about 1e-16/1e-8 relative
constexpr double kRegularisation = 1e-8;
constexpr int kProximalIterations = 4;
}  // namespace

Eigen::VectorXd stick_prediction(const FrictionProblem& p) {
  const int nc = p.nc();
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(nc);
  Eigen::VectorXd r = Eigen::VectorXd::Zero(n);
  if (nc == 0) return r;

  // W + ε I as a sparse matrix (lower triangle suffices for LDLᵀ; both halves are given)
  double trace = 0;
  for (int i = 0; i < nc; ++i) trace += p.W.diag(i).trace();
  const double epsilon = kRegularisation * trace / static_cast<double>(n);
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(9 * static_cast<std::size_t>(nc + p.W.n_offdiag()));
  auto add_block = [&](int i, int j, const Eigen::Matrix3d& block) {
    for (int k = 0; k < 3; ++k)
      for (int l = 0; l < 3; ++l) entries.emplace_back(3 * i + k, 3 * j + l, block(k, l));
  };
  for (int i = 0; i < nc; ++i) {
    add_block(i, i, p.W.diag(i) + epsilon * Eigen::Matrix3d::Identity());
    p.W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& block) { add_block(i, j, block); });
  }
  Eigen::SparseMatrix<double> A(n, n);
  A.setFromTriplets(entries.begin(), entries.end());

  // eq. (2) from r = 0, then eq. (3)
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(A);
  if (ldlt.info() != Eigen::Success) return r;
  for (int k = 0; k < kProximalIterations; ++k) r += ldlt.solve(-p.q - p.W.apply(r));
  if (!r.allFinite()) return Eigen::VectorXd::Zero(n);
  for (int i = 0; i < nc; ++i) r.segment<3>(3 * i) = project_on_cone(r.segment<3>(3 * i), p.mu[i]);
  return r;
}

}  // namespace nscd::solvers
