#pragma once
/// @file
/// The resultants of a joint (joints.hpp) over one step: what masonry engineers read from a
/// joint, the thrust through it and where it crosses the section (issue 16; the joint output of
/// LMGC90 and 3DEC). For a joint J of contacts i with frames R_WC,i = (n_i, t1_i, t2_i), points x_i,
/// impulses r_i over the step (rows of the solution, contact frame) and the joint's normal n,
/// polygon P and centroid c:
///  (1) f_i = R_WC,i r_i / h, the force of contact i on body b (from a) [N];
///  (2) N = Σ f_i · n (compression positive),  S = Σ f_i − N n (shear, in the plane),
///      M = Σ (x_i − c) × f_i (the moment on b about the centroid);
///  (3) the centre of pressure, where the line of action of the resultant crosses the joint's
///      plane: e = n × M / N and x_p = c + e when N > 0 (M_∥ = N e × n, so e × F = M_∥ for
///      F = N n + S); e = 0 and x_p = c when N ≤ 0 (no thrust). The eccentricity is e and |e|;
///  (4) inside: x_p lies in P, within 10⁻⁶ of the polygon's size (for a joint of one or two
///      points, P is that point or segment): false means the resultant leaves the section, which
///      a no-tension joint can only carry by opening (a hinge);
///  (5) the opening δ = max(0, max_i g_i⁺), with g_i⁺ = g_i + h (θ u_n,i⁺ + (1 − θ) u_n,i⁻) the
///      linearised gap of contact i at the end of the step (stage 7 of stepper.hpp): g_i at the
///      start of the step, u_n,i⁻ its normal velocity then, u_n,i⁺ = u_n,i − the shift of q
///      (contact_problem.hpp) at the end [m];
///  (6) the sliding velocity v_s = (I − n nᵀ) Σ w_i R_WC,i (0, u_t1,i, u_t2,i) of b relative to a at
///      the centroid, from the solution's tangential velocities at the end of the step, with the
///      weights w_i = 1/k + d_iᵀ C⁻¹ (c − x̄) of the least-squares affine fit over the k contacts
///      (x̄ their mean, d_i = x_i − x̄ and C = Σ d_i d_iᵀ in the joint's plane; w_i = 1/k when
///      A = 0, where c = x̄): exact when the relative motion is rigid [m/s];
///  (7) the state: intact while one of its contacts has an intact cohesive bond (cohesion.hpp);
///      else open when N ≤ 0 (no compression); sliding when |S| ≥ (1 − 10⁻⁶) Σ μ_i r_n,i / h
///      (the joint's shear has reached its Coulomb capacity, every loaded contact slipping the
///      same way); broken when it would stick but its bonds have broken; stick otherwise.

#include "nscd/step/active_contacts.hpp"
#include "nscd/step/joints.hpp"
#include "nscd/step/model.hpp"

#include <string_view>
#include <vector>

namespace nscd {

/// The state of eq. (7), numbered as the contacts' status (0 open, 1 stick, 2 slip), then the
/// cohesive states.
enum class JointState { Open = 0, Stick = 1, Sliding = 2, Intact = 3, Broken = 4 };

/// "open", "stick", "sliding", "intact" or "broken".
std::string_view to_string(JointState state);

/// The resultants of eqs. (2)–(7) of one joint.
struct JointForces {
  double normal_force = 0;                   // N [N]
  Vec3 shear = Vec3::Zero();                 // S [N]
  Vec3 moment = Vec3::Zero();                // M [N m]
  Vec3 centre_of_pressure = Vec3::Zero();    // x_p, world [m]
  Vec3 eccentricity = Vec3::Zero();          // e [m]
  bool inside = true;                        // x_p ∈ P
  double opening = 0;                        // δ [m]
  Vec3 sliding = Vec3::Zero();               // v_s [m/s]
  JointState state = JointState::Open;
};

/// Relative slack of eq. (7)'s Coulomb capacity, as for the contacts' status (the solver's
/// tolerance leaves ‖r_T‖ that much below μ r_n on a slipping contact).
constexpr double kJointSlipSlack = 1e-6;

/// Eqs. (1)–(7) for `joints`, found by find_joints in `contacts`, solved, of a step of `m`.
std::vector<JointForces> joint_forces(const Model& m, const StepContacts& contacts, const std::vector<Joint>& joints);

}  // namespace nscd
