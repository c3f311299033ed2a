#include "nscd/step/cohesion.hpp"

#include "nscd/step/contact_problem.hpp"
#include "nscd/step/joints.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <iterator>
#include <set>
#include <utility>

namespace nscd {
namespace {

// eigenvalues of I below this fraction of the largest are null directions
constexpr double kRankTolerance = 1e-9;

BondKey key(const contact::ContactPoint& c) { return {c.a, c.b, c.feature}; }

const ContactLaw& contact_law(const Model& m, const contact::ContactPoint& c) {
  return m.law(m.bodies[c.a].material, m.bodies[c.b].material);
}

// A_i of every active contact (joints.hpp eq. (2))
std::vector<double> tributary_areas(const ActiveContacts& active, const std::vector<Joint>& joints) {
  std::vector<double> area(active.size(), 0.0);
  for (const Joint& joint : joints)
    for (std::size_t k = 0; k < joint.contacts.size(); ++k) area[joint.contacts[k]] = joint.tributary_area[k];
  return area;
}

// eq. (1) for every contact, and the μ of each (μ_res once broken) into the problem
Eigen::VectorXd shifts(const Model& m, const std::vector<double>& area, StepWorkspace& ws) {
  const ActiveContacts& active = ws.contacts.active;
  Eigen::VectorXd s = Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(active.size()));
  for (int i = 0; i < active.size(); ++i) {
    const ContactLaw& law = contact_law(m, active[i].point);
    if (active[i].bond == Bond::Intact && law.cohesion > 0) s[3 * i] = m.step.h * law.cohesion * area[i] / law.friction;
    ws.contacts.problem.mu[i] = friction_coefficient(law, active[i].bond);
  }
  return s;
}

// eq. (5)'s σ_k at the contacts `bonded` of one joint (intact, with an area) [Pa]
std::vector<double> navier_stresses(const Model& m, const std::vector<int>& bonded, const std::vector<double>& area,
                                    const StepContacts& contacts) {
  const auto force = [&](int k) { return contacts.solution.r[3 * static_cast<Eigen::Index>(k)] / m.step.h; };
  double A = 0, N = 0;
  Vec3 centroid = Vec3::Zero();
  for (const int k : bonded) {
    A += area[k];
    N += force(k);
    centroid += area[k] * contacts.active[k].point.p_W;
  }
  centroid /= A;
  // d_k in the joint's plane, basis (t1, t2) of its first contact
  const Mat3& R = contacts.active[bonded.front()].point.R_WC;
  const auto offset = [&](int k) {
    const Vec3 d = contacts.active[k].point.p_W - centroid;
    return Eigen::Vector2d(d.dot(R.col(1)), d.dot(R.col(2)));
  };
  Eigen::Matrix2d I = Eigen::Matrix2d::Zero();
  Eigen::Vector2d M = Eigen::Vector2d::Zero();
  for (const int k : bonded) {
    I += area[k] * offset(k) * offset(k).transpose();
    M += force(k) * offset(k);
  }
  // g = I⁺ M: I's null directions (contacts on a line, or one contact) carry no gradient
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eigen(I);
  Eigen::Vector2d g = Eigen::Vector2d::Zero();
  for (int j = 0; j < 2; ++j)
    if (const double lambda = eigen.eigenvalues()[j]; lambda > kRankTolerance * eigen.eigenvalues()[1])
      g += eigen.eigenvectors().col(j).dot(M) / lambda * eigen.eigenvectors().col(j);
  std::vector<double> sigma;
  for (const int k : bonded) sigma.push_back(N / A + g.dot(offset(k)));
  return sigma;
}

// eq. (5) on the intact contacts of `joint` with an area: marks those whose σ_k < −f_t broken;
// returns them
std::vector<int> break_in_tension(const Model& m, const Joint& joint, const std::vector<double>& area,
                                  StepContacts& contacts) {
  std::vector<int> bonded, broken;
  for (const int k : joint.contacts)
    if (contacts.active[k].bond == Bond::Intact && area[k] > 0) bonded.push_back(k);
  if (bonded.empty()) return broken;
  const double f_t = contact_law(m, contacts.active[bonded.front()].point).tensile_strength;
  const std::vector<double> sigma = navier_stresses(m, bonded, area, contacts);
  for (std::size_t j = 0; j < bonded.size(); ++j)
    if (sigma[j] < -f_t) {
      contacts.active.set_bond(bonded[j], Bond::Broken);
      broken.push_back(bonded[j]);
    }
  return broken;
}

// eqs. (4)–(5) on the intact contacts of the last solve; marks the broken ones
BondBreaks find_breaks(const Model& m, const std::vector<Joint>& joints, const std::vector<double>& area,
                       StepContacts& contacts) {
  BondBreaks breaks;
  for (int i = 0; i < contacts.active.size(); ++i) {
    if (contacts.active[i].bond != Bond::Intact) continue;
    const Eigen::Vector3d u = contacts.solution.u.segment<3>(3 * static_cast<Eigen::Index>(i));
    if (u[0] > kBondBreakVelocity) ++breaks.opening;
    else if (u.tail<2>().norm() > kBondBreakVelocity) ++breaks.shear;
    else continue;
    contacts.active.set_bond(i, Bond::Broken);
    breaks.contacts.push_back(i);
  }
  for (const Joint& joint : joints) {
    const std::vector<int> broken = break_in_tension(m, joint, area, contacts);
    breaks.tension += static_cast<int>(broken.size());
    breaks.contacts.insert(breaks.contacts.end(), broken.begin(), broken.end());
  }
  std::sort(breaks.contacts.begin(), breaks.contacts.end());
  return breaks;
}

void add(BondBreaks& total, const BondBreaks& more) {
  total.tension += more.tension;
  total.opening += more.opening;
  total.shear += more.shear;
  std::vector<int> contacts;
  std::merge(total.contacts.begin(), total.contacts.end(), more.contacts.begin(), more.contacts.end(),
             std::back_inserter(contacts));
  total.contacts = std::move(contacts);
}

}  // namespace

Bond bond_state(const Model& m, const State& s, const contact::ContactPoint& c) {
  if (s.step == 0)
    return contact_law(m, c).cohesive() && c.gap <= m.step.activation_gap ? Bond::Intact : Bond::None;
  if (std::binary_search(s.bonds.begin(), s.bonds.end(), key(c))) return Bond::Intact;
  if (std::binary_search(s.broken_bonds.begin(), s.broken_bonds.end(), key(c))) return Bond::Broken;
  return Bond::None;
}

double friction_coefficient(const ContactLaw& law, Bond bond) {
  return bond == Bond::Broken ? law.residual_friction : law.friction;
}

BondBreaks solve_cohesive(const Model& m, StepWorkspace& ws, const std::function<void()>& solve) {
  StepContacts& contacts = ws.contacts;
  contacts.cohesion_shift.resize(0);
  const bool any_intact = std::any_of(contacts.active.begin(), contacts.active.end(),
                                      [](const ActiveContact& c) { return c.bond == Bond::Intact; });
  if (!any_intact) {
    solve();
    return {};
  }
  const std::vector<Joint> joints = find_joints(contacts.active);
  const std::vector<double> area = tributary_areas(contacts.active, joints);
  const Eigen::VectorXd q = contacts.problem.q, r0 = ws.r0;
  BondBreaks breaks;
  for (int pass = 1;; ++pass) {
    contacts.cohesion_shift = shifts(m, area, ws);
    const Eigen::VectorXd& s = contacts.cohesion_shift;
    contacts.problem.q = q - assembled_problem(m, ws).W.apply(s);  // eq. (3)
    ws.r0 = r0 + s;
    solve();
    contacts.solution.r -= s;
    if (contacts.solution.status == solvers::SolverStatus::NonFinite) break;
    const BondBreaks found = find_breaks(m, joints, area, contacts);
    add(breaks, found);
    if (found.total() == 0 || pass == kMaxBondPasses) break;
  }
  ws.r0 = r0;
  return breaks;
}

int commit_bonds(State& s, const ActiveContacts& active) {
  if (s.bonds.empty() && s.step > 0) return 0;
  // the contacts are sorted by (a, b, feature): so are these
  std::vector<BondKey> intact, broken;
  for (const ActiveContact& c : active) {
    if (c.bond == Bond::Intact) intact.push_back(key(c.point));
    if (c.bond == Bond::Broken) broken.push_back(key(c.point));
  }
  // the bonds intact at the start of the step and neither intact nor broken now: no longer detected
  std::vector<BondKey> seen, lost, all_broken;
  std::merge(intact.begin(), intact.end(), broken.begin(), broken.end(), std::back_inserter(seen));
  std::set_difference(s.bonds.begin(), s.bonds.end(), seen.begin(), seen.end(), std::back_inserter(lost));
  std::set_union(s.broken_bonds.begin(), s.broken_bonds.end(), broken.begin(), broken.end(),
                 std::back_inserter(all_broken));
  s.broken_bonds.clear();
  std::merge(all_broken.begin(), all_broken.end(), lost.begin(), lost.end(), std::back_inserter(s.broken_bonds));
  s.bonds = std::move(intact);
  return static_cast<int>(lost.size());
}

std::string describe_breaks(const Model& m, double t, const ActiveContacts& active, const BondBreaks& breaks) {
  std::set<std::pair<int, int>> pairs;
  for (const int i : breaks.contacts) pairs.emplace(active[i].point.a, active[i].point.b);
  std::string between;
  for (const auto& [a, b] : pairs)
    between += fmt::format("{}\"{}\"–\"{}\"", between.empty() ? "" : ", ", m.bodies[a].name, m.bodies[b].name);
  return fmt::format("t = {:.6g} s: {} bond{} broke (tension {}, opening {}, shear {}, no longer in contact {}){}{}",
                     t, breaks.total(), breaks.total() == 1 ? "" : "s", breaks.tension, breaks.opening, breaks.shear,
                     breaks.lost, between.empty() ? "" : " between ", between);
}

}  // namespace nscd
