#include "solvers/contact_bodies.hpp"

#include "nscd/core/error.hpp"
#include "solvers/contact_blocks.hpp"

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <algorithm>

namespace nscd::solvers {

Eigen::Matrix3d diagonal_block(const ContactBodies& b, int i) {
  const ContactSides& c = b.contacts[i];
  Eigen::Matrix3d block = Eigen::Matrix3d::Zero();
  if (c.body[0] >= 0) block.noalias() = c.G[0] * c.Y[0];
  if (c.body[1] >= 0) block.noalias() += c.G[1] * c.Y[1];
  const Eigen::Index ld = b.modal_rows.rows();
  for (int s = 0; s < 2; ++s) {
    if (c.modal[s] < 0) continue;
    const double* T = b.modal_rows.data() + c.column[s] * ld;
    block += transposed_product(T, T + 3 * ld, c.modes[s], ld);
  }
  return block;
}

void body_velocity_change(const ContactBodies& b, const Eigen::VectorXd& r, Eigen::VectorXd& dv) {
  NSCD_DEMAND(r.size() == 3 * static_cast<Eigen::Index>(b.nc()));
  dv.setZero(b.unknowns());
  for (int i = 0; i < b.nc(); ++i) {
    const ContactSides& c = b.contacts[i];
    for (int s = 0; s < 2; ++s) {
      if (c.body[s] >= 0) dv.segment<6>(6 * c.body[s]).noalias() += c.Y[s] * r.segment<3>(3 * i);
      if (c.modal[s] >= 0) add_modal_change(b, c, s, r.segment<3>(3 * i), dv.data());
    }
  }
}

void contact_velocities(const ContactBodies& b, const Eigen::VectorXd& q, const Eigen::VectorXd& dv,
                        Eigen::VectorXd& u) {
  u.resize(3 * static_cast<Eigen::Index>(b.nc()));
  detail::for_each_contact_block(b.nc(), [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      const ContactSides& c = b.contacts[i];
      Eigen::Vector3d ui = q.segment<3>(3 * i);
      for (int s = 0; s < 2; ++s) {
        if (c.body[s] >= 0) ui.noalias() += c.G[s] * dv.segment<6>(6 * c.body[s]);
        if (c.modal[s] >= 0) ui += modal_velocity(b, c, s, dv.data());
      }
      u.segment<3>(3 * i) = ui;
    }
  });
}

namespace {

// the 6 × 6 blocks of M, checked block-diagonal
std::vector<Eigen::Matrix<double, 6, 6>> mass_blocks(const Eigen::SparseMatrix<double>& M) {
  NSCD_THROW_UNLESS(M.rows() == M.cols() && M.rows() % 6 == 0,
                    "body form: M is {}×{}, expected a square matrix of 6 unknowns per body", M.rows(), M.cols());
  std::vector<Eigen::Matrix<double, 6, 6>> blocks(M.rows() / 6, Eigen::Matrix<double, 6, 6>::Zero());
  for (Eigen::Index k = 0; k < M.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(M, k); it; ++it) {
      NSCD_THROW_UNLESS(it.row() / 6 == it.col() / 6, "body form: M({}, {}) couples two bodies, expected 6 × 6 blocks",
                        it.row(), it.col());
      blocks[it.row() / 6](it.row() % 6, it.col() % 6) = it.value();
    }
  return blocks;
}

}  // namespace

ContactBodies contact_bodies(const BodyCoupling& c) {
  const std::vector<Eigen::Matrix<double, 6, 6>> M = mass_blocks(c.M);
  NSCD_THROW_UNLESS(c.H.cols() == c.M.rows() && c.H.rows() % 3 == 0, "body form: H is {}×{}, expected 3 rows per contact and {} columns",
                    c.H.rows(), c.H.cols(), c.M.rows());
  ContactBodies out;
  out.n_bodies = static_cast<int>(M.size());
  out.contacts.resize(static_cast<std::size_t>(c.nc()));
  const Eigen::SparseMatrix<double, Eigen::RowMajor> H(c.H);
  for (int i = 0; i < c.nc(); ++i) {
    ContactSides& sides = out.contacts[i];
    for (int a = 0; a < 3; ++a)
      for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(H, 3 * i + a); it; ++it) {
        const int body = static_cast<int>(it.col() / 6);
        const int s = sides.body[0] < 0 || sides.body[0] == body ? 0 : 1;
        NSCD_THROW_UNLESS(sides.body[s] < 0 || sides.body[s] == body, "body form: contact {} touches more than two bodies", i);
        if (sides.body[s] < 0) {
          sides.body[s] = body;
          sides.G[s].setZero();
        }
        sides.G[s](a, it.col() % 6) = it.value();
      }
    for (int s = 0; s < 2; ++s)
      if (sides.body[s] >= 0) sides.Y[s] = M[sides.body[s]].ldlt().solve(sides.G[s].transpose());
  }
  return out;
}

}  // namespace nscd::solvers
