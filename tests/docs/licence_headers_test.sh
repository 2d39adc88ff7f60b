#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every source file of the project carries its licence as an SPDX line in
# its first three lines (C++, Python, shell, CMake), so a file copied out of
# the tree keeps it.
set -euo pipefail
root=${1:?usage: licence_headers_test.sh SOURCE_DIR}
cd "$root"
missing=0
checked=0
while IFS= read -r -d '' f; do
  checked=$((checked + 1))
  if ! head -n 3 "$f" | grep -q "SPDX-License-Identifier: BSD-3-Clause"; then
    echo "no SPDX licence line: $f"
    missing=$((missing + 1))
  fi
done < <(find include src tests bench fuzz scripts examples cmake .ci CMakeLists.txt pyproject.toml \
  \( -path tests/data -o -path examples/meshes -o -path fuzz/corpus \) -prune -o \
  -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.pyi' -o -name '*.hpp.in' -o -name '*.py' \
  -o -name '*.sh' -o -name '*.cmake' -o -name '*.cmake.in' -o -name 'CMakeLists.txt' -o -name '*.toml' -o -name run \) \
  -print0)
echo "$checked files checked, $missing without the licence line"
[ "$checked" -gt 100 ] && [ "$missing" -eq 0 ]
