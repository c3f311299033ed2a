// The active contacts of the last step, read from its StepContacts (nscd/step/active_contacts.hpp),
// and its joints as the joint output gives them (io::joint_frame).
#include "python/src/bindings.hpp"

#include "nscd/io/output_frames.hpp"

namespace nscd::python {
namespace {

// copies of the contacts of the last step's problem: point, frame (columns n, t1, t2, n from
// body a to body b), gap at the start of the step, impulse in that frame, force r / h on body b
// in the world frame, and the two bodies
py::dict contact_arrays(const Model& m, const StepContacts& contacts) {
  const auto n = static_cast<py::ssize_t>(contacts.active.size());
  py::array_t<double> points({n, py::ssize_t{3}}), frames({n, py::ssize_t{3}, py::ssize_t{3}}),
      impulses({n, py::ssize_t{3}}), forces({n, py::ssize_t{3}}), gaps(n);
  py::array_t<int> bodies({n, py::ssize_t{2}});
  for (py::ssize_t i = 0; i < n; ++i) {
    const contact::ContactPoint& c = contacts.active[static_cast<int>(i)].point;
    const Vec3 r = contacts.solution.r.segment<3>(3 * i);
    const Vec3 force = c.R_WC * r / m.step.h;
    for (int k = 0; k < 3; ++k) {
      points.mutable_at(i, k) = c.p_W[k];
      impulses.mutable_at(i, k) = r[k];
      forces.mutable_at(i, k) = force[k];
      for (int j = 0; j < 3; ++j) frames.mutable_at(i, k, j) = c.R_WC(k, j);
    }
    gaps.mutable_at(i) = c.gap;
    bodies.mutable_at(i, 0) = c.a;
    bodies.mutable_at(i, 1) = c.b;
  }
  py::dict d;
  d["points"] = points;
  d["frames"] = frames;
  d["gaps"] = gaps;
  d["impulses"] = impulses;
  d["forces"] = forces;
  d["bodies"] = bodies;
  return d;
}

// an (n, 3) array of one vector field of the joints
py::array_t<double> joint_vectors(const std::vector<io::JointRecord>& joints, Vec3 io::JointRecord::*field) {
  py::array_t<double> a({static_cast<py::ssize_t>(joints.size()), py::ssize_t{3}});
  for (std::size_t i = 0; i < joints.size(); ++i)
    for (int k = 0; k < 3; ++k) a.mutable_at(static_cast<py::ssize_t>(i), k) = (joints[i].*field)[k];
  return a;
}

// an (n,) array of one scalar field of the joints
template <class T>
py::array_t<T> joint_scalars(const std::vector<io::JointRecord>& joints, T io::JointRecord::*field) {
  py::array_t<T> a(static_cast<py::ssize_t>(joints.size()));
  for (std::size_t i = 0; i < joints.size(); ++i) a.mutable_at(static_cast<py::ssize_t>(i)) = joints[i].*field;
  return a;
}

// copies of the joints of the last step (the columns of joints.csv, docs/output.md)
py::dict joint_arrays(const Model& m, const State& s, const StepContacts& contacts) {
  const std::vector<io::JointRecord> joints = io::joint_frame(m, s, contacts).joints;
  py::array_t<int> bodies({static_cast<py::ssize_t>(joints.size()), py::ssize_t{2}});
  py::list states;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    bodies.mutable_at(static_cast<py::ssize_t>(i), 0) = joints[i].body_a;
    bodies.mutable_at(static_cast<py::ssize_t>(i), 1) = joints[i].body_b;
    states.append(std::string(joints[i].state_name));
  }
  py::dict d;
  d["bodies"] = bodies;
  d["area"] = joint_scalars(joints, &io::JointRecord::area);
  d["centroid"] = joint_vectors(joints, &io::JointRecord::centroid);
  d["normal"] = joint_vectors(joints, &io::JointRecord::normal);
  d["normal_force"] = joint_scalars(joints, &io::JointRecord::normal_force);
  d["shear"] = joint_vectors(joints, &io::JointRecord::shear);
  d["moment"] = joint_vectors(joints, &io::JointRecord::moment);
  d["centre_of_pressure"] = joint_vectors(joints, &io::JointRecord::centre_of_pressure);
  d["eccentricity"] = joint_vectors(joints, &io::JointRecord::eccentricity);
  d["inside"] = joint_scalars(joints, &io::JointRecord::inside);
  d["opening"] = joint_scalars(joints, &io::JointRecord::opening);
  d["sliding"] = joint_vectors(joints, &io::JointRecord::sliding);
  d["state"] = states;
  return d;
}

}  // namespace

void bind_contacts(SimulationClass& c) {
  c.def_property_readonly("contacts", [](const Simulation& s) { return contact_arrays(s.model(), s.workspace().contacts); },
                          "The contacts of the last step as a dict of NumPy arrays (copies).");
  c.def_property_readonly(
      "joints", [](const Simulation& s) { return joint_arrays(s.model(), s.state(), s.workspace().contacts); },
      "The joints of the last step (interfaces between two bodies: resultants, centre of pressure, state) as a "
      "dict of NumPy arrays (copies), the columns of joints.csv.");
}

}  // namespace nscd::python
