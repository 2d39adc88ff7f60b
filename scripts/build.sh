#!/usr/bin/env bash
# Configures and builds Proxima into ${BUILD_DIR:-build} (Release). Extra
# arguments go to the CMake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} "$@" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
