#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The built `proxima watch` binary end to end on the Panda beside a table:
# its options reach the watchdog (a wide horizon stops the jog at once), one
# answer per line, going on after a bad line; --deadline answers silence
# with a stop; a malformed --package, a missing environment file and a bad
# --deadline or tolerance exit 1 with the reason.
set -euo pipefail
proxima=$1
panda=$(cd "$(dirname "$0")/../data/robots/panda" && pwd)
env=$(mktemp --suffix=.json)
trap 'rm -f "$env"' EXIT
echo '[{"name":"table","geometry":{"shape":"box","size":[0.6,1.0,0.1]},"pose":{"p":[0.65,0,0.15]}}]' >"$env"
lines() {
  awk 'BEGIN { for (k = 0; k < 4; ++k) printf "{\"t\":%g,\"q\":[0,%g,0,-2.356,0,1.571,0.785]}\n", 0.032 * k, -0.785 + 0.0128 * k }'
  echo 'oops'
  echo '{"t":2.0}'
}
out=$(lines | "$proxima" watch "$panda/panda.urdf" --srdf "$panda/panda.srdf" --environment "$env" \
  --tool panda_hand --horizon 8 --stop 0.02 --slow 0.1 --warn 0.3)
echo "$out"
[ "$(echo "$out" | wc -l)" -eq 6 ]
echo "$out" | sed -n 1p | grep -q '"level":"clear"'
echo "$out" | sed -n 4p | grep -q '"level":"stop"'
echo "$out" | sed -n 4p | grep -q '"channel":"table"'
echo "$out" | sed -n 5p | grep -q '"status":"error"'
echo "$out" | sed -n 6p | grep -q '"stale":true'
# --deadline: silence after a sample is answered by a stop of the command's
# own, after the sample's answer; closing the input ends the stream.
coproc WATCH { "$proxima" watch "$panda/panda.urdf" --srdf "$panda/panda.srdf" --deadline 0.05; }
watch_pid=$WATCH_PID  # bash unsets WATCH_PID once the coprocess has ended
echo '{"t":1.0,"q":[0,-0.785,0,-2.356,0,1.571,0.785]}' >&"${WATCH[1]}"
read -r -t 300 first <&"${WATCH[0]}"
read -r -t 300 second <&"${WATCH[0]}"
watch_in=${WATCH[1]}
eval "exec ${watch_in}>&-"
wait "$watch_pid"
echo "$first"
echo "$second"
echo "$first" | grep -q '"t":1.0'
echo "$first" | grep -q '"reason":"none"'
echo "$second" | grep -q '"level":"stop"'
echo "$second" | grep -q '"speed_factor":0.0'
echo "$second" | grep -q '"reason":"deadline"'
err=$(mktemp)
for bad in 0 -1 abc; do
  if "$proxima" watch "$panda/panda.urdf" --deadline "$bad" </dev/null 2>"$err"; then exit 1; fi
  grep -q -- "--deadline" "$err"
done
if "$proxima" watch "$panda/panda.urdf" --speed-tolerance 0.5 </dev/null 2>"$err"; then exit 1; fi
grep -q -- "--speed-tolerance: '0.5' must be >= 1" "$err"
if "$proxima" watch "$panda/panda.urdf" --package broken </dev/null 2>"$err"; then exit 1; fi
grep -q "expected NAME=DIR" "$err"
if "$proxima" watch "$panda/panda.urdf" --environment /nonexistent.json </dev/null 2>"$err"; then exit 1; fi
grep -q "/nonexistent.json" "$err"
rm -f "$err"
echo "watch_cli_test: ok"
