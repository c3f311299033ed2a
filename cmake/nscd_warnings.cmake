# interface target carrying the project's warning flags; linked PRIVATE by every target
add_library(nscd_warnings INTERFACE)
add_library(nscd::warnings ALIAS nscd_warnings)
target_compile_options(nscd_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                               -Wno-deprecated-declarations)

# nscd_add_library(NAME SOURCES ...): a library target nscd_NAME with alias nscd::NAME,
# headers included as <folder/file.hpp> from the project root
function(nscd_add_library name)
  add_library(nscd_${name} ${ARGN})
  add_library(nscd::${name} ALIAS nscd_${name})
  target_include_directories(nscd_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_compile_features(nscd_${name} PUBLIC cxx_std_20)
  target_link_libraries(nscd_${name} PRIVATE nscd::warnings)
endfunction()
