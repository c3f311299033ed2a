#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"
#include "python/src/bindings.hpp"

#include <pybind11/stl/filesystem.h>

namespace nscd::python {

void bind_scene(py::module_& m) {
  m.def(
      "check_scene",
      [](std::string text, const std::filesystem::path& file) {
        io::build_model(io::read_scene_text(std::move(text), file));
      },
      py::arg("text"), py::arg("file"),
      "Reads, validates and builds the scene text as if it were the file `file`; raises InputError.");
  m.def(
      "check_scene_file", [](const std::filesystem::path& file) { io::build_model(io::read_scene(file)); },
      py::arg("file"), "Reads, validates and builds the scene file; raises InputError.");
}

}  // namespace nscd::python
