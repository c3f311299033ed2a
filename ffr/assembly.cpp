#include "ffr/assembly.hpp"

namespace nscd::ffr {

namespace {

// f(row, column, value) for every entry of the cell matrix Ke (3 npc × 3 npc, upper triangle
// used) at the global dofs of cell c
template <class F>
void for_each_cell_entry(const Mesh& mesh, int c, const Eigen::MatrixXd& Ke, F&& f) {
  const auto nodes = mesh.cell(c);
  const int n = static_cast<int>(nodes.size());
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const int r = 3 * a + i, s = 3 * b + j;
          f(3 * nodes[a] + i, 3 * nodes[b] + j, r <= s ? Ke(r, s) : Ke(s, r));
        }
}

}  // namespace

void add_symmetric_cell_matrix(const Mesh& mesh, int c, const Eigen::MatrixXd& Ke, Triplets& triplets) {
  for_each_cell_entry(mesh, c, Ke, [&](int row, int col, double v) { triplets.emplace_back(row, col, v); });
}

void add_symmetric_cell_matrix(const Mesh& mesh, int c, const Eigen::MatrixXd& Ke, Eigen::SparseMatrix<double>& A) {
  for_each_cell_entry(mesh, c, Ke, [&](int row, int col, double v) { A.coeffRef(row, col) += v; });
}

Eigen::SparseMatrix<double> assemble(const Mesh& mesh, const Triplets& triplets) {
  Eigen::SparseMatrix<double> A(3 * mesh.nn(), 3 * mesh.nn());
  A.setFromTriplets(triplets.begin(), triplets.end());
  A.makeCompressed();
  return A;
}

}  // namespace nscd::ffr
