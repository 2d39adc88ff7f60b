#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the build in ${BUILD_DIR:-build} (already built) into a fresh prefix
# and uses it as a user would: a CMake project that finds the package and,
# when that build made the Python module, `import proxima` from the site
# directory it was installed to, with its type stubs beside it (and checked
# by mypy from the project's environment). .ci/run calls it after the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}

prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
# A fresh consumer build: a kept cache would remember the proxima_DIR of an
# earlier prefix and build against that install instead of this one.
rm -rf build-consumer
cmake -S tests/consumer -B build-consumer -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build build-consumer -j"$(nproc)"
build-consumer/proxima_consumer

# The installed programs stand alone: run from outside the source tree, the
# demo reads the installed example scenes and robot, and `proxima bench` runs
# the installed benchmark program (the source tree's data is not used).
installed=$(realpath "$prefix")
(cd / && "$prefix/bin/proxima" demo --no-bench --sim-scale 0.02 --report "$prefix/report") >"$prefix/demo.log"
for want in "running the example scenes from $installed/share/proxima/examples" \
            "running the Panda watchdog from $installed/share/proxima/robots"; do
  grep -qF "$want" "$prefix/demo.log" || { echo "install: the demo did not say '$want':" >&2; cat "$prefix/demo.log" >&2; exit 1; }
done
grep -q "skipped" "$prefix/demo.log" && { echo "install: the demo skipped a scene:" >&2; cat "$prefix/demo.log" >&2; exit 1; }
grep -q "The Panda did not load" "$prefix/report/report.md" &&
  { echo "install: the Panda did not load from the installed data" >&2; exit 1; }
grep -q "^| " "$prefix/report/report.md" || { echo "install: no report tables" >&2; exit 1; }
if [ -x "$prefix/bin/proxima-bench" ]; then
  (cd / && "$prefix/bin/proxima" bench --poses 3) >"$prefix/bench.log"
  # A peer the installed program cannot load shows as a failed child.
  if grep -q "child exited" "$prefix/bench.log"; then
    echo "install: a benchmark peer failed in the installed proxima-bench:" >&2
    grep "child exited" "$prefix/bench.log" >&2
    exit 1
  fi
  echo "install: proxima demo and proxima bench ran from / on the installed data and programs"
else
  echo "install: proxima demo ran from / on the installed data (this build has no benchmark programs)"
fi
# The C++ examples of the README and docs/cpp.md, built the same way and run
# from the repository root (they read its meshes and robots); each must print
# its examples/cpp/*.expected (closed forms), numbers within 1e-9.
rm -rf build-examples
cmake -S examples/cpp -B build-examples -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build build-examples -j"$(nproc)"
for source in examples/cpp/*.cpp; do
  [ -f "${source%.cpp}.expected" ] || { echo "example $source has no ${source%.cpp}.expected" >&2; exit 1; }
done
for expected in examples/cpp/*.expected; do
  example=$(basename "$expected" .expected)
  "build-examples/$example" >"build-examples/$example.out"
  python3 tests/docs/answers.py text "$expected" "build-examples/$example.out"
  echo "example $example: prints $expected"
done

# Without CMake: the same example built with the flags pkg-config gives for
# the installed proxima.pc.
pc_dir=$(dirname "$(find "$prefix" -name proxima.pc | head -n 1)")
read -r -a pc_flags <<<"$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs proxima)"
g++ -O1 examples/cpp/distance.cpp -o build-examples/distance_pkgconfig "${pc_flags[@]}"
build-examples/distance_pkgconfig >build-examples/distance_pkgconfig.out
python3 tests/docs/answers.py text examples/cpp/distance.expected build-examples/distance_pkgconfig.out
echo "pkg-config: examples/cpp/distance.cpp built with $(PKG_CONFIG_PATH="$pc_dir" pkg-config --modversion proxima)'s flags prints its .expected"
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build_dir/CMakeCache.txt"; }
python_module=$(cache_value PROXIMA_PYTHON)
case "${python_module^^}" in
  ON | TRUE | YES | Y | 1) ;;
  *)
    echo "python: the build has no Python module (PROXIMA_PYTHON=${python_module:-unset}); nothing to check"
    exit 0
    ;;
esac
site=$(cache_value PROXIMA_PYTHON_INSTALL_DIR)
case "$site" in /*) ;; *) site="$prefix/$site" ;; esac
# The interpreter the module was built for: the first python3 on PATH may be
# another one (cmake/ProximaPython.cmake).
python=$(cache_value Python3_EXECUTABLE)
echo "python: $python with PYTHONPATH=$site"
# From / with the user site off, so only the installed copy can be imported.
(cd / && PYTHONPATH="$site" "$python" -s - "$site" <<'PY'
import math
import os
import sys

import proxima

site = os.path.realpath(sys.argv[1])
where = os.path.realpath(proxima.__file__)
if os.path.dirname(where) != site:
    sys.exit("python: imported %s, not the module installed in %s" % (where, site))
# Spheres of radii 0.3 and 0.2, centres 1 apart: 0.5 apart, normal from B to A.
r = proxima.distance(proxima.Sphere(0.3), None, proxima.Sphere(0.2), proxima.Pose(p=(0.6, 0.8, 0.0)))
print("python: %s %s, distance %.12f (expect 0.5), normal %s" % (where, r.status, r.distance, r.normal))
ok = r.status == "ok" and abs(r.distance - 0.5) < 1e-12 and max(abs(r.normal - (-0.6, -0.8, 0.0))) < 1e-12
sys.exit(0 if ok else "python: wrong answer from the installed module")
PY
)
for stub in proxima.pyi proxima-stubs/__init__.pyi proxima-stubs/viz.pyi; do
  [ -f "$site/$stub" ] || { echo "python: $site/$stub was not installed" >&2; exit 1; }
done
# mypy finds an installed module's types only through the stub package.
if "$python" -c 'import mypy' 2>/dev/null; then
  work=$(mktemp -d)
  printf '%s\n' 'import proxima' \
    'r: proxima.DistanceResult = proxima.distance(proxima.Sphere(0.3), None, proxima.Box(1.0, 1.0, 1.0), None)' \
    'd: float = r.distance' >"$work/use.py"
  (cd "$work" && PYTHONPATH="$site" "$python" -m mypy --strict --no-error-summary --cache-dir "$work/cache" \
    --python-executable "$python" use.py)
  rm -rf "$work"
  echo "python: mypy --strict reads the installed stubs"
else
  echo "python: $python has no mypy (scripts/venv.sh installs it)" >&2
  exit 1
fi
