#include "python/src/bindings.hpp"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

namespace nscd::python {
namespace {

std::unique_ptr<Simulation> make_simulation(std::string text, std::filesystem::path file, std::string sha256,
                                            std::optional<int> threads, std::optional<std::string> model,
                                            std::optional<int> modes, std::optional<std::string> solver) {
  SimulationOptions o{std::move(text), std::move(file), std::move(sha256), threads, std::move(model),
                      std::move(solver), modes};
  py::gil_scoped_release release;  // building large scenes (meshes, factorisations) takes a while
  return std::make_unique<Simulation>(std::move(o));
}

}  // namespace

SimulationClass bind_simulation(py::module_& m) {
  SimulationClass c(m, "Simulation", "The compiled simulation; nscd.Simulation wraps it (docs/python.md).");
  c.def(py::init(&make_simulation), py::arg("text"), py::arg("file"), py::arg("sha256"), py::arg("threads"),
        py::arg("model"), py::arg("modes"), py::arg("solver"));
  c.def("step", [](Simulation& s) {
    py::gil_scoped_release release;
    s.step();
  }, "Makes one step; raises SimulationError when it fails (the state stays the last finite one).");
  c.def("run_to", &Simulation::run_to, py::arg("last_step"), py::call_guard<py::gil_scoped_release>(),
        "Steps until the step index reaches last_step.");
  c.def("open_output", &Simulation::open_output, py::arg("dir"), py::arg("overwrite") = false,
        py::arg("resume") = false, py::call_guard<py::gil_scoped_release>(),
        "Starts writing the output of `nscd run` to dir (resume: continues the restored checkpoint's).");
  c.def("close_output", &Simulation::close_output, py::call_guard<py::gil_scoped_release>());
  c.def("checkpoint", &Simulation::write_checkpoint, py::arg("path"), py::call_guard<py::gil_scoped_release>(),
        "Writes the whole state to an HDF5 checkpoint file, as `nscd run --checkpoint-interval` does.");
  c.def("restore", &Simulation::restore, py::arg("path"), py::call_guard<py::gil_scoped_release>(),
        "Continues from a checkpoint of the same scene (written by checkpoint() or by `nscd run`).");
  c.def_property_readonly("time", [](const Simulation& s) { return s.state().t; }, "Simulated time [s].");
  c.def_property_readonly("step_index", [](const Simulation& s) { return s.state().step; }, "Steps made.");
  c.def_property_readonly("time_step", [](const Simulation& s) { return s.model().step.h; }, "h [s].");
  c.def_property_readonly("n_steps", [](const Simulation& s) { return s.model().n_steps; },
                          "Steps of the scene's duration, round(duration / h).");
  c.def_property_readonly("threads", &Simulation::threads);
  c.def_property_readonly("name", [](const Simulation& s) { return s.model().name; });
  c.def_property_readonly("scene_sha256", &Simulation::scene_sha256);
  c.def_property_readonly("body_names", [](const Simulation& s) {
    std::vector<std::string> names;
    for (const BodyModel& b : s.model().bodies) names.push_back(b.name);
    return names;
  });
  c.def_property_readonly("body_models", [](const Simulation& s) {
    std::vector<std::string> models;
    for (const BodyModel& b : s.model().bodies) models.emplace_back(to_string(b.kind));
    return models;
  });
  return c;
}

}  // namespace nscd::python
