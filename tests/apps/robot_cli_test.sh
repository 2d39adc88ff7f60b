#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The built `proxima robot` binary end to end on the Panda: one answer line
# per request line, in order, going on after a bad line; a robot that does
# not load exits 1 with its message.
set -euo pipefail
proxima=$1
panda=$(cd "$(dirname "$0")/../data/robots/panda" && pwd)
out=$(printf '%s\n' \
  '{"id":1,"q":[0,-0.785,0,-2.356,0,1.571,0.785]}' \
  'oops' \
  '{"id":3,"q":[0,0,0,-2.5,0,0,0]}' | "$proxima" robot "$panda/panda.urdf" --srdf "$panda/panda.srdf")
echo "$out"
[ "$(echo "$out" | wc -l)" -eq 3 ]
echo "$out" | sed -n 1p | grep -q '"self_collision":false'
echo "$out" | sed -n 2p | grep -q '"status":"error"'
echo "$out" | sed -n 3p | grep -q '"self_collision":true'
echo "$out" | sed -n 3p | grep -q '\["panda_link5","panda_hand"\]'
# A segment to q_end is checked continuously (self contact on the way).
echo '{"q":[0,-0.785,0,-2.356,0,1.571,0.785],"q_end":[0,-0.785,0,-2.356,0,0,0.785]}' |
  "$proxima" robot "$panda/panda.urdf" --srdf "$panda/panda.srdf" |
  grep -q '"motion":{"collide":true.*"self":true'
# Raw meshes with a margin answer too.
echo '{"q":[0,-0.785,0,-2.356,0,1.571,0.785]}' |
  "$proxima" robot "$panda/panda.urdf" --srdf "$panda/panda.srdf" --mesh-mode mesh --margin 0.001 |
  grep -q '"status":"ok"'
err=$(mktemp)
if "$proxima" robot /nonexistent.urdf </dev/null 2>"$err"; then exit 1; fi
grep -q "/nonexistent.urdf" "$err"
rm -f "$err"
echo "robot_cli_test: ok"
