#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Configures and builds Proxima into ${BUILD_DIR:-build} (Release). Extra
# arguments go to the CMake configure step; BUILD_TARGETS (space-separated)
# builds only those targets instead of everything.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
# The project's environment (scripts/venv.sh), when it is there, is the Python
# the module is built and tested for, and where the bench finds Coal and MuJoCo.
python=()
[ -x .venv/bin/python ] && python=(-DPython3_EXECUTABLE="$PWD/.venv/bin/python")
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} "${python[@]}" "$@" >/dev/null
targets=()
for t in ${BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j"$(nproc)" "${targets[@]}"
