#include "nscd/step/rigid_dynamics.hpp"

namespace nscd {

FreeMotion free_motion(double mass, const Mat3& inertia_B, const Mat3& inv_inertia_B, const Quat& q_WB,
                       const Vec3& v, const Vec3& w, const Vec3& gravity, const BodyLoad& load, double h,
                       double theta) {
  FreeMotion free;
  // eq. (1) without impulses: gravity and the applied force act at the centre of mass
  // (the load terms are added only when non-zero, so that an unloaded body's velocities keep their bits,
  // signed zeros included)
  free.v = v + h * gravity;
  if (load.acceleration != Vec3::Zero()) free.v += h * load.acceleration;
  if (load.force != Vec3::Zero()) free.v += (h / mass) * load.force;

  // eqs. (2)–(3) without impulses: J_W(R⁺) ω⁺ = L⁻ + h M_θ, fixed point on ω⁺ from ω⁻
  const Mat3 R_old = q_WB.toRotationMatrix();
  Vec3 L = R_old * (inertia_B * (R_old.transpose() * w));
  if (load.moment != Vec3::Zero()) L += h * load.moment;
  constexpr int kMaxIterations = 100;
  constexpr double kRelTol = 1e-15;  // machine precision: the scheme conserves L exactly
  Vec3 w_new = w;
  Mat3 R_new = R_old;
  for (free.iterations = 1; free.iterations <= kMaxIterations; ++free.iterations) {
    R_new = (exp_map(h * (theta * w_new + (1 - theta) * w)) * q_WB).normalized().toRotationMatrix();
    const Vec3 w_next = R_new * (inv_inertia_B * (R_new.transpose() * L));
    const double change = (w_next - w_new).norm();
    w_new = w_next;
    if (change <= kRelTol * (1.0 + w_new.norm())) break;
  }
  // the orientation used by M̂⁻¹ is the one the converged ω⁺ gives
  R_new = (exp_map(h * (theta * w_new + (1 - theta) * w)) * q_WB).normalized().toRotationMatrix();
  free.w = w_new;
  free.inv_inertia_W = R_new * inv_inertia_B * R_new.transpose();
  return free;
}

void integrate_pose(Vec3& x, Quat& q_WB, const Vec3& v_old, const Vec3& w_old, const Vec3& v_new,
                    const Vec3& w_new, double h, double theta) {
  // eq. (4)
  x += h * (theta * v_new + (1 - theta) * v_old);
  integrate_orientation(q_WB, w_old, w_new, h, theta);
}

void integrate_orientation(Quat& q_WB, const Vec3& w_old, const Vec3& w_new, double h, double theta) {
  // eq. (3): world-frame increment on the left
  q_WB = (exp_map(h * (theta * w_new + (1 - theta) * w_old)) * q_WB).normalized();
}

double kinetic_energy(double mass, const Mat3& inertia_B, const Quat& q_WB, const Vec3& v, const Vec3& w) {
  const Vec3 w_B = q_WB.conjugate() * w;
  return 0.5 * mass * v.squaredNorm() + 0.5 * w_B.dot(inertia_B * w_B);
}

}  // namespace nscd
