#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Quick start, part 1: install, build what the demo runs (the `proxima`
# command and the benchmark programs; scripts/test.sh builds the tests), and
# run `proxima demo` (example queries and the side-by-side benchmark; report
# in proxima-report/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/venv.sh
BUILD_TARGETS=demo_programs scripts/build.sh
exec build/bin/proxima demo "$@"
