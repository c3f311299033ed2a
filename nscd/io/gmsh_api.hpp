#pragma once
/// @file
/// Internal to nscd/io: Gmsh's C API (gmshc.h), opened on first use. Linked into the nscd
/// executable, Gmsh and the OpenCASCADE libraries it depends on would cost every process about
/// 0.08 s of start-up, the dynamic loader resolving some 140 000 symbols, though most runs mesh
/// nothing; so the library is opened (dlopen) the first time a shape is meshed or a .msh file is
/// read. Every call goes through `call`, which turns a failure (ierr ≠ 0) into a GmshError
/// carrying Gmsh's last error message.

#include <gmshc.h>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace nscd::io::detail {

/// A failed call of Gmsh's API, with Gmsh's message.
struct GmshError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The functions of Gmsh's C API that nscd uses (gmshc.h, Gmsh 4.8).
struct GmshApi {
  decltype(&gmshFree) free = nullptr;
  decltype(&gmshInitialize) initialize = nullptr;
  decltype(&gmshClear) clear = nullptr;
  decltype(&gmshMerge) merge = nullptr;
  decltype(&gmshOptionSetNumber) set_number = nullptr;
  decltype(&gmshLoggerGetLastError) last_error = nullptr;
  decltype(&gmshModelGeoAddPoint) geo_add_point = nullptr;
  decltype(&gmshModelGeoAddLine) geo_add_line = nullptr;
  decltype(&gmshModelGeoAddCurveLoop) geo_add_curve_loop = nullptr;
  decltype(&gmshModelGeoAddPlaneSurface) geo_add_plane_surface = nullptr;
  decltype(&gmshModelGeoAddSurfaceLoop) geo_add_surface_loop = nullptr;
  decltype(&gmshModelGeoAddVolume) geo_add_volume = nullptr;
  decltype(&gmshModelGeoSynchronize) geo_synchronize = nullptr;
  decltype(&gmshModelOccAddSphere) occ_add_sphere = nullptr;
  decltype(&gmshModelOccSynchronize) occ_synchronize = nullptr;
  decltype(&gmshModelMeshGenerate) generate = nullptr;
  decltype(&gmshModelMeshGetNodes) get_nodes = nullptr;
  decltype(&gmshModelMeshGetElements) get_elements = nullptr;
  decltype(&gmshModelMeshGetElementProperties) get_element_properties = nullptr;
};

/// The API of the library nscd was built with (its soname, NSCD_GMSH_LIBRARY), opened on the
/// first call. @throws nscd::Error naming the library when it cannot be opened or lacks a function.
const GmshApi& gmsh_api();

/// Gmsh's last error message, or "unknown Gmsh error".
std::string gmsh_last_error();

/// f(args..., &ierr) and its result, if any. @throws GmshError (gmsh_last_error()) when ierr ≠ 0.
template <class R, class... Params, class... Args>
R call(R (*f)(Params...), Args&&... args) {
  int ierr = 0;
  if constexpr (std::is_void_v<R>) {
    f(std::forward<Args>(args)..., &ierr);
    if (ierr != 0) throw GmshError(gmsh_last_error());
  } else {
    R result = f(std::forward<Args>(args)..., &ierr);
    if (ierr != 0) throw GmshError(gmsh_last_error());
    return result;
  }
}

}  // namespace nscd::io::detail
