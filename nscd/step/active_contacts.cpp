#include "nscd/step/active_contacts.hpp"

#include "nscd/core/error.hpp"

#include <tuple>

namespace nscd {

void ActiveContacts::clear() {
  m_contacts.clear();
  m_jacobians.clear();
}

void ActiveContacts::add(const ActiveContact& contact, const ContactJacobian& jacobian) {
  m_contacts.push_back(contact);
  m_jacobians.push_back(jacobian);
}

void ActiveContacts::check(const Model& m) const {
  NSCD_DEMAND(m_jacobians.size() == m_contacts.size());
  for (int i = 0; i < size(); ++i) {
    const contact::ContactPoint& c = m_contacts[i].point;
    NSCD_DEMAND(0 <= c.a && c.a < c.b && c.b < m.nb());  // (1)
    if (i > 0) {
      const contact::ContactPoint& previous = m_contacts[i - 1].point;
      NSCD_DEMAND(std::tie(previous.a, previous.b, previous.feature) < std::tie(c.a, c.b, c.feature));
    }
    const ContactJacobian& J = m_jacobians[i];
    NSCD_DEMAND(J.body[0] == c.a && J.body[1] == c.b);  // (2)
    for (int side = 0; side < 2; ++side) {  // (3)
      const bool on_mesh = m_contacts[i].sides[side].on_mesh();
      NSCD_DEMAND(on_mesh == has_mesh(m.bodies[J.body[side]].kind));
      NSCD_DEMAND(on_mesh == (J.point[side] >= 0));
    }
  }
}

}  // namespace nscd
