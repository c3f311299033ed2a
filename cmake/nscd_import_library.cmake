# nscd_import_library(TARGET PREFIX HEADER LIBRARY PACKAGE DESCRIPTION [PATH_SUFFIX...]):
# the imported target TARGET of a Debian library that ships no CMake configuration, from its
# header and library found by hand (cache variables PREFIX_INCLUDE_DIR and PREFIX_LIBRARY, which
# a user may set); stops with the package to install when either is missing.
function(nscd_import_library target prefix header library package description)
  find_path(${prefix}_INCLUDE_DIR ${header} PATH_SUFFIXES ${ARGN})
  find_library(${prefix}_LIBRARY ${library})
  if(NOT ${prefix}_INCLUDE_DIR OR NOT ${prefix}_LIBRARY)
    message(FATAL_ERROR "${description} not found (${header}, lib${library}): install Debian's ${package} "
                        "(tools/setup.sh does), or set ${prefix}_INCLUDE_DIR and ${prefix}_LIBRARY")
  endif()
  add_library(${target} UNKNOWN IMPORTED)
  set_target_properties(${target} PROPERTIES IMPORTED_LOCATION "${${prefix}_LIBRARY}"
                                             INTERFACE_INCLUDE_DIRECTORIES "${${prefix}_INCLUDE_DIR}")
endfunction()
