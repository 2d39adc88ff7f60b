#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The built `proxima demo` end to end (without the benchmark): its example
# queries in the terminal, the report's mesh-contact section and the
# scenes' plots. The scenes' durations follow PROXIMA_TEST_SCALE, as the
# C++ suites' simulations do: the sanitizer run checks every code path of
# the demo on shorter runs; the Release suite (scale 1) runs the demo as
# `scripts/run.sh` does.
set -euo pipefail
proxima=$1
scale=${PROXIMA_TEST_SCALE:-1}
report=$(mktemp -d)
# Whole output first: `grep -q` closing the pipe early would SIGPIPE the demo.
demo=$("$proxima" demo --no-bench --sim-scale "$scale" --report "$report")
# A here-string, not `echo | grep -q`: grep quitting at its match would
# SIGPIPE an echo still writing the rest (a failure under pipefail).
grep -q "unit spheres 3 m apart (expect 1) | distance | ok | distance 1," <<< "$demo"
[ "$(grep -c '<svg' "$report/index.html")" -ge 1 ]
grep -q '^## Mesh contacts (BLEM)' "$report/report.md"
grep -q '^| 12-triangle cube (10 cm) on a 12-triangle cube.* | yes | ' "$report/report.md"
rm -rf "$report"
echo "demo_cli_test: ok"
