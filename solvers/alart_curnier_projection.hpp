#pragma once
/// @file
/// Internal to solvers/: the projection of the Alart–Curnier function [Alart & Curnier 1991],
/// shared by the Newton solvers (nsn.hpp eq. (2), velocity_prox.hpp),
///
///  (1) P(x) = ( max(0, x_n),  P_D(μ max(0, x_n))(x_T) )
///
/// with P_D(a) the projection on the disc of radius a, and its generalized derivative
/// D = ∂P/∂x: 0 where x_n < 0 (open), I inside the disc (stick), and where x_T is outside it
/// (slide), with e = x_T/‖x_T‖,
///
///  (2) D = [ 1 0 ; μ e  (μ x_n / ‖x_T‖)(I − e eᵀ) ].
///
/// References: [Alart & Curnier 1991] A mixed formulation for frictional contact problems prone
///             to Newton like solution methods, CMAME 92.

#include <Eigen/Core>

#include <algorithm>

namespace nscd::solvers::detail {

/// Eq. (1) at x for friction coefficient mu, with D of eq. (2).
inline Eigen::Vector3d ac_projection(const Eigen::Vector3d& x, double mu, Eigen::Matrix3d& D) {
  D.setZero();
  Eigen::Vector3d p;
  p(0) = std::max(x(0), 0.0);
  if (x(0) > 0.0) D(0, 0) = 1.0;
  const double radius = mu * p(0);
  const Eigen::Vector2d x_t = x.tail<2>();
  const double norm_t = x_t.norm();
  if (norm_t <= radius) {
    p.tail<2>() = x_t;
    D.bottomRightCorner<2, 2>().setIdentity();
    return p;
  }
  const Eigen::Vector2d e = x_t / norm_t;
  p.tail<2>() = radius * e;
  if (x(0) > 0.0) D.block<2, 1>(1, 0) = mu * e;
  D.bottomRightCorner<2, 2>() = (radius / norm_t) * (Eigen::Matrix2d::Identity() - e * e.transpose());
  return p;
}

}  // namespace nscd::solvers::detail
