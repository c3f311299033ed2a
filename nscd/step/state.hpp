#pragma once
/// @file
/// Everything that changes while stepping and that a restart needs (MuJoCo's mjData minus the
/// scratch): time, each body's pose and velocities (for an FFR body, those of its floating
/// frame, plus the nodal ψ and λ of [Lozovskiy & Dubois 2016] eq. 19; for a TL or linear body,
/// its mass-weighted mean motion, plus the absolute nodal ψ and λ of eq. 28), and last step's
/// reactions for the warm start, and the cohesive bonds, intact and broken.

#include "nscd/core/math.hpp"

#include <compare>
#include <cstdint>
#include <vector>

namespace nscd {

/// A contact of the last step, remembered for the warm start: its bodies a < b, its point in
/// body a's frame, and its impulse in the world frame (contact frames may turn between steps).
struct WarmContact {
  int a = 0, b = 0;
  Vec3 p_A = Vec3::Zero();    // [m], body a's frame at the start of that step
  Vec3 r_W = Vec3::Zero();    // impulse on body b [N·s], world frame
};

/// A bond (cohesion.hpp): the contact between bodies a < b of feature `feature`
/// (contact::ContactPoint::feature), bonded at t = 0.
struct BondKey {
  int a = 0, b = 0;
  std::uint64_t feature = 0;

  friend auto operator<=>(const BondKey&, const BondKey&) = default;
};

struct State {
  double t = 0.0;
  long step = 0;
  std::vector<Vec3> x;   // centre of mass, world [m]
  std::vector<Quat> q;   // orientation q_WB
  std::vector<Vec3> v;   // velocity of the centre of mass, world [m/s]
  std::vector<Vec3> w;   // angular velocity, world [rad/s]
  std::vector<Eigen::VectorXd> psi;     // FFR bodies: nodal displacements in the body frame [m]
  std::vector<Eigen::VectorXd> lambda;  // FFR bodies: their velocities [m/s]
  std::vector<Eigen::VectorXd> tl_psi;     // TL, linear bodies: absolute nodal displacements, body frame at t = 0 [m]
  std::vector<Eigen::VectorXd> tl_lambda;  // TL, linear bodies: absolute nodal velocities, same frame [m/s]
  std::vector<WarmContact> warm;  // last step's active contacts, sorted by (a, b)
  std::vector<BondKey> bonds;         // intact bonds, sorted; set by the first step (cohesion.hpp)
  std::vector<BondKey> broken_bonds;  // bonds broken since t = 0, sorted: frictional with μ_res
};

}  // namespace nscd
