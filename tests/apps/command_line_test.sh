#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The `proxima` command line itself: --version, an unknown command, each
# command's --help, and options out of range are errors that name the option.
set -uo pipefail
proxima=$1
examples=$2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_error "what" "text the message must hold" command...: exit code 1..2
# (CLI11 uses 105-ish codes for parse errors; anything but 0 counts) and the
# text on stderr or stdout.
expect_error() {
  local what=$1 text=$2
  shift 2
  local out rc
  out=$("$@" 2>&1 </dev/null)
  rc=$?
  [ "$rc" -ne 0 ] || fail "$what: exit code 0 (output: $out)"
  grep -qF -- "$text" <<<"$out" || fail "$what: no '$text' in: $out"
}

version=$(grep -oP 'project\(proxima VERSION \K[0-9.]+' "$(dirname "$0")/../../CMakeLists.txt")
out=$("$proxima" --version) || fail "--version exits non-zero"
[ "$out" = "proxima $version" ] || fail "--version prints '$out', not 'proxima $version'"

expect_error "unknown command" "unknown command 'frobnicate'" "$proxima" frobnicate
expect_error "misspelt command" 'did you mean "query"' "$proxima" qeury
expect_error "no command" "A subcommand is required" "$proxima"

for c in query sim robot watch demo bench; do
  help=$("$proxima" "$c" --help) || fail "$c --help exits non-zero"
  grep -q "see README" <<<"$help" && fail "$c --help defers to the README"
done
for c in query sim robot watch; do
  "$proxima" "$c" --help | grep -q "docs/" || fail "$c --help names no format page"
done
"$proxima" query --help | grep -q "signed_distance" || fail "query --help does not list the queries"
"$proxima" sim --help | grep -q '"bodies"' || fail "sim --help does not describe the scene file"

scene=$examples/resting_box.json
expect_error "sim --time -1" "--time" "$proxima" sim "$scene" --time -1
expect_error "sim --time 0" "--time" "$proxima" sim "$scene" --time 0
expect_error "sim --time nan" "--time" "$proxima" sim "$scene" --time nan
expect_error "sim --time 1x" "not a number" "$proxima" sim "$scene" --time 1x
expect_error "sim --dt 0" "--dt" "$proxima" sim "$scene" --dt 0
expect_error "sim --dt inf" "--dt" "$proxima" sim "$scene" --dt inf
expect_error "sim --dt 2" "--dt" "$proxima" sim "$scene" --dt 2
expect_error "sim --friction-directions 0" "--friction-directions" "$proxima" sim "$scene" --friction-directions 0
expect_error "sim --friction-directions 65" "--friction-directions" "$proxima" sim "$scene" --friction-directions 65
expect_error "sim --solver" "--solver" "$proxima" sim "$scene" --solver lemk
expect_error "sim --friction-basis" "--friction-basis" "$proxima" sim "$scene" --friction-basis fixd
expect_error "sim --formulation" "--formulation" "$proxima" sim "$scene" --formulation pegg
expect_error "sim of a directory" "not a regular file" "$proxima" sim "$examples"
expect_error "sim of /dev/zero" "not a regular file" "$proxima" sim /dev/zero
expect_error "sim of nothing" "no such file" "$proxima" sim "$examples/no-such-scene.json"
expect_error "demo --poses 0" "--poses" "$proxima" demo --poses 0
expect_error "demo --sim-scale -1" "--sim-scale" "$proxima" demo --sim-scale -1
expect_error "bench --poses -5" "--poses" "$proxima" bench --poses -5
expect_error "robot --margin -1" "--margin" "$proxima" robot /dev/null --margin -1
expect_error "robot --margin nan" "--margin" "$proxima" robot /dev/null --margin nan
expect_error "robot of a directory" "not a regular file" "$proxima" robot "$examples"
urdf=$(dirname "$0")/../data/robots/panda/panda.urdf
for bad in "--stop -1" "--slow 0" "--warn nan" "--horizon 0" "--horizon 61" "--stale-after -1" "--stop-after inf" \
           "--angle-tolerance -0.1" "--length-tolerance nan" "--speed-tolerance 0.5" "--deadline 0" \
           "--program-tolerance 0" "--program-fallback -1" "--margin -0.1"; do
  # shellcheck disable=SC2086
  expect_error "watch $bad" "${bad%% *}" "$proxima" watch "$urdf" $bad
done
expect_error "watch with stop above slow" "must be ordered stop < slow <= warn" "$proxima" watch "$urdf" --stop 0.2 --slow 0.1
out=$("$proxima" watch "$urdf" --stop 0.2 --slow 0.1 2>&1 </dev/null)
grep -q "environment file ''" <<<"$out" && fail "a flag error is blamed on an environment file: $out"

# A metric whose window the run never reaches says so instead of a perfect 0.
out=$("$proxima" sim "$scene" --time 0.01 2>&1) || fail "a short sim run failed: $out"
grep -q "no samples" <<<"$out" || fail "a run ending before the metric window reports no 'no samples': $out"
# A run that does reach it reports numbers.
out=$("$proxima" sim "$scene" 2>&1) || fail "sim failed: $out"
grep -q "no samples" <<<"$out" && fail "a full run reports 'no samples': $out"

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "command line: all checks passed"
