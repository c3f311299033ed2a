#include "ffr/ffr_dynamics.hpp"

#include <Eigen/LU>

#include <algorithm>

namespace nscd::ffr {

Mat3 cayley_rotation(const Mat3& O_i, const Vec3& w_i, const Vec3& w_next, double h) {
  const Mat3 I = Mat3::Identity();
  return (I - 0.5 * h * skew(w_next)).inverse() * ((I + 0.5 * h * skew(w_i)) * O_i);
}

Rotation rotate(const FfrBody& body, const Mat3& O_i, const Vec3& w_i, const Vec3& L_i, std::span<const Vec3> X_B,
                std::span<const Vec3> P_W, const Rotation& start, double tolerance, int max_iterations) {
  Rotation r = start;
  r.iterations = 0;
  r.converged = false;
  r.O = cayley_rotation(O_i, w_i, r.w, body.h);  // consistent with the guess, so that the first
                                                 // unchanged ω means a fixed point
  while (r.iterations < max_iterations && !r.converged) {
    // eq. (16) in the body frame of O_{i+1}: J_B Oᵀω = Oᵀ L_i + Σ X × (Oᵀ P)
    Vec3 momentum_B = r.O.transpose() * L_i;
    for (std::size_t k = 0; k < X_B.size(); ++k) momentum_B += X_B[k].cross(r.O.transpose() * P_W[k]);
    const Vec3 w = r.O * (body.inv_inertia_B * momentum_B);
    const double change = (w - r.w).norm();
    const double scale = std::max({w.norm(), w_i.norm(), 1.0});
    r.converged = change <= tolerance * scale;
    r.w = w;
    r.O = cayley_rotation(O_i, w_i, r.w, body.h);
    ++r.iterations;
  }
  return r;
}

Eigen::VectorXd next_deformation(const FfrBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda,
                                 const Eigen::VectorXd& lambda_next) {
  if (body.theta.size() == 0) return psi + 0.5 * body.h * (lambda + lambda_next);
  return psi + body.h * (body.theta.cwiseProduct(lambda_next) +
                         (Eigen::VectorXd::Ones(body.theta.size()) - body.theta).cwiseProduct(lambda));
}

Eigen::VectorXd deformation_base(const FfrBody& body, const Eigen::VectorXd& psi, const Eigen::VectorXd& lambda) {
  const Eigen::VectorXd rhs = body.explicit_matrix * lambda - body.h * (body.stiffness * psi);
  return body.implicit->solve(rhs);
}

void add_fictitious_response(const FfrBody& body, const Mat3& O_i, const Vec3& w_i, const Mat3& O_next,
                             const Vec3& w_next, Eigen::VectorXd& lambda) {
  const Vec3 wl_i = O_i.transpose() * w_i, wl_next = O_next.transpose() * w_next;
  // T = 𝕊 + s I with 𝕊 = −½ (ω̃_i ω̃_iᵀ + ω̃_{i+1} ω̃_{i+1}ᵀ), s = ½ (|ω_i|² + |ω_{i+1}|²)
  const Mat3 T = -0.5 * (wl_i * wl_i.transpose() + wl_next * wl_next.transpose()) +
                 0.5 * (wl_i.squaredNorm() + wl_next.squaredNorm()) * Mat3::Identity();
  Eigen::Matrix<double, 9, 1> t;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) t[3 * i + j] = body.h * T(i, j);
  lambda.noalias() += body.centrifugal_response * t;
  lambda.noalias() += body.euler_response * (wl_i - wl_next);
}

}  // namespace nscd::ffr
