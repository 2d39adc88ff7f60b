#!/usr/bin/env bash
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
# Whole output first: `grep -q` closing the pipe early would SIGPIPE the demo.
report=$(mktemp -d)
demo=$("$proxima" demo --no-bench --report "$report")
echo "$demo" | grep -q "unit spheres 3 m apart (expect 1) | distance | ok | distance 1,"
[ "$(grep -c '<svg' "$report/index.html")" -ge 1 ]
rm -rf "$report"
echo "query_cli_test: ok"
