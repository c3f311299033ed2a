#include "nscd/step/strain_check.hpp"

#include "ffr/linear_elasticity.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace nscd {

double largest_principal_strain(const ffr::Mesh& mesh, const Eigen::VectorXd& u) {
  double largest = 0;
  for (const Mat3& eps : ffr::centre_strains(mesh, u)) {
    Eigen::SelfAdjointEigenSolver<Mat3> eigen;
    eigen.computeDirect(eps, Eigen::EigenvaluesOnly);
    largest = std::max(largest, eigen.eigenvalues().cwiseAbs().maxCoeff());
  }
  return largest;
}

BodyStrain largest_small_strain(const Model& m, const State& s) {
  BodyStrain worst;
  for (int b = 0; b < m.nb(); ++b) {
    const BodyModel& body = m.bodies[b];
    double strain = 0;
    switch (body.kind) {
      case BodyKind::Ffr: {
        const ffr::FfrBody& f = m.ffr_bodies[body.ffr_index];
        strain = largest_principal_strain(f.mesh, ffr::nodal_field(f, s.psi[body.ffr_index]));
        break;
      }
      case BodyKind::Linear:
        strain = largest_principal_strain(m.tl_bodies[body.tl_index].fe.mesh, s.tl_psi[body.tl_index]);
        break;
      case BodyKind::Tl:  // finite strains: no small-strain bound to check
      case BodyKind::Rigid:
      case BodyKind::Fixed:
      case BodyKind::Driven:
        continue;
    }
    if (worst.body < 0 || strain > worst.strain) worst = {b, strain};
  }
  return worst;
}

}  // namespace nscd
