#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `pip install .` as a user would: a fresh virtual environment, the module
# built from this checkout by scikit-build-core (pyproject.toml), then the
# Python tests under pytest against that installed module, run from outside
# the repository so nothing else named proxima can be imported. scripts/venv.sh
# must have run (its interpreter and pins are used).
#
# --reuse BUILD_DIR: build in that already-built folder (pip's
# --no-build-isolation with -Cbuild-dir), so the library is not compiled
# again; .ci/run passes the test build's folder. pip reconfigures it for the
# module alone; its cache is put back afterwards (a later build there may
# compile the tests again).
# Without it, pip builds in an isolated environment from scratch, as a user's
# first `pip install .` does (10 minutes of CPU on this project's machine).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
reuse=""
case "${1:-}" in
  --reuse) reuse=${2:?--reuse needs a build folder} ;;
  "") ;;
  *) echo "usage: $0 [--reuse BUILD_DIR]" >&2; exit 2 ;;
esac

env_dir=$(mktemp -d)
restore_cache() {
  if [ -n "$reuse" ] && [ -f "$env_dir/CMakeCache.txt" ]; then
    cp "$env_dir/CMakeCache.txt" "$reuse/CMakeCache.txt"
    cmake -S "$root" -B "$reuse" >/dev/null
  fi
  rm -rf "$env_dir"
}
trap restore_cache EXIT
.venv/bin/python -m venv "$env_dir"
pip=("$env_dir/bin/python" -m pip --disable-pip-version-check)
# The project's pins without the benchmark's peers (Coal, MuJoCo and Coal's
# cmeel dependencies): the test tools, and the build tools for --reuse.
grep -vE '^(libcoal|mujoco-core|cmeel)' scripts/requirements.txt >"$env_dir/requirements.txt"
"${pip[@]}" install --quiet -r "$env_dir/requirements.txt"
if [ -n "$reuse" ]; then
  # The folder's own generator: scikit-build-core would pick Ninja.
  generator=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$reuse/CMakeCache.txt")
  echo "pip: install . reusing $reuse ($generator)"
  cp "$reuse/CMakeCache.txt" "$env_dir/CMakeCache.txt"
  CMAKE_GENERATOR=$generator CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "${pip[@]}" install --quiet --no-build-isolation -Cbuild-dir="$reuse" .
else
  echo "pip: install . (isolated build)"
  CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "${pip[@]}" install --quiet .
fi
site=$("$env_dir/bin/python" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')
(cd / && "$env_dir/bin/python" -s -c 'import os, sys, proxima
where = os.path.dirname(os.path.realpath(proxima.__file__))
if where != os.path.realpath(sys.argv[1]):
    sys.exit("pip: imported %s, not the module pip installed in %s" % (proxima.__file__, sys.argv[1]))
print("pip: import proxima from", proxima.__file__)
# One version: the wheel'"'"'s metadata (read from CMakeLists.txt) and the module'"'"'s.
from importlib.metadata import version
if version("proxima") != proxima.__version__:
    sys.exit("pip: installed as %s, the module says %s" % (version("proxima"), proxima.__version__))' "$site")
for stub in proxima.pyi proxima-stubs/__init__.pyi proxima-stubs/viz.pyi; do
  [ -f "$site/$stub" ] || { echo "pip: $site/$stub was not installed" >&2; exit 1; }
done
# From outside the checkout: the tests' folder holds no module, and the build
# tree's is not on the path, so the tests import the installed one.
# With a build folder, its command too: test_viz compares the module's page
# with the one `proxima sim --html` writes.
cli=()
if [ -n "$reuse" ] && [ -x "$reuse/bin/proxima" ]; then
  cli=(env "PROXIMA_CLI=$(realpath "$reuse/bin/proxima")")
fi
(cd "$env_dir" && PYTHONDONTWRITEBYTECODE=1 "${cli[@]}" "$env_dir/bin/python" -s -m pytest -p no:cacheprovider \
  "$root/tests/python")
