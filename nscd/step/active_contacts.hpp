#pragma once
/// @file
/// The contacts of one step's problem (stage 3 of stepper.hpp), one record each, and what a step
/// leaves for output, the FCLIB dump and scripts: the problem (W, q, μ), its body form and its
/// solution. Contact i owns rows 3i … 3i + 2 of W, q, r and u, in its frame (n, t1, t2).
///
/// Invariant of ActiveContacts, stated once and checked by check() after each assembly:
///  (1) the contacts are sorted by (a, b, feature), a < b (contact/detection.hpp);
///  (2) jacobian(i) is contact i's: its bodies are (a, b) (contact_jacobian.hpp eq. (2));
///  (3) a side has a material point on a mesh (MeshSide::on_mesh) exactly when its body has a
///      mesh (FFR, TL, linear), and then exactly jacobian(i).point[side] ≥ 0, the index of its
///      MeshPoint (ffr_coupling.hpp) in the step's list.
/// The Jacobians are kept apart from the records because the Delassus assembly reads them as one
/// array (contact_jacobian.hpp eq. (4)); add() is the only way in, so the two stay aligned.

#include "nscd/step/contact_jacobian.hpp"
#include "nscd/step/mesh_contacts.hpp"
#include "nscd/step/model.hpp"
#include "solvers/body_coupling.hpp"
#include "solvers/contact_bodies.hpp"
#include "solvers/friction_problem.hpp"
#include "solvers/solver_result.hpp"

#include <array>
#include <vector>

namespace nscd {

/// The cohesive state of a contact (cohesion.hpp): not bonded, bonded and intact through this
/// step, or bonded and broken (in this step or before: frictional, with μ_res).
enum class Bond { None, Intact, Broken };

/// The bonds a step broke, per mode of cohesion.hpp eq. (4); `lost`: intact bonds whose contact
/// was no longer detected (separated beyond the alert distance).
struct BondBreaks {
  int tension = 0, opening = 0, shear = 0, lost = 0;
  std::vector<int> contacts;  // the active contacts whose bond broke, increasing

  int total() const { return tension + opening + shear + lost; }
};

/// One contact of the step's problem.
struct ActiveContact {
  contact::ContactPoint point;       // as detected: frame, and gap at the start of the step
  std::array<MeshSide, 2> sides{};   // material points of the sides on a mesh (side 0: body a)
  Vec3 u_old = Vec3::Zero();         // relative velocity at the start of the step, contact frame [m/s]
  bool gap_row = false;              // a gap row of stage 3, not a contact activated by the predicted gap
  Bond bond = Bond::None;            // set by stages 3 and 5 (cohesion.hpp)
};

class ActiveContacts {
 public:
  int size() const { return static_cast<int>(m_contacts.size()); }
  bool empty() const { return m_contacts.empty(); }
  const ActiveContact& operator[](int i) const { return m_contacts[i]; }
  std::vector<ActiveContact>::const_iterator begin() const { return m_contacts.begin(); }
  std::vector<ActiveContact>::const_iterator end() const { return m_contacts.end(); }

  /// Eqs. (2)–(3) of contact_jacobian.hpp for contact i; writable so that Algorithm 1 can
  /// relinearise in place.
  const ContactJacobian& jacobian(int i) const { return m_jacobians[i]; }
  ContactJacobian& jacobian(int i) { return m_jacobians[i]; }
  /// Contact i's cohesive state, which stage 5 changes when its bond breaks (cohesion.hpp).
  void set_bond(int i, Bond bond) { m_contacts[i].bond = bond; }
  /// All of them, aligned with the contacts, for assemble_delassus.
  const std::vector<ContactJacobian>& jacobians() const { return m_jacobians; }

  void clear();
  /// Appends `contact` with its Jacobian.
  void add(const ActiveContact& contact, const ContactJacobian& jacobian);
  /// Aborts (NSCD_DEMAND) unless invariant (1)–(3) holds for the bodies of `m`.
  void check(const Model& m) const;

 private:
  std::vector<ActiveContact> m_contacts;
  std::vector<ContactJacobian> m_jacobians;
};

/// A rolling-resistance impulse (rolling_resistance.hpp): the torque impulse m [N·m·s], world,
/// in the tangent plane of active contact `contact`, on its body b (−m on body a).
struct RollingImpulse {
  int contact = 0;
  Vec3 m_W = Vec3::Zero();
};

/// The contact problem of a step and its solution.
struct StepContacts {
  ActiveContacts active;
  solvers::FrictionProblem problem;   // (W, q, μ) of the active contacts; where sweeps_on_sides() W holds
                                      // its diagonal blocks only until assembled_problem() (contact_problem.hpp)
  bool delassus_assembled = false;    // whether problem.W is W whole at the current linearisation (else
                                      // its diagonal blocks, or Algorithm 1's last assembly)
  int delassus_assemblies = 0;        // of W whole in the step (Algorithm 1: again at each outer iteration)
  int outer_iterations = 0;           // of Algorithm 1 in the step (contact_solve.hpp), 0 without FE bodies
  solvers::ContactBodies bodies;      // the contacts' sides (solvers/contact_bodies.hpp) where
                                      // sweeps_on_sides() (contact_problem.hpp)
  solvers::BodyCoupling body_form;    // M and H of rigid scenes when the solver can use them, else empty
  solvers::SolverResult solution;     // r, u, and how the solver got there
  std::vector<RollingImpulse> rolling;  // at the contacts with rolling resistance, in contact order
  Eigen::VectorXd cohesion_shift;     // s of cohesion.hpp eq. (1) (problem's q is q − W s), empty without bonds
  BondBreaks bond_breaks;             // the bonds the step broke

  /// Whether body_form is the problem's (solvers/body_coupling.hpp eq. (1)).
  bool has_body_form() const { return problem.nc() > 0 && body_form.nc() == problem.nc(); }
};

}  // namespace nscd
