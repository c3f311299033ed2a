#pragma once
/// @file The parts of the compiled module nscd._core (docs/python.md), one function per topic,
/// called in this order by module.cpp.

#include "python/src/simulation.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace nscd::python {

namespace py = pybind11;
using SimulationClass = py::class_<Simulation>;

/// nscd.InputError (a ValueError) for nscd::InputError, nscd.SimulationError (a RuntimeError)
/// for nscd::Error.
void bind_errors(py::module_& m);
/// check_scene, check_scene_file: the scene reader's validation.
void bind_scene(py::module_& m);
/// The class Simulation: construction, stepping, output, checkpoints.
SimulationClass bind_simulation(py::module_& m);
/// Its state as NumPy views and copies, its energies, the statistics of its last step, its meshes.
void bind_arrays(SimulationClass& c);
/// Its active contacts as NumPy arrays.
void bind_contacts(SimulationClass& c);
/// solve and read_fclib: FCLIB's local problem (W, q, μ).
void bind_fclib(py::module_& m);

}  // namespace nscd::python
