#pragma once
// Reads an FCLIB local problem of tests/data/fclib (see tests/data/README.md) for the solver tests.

#include "solvers/friction_problem.hpp"

#include <Eigen/Core>

// fclib.h has no C++ linkage guard
extern "C" {
#include <fclib.h>
}

#include <cctype>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace nscd::solvers::fclib_data {

/// A problem's name as a GoogleTest parameter name: every character but letters and digits as '_'.
inline std::string test_name(std::string name) {
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

/// The folder of the FCLIB problems committed with the tests.
inline std::filesystem::path fclib_folder() { return std::filesystem::path(NSCD_TEST_DATA_DIR) / "fclib"; }

/// Dense copy of an FCLIB matrix (compressed columns, compressed rows or triplets).
inline Eigen::MatrixXd dense_from_fclib(const fclib_matrix& m) {
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(m.m, m.n);
  if (m.nz == -1) {
    // compressed columns: p = column starts, i = row indices
    for (int j = 0; j < m.n; ++j) {
      for (int k = m.p[j]; k < m.p[j + 1]; ++k) dense(m.i[k], j) += m.x[k];
    }
  } else if (m.nz == -2) {
    // compressed rows: p = row starts, i = column indices
    for (int r = 0; r < m.m; ++r) {
      for (int k = m.p[r]; k < m.p[r + 1]; ++k) dense(r, m.i[k]) += m.x[k];
    }
  } else {
    // triplets as in CSparse: i = row indices, p = column indices
    for (int k = 0; k < m.nz; ++k) dense(m.i[k], m.p[k]) += m.x[k];
  }
  return dense;
}

/// The local problem `name`.hdf5 of fclib_folder(), or nothing if the file cannot be read.
inline std::optional<FrictionProblem> read_fclib_local(const std::string& name) {
  const std::string path = (fclib_folder() / (name + ".hdf5")).string();
  const std::unique_ptr<fclib_local, void (*)(fclib_local*)> local(fclib_read_local(path.c_str()), fclib_delete_local);
  if (local == nullptr || local->spacedim != 3) return std::nullopt;
  const Eigen::MatrixXd W = dense_from_fclib(*local->W);
  const Eigen::Index n = W.rows();
  FrictionProblem p;
  p.W = DelassusMatrix::from_dense(W);
  p.q = Eigen::Map<const Eigen::VectorXd>(local->q, n);
  p.mu = Eigen::Map<const Eigen::VectorXd>(local->mu, n / 3);
  return p;
}

}  // namespace nscd::solvers::fclib_data
