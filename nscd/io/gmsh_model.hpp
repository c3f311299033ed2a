#pragma once
/// @file
/// Internal to nscd/io: the one global model of the Gmsh API [Geuzaine & Remacle 2009], shared by
/// the mesh file reader (mesh_file.hpp) and the meshing of rigid shapes (shape_mesh.hpp), through
/// Gmsh's C API opened on first use (gmsh_api.hpp).
///  - GmshModel holds a process-wide lock for its lifetime. Gmsh is initialised once per process
///    (General.Terminal = 0, so it prints nothing); the model is emptied (Gmsh's clear) when the
///    lock is taken and again before it is released.
///  - volume_elements() reads the model's nodes (in increasing tag order) and the elements of its
///    3-D entities: one first-order type, 4-node tetrahedra (MSH type 4) or 8-node hexahedra
///    (MSH type 5), whose node ordering is VTK's and ffr::Mesh's (Gmsh manual §9.2).
///
/// References: [Geuzaine & Remacle 2009] Gmsh: a 3-D finite element mesh generator with
///             built-in pre- and post-processing facilities, IJNME 79(11), 1309–1331;
///             Gmsh reference manual §9.2 (node ordering).

#include "nscd/io/raw_mesh.hpp"

#include <mutex>
#include <string>

namespace nscd::io::detail {

/// Exclusive use of Gmsh's global model, empty at the start, emptied at the end.
class GmshModel {
 public:
  GmshModel();
  ~GmshModel();
  GmshModel(const GmshModel&) = delete;
  GmshModel& operator=(const GmshModel&) = delete;

 private:
  std::lock_guard<std::mutex> lock_;
};

/// The nodes and the 3-D elements of the current model. @pre a GmshModel is held.
/// @param name  the source, at the start of the messages.
/// @throws nscd::InputError "<name>: ..." when there are no 3-D elements, several element types,
///         or a type other than first-order tetrahedra or hexahedra.
RawMesh volume_elements(const std::string& name);

}  // namespace nscd::io::detail
