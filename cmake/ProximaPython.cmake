# SPDX-License-Identifier: BSD-3-Clause
# What the Python bindings (src/python) need: pybind11 and a python3 with
# numpy and its headers. Sets PROXIMA_PYTHON_FOUND and, when false,
# PROXIMA_PYTHON_MISSING (what is missing, for the message).
#
# The interpreter is chosen before FindPython runs, as the first that imports
# numpy of: the project's environment .venv (scripts/venv.sh), the first
# python3 on PATH, Debian's /usr/bin/python3. The tests must run under the
# interpreter the module was built for. Pass -DPython3_EXECUTABLE=... to
# choose another (`pip install .` passes the one it builds for, which needs no
# numpy to build).
#
# pybind11 is the one in that interpreter's environment (PyPI's, pinned in
# scripts/requirements.txt) unless -Dpybind11_DIR=... names another.
set(PROXIMA_PYTHON_FOUND FALSE)
set(PROXIMA_PYTHON_MISSING "")

if(NOT Python3_EXECUTABLE)
  find_program(_proxima_path_python3 NAMES python3 NO_CACHE)
  foreach(_candidate IN ITEMS ${PROJECT_SOURCE_DIR}/.venv/bin/python ${_proxima_path_python3} /usr/bin/python3)
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
  set(PROXIMA_PYTHON_MISSING "a python3 that imports numpy (scripts/venv.sh makes .venv with it)")
  return()
endif()
find_package(Python3 3.8 COMPONENTS Interpreter Development.Module QUIET)
if(NOT Python3_Development.Module_FOUND)
  set(PROXIMA_PYTHON_MISSING "the headers of ${Python3_EXECUTABLE} (python3-dev)")
  return()
endif()
# A pybind11_DIR that no longer exists (a build folder configured before its
# package was removed) is asked again.
if(NOT pybind11_DIR OR NOT EXISTS "${pybind11_DIR}/pybind11Config.cmake")
  execute_process(COMMAND "${Python3_EXECUTABLE}" -m pybind11 --cmakedir
                  OUTPUT_VARIABLE _proxima_pybind11_dir OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE _rc ERROR_QUIET)
  if(_rc EQUAL 0 AND EXISTS "${_proxima_pybind11_dir}")
    set(pybind11_DIR "${_proxima_pybind11_dir}" CACHE PATH "pybind11's CMake package (from the interpreter's environment)"
        FORCE)
  endif()
endif()
find_package(pybind11 2.6 CONFIG QUIET)
if(NOT pybind11_FOUND)
  set(PROXIMA_PYTHON_MISSING "pybind11 (in .venv: scripts/venv.sh)")
  return()
endif()
set(PROXIMA_PYTHON_FOUND TRUE)
