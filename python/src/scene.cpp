#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"
#include "python/src/bindings.hpp"

#include <pybind11/stl/filesystem.h>

namespace nscd::python {

void bind_scene(py::module_& m) {
  m.def(
      "check_scene",
      [](std::string text, const std::filesystem::path& file) {
        py::gil_scoped_release release;
        io::build_model(io::read_scene_text(std::move(text), file));
      },
      py::arg("text"), py::arg("file"),
      "Reads and builds the scene text as if it were the file `file`, as `nscd validate` checks a scene; "
      "raises InputError.");
  m.def(
      "check_scene_file",
      [](const std::filesystem::path& file, bool build) {
        py::gil_scoped_release release;
        const io::Scene scene = io::read_scene(file);
        if (build) io::build_model(scene);
      },
      py::arg("file"), py::arg("build"),
      "Reads the scene file, and with `build` builds it as `nscd validate` does; raises InputError.");
}

}  // namespace nscd::python
