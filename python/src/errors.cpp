#include "nscd/core/error.hpp"
#include "python/src/bindings.hpp"

namespace nscd::python {

void bind_errors(py::module_& m) {
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<Error>(m, "SimulationError", PyExc_RuntimeError);
}

}  // namespace nscd::python
