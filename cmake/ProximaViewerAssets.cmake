# SPDX-License-Identifier: BSD-3-Clause
# The replay page's template and script (src/apps/viewer/) become string
# constants (src/apps/viewer_assets.hpp) of every target that writes the page:
# the proxima command and the Python module (proxima.viz), which pip builds
# without the command. Editing them re-runs CMake. Sets
# PROXIMA_VIEWER_ASSETS_SOURCE to the generated source file, in the scope of
# each includer (so no include guard: a second include writes the same file).
set(_proxima_viewer_dir ${PROJECT_SOURCE_DIR}/src/apps/viewer)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_proxima_viewer_dir}/replay.html
             ${_proxima_viewer_dir}/replay.js ${_proxima_viewer_dir}/viewer_assets.cpp.in)
file(READ ${_proxima_viewer_dir}/replay.html PROXIMA_REPLAY_HTML)
file(READ ${_proxima_viewer_dir}/replay.js PROXIMA_REPLAY_JS)
foreach(text PROXIMA_REPLAY_HTML PROXIMA_REPLAY_JS)
  string(FIND "${${text}}" ")PROXIMA_VIEWER" found)
  if(NOT found EQUAL -1)
    message(FATAL_ERROR "src/apps/viewer: a file holds the raw-string delimiter )PROXIMA_VIEWER")
  endif()
endforeach()
set(PROXIMA_VIEWER_ASSETS_SOURCE ${PROJECT_BINARY_DIR}/generated/viewer_assets.cpp)
configure_file(${_proxima_viewer_dir}/viewer_assets.cpp.in ${PROXIMA_VIEWER_ASSETS_SOURCE} @ONLY)
