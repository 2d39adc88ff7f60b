#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The oracles are ground truth only while they share no code with the library
# under test: every #include in this folder must be a standard header, Eigen,
# qhull, GoogleTest or one of the oracles' own headers, and the oracle target
# links nothing of the library. Run by ctest (oracle_shares_no_code).
set -euo pipefail
dir=${1:-$(dirname "$0")}
own=$(cd "$dir" && ls -- *.hpp | sed 's/[.]/[.]/g' | paste -sd'|')
allowed="[[:space:]]*#[[:space:]]*include[[:space:]]*(<[a-z_0-9]+>|<Eigen/[A-Za-z]+>|<libqhull_r/[a-z_]+[.]h>|<gtest/gtest[.]h>|\"(oracle/)?($own)\")"
bad=$(grep -HnE '^[[:space:]]*#[[:space:]]*include' "$dir"/*.hpp "$dir"/*.cpp | grep -vE ":[0-9]+:$allowed" || true)
if [ -n "$bad" ]; then
  echo "the oracles include something that is not theirs, the standard library's, Eigen's, qhull's or GoogleTest's:"
  echo "$bad"
  exit 1
fi
if grep -nE 'target_link_libraries\(proxima_oracle[^)]*\bproxima\b' "$dir/CMakeLists.txt"; then
  echo "proxima_oracle links the library under test"
  exit 1
fi
echo "oracles: $(cat "$dir"/*.hpp "$dir"/*.cpp | grep -cE '^[[:space:]]*#[[:space:]]*include') includes, none from the library"
