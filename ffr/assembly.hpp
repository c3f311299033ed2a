#pragma once
/// @file
/// Assembly of cell matrices into sparse global matrices (internal helper of
/// linear_elasticity and st_venant_kirchhoff). Dofs are 3·node + direction:
///
///  (1) A(3 n_a + i, 3 n_b + j) += Ke(3a + i, 3b + j)   for the nodes n_a, n_b of a cell,
///
/// with the triplets appended in cell order, so that the sums (and their rounding) do not
/// depend on anything but the mesh.

#include "ffr/mesh.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <vector>

namespace nscd::ffr {

using Triplets = std::vector<Eigen::Triplet<double>>;

/// Appends the symmetric (3npc × 3npc) cell matrix Ke of cell `c` to `triplets`, eq. (1).
/// Only the upper triangle of Ke is read and mirrored, so the assembled matrix is symmetric
/// bit for bit (sums over cells run in the same order for (i, j) and (j, i)).
void add_symmetric_cell_matrix(const Mesh& mesh, int c, const Eigen::MatrixXd& Ke, Triplets& triplets);

/// The same, summed into A's existing entries (coeffRef; A's storage and pattern are reused).
/// Entries are summed in cell order, as by assemble(), so the result is the same bit for bit.
void add_symmetric_cell_matrix(const Mesh& mesh, int c, const Eigen::MatrixXd& Ke, Eigen::SparseMatrix<double>& A);

/// The compressed (3nn × 3nn) matrix summing `triplets`.
Eigen::SparseMatrix<double> assemble(const Mesh& mesh, const Triplets& triplets);

}  // namespace nscd::ffr
