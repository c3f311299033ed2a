# The Python module (python/, docs/python.md): the interpreter it is built for and pybind11
# (Debian's pybind11-dev). The interpreter is the first of python3 on the PATH and Debian's
# /usr/bin/python3 that imports NumPy (the module's arrays, and its tests, need it; a pyenv python3
# first on the PATH often has none); -DPython_EXECUTABLE=... chooses it outright. Sets
#   NSCD_PYTHON_DEFAULT  ON when pybind11 and such an interpreter are found
#   Python_EXECUTABLE    the interpreter
if(NOT DEFINED CACHE{Python_EXECUTABLE})
  find_program(_nscd_python3 NAMES python3 NO_CACHE)
  foreach(_candidate IN ITEMS "${_nscd_python3}" /usr/bin/python3)
    if(_candidate AND EXISTS "${_candidate}")
      execute_process(COMMAND "${_candidate}" -c "import numpy" RESULT_VARIABLE _failed OUTPUT_QUIET ERROR_QUIET)
      if(NOT _failed)
        set(Python_EXECUTABLE "${_candidate}" CACHE FILEPATH "The Python interpreter of the nscd module")
        break()
      endif()
    endif()
  endforeach()
endif()
set(NSCD_PYTHON_DEFAULT OFF)
if(DEFINED CACHE{Python_EXECUTABLE})
  set(PYBIND11_FINDPYTHON ON)  # FindPython, with Python_EXECUTABLE
  find_package(pybind11 2.6 CONFIG QUIET)
  if(pybind11_FOUND)
    set(NSCD_PYTHON_DEFAULT ON)
  endif()
endif()
if(NOT NSCD_PYTHON_DEFAULT)
  message(STATUS "nscd: no Python module (needs Debian's pybind11-dev and python3-numpy; tools/setup.sh installs them)")
endif()
