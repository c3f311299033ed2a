#include "nscd/step/contact_jacobian.hpp"

namespace nscd {

void fill_jacobian(const contact::ContactPoint& c, const Vec3& x_a, const Vec3& x_b, ContactJacobian& J) {
  J.body[0] = c.a;
  J.body[1] = c.b;
  const Mat3 Rt = c.R_WC.transpose();
  // eq. (2): body b with +, body a with −
  J.G[1].leftCols<3>() = Rt;
  J.G[1].rightCols<3>() = -Rt * skew(c.p_W - x_b);
  J.G[0].leftCols<3>() = -Rt;
  J.G[0].rightCols<3>() = Rt * skew(c.p_W - x_a);
}

solvers::DelassusMatrix assemble_delassus(const std::vector<ContactJacobian>& jacobians, int nb,
                                          std::vector<solvers::DelassusTriplet>& scratch) {
  const int nc = static_cast<int>(jacobians.size());
  // contacts touching each movable body, in contact order (counting sort)
  std::vector<int> start(nb + 1, 0);
  for (const ContactJacobian& J : jacobians)
    for (int s = 0; s < 2; ++s)
      if (J.movable[s]) ++start[J.body[s] + 1];
  for (int b = 0; b < nb; ++b) start[b + 1] += start[b];
  std::vector<int> entries(start[nb]);  // contact * 2 + side
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (int i = 0; i < nc; ++i)
    for (int s = 0; s < 2; ++s)
      if (jacobians[i].movable[s]) entries[fill[jacobians[i].body[s]]++] = 2 * i + s;

  // eq. (4), body by body: every pair of contacts sharing the body adds G_αb Y_βb
  scratch.clear();
  for (int b = 0; b < nb; ++b) {
    for (int k = start[b]; k < start[b + 1]; ++k) {
      const int i = entries[k] / 2, si = entries[k] % 2;
      for (int l = k; l < start[b + 1]; ++l) {
        const int j = entries[l] / 2, sj = entries[l] % 2;
        scratch.push_back({i, j, jacobians[i].G[si] * jacobians[j].Y[sj]});
      }
    }
  }
  return solvers::DelassusMatrix::from_upper_triplets(nc, scratch);
}

}  // namespace nscd
