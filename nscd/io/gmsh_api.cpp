#include "nscd/io/gmsh_api.hpp"

#include "nscd/core/error.hpp"

#include <dlfcn.h>
#include <spdlog/fmt/fmt.h>

namespace nscd::io::detail {
namespace {

GmshApi open_gmsh() {
  void* library = dlopen(NSCD_GMSH_LIBRARY, RTLD_LAZY | RTLD_LOCAL);
  if (library == nullptr)
    throw Error(fmt::format("cannot open Gmsh's library {}, which meshes shapes and reads .msh files ({}); "
                            "install Debian's libgmsh4.8 (tools/setup.sh does)",
                            NSCD_GMSH_LIBRARY, dlerror()));
  GmshApi api;
  auto resolve = [&](auto& function, const char* name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, name));
    if (function == nullptr) throw Error(fmt::format("Gmsh's library {} has no function {}", NSCD_GMSH_LIBRARY, name));
  };
  resolve(api.free, "gmshFree");
  resolve(api.initialize, "gmshInitialize");
  resolve(api.clear, "gmshClear");
  resolve(api.merge, "gmshMerge");
  resolve(api.set_number, "gmshOptionSetNumber");
  resolve(api.last_error, "gmshLoggerGetLastError");
  resolve(api.geo_add_point, "gmshModelGeoAddPoint");
  resolve(api.geo_add_line, "gmshModelGeoAddLine");
  resolve(api.geo_add_curve_loop, "gmshModelGeoAddCurveLoop");
  resolve(api.geo_add_plane_surface, "gmshModelGeoAddPlaneSurface");
  resolve(api.geo_add_surface_loop, "gmshModelGeoAddSurfaceLoop");
  resolve(api.geo_add_volume, "gmshModelGeoAddVolume");
  resolve(api.geo_synchronize, "gmshModelGeoSynchronize");
  resolve(api.occ_add_sphere, "gmshModelOccAddSphere");
  resolve(api.occ_synchronize, "gmshModelOccSynchronize");
  resolve(api.generate, "gmshModelMeshGenerate");
  resolve(api.get_nodes, "gmshModelMeshGetNodes");
  resolve(api.get_elements, "gmshModelMeshGetElements");
  resolve(api.get_element_properties, "gmshModelMeshGetElementProperties");
  return api;
}

}  // namespace

const GmshApi& gmsh_api() {
  static const GmshApi api = open_gmsh();  // a failed opening throws, and the next call tries again
  return api;
}

std::string gmsh_last_error() {
  const GmshApi& api = gmsh_api();
  char* error = nullptr;
  int ierr = 0;
  api.last_error(&error, &ierr);
  std::string message = ierr == 0 && error != nullptr ? error : "";
  api.free(error);
  return message.empty() ? "unknown Gmsh error" : message;
}

}  // namespace nscd::io::detail
