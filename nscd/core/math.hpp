#pragma once
/// @file
/// Small fixed-size maths shared by every module.
///
///  (1) skew(a) b = a × b.
///  (2) exp_map(φ) = the unit quaternion of the rotation by angle ‖φ‖ about φ/‖φ‖
///      (Rodrigues), evaluated with a Taylor expansion for ‖φ‖ < 1e-8 so that it is exact to
///      machine precision near zero.
///  (3) orthonormal_frame(n) = [n | t1 | t2], a right-handed frame with n first (conventions C1),
///      a deterministic function of n.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace nscd {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

/// Skew-symmetric matrix [a]× with [a]× b = a × b, eq. (1).
inline Mat3 skew(const Vec3& a) {
  Mat3 s;
  s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return s;
}

/// Unit quaternion of the rotation vector φ [rad], eq. (2).
inline Quat exp_map(const Vec3& phi) {
  const double angle = phi.norm();
  if (angle < 1e-8) {
    // cos(a/2) ≈ 1 − a²/8, sin(a/2)/a ≈ 1/2 − a²/48: truncation error below 1e-33
    const double s = 0.5 - angle * angle / 48.0;
    return Quat(1.0 - angle * angle / 8.0, s * phi.x(), s * phi.y(), s * phi.z()).normalized();
  }
  const double s = std::sin(0.5 * angle) / angle;
  return Quat(std::cos(0.5 * angle), s * phi.x(), s * phi.y(), s * phi.z());
}

/// Right-handed orthonormal frame [n | t1 | t2] with n first, eq. (3). @pre ‖n‖ = 1.
inline Mat3 orthonormal_frame(const Vec3& n) {
  // t1 is built from the world axis least aligned with n (first such axis on ties)
  Eigen::Index k = 0;
  n.cwiseAbs().minCoeff(&k);
  const Vec3 axis = Vec3::Unit(k);
  const Vec3 t1 = n.cross(axis).normalized();
  const Vec3 t2 = n.cross(t1);
  Mat3 R;
  R.col(0) = n;
  R.col(1) = t1;
  R.col(2) = t2;
  return R;
}

}  // namespace nscd
