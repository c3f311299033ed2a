// The kinetic energy of history.csv for an FFR body: the exact ½ ∫ ρ |v + ω × O (X + ψ) + O λ|² dV
// of [Lozovskiy & Dubois 2016] eq. (8), on a rotated, rotating, moving and deformed body.

#include "scene_builder.hpp"

#include "nscd/step/energy.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace nscd {
namespace {

// one FFR block 1 × 0.8 × 2 (2 × 2 × 4 hexahedra), turned about a skew axis, with non-zero v, ω and
// non-uniform ψ, λ
test::Simulation rotating_deformed_block() {
  io::Scene scene = test::stone_scene(1e-4, 1e-3, 0.0);
  test::add_box(scene, "block", BodyKind::Ffr, Vec3(1, 0.8, 2), Vec3(0.3, -0.2, 1.5),
                Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, -0.5).normalized())))
      .elements = std::array<int, 3>{2, 2, 4};
  test::Simulation sim(scene);
  State& s = sim.state;
  s.v[0] = Vec3(1.2, -0.4, 0.3);
  s.w[0] = Vec3(0.5, 3.0, -1.5);
  const ffr::FfrBody& f = sim.model.ffr_bodies[0];
  for (int k = 0; k < f.nn(); ++k) {
    const Vec3& X = f.mesh.nodes[k];
    s.psi[0].segment<3>(3 * k) = 1e-2 * Vec3(X.x() * X.z(), X.y() * X.y(), 0.5 * X.z() + X.x());
    s.lambda[0].segment<3>(3 * k) = Vec3(0.2 * X.z(), -0.3 * X.x() * X.y(), 0.1 + X.y());
  }
  return sim;
}

TEST(Energy, FfrKineticEnergyIsHalfTheConsistentMassNormOfTheNodalVelocities) {
  const test::Simulation sim = rotating_deformed_block();
  const State& s = sim.state;
  const ffr::FfrBody& f = sim.model.ffr_bodies[0];
  // the world-frame nodal velocities u_k = v + ω × O (X_k + ψ_k) + O λ_k; with the interpolation's
  // partition of unity the velocity field is Σ N_k u_k, so T = ½ Σ_kl M_kl u_k · u_l exactly
  const Mat3 O = s.q[0].toRotationMatrix();
  Eigen::VectorXd u(f.ndof());
  for (int k = 0; k < f.nn(); ++k)
    u.segment<3>(3 * k) = s.v[0] + s.w[0].cross(O * (f.mesh.nodes[k] + s.psi[0].segment<3>(3 * k))) +
                          O * s.lambda[0].segment<3>(3 * k);
  const double exact = 0.5 * u.dot(f.mass_matrix * u);
  // the rigid part plus ½ λᵀ M λ, without the cross terms: 11 % low here
  const double split = 0.5 * f.mass * s.v[0].squaredNorm() +
                       0.5 * s.w[0].dot(O * f.inertia_B * O.transpose() * s.w[0]) +
                       0.5 * s.lambda[0].dot(f.mass_matrix * s.lambda[0]);
  ASSERT_GT(std::abs(split - exact), 1e-2 * exact);
  // the same sum in another frame (world instead of body): round-off of a few hundred terms of
  // magnitude ≤ T, 1e-13 relative
  EXPECT_NEAR(kinetic_energy(sim.model, s), exact, 1e-13 * exact);
}

TEST(Energy, FfrMaterialAtRestInAMovingFrameHasNoKineticEnergy) {
  // λ_k = −Oᵀ v − Oᵀ ω × (X_k + ψ_k): every material point is at rest in the world although the
  // frame moves and turns, so T = 0 (round-off relative to the frame's own ½ m |v|² + ½ ωᵀ J ω)
  test::Simulation sim = rotating_deformed_block();
  State& s = sim.state;
  const ffr::FfrBody& f = sim.model.ffr_bodies[0];
  const Mat3 O_T = s.q[0].toRotationMatrix().transpose();
  for (int k = 0; k < f.nn(); ++k)
    s.lambda[0].segment<3>(3 * k) =
        -O_T * s.v[0] - (O_T * s.w[0]).cross(f.mesh.nodes[k] + s.psi[0].segment<3>(3 * k));
  const double frame_energy = 0.5 * f.mass * s.v[0].squaredNorm() + 0.5 * (O_T * s.w[0]).dot(f.inertia_B * O_T * s.w[0]);
  EXPECT_NEAR(kinetic_energy(sim.model, s), 0.0, 1e-13 * frame_energy);
}

}  // namespace
}  // namespace nscd
