#include "nscd/core/error.hpp"
#include "nscd/io/output_frames.hpp"
#include "nscd/step/energy.hpp"
#include "python/src/bindings.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <string>

namespace nscd::python {
namespace {

// a read-only (rows, cols) view of doubles stored `row_stride` bytes apart, kept alive by `owner`
py::array view(const double* data, py::ssize_t rows, py::ssize_t cols, py::ssize_t row_stride, py::handle owner) {
  static const double kEmpty = 0;
  py::array a(py::dtype::of<double>(), {rows, cols}, {row_stride, static_cast<py::ssize_t>(sizeof(double))},
              data ? data : &kEmpty, owner);
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

py::array vec3_view(const std::vector<Vec3>& v, py::handle owner) {
  return view(v.empty() ? nullptr : v.front().data(), static_cast<py::ssize_t>(v.size()), 3, sizeof(Vec3), owner);
}

// a body's nodal vector (3 n) as (n, 3)
py::array nodal_view(const Eigen::VectorXd& x, py::handle owner) {
  return view(x.data(), x.size() / 3, 3, 3 * sizeof(double), owner);
}

const nscd::BodyModel& body_named(const Model& m, const std::string& name) {
  for (const nscd::BodyModel& b : m.bodies)
    if (b.name == name) return b;
  throw InputError(fmt::format("no body named \"{}\" in scene \"{}\"", name, m.name));
}

// the finite-element body named `name`
const nscd::BodyModel& fe_body_named(const Model& m, const std::string& name) {
  const nscd::BodyModel& b = body_named(m, name);
  NSCD_THROW_UNLESS(b.kind == BodyKind::Ffr || is_nodal(b.kind),
                    "body \"{}\" is {}: only ffr, tl and linear bodies have nodes", name, to_string(b.kind));
  return b;
}

// a body's nodal vector (3 n) as a new (n, 3) array
py::array nodal_copy(const Eigen::VectorXd& x) {
  py::array_t<double> a({static_cast<py::ssize_t>(x.size() / 3), py::ssize_t{3}});
  std::copy(x.data(), x.data() + x.size(), a.mutable_data());
  return a;
}

// the nodal displacements (or velocities) of a finite-element body, in its body frame: views
// of the state, but for a modal ffr body, whose state holds modal coordinates ξ (η), Φ ξ (Φ η)
py::array nodal(const Simulation& sim, const std::string& name, bool velocities, py::handle owner) {
  const nscd::BodyModel& b = fe_body_named(sim.model(), name);
  const State& s = sim.state();
  if (b.kind == BodyKind::Ffr) {
    const ffr::FfrBody& body = sim.model().ffr_bodies[b.ffr_index];
    const Eigen::VectorXd& v = velocities ? s.lambda[b.ffr_index] : s.psi[b.ffr_index];
    return body.modes ? nodal_copy(ffr::nodal_field(body, v)) : nodal_view(v, owner);
  }
  return nodal_view(velocities ? s.tl_lambda[b.tl_index] : s.tl_psi[b.tl_index], owner);
}

// the stress tensors at the centres of a finite-element body's cells, (cells, 3, 3), in its body frame
py::array cell_stresses(const Simulation& sim, const std::string& name) {
  const Model& m = sim.model();
  const int b = static_cast<int>(&fe_body_named(m, name) - m.bodies.data());
  const std::vector<Mat3> stresses = io::cell_stresses(m, sim.state(), b);
  py::array_t<double> a({static_cast<py::ssize_t>(stresses.size()), py::ssize_t{3}, py::ssize_t{3}});
  for (std::size_t c = 0; c < stresses.size(); ++c)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) a.mutable_at(c, i, j) = stresses[c](i, j);
  return a;
}

py::array vec3_copy(const std::vector<Vec3>& v) {
  py::array_t<double> a({static_cast<py::ssize_t>(v.size()), py::ssize_t{3}});
  for (std::size_t i = 0; i < v.size(); ++i)
    for (int k = 0; k < 3; ++k) a.mutable_at(i, k) = v[i][k];
  return a;
}

// the bodies' meshes in the current configuration, as the output's bodies_NNNNNN.vtu holds them
py::dict mesh(const Simulation& sim) {
  const io::BodyMeshFrame f = io::body_mesh_frame(sim.model(), sim.state(), false);
  py::dict d;
  d["points"] = vec3_copy(f.points);
  d["velocity"] = vec3_copy(f.velocity);
  d["displacement"] = vec3_copy(f.displacement);
  d["cell_types"] = py::array(py::cast(f.cell_types));
  d["cells"] = py::cast(f.cells);
  d["cell_body"] = py::array(py::cast(f.cell_body_id));
  if (!f.local_displacement.empty()) d["local_displacement"] = vec3_copy(f.local_displacement);
  if (!f.von_mises.empty()) d["von_mises"] = py::array(py::cast(f.von_mises));
  return d;
}

py::dict last_step(const StepReport& r) {
  py::dict d;
  d["n_contacts"] = r.n_contacts;
  d["max_penetration"] = r.max_penetration;
  d["iterations"] = r.solver_iterations;
  d["error"] = r.solver_error;
  d["status"] = std::string(solvers::to_string(r.solver_status));
  d["stage"] = std::string(solvers::to_string(r.solver_stage));
  d["inner_iterations"] = r.inner_iterations;
  d["inner_converged"] = r.inner_converged;
  d["factorizations"] = r.solver_factorizations;
  return d;
}

}  // namespace

void bind_arrays(SimulationClass& c) {
  c.def_property_readonly("positions", [](py::object self) {
    return vec3_view(self.cast<const Simulation&>().state().x, self);
  }, "(nb, 3) centres of mass [m]: a read-only view, valid until the next step.");
  c.def_property_readonly("orientations", [](py::object self) {
    const std::vector<Quat>& q = self.cast<const Simulation&>().state().q;
    const double* data = q.empty() ? nullptr : q.front().coeffs().data();
    return view(data, static_cast<py::ssize_t>(q.size()), 4, sizeof(Quat), self);
  }, "(nb, 4) unit quaternions q_WB in the order (x, y, z, w): a read-only view, valid until the next step.");
  c.def_property_readonly("velocities", [](py::object self) {
    return vec3_view(self.cast<const Simulation&>().state().v, self);
  }, "(nb, 3) velocities of the centres of mass [m/s]: a read-only view, valid until the next step.");
  c.def_property_readonly("angular_velocities", [](py::object self) {
    return vec3_view(self.cast<const Simulation&>().state().w, self);
  }, "(nb, 3) angular velocities, world frame [rad/s]: a read-only view, valid until the next step.");
  c.def("nodal_displacements", [](py::object self, const std::string& body) {
    return nodal(self.cast<const Simulation&>(), body, false, self);
  }, py::arg("body"), "(n, 3) nodal displacements of an ffr, tl or linear body, body frame [m]: a read-only view "
                         "(a copy for a modal ffr body).");
  c.def("nodal_velocities", [](py::object self, const std::string& body) {
    return nodal(self.cast<const Simulation&>(), body, true, self);
  }, py::arg("body"), "(n, 3) nodal velocities of an ffr, tl or linear body, body frame [m/s]: a read-only view "
                         "(a copy for a modal ffr body).");
  c.def("cell_stresses", &cell_stresses, py::arg("body"),
        "(cells, 3, 3) stress tensors at the centres of the cells of an ffr, tl or linear body, body frame "
        "[Pa], cells in the order of mesh()'s: a copy.");
  c.def_property_readonly("kinetic_energy", [](const Simulation& s) { return kinetic_energy(s.model(), s.state()); });
  c.def_property_readonly("potential_energy",
                          [](const Simulation& s) { return potential_energy(s.model(), s.state()); });
  c.def_property_readonly("last_step", [](const Simulation& s) { return last_step(s.last_report()); },
                          "Statistics of the last step (a new dict).");
  c.def("mesh", &mesh,
        "The meshes of the bodies that are not fixed, with their point and cell fields, von Mises stress "
        "included (copies).");
}

}  // namespace nscd::python
