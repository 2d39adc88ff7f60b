# What the Python bindings (src/python) need: pybind11 and a python3 with
# numpy and its headers. Sets PROXIMA_PYTHON_FOUND and, when false,
# PROXIMA_PYTHON_MISSING (what is missing, for the message).
#
# The interpreter is chosen before FindPython runs: the first python3 on PATH
# may not be the one deps.sh gave numpy to (a pyenv shim ahead of Debian's
# /usr/bin/python3, say), and the tests must run under the interpreter the
# module was built for. Pass -DPython3_EXECUTABLE=... to choose another.
set(PROXIMA_PYTHON_FOUND FALSE)
set(PROXIMA_PYTHON_MISSING "")

if(NOT Python3_EXECUTABLE)
  find_program(_proxima_path_python3 NAMES python3 NO_CACHE)
  foreach(_candidate IN ITEMS ${_proxima_path_python3} /usr/bin/python3)
    if(EXISTS "${_candidate}")
      execute_process(COMMAND "${_candidate}" -c "import numpy" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
      if(_rc EQUAL 0)
        set(Python3_EXECUTABLE "${_candidate}" CACHE FILEPATH "python3 the bindings are built and tested for")
        break()
      endif()
    endif()
  endforeach()
endif()

if(NOT Python3_EXECUTABLE)
  set(PROXIMA_PYTHON_MISSING "a python3 that imports numpy (python3-numpy)")
  return()
endif()
find_package(Python3 3.8 COMPONENTS Interpreter Development.Module QUIET)
if(NOT Python3_Development.Module_FOUND)
  set(PROXIMA_PYTHON_MISSING "the headers of ${Python3_EXECUTABLE} (python3-dev)")
  return()
endif()
find_package(pybind11 2.6 CONFIG QUIET)
if(NOT pybind11_FOUND)
  set(PROXIMA_PYTHON_MISSING "pybind11 (pybind11-dev)")
  return()
endif()
set(PROXIMA_PYTHON_FOUND TRUE)
