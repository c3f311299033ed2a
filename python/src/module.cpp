#include "python/src/bindings.hpp"

PYBIND11_MODULE(_core, m) {
  using namespace nscd::python;
  m.doc() = "The compiled part of nscd (docs/python.md); use the package nscd, not this module.";
  m.attr("__version__") = NSCD_VERSION;
  bind_errors(m);
  bind_scene(m);
  SimulationClass simulation = bind_simulation(m);
  bind_arrays(simulation);
  bind_contacts(simulation);
  bind_fclib(m);
}
