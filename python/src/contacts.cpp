// The active contacts of the last step, read from its StepContacts (nscd/step/active_contacts.hpp).
#include "python/src/bindings.hpp"

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

}  // namespace

void bind_contacts(SimulationClass& c) {
  c.def_property_readonly("contacts", [](const Simulation& s) { return contact_arrays(s.model(), s.workspace().contacts); },
                          "The contacts of the last step as a dict of NumPy arrays (copies).");
}

}  // namespace nscd::python
