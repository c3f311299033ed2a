#include "ffr/assembly.hpp"

namespace nscd::ffr {

void add_symmetric_cell_matrix(const Mesh& mesh, int c, const Eigen::MatrixXd& Ke, Triplets& triplets) {
  const auto nodes = mesh.cell(c);
  const int n = static_cast<int>(nodes.size());
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          // upper triangle of Ke only
          const int r = 3 * a + i, s = 3 * b + j;
          triplets.emplace_back(3 * nodes[a] + i, 3 * nodes[b] + j, r <= s ? Ke(r, s) : Ke(s, r));
        }
}

void add_symmetric_cell_matrix(const Mesh& mesh, int c, const Eigen::MatrixXd& Ke, Eigen::SparseMatrix<double>& A) {
  const auto nodes = mesh.cell(c);
  const int n = static_cast<int>(nodes.size());
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const int r = 3 * a + i, s = 3 * b + j;
          A.coeffRef(3 * nodes[a] + i, 3 * nodes[b] + j) += r <= s ? Ke(r, s) : Ke(s, r);
        }
}

Eigen::SparseMatrix<double> assemble(const Mesh& mesh, const Triplets& triplets) {
  Eigen::SparseMatrix<double> A(3 * mesh.nn(), 3 * mesh.nn());
  A.setFromTriplets(triplets.begin(), triplets.end());
  A.makeCompressed();
  return A;
}

}  // namespace nscd::ffr
