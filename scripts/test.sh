#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Quick start, part 2: install, build, and run every test (the C++ tests and,
# under pytest, the Python module's).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/venv.sh
scripts/build.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure --no-tests=error -j"$(nproc)" --timeout 1500
