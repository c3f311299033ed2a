#include "nscd/step/joint_forces.hpp"

#include "nscd/step/contact_problem.hpp"

#include <algorithm>
#include <cmath>

namespace nscd {
namespace {

// relative tolerance of eq. (4), on the polygon's size
constexpr double kInsideTolerance = 1e-6;

Vec3 impulse(const StepContacts& contacts, int i) {
  return contacts.solution.r.segment<3>(3 * static_cast<Eigen::Index>(i));
}

// eq. (4): x in P (the polygon, a segment or a point), within kInsideTolerance of P's size
bool inside_polygon(const Joint& joint, const Vec3& x) {
  const std::vector<Vec3>& p = joint.polygon;
  double size = 0;
  for (const Vec3& v : p) size = std::max(size, (v - joint.centroid).norm());
  const double tol = kInsideTolerance * size;
  if (p.size() == 1) return (x - p[0]).norm() <= tol;
  if (p.size() == 2) {
    const Vec3 d = p[1] - p[0];
    const double s = std::clamp((x - p[0]).dot(d) / d.squaredNorm(), 0.0, 1.0);
    return (x - p[0] - s * d).norm() <= tol;
  }
  for (std::size_t k = 0; k < p.size(); ++k) {
    const Vec3 edge = p[(k + 1) % p.size()] - p[k];
    if (edge.cross(x - p[k]).dot(joint.normal) < -tol * edge.norm()) return false;
  }
  return true;
}

// eq. (5)
double opening(const Model& m, const StepContacts& contacts, const Joint& joint) {
  double largest = 0;
  for (int i : joint.contacts) {
    const ActiveContact& contact = contacts.active[i];
    const double u_end = contacts.solution.u[3 * static_cast<Eigen::Index>(i)] - normal_velocity_shift(m, contact);
    largest = std::max(largest, end_of_step_gap(m, contact, u_end));
  }
  return largest;
}

// eq. (6)
Vec3 sliding_velocity(const StepContacts& contacts, const Joint& joint) {
  const int k = static_cast<int>(joint.contacts.size());
  const Mat3 plane = Mat3::Identity() - joint.normal * joint.normal.transpose();
  Vec3 mean = Vec3::Zero();
  for (int i : joint.contacts) mean += contacts.active[i].point.p_W;
  mean /= k;
  // C⁻¹ (c − x̄) in the plane, as a world vector (C is singular along n; the pseudo-inverse)
  Vec3 to_centroid = Vec3::Zero();
  if (joint.area > 0) {
    Mat3 C = Mat3::Zero();
    for (int i : joint.contacts) {
      const Vec3 d = plane * (contacts.active[i].point.p_W - mean);
      C += d * d.transpose();
    }
    C += joint.normal * joint.normal.transpose();  // invertible, the same on the plane
    to_centroid = plane * C.inverse() * plane * (joint.centroid - mean);
  }
  Vec3 v = Vec3::Zero();
  for (int i : joint.contacts) {
    const contact::ContactPoint& c = contacts.active[i].point;
    const Vec3 u = contacts.solution.u.segment<3>(3 * static_cast<Eigen::Index>(i));
    const double w = 1.0 / k + (plane * (c.p_W - mean)).dot(to_centroid);
    v += w * (c.R_WC.col(1) * u[1] + c.R_WC.col(2) * u[2]);
  }
  return plane * v;
}

JointForces forces_of(const Model& m, const StepContacts& contacts, const Joint& joint) {
  const double h = m.step.h;
  JointForces f;
  Vec3 total = Vec3::Zero();
  double capacity = 0;
  for (int i : joint.contacts) {
    const contact::ContactPoint& c = contacts.active[i].point;
    const Vec3 r = impulse(contacts, i);
    const Vec3 force = c.R_WC * r / h;  // eq. (1)
    total += force;
    f.moment += (c.p_W - joint.centroid).cross(force);
    capacity += contacts.problem.mu[i] * r[0] / h;
  }
  f.normal_force = total.dot(joint.normal);  // eq. (2)
  f.shear = total - f.normal_force * joint.normal;
  if (f.normal_force > 0) f.eccentricity = joint.normal.cross(f.moment) / f.normal_force;  // eq. (3)
  f.centre_of_pressure = joint.centroid + f.eccentricity;
  f.inside = inside_polygon(joint, f.centre_of_pressure);
  f.opening = opening(m, contacts, joint);
  f.sliding = sliding_velocity(contacts, joint);
  const auto has_bond = [&](Bond bond) {
    return std::any_of(joint.contacts.begin(), joint.contacts.end(),
                       [&](int i) { return contacts.active[i].bond == bond; });
  };
  if (has_bond(Bond::Intact))  // eq. (7)
    f.state = JointState::Intact;
  else if (f.normal_force <= 0)
    f.state = JointState::Open;
  else if (f.shear.norm() >= (1 - kJointSlipSlack) * capacity)
    f.state = JointState::Sliding;
  else
    f.state = has_bond(Bond::Broken) ? JointState::Broken : JointState::Stick;
  return f;
}

}  // namespace

std::string_view to_string(JointState state) {
  switch (state) {
    case JointState::Open:
      return "open";
    case JointState::Stick:
      return "stick";
    case JointState::Sliding:
      return "sliding";
    case JointState::Intact:
      return "intact";
    case JointState::Broken:
      return "broken";
  }
  return "unknown";
}

std::vector<JointForces> joint_forces(const Model& m, const StepContacts& contacts, const std::vector<Joint>& joints) {
  std::vector<JointForces> forces;
  forces.reserve(joints.size());
  for (const Joint& joint : joints) forces.push_back(forces_of(m, contacts, joint));
  return forces;
}

}  // namespace nscd
