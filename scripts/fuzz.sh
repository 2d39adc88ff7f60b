#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Fuzzing (fuzz/README.md): builds the libFuzzer targets in build-fuzz with
# clang, AddressSanitizer and UBSan, then runs each for SECONDS (default 60)
# from its corpus. New inputs go to build-fuzz/corpus/<target>; a finding is
# written to build-fuzz/fuzz/<target>-crash-… (or -timeout-, -oom-) and the
# run stops with its stack. Copy a fixed finding into fuzz/corpus/<target>
# so that the tests replay it.
#   scripts/fuzz.sh [SECONDS] [TARGET ...]    targets: meshes mesh_readers query robot scene shapes urdf watch
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-meshes mesh_readers query robot scene shapes urdf watch}
scripts/deps.sh
if ! command -v clang++ >/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y clang
fi
# The library and the targets are instrumented for coverage (fuzzer-no-link)
# and the sanitizers; -O1 keeps the stacks readable and the runs fast.
CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROXIMA_FUZZ=ON \
  -DPROXIMA_BUILD_TESTS=OFF -DPROXIMA_BUILD_BENCH=OFF -DPROXIMA_PYTHON=OFF \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" \
  "-DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
build_targets=()
for t in $targets; do build_targets+=("fuzz_$t"); done
cmake --build build-fuzz -j"$(nproc)" --target "${build_targets[@]}"
for t in $targets; do
  mkdir -p "build-fuzz/corpus/$t"
  echo "== fuzz_$t for ${seconds} s"
  "build-fuzz/fuzz/fuzz_$t" "build-fuzz/corpus/$t" "fuzz/corpus/$t" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=4096 -max_len=16384 -artifact_prefix="build-fuzz/fuzz/$t-" -print_final_stats=1
done
