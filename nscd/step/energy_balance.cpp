#include "nscd/step/energy_balance.hpp"

#include "ffr/quadratic_form.hpp"
#include "nscd/step/contact_problem.hpp"
#include "nscd/step/energy.hpp"
#include "nscd/step/loads.hpp"

namespace nscd {

namespace {

// the end-of-step relative velocity of contact i: from the bodies' velocities when no side is on
// a mesh (exact for the committed state), otherwise the solver's u less the shift of q
Vec3 end_velocity(const Model& m, const State& s, const StepContacts& contacts, int i) {
  const ActiveContact& contact = contacts.active[i];
  const int a = contact.point.a, b = contact.point.b;
  if (!contact.sides[0].on_mesh() && !contact.sides[1].on_mesh())
    return contact_velocity(contacts.active.jacobian(i), body_velocity(s.v[a], s.w[a]), body_velocity(s.v[b], s.w[b]));
  Vec3 u = contacts.solution.u.segment<3>(3 * static_cast<Eigen::Index>(i));
  u[0] -= normal_velocity_shift(m, contact);
  return u;
}

// eqs. (1)–(3) over the step's contacts, added to e
void add_contact_work(EnergyBalance& e, const Model& m, const StepStartVelocities& start, const State& s,
                      const StepContacts& contacts) {
  for (int i = 0; i < contacts.active.size(); ++i) {
    const Vec3 r = contacts.solution.r.segment<3>(3 * static_cast<Eigen::Index>(i));
    const Vec3 u_mid = 0.5 * (contacts.active[i].u_old + end_velocity(m, s, contacts, i));
    e.impacts -= r[0] * u_mid[0];
    e.friction -= r.tail<2>().dot(u_mid.tail<2>());
    const ContactJacobian& J = contacts.active.jacobian(i);
    for (int side = 0; side < 2; ++side) {
      const int k = J.body[side];
      if (m.bodies[k].kind != BodyKind::Driven) continue;
      const Vec6 V_mid = 0.5 * (body_velocity(start.v[k], start.w[k]) + body_velocity(s.v[k], s.w[k]));
      e.driven_work -= r.dot(J.G[side] * V_mid);
    }
  }
}

// eqs. (2)–(3) for the rolling torque impulses m (rolling_resistance.hpp, on body b, −m on body a):
// friction dissipates −m · (ω_b − ω_a)_mid, and a driven side does the work σ m · ω_mid (σ = −1 on a)
void add_rolling_work(EnergyBalance& e, const Model& m, const StepStartVelocities& start, const State& s,
                      const StepContacts& contacts) {
  for (const RollingImpulse& rolling : contacts.rolling) {
    const contact::ContactPoint& c = contacts.active[rolling.contact].point;
    const int bodies[2] = {c.a, c.b};
    for (int side = 0; side < 2; ++side) {
      const int k = bodies[side];
      const double work = (side == 0 ? -1.0 : 1.0) * rolling.m_W.dot(0.5 * (start.w[k] + s.w[k]));
      e.friction -= work;
      if (m.bodies[k].kind == BodyKind::Driven) e.driven_work -= work;
    }
  }
}

// eq. (4) for body b
double damping_dissipation(const Model& m, const StepStartVelocities& start, const State& s, int b) {
  const BodyModel& body = m.bodies[b];
  const double h = m.step.h;
  if (body.kind == BodyKind::Ffr) {
    const ffr::FfrBody& f = m.ffr_bodies[body.ffr_index];
    const Eigen::VectorXd lambda = 0.5 * (start.lambda[body.ffr_index] + s.lambda[body.ffr_index]);
    double dissipation = 0;  // each term only where its coefficient is not zero
    if (f.material.damping_mass != 0)
      dissipation += f.material.damping_mass * ffr::symmetric_quadratic_form(f.mass_matrix, lambda);
    if (f.material.damping_stiffness != 0)
      dissipation += f.material.damping_stiffness * ffr::symmetric_quadratic_form(f.stiffness, lambda);
    return h * dissipation;
  }
  if (is_nodal(body.kind)) {
    const int n = body.tl_index;
    const Eigen::VectorXd lambda = 0.5 * (start.tl_lambda[n] + s.tl_lambda[n]);
    return h * lambda.dot(ffr::damping_forces(m.tl_bodies[n], s.tl_psi[n], lambda));
  }
  return 0;
}

}  // namespace

double EnergyBalance::error() const {
  return kinetic + gravitational + elastic - initial - driven_work - load_work - projection_work + friction + impacts +
         damping;
}

EnergyBalance start_energy_balance(const Model& m, const State& s) {
  EnergyBalance e;
  e.kinetic = kinetic_energy(m, s);
  e.gravitational = gravitational_energy(m, s);
  e.elastic = elastic_energy(m, s);
  e.initial = e.kinetic + e.gravitational + e.elastic;
  return e;
}

StepStartVelocities step_start_velocities(const State& s) { return {s.v, s.w, s.lambda, s.tl_lambda}; }

void add_step(EnergyBalance& e, const Model& m, const StepStartVelocities& start, const State& s,
              const StepContacts& contacts) {
  add_contact_work(e, m, start, s, contacts);
  add_rolling_work(e, m, start, s, contacts);
  // eq. (5): the gravitational energy's change less gravity's work h m g·(v⁻ + v⁺)/2
  const double gravitational = gravitational_energy(m, s);
  double gravity_work = 0;
  const double step_start = m.step.h * static_cast<double>(s.step - 1);  // as the step's own time
  for (int b = 0; b < m.nb(); ++b) {
    const Vec3 v_mid = 0.5 * (start.v[b] + s.v[b]);
    gravity_work += m.step.h * m.bodies[b].mass * m.step.gravity.dot(v_mid);
    e.damping += damping_dissipation(m, start, s, b);
    if (!m.loads.empty()) {  // eq. (7)
      const BodyLoad load = step_load(m, b, step_start);
      e.load_work += m.step.h * ((load.force + m.bodies[b].mass * load.acceleration).dot(v_mid) +
                                 load.moment.dot(0.5 * (start.w[b] + s.w[b])));
    }
  }
  e.projection_work += gravitational - e.gravitational + gravity_work;
  e.gravitational = gravitational;
  e.kinetic = kinetic_energy(m, s);
  e.elastic = elastic_energy(m, s);
}

}  // namespace nscd
