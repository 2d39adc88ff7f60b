#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A robot validity check's time per row, this tree against an earlier
# commit, side by side on this machine: the commit's library is exported
# (git archive) and built into build/against-COMMIT, proxima-validity-rows
# (bench/validity_rows.cpp) is compiled against it, and the two programs run
# in turn on the same rows, ROUNDS times. This tree's program runs twice
# per round: the row-by-row exact check, and check_validity with the sphere
# prefilter. "labels" says whether all three labelled every row alike.
#
# Usage: bench/against_commit.sh COMMIT [ROBOT] [SCENE] [ROUNDS] [ROWS]
#   ROBOT: panda or ur5 (default panda); SCENE: one of its scenes/ (default
#   table_pick_scene0001); ROUNDS (default 3); ROWS (default 20000).
# This tree must be built first (scripts/build.sh); the commit's library
# takes some minutes the first time, and is kept for later runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: bench/against_commit.sh COMMIT [ROBOT] [SCENE] [ROUNDS] [ROWS]" >&2; exit 2; }
commit=$(git -C "$root" rev-parse --verify --short "$1^{commit}")
robot=${2:-panda}
scene=${3:-table_pick_scene0001}
rounds=${4:-3}
rows=${5:-20000}
case "$robot" in panda|ur5) ;; *) echo "ROBOT: panda or ur5, not '$robot'" >&2; exit 2 ;; esac
case "$rounds" in ''|*[!0-9]*) echo "ROUNDS: a whole number, not '$rounds'" >&2; exit 2 ;; esac
data="$root/tests/data/robots/$robot"
[ -f "$data/scenes/$scene.yaml" ] || { echo "SCENE: no $data/scenes/$scene.yaml" >&2; exit 2; }
now="$root/build/bin/proxima-validity-rows"
[ -x "$now" ] || { echo "build this tree first: BUILD_TARGETS=proxima_validity_rows scripts/build.sh" >&2; exit 2; }

work="$root/build/against-$commit"
if [ ! -f "$work/build/src/libproxima.a" ]; then
  rm -rf "$work/src"
  mkdir -p "$work/src"
  git -C "$root" archive "$commit" | tar -x -C "$work/src"
  cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$work/build" -j"$(nproc)" --target proxima
fi
then_bin="$work/proxima-validity-rows"
c++ -O2 -std=c++20 -I"$work/src/include" -I"$work/build/generated/include" -isystem /usr/include/eigen3 \
  "$root/bench/validity_rows.cpp" "$work/build/src/libproxima.a" \
  -lqhull_r -ltinyxml2 -lassimp -lyaml-cpp -lpthread -o "$then_bin"

args=("$data/$robot.urdf" "$data/$robot.srdf" "$data/scenes/$scene.yaml" --rows "$rows")
cpu=$(lscpu | sed -n 's/^Model name: *//p')
echo "$robot in $scene, $rows uniform rows, one thread; $(date -u '+%Y-%m-%d %H:%M UTC'); $cpu"
printf '%-6s %-14s %-14s %-14s %-10s %-10s\n' round "$commit exact" "now exact" "now batch" "speed-up" "labels"
for r in $(seq "$rounds"); do
  t=$("$then_bin" "${args[@]}")
  e=$("$now" "${args[@]}")
  b=$("$now" "${args[@]}" --batch)
  within() { awk '{print $4}' <<<"$1"; }
  labels() { awk '{print $6}' <<<"$1"; }
  us() { awk '{print $8}' <<<"$1"; }
  same=same
  [ "$(labels "$t")" = "$(labels "$e")" ] && [ "$(labels "$t")" = "$(labels "$b")" ] || same=DIFFER
  printf '%-6s %-14s %-14s %-14s %-10s %-10s\n' "$r" "$(us "$t")" "$(us "$e")" "$(us "$b")" \
    "$(awk -v a="$(us "$t")" -v b="$(us "$b")" 'BEGIN{printf "%.1fx", a/b}')" "$same ($(within "$t") within)"
done
