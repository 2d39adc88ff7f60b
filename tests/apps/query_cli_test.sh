#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The built `proxima query` binary end to end: one answer line per request
# line, in order, and it keeps going after a bad line.
set -euo pipefail
proxima=$1
out=$(printf '%s\n' \
  '{"id":1,"query":"distance","a":{"shape":"sphere","radius":1},"b":{"shape":"sphere","radius":1},"pose_a":{"p":[3,0,0]}}' \
  'oops' \
  '{"id":3,"query":"collide","a":{"shape":"box","size":[1,1,1]},"b":{"shape":"box","size":[1,1,1]}}' | "$proxima" query)
echo "$out"
[ "$(echo "$out" | wc -l)" -eq 3 ]
echo "$out" | sed -n 1p | grep -q '"distance":1.0'
echo "$out" | sed -n 2p | grep -q '"status":"error"'
echo "$out" | sed -n 3p | grep -q '"collide":true'
echo "$out" | sed -n 3p | grep -q '"id":3'
# Mesh contacts: a 12-triangle cube 0.5 mm above a halfspace inside its 1 mm
# layer gives its 4 bottom corners, normals +z; with the halfspace as A, -z.
cube='{"shape":"mesh","margin":0.001,"vertices":[[-0.05,-0.05,-0.05],[0.05,-0.05,-0.05],[-0.05,0.05,-0.05],[0.05,0.05,-0.05],[-0.05,-0.05,0.05],[0.05,-0.05,0.05],[-0.05,0.05,0.05],[0.05,0.05,0.05]],"triangles":[[0,2,1],[1,2,3],[4,5,6],[5,7,6],[0,1,4],[1,5,4],[2,6,3],[3,6,7],[0,4,2],[2,4,6],[1,3,5],[3,7,5]]}'
plane='{"shape":"halfspace","normal":[0,0,1],"offset":0}'
mesh_out=$(printf '%s\n' \
  "{\"id\":\"m1\",\"query\":\"contacts\",\"a\":$cube,\"pose_a\":{\"p\":[0,0,0.0505]},\"b\":$plane}" \
  "{\"id\":\"m2\",\"query\":\"contacts\",\"b\":$cube,\"pose_b\":{\"p\":[0,0,0.0505]},\"a\":$plane}" \
  "{\"id\":\"m3\",\"query\":\"contacts\",\"a\":$cube,\"b\":$plane,\"max_contacts\":0}" | "$proxima" query)
echo "$mesh_out"
[ "$(echo "$mesh_out" | sed -n 1p | grep -o '"normal":\[-\?0.0,-\?0.0,1.0\]' | wc -l)" -ge 4 ]
[ "$(echo "$mesh_out" | sed -n 2p | grep -o '"normal":\[-\?0.0,-\?0.0,-1.0\]' | wc -l)" -ge 4 ]
echo "$mesh_out" | sed -n 1p | grep -q '"raw_contacts":4'
echo "$mesh_out" | sed -n 3p | grep -q '"status":"error".*max_contacts\|max_contacts.*"status":"error"'
# Witness points on both boxes (a 5 m box 1 m into a 2 m one: point_b the
# middle of the small box's face), and the touching boxes' face normal from
# distance and signed_distance; mpr's centre-line depth says upper_bound.
big='{"shape":"box","size":[5,5,5]}'
small='{"shape":"box","size":[2,2,2]}'
touch_a='{"shape":"box","size":[2,3,4]}'
touch_b='{"shape":"box","size":[2,5,6]}'
w_out=$(printf '%s\n' \
  "{\"id\":\"w1\",\"query\":\"signed_distance\",\"a\":$big,\"pose_a\":{\"p\":[-1,0,0]},\"b\":$small,\"pose_b\":{\"p\":[1.5,0,0]}}" \
  "{\"id\":\"w2\",\"query\":\"distance\",\"a\":$touch_a,\"pose_a\":{\"p\":[-1,0,0]},\"b\":$touch_b,\"pose_b\":{\"p\":[1,0,0]}}" \
  "{\"id\":\"w3\",\"query\":\"signed_distance\",\"a\":$touch_a,\"pose_a\":{\"p\":[-1,0,0]},\"b\":$touch_b,\"pose_b\":{\"p\":[1,0,0]}}" \
  "{\"id\":\"w4\",\"query\":\"signed_distance\",\"method\":\"mpr\",\"a\":$small,\"b\":$small,\"pose_b\":{\"p\":[1.5,0.3,0]}}" \
  | "$proxima" query)
echo "$w_out"
echo "$w_out" | sed -n 1p | grep -q '"point_b":\[0.5,0.0,0.0\]'
echo "$w_out" | sed -n 1p | grep -q '"point_a":\[1.5,0.0,0.0\]'
echo "$w_out" | sed -n 2p | grep -q '"normal":\[-1.0,-\?0.0,-\?0.0\]'
echo "$w_out" | sed -n 3p | grep -q '"normal":\[-1.0,-\?0.0,-\?0.0\]'
echo "$w_out" | sed -n 4p | grep -q '"status":"upper_bound"'
echo "query_cli_test: ok"
