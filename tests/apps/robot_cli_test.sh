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

# --planning-scene: a MoveIt scene is the stream's scene from the first line.
# A block around the base (the .scene text) collides with panda_link0; the
# same block 5 m away (YAML) does not; a "scene" line replaces it.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$err"' EXIT
printf '%s\n' 'cell' '* block' '0 0 0.05' '0 0 0 1' '1' 'box' '0.3 0.3 0.1' '0 0 0' '0 0 0 1' '0 0 0 0' '0' '.' \
  >"$tmp/cell.scene"
ready='"q":[0,-0.785,0,-2.356,0,1.571,0.785]'
out=$(printf '%s\n' "{\"id\":1,$ready}" '{"id":2,"scene":[]}' "{\"id\":3,$ready}" |
  "$proxima" robot "$panda/panda.urdf" --srdf "$panda/panda.srdf" --planning-scene "$tmp/cell.scene")
echo "$out" | sed -n 1p | grep -q '"environment_collision":true'
echo "$out" | sed -n 1p | grep -q '\["panda_link0","block"\]'
echo "$out" | sed -n 3p | grep -q '"environment_collision":false'
cat >"$tmp/far.yaml" <<'YAML'
world:
  collision_objects:
    - id: block
      primitives: [{type: box, dimensions: [0.3, 0.3, 0.1]}]
      primitive_poses: [{position: [5, 0, 0], orientation: [0, 0, 0, 1]}]
YAML
echo "{$ready}" | "$proxima" robot "$panda/panda.urdf" --planning-scene "$tmp/far.yaml" |
  grep -q '"environment_collision":false,"environment_distance":{"distance":4'
# A bad scene stops the command with the file, line and field.
printf 'world:\n  collision_objects:\n    - id: a\n      primtives: []\n' >"$tmp/bad.yaml"
if "$proxima" robot "$panda/panda.urdf" --planning-scene "$tmp/bad.yaml" </dev/null 2>"$err"; then exit 1; fi
grep -q "bad.yaml:4: world.collision_objects\[0\].primtives: unknown field" "$err"

# --urdf-xml / --srdf-xml: the robot as text (ROS's robot_description), the
# same answers as from the files; relative meshes against the working folder.
urdf_text=$(cat "$panda/panda.urdf")
srdf_text=$(cat "$panda/panda.srdf")
request="{\"id\":3,\"q\":[0,0,0,-2.5,0,0,0]}"
from_files=$(echo "$request" | "$proxima" robot "$panda/panda.urdf" --srdf "$panda/panda.srdf")
from_text=$(cd "$panda" && echo "$request" | "$proxima" robot --urdf-xml "$urdf_text" --srdf-xml "$srdf_text")
[ "$from_files" = "$from_text" ]
echo "$from_text" | grep -q '\["panda_link5","panda_hand"\]'
# Strict: both forms, neither, empty text, malformed text.
if "$proxima" robot "$panda/panda.urdf" --urdf-xml "$urdf_text" </dev/null 2>"$err"; then exit 1; fi
grep -q "excludes" "$err"
if "$proxima" robot "$panda/panda.urdf" --srdf "$panda/panda.srdf" --srdf-xml "$srdf_text" </dev/null 2>"$err"; then
  exit 1
fi
grep -q "excludes" "$err"
if "$proxima" robot </dev/null 2>"$err"; then exit 1; fi
grep -q "give a URDF file or --urdf-xml" "$err"
if "$proxima" robot --urdf-xml " " </dev/null 2>"$err"; then exit 1; fi
grep -q "\-\-urdf-xml: the text is empty" "$err"
if (cd "$panda" && "$proxima" robot --urdf-xml "<robot name='x'><link" </dev/null 2>"$err"); then exit 1; fi
grep -q "\-\-urdf-xml" "$err"
if (cd "$panda" && "$proxima" robot --urdf-xml "$urdf_text" --srdf-xml "<robot><disable_collisions" </dev/null 2>"$err"); then
  exit 1
fi
grep -q "\-\-srdf-xml" "$err"
echo "robot_cli_test: ok"
