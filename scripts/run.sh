#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Quick start, part 1: install, build, and run `proxima demo` (example queries
# and the side-by-side benchmark; report in proxima-report/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/venv.sh
scripts/build.sh
exec build/bin/proxima demo "$@"
