# Which VTK this build uses, for the configure log and run.json. nscd builds against either
# Debian's libvtk9-dev (found by default) or the VTK inside ParaView that paraview-dev ships
# (-DVTK_DIR=/usr/lib/x86_64-linux-gnu/cmake/paraview-5.11/vtk), which can be installed next to
# ParaView's Python packages where libvtk9-dev cannot. Sets
#   NSCD_VTK_VERSION  VTK's version (VTK_VERSION)
#   NSCD_VTK_ORIGIN   the Debian package that ships VTK's CMake configuration (libvtk9-dev,
#                     paraview-dev), or that configuration's directory when no package does
set(NSCD_VTK_VERSION "${VTK_VERSION}")
file(REAL_PATH "${VTK_CONFIG}" _nscd_vtk_config)  # dpkg knows /usr/lib/..., not /lib/...
get_filename_component(_nscd_vtk_dir "${_nscd_vtk_config}" DIRECTORY)
set(NSCD_VTK_ORIGIN "${_nscd_vtk_dir}")
find_program(NSCD_DPKG_QUERY dpkg-query)
mark_as_advanced(NSCD_DPKG_QUERY)
if(NSCD_DPKG_QUERY)
  execute_process(COMMAND "${NSCD_DPKG_QUERY}" -S "${_nscd_vtk_config}" OUTPUT_VARIABLE _nscd_vtk_owner
                  ERROR_QUIET RESULT_VARIABLE _nscd_vtk_rc)
  # "libvtk9-dev:amd64: /usr/lib/.../vtk-config.cmake" → libvtk9-dev
  if(_nscd_vtk_rc EQUAL 0 AND _nscd_vtk_owner MATCHES "^([^:, ]+)")
    set(NSCD_VTK_ORIGIN "${CMAKE_MATCH_1}")
  endif()
endif()
if(NSCD_VTK_ORIGIN MATCHES "^paraview")
  message(STATUS "nscd: VTK ${NSCD_VTK_VERSION} from ${NSCD_VTK_ORIGIN}, the VTK inside ParaView (${_nscd_vtk_dir})")
elseif(NSCD_VTK_ORIGIN STREQUAL _nscd_vtk_dir)
  message(STATUS "nscd: VTK ${NSCD_VTK_VERSION} from ${_nscd_vtk_dir}")
else()
  message(STATUS "nscd: VTK ${NSCD_VTK_VERSION} from ${NSCD_VTK_ORIGIN} (${_nscd_vtk_dir})")
endif()
