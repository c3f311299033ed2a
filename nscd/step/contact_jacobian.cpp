#include "nscd/step/contact_jacobian.hpp"

#include "nscd/core/error.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>

namespace nscd {
namespace {

// one block W_ij (j > i) of a row: the side of j on each body of i (−1 where j does not touch
// it) and the rank of i among the columns i' < j of row j
struct UpperEntry {
  int j;
  int rank;
  std::int8_t side_on_a;
  std::int8_t side_on_b;
};

// eq. (4) for one block: G_αb Y_βb over the shared bodies, body a's term first, each followed
// by eq. (6) when both sides on that body are deformable
Eigen::Matrix3d delassus_block(const ContactJacobian& Ji, const ContactJacobian& Jj, int side_on_a, int side_on_b,
                               const DeformableBlock& deformable) {
  Eigen::Matrix3d block;
  if (side_on_a >= 0) {
    block.noalias() = Ji.G[0] * Jj.Y[side_on_a];
    if (Ji.point[0] >= 0) block += deformable(Ji.point[0], Jj.point[side_on_a]);
    if (side_on_b >= 0) block.noalias() += Ji.G[1] * Jj.Y[side_on_b];
  } else {
    block.noalias() = Ji.G[1] * Jj.Y[side_on_b];
  }
  if (side_on_b >= 0 && Ji.point[1] >= 0) block += deformable(Ji.point[1], Jj.point[side_on_b]);
  return block;
}

}  // namespace

void fill_jacobian(const contact::ContactPoint& c, const Vec3& r_a, const Vec3& r_b, ContactJacobian& J) {
  J.body[0] = c.a;
  J.body[1] = c.b;
  // eq. (2): body b with +, body a with −; row k of Rᵀ [r]× is (R e_k × r)ᵀ, the frame's axis k
  // crossed with the lever arm (no product with [r]×'s zeros)
  for (int k = 0; k < 3; ++k) {
    const Vec3 axis = c.R_WC.col(k);
    J.G[1].row(k) << axis.transpose(), r_b.cross(axis).transpose();
    J.G[0].row(k) << -axis.transpose(), axis.cross(r_a).transpose();
  }
}

std::vector<Vec6> body_velocity_changes(const std::vector<ContactJacobian>& jacobians, int nb, const Eigen::VectorXd& r) {
  NSCD_DEMAND(r.size() == 3 * static_cast<Eigen::Index>(jacobians.size()));
  std::vector<Vec6> dv(static_cast<std::size_t>(nb), Vec6::Zero());
  for (std::size_t i = 0; i < jacobians.size(); ++i)
    for (int side = 0; side < 2; ++side)
      if (jacobians[i].movable[side])
        dv[jacobians[i].body[side]].noalias() += jacobians[i].Y[side] * r.segment<3>(3 * static_cast<Eigen::Index>(i));
  return dv;
}

solvers::DelassusMatrix assemble_delassus(const std::vector<ContactJacobian>& jacobians, int nb,
                                          const DeformableBlock& deformable) {
  const int nc = static_cast<int>(jacobians.size());
  // contacts touching each movable body, in contact order (counting sort); entry = 2 contact + side,
  // position[entry] = where the entry sits in the list of its body
  std::vector<int> start(nb + 1, 0);
  for (const ContactJacobian& J : jacobians)
    for (int s = 0; s < 2; ++s)
      if (J.movable[s]) ++start[J.body[s] + 1];
  for (int b = 0; b < nb; ++b) start[b + 1] += start[b];
  std::vector<int> entries(start[nb]);
  std::vector<int> position(2 * static_cast<std::size_t>(nc));
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (int i = 0; i < nc; ++i)
    for (int s = 0; s < 2; ++s)
      if (jacobians[i].movable[s]) {
        position[2 * i + s] = fill[jacobians[i].body[s]];
        entries[fill[jacobians[i].body[s]]++] = 2 * i + s;
      }

  // upper part of every row in increasing (i, j): merge of the tails after i of its bodies' lists;
  // visiting rows in order ranks each i among the lower columns of row j
  std::size_t bound = 0;
  for (int b = 0; b < nb; ++b) bound += static_cast<std::size_t>(start[b + 1] - start[b]) * (start[b + 1] - start[b]) / 2;
  std::vector<UpperEntry> upper(bound);
  std::vector<int> upper_start(nc + 1, 0), n_lower(nc, 0);
  std::size_t n_upper = 0;
  for (int i = 0; i < nc; ++i) {
    const ContactJacobian& J = jacobians[i];
    int ka = 0, ka_end = 0, kb = 0, kb_end = 0;
    if (J.movable[0]) ka = position[2 * i] + 1, ka_end = start[J.body[0] + 1];
    if (J.movable[1]) kb = position[2 * i + 1] + 1, kb_end = start[J.body[1] + 1];
    while (ka < ka_end || kb < kb_end) {
      const int ea = ka < ka_end ? entries[ka] : 2 * nc, eb = kb < kb_end ? entries[kb] : 2 * nc;
      const int j = std::min(ea / 2, eb / 2);
      const bool in_a = ea / 2 == j, in_b = eb / 2 == j;
      upper[n_upper++] = {j, n_lower[j]++, static_cast<std::int8_t>(in_a ? ea % 2 : -1),
                          static_cast<std::int8_t>(in_b ? eb % 2 : -1)};
      ka += in_a;
      kb += in_b;
    }
    upper_start[i + 1] = static_cast<int>(n_upper);
  }

  // row i = its lower columns (from the rows before) then its upper ones
  std::vector<int> row_start(nc + 1, 0);
  for (int i = 0; i < nc; ++i) row_start[i + 1] = row_start[i] + n_lower[i] + upper_start[i + 1] - upper_start[i];
  std::vector<Eigen::Matrix3d> diag(nc), blocks(row_start[nc]);
  std::vector<int> cols(row_start[nc]);

  // each block once, by the row of its smaller contact, which writes W_ij and W_ji = W_ijᵀ
  tbb::parallel_for(0, nc, [&](int i) {
    const ContactJacobian& J = jacobians[i];
    diag[i] = delassus_block(J, J, J.movable[0] ? 0 : -1, J.movable[1] ? 1 : -1, deformable);
    int k = row_start[i] + n_lower[i];
    for (int e = upper_start[i]; e < upper_start[i + 1]; ++e, ++k) {
      const UpperEntry& u = upper[e];
      blocks[k] = delassus_block(J, jacobians[u.j], u.side_on_a, u.side_on_b, deformable);
      cols[k] = u.j;
      const int l = row_start[u.j] + u.rank;
      blocks[l] = blocks[k].transpose();
      cols[l] = i;
    }
  });
  return solvers::DelassusMatrix::from_block_rows(std::move(diag), std::move(row_start), std::move(cols),
                                                  std::move(blocks));
}

}  // namespace nscd
