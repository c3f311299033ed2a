#include "nscd/step/energy.hpp"

#include "ffr/quadratic_form.hpp"
#include "nscd/step/rigid_dynamics.hpp"

namespace nscd {

namespace {

// ½ uᵀ M u of FFR body b, u_k = Oᵀ v + Oᵀ ω × (X_k + ψ_k) + λ_k its nodal velocities in the body
// frame (eq. 8); of a modal body, by the inertia invariants of ffr/modal_basis.hpp eq. (4)
double ffr_kinetic_energy(const Model& m, const State& s, int b) {
  const int i = m.bodies[b].ffr_index;
  const ffr::FfrBody& f = m.ffr_bodies[i];
  const Mat3 O_T = s.q[b].toRotationMatrix().transpose();
  const Vec3 v_B = O_T * s.v[b], w_B = O_T * s.w[b];
  if (f.modes) return ffr::modal_kinetic_energy(*f.modes, f.mass, f.inertia_B, v_B, w_B, s.psi[i], s.lambda[i]);
  Eigen::VectorXd u(f.ndof());
  for (int k = 0; k < f.nn(); ++k)
    u.segment<3>(3 * k) =
        v_B + w_B.cross(f.mesh.nodes[k] + s.psi[i].segment<3>(3 * k)) + s.lambda[i].segment<3>(3 * k);
  return 0.5 * ffr::symmetric_quadratic_form(f.mass_matrix, u);
}

}  // namespace

double kinetic_energy(const Model& m, const State& s) {
  double energy = 0;
  for (int b = 0; b < m.nb(); ++b) {
    const BodyModel& body = m.bodies[b];
    switch (body.kind) {
      case BodyKind::Rigid:
        energy += kinetic_energy(body.mass, body.inertia_B, s.q[b], s.v[b], s.w[b]);
        break;
      case BodyKind::Ffr:
        energy += ffr_kinetic_energy(m, s, b);
        break;
      case BodyKind::Tl:
      case BodyKind::Linear: {
        const Eigen::VectorXd& lambda = s.tl_lambda[body.tl_index];
        energy += 0.5 * ffr::symmetric_quadratic_form(m.tl_bodies[body.tl_index].fe.mass_matrix, lambda);
        break;
      }
      case BodyKind::Fixed:
      case BodyKind::Driven:  // no mass
        break;
    }
  }
  return energy;
}

double body_elastic_energy(const Model& m, const State& s, int b) {
  const BodyModel& body = m.bodies[b];
  switch (body.kind) {
    case BodyKind::Ffr: {
      const Eigen::VectorXd& psi = s.psi[body.ffr_index];
      return 0.5 * ffr::symmetric_quadratic_form(m.ffr_bodies[body.ffr_index].stiffness, psi);
    }
    case BodyKind::Tl:
    case BodyKind::Linear:
      return ffr::strain_energy(m.tl_bodies[body.tl_index], s.tl_psi[body.tl_index]);
    case BodyKind::Rigid:
    case BodyKind::Fixed:
    case BodyKind::Driven:
      break;
  }
  return 0;
}

double potential_energy(const Model& m, const State& s) {
  double energy = 0;
  for (int b = 0; b < m.nb(); ++b) {
    energy -= m.bodies[b].mass * m.step.gravity.dot(s.x[b]);
    if (has_mesh(m.bodies[b].kind)) energy += body_elastic_energy(m, s, b);
  }
  return energy;
}

double gravitational_energy(const Model& m, const State& s) {
  double energy = 0;
  for (int b = 0; b < m.nb(); ++b) energy -= m.bodies[b].mass * m.step.gravity.dot(s.x[b]);
  return energy;
}

double elastic_energy(const Model& m, const State& s) {
  double energy = 0;
  for (int b = 0; b < m.nb(); ++b) energy += body_elastic_energy(m, s, b);
  return energy;
}

}  // namespace nscd
