#!/usr/bin/env bash
# `pip install .` as a user would: a fresh virtual environment, the module
# built from this checkout by scikit-build-core (pyproject.toml), then the
# Python tests under pytest against that installed module, run from outside
# the repository so nothing else named proxima can be imported. .ci/run
# calls it; scripts/venv.sh must have run (its interpreter and pins are used).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

env_dir=$(mktemp -d)
trap 'rm -rf "$env_dir"' EXIT
.venv/bin/python -m venv "$env_dir"
pip=("$env_dir/bin/python" -m pip --disable-pip-version-check)
# The test tools at the project's pins (pytest, numpy, mypy), without the
# bench's peers.
grep -E '^(pytest|numpy|mypy|iniconfig|packaging|pluggy|Pygments|mypy_extensions|typing_extensions|pathspec|librt|ast_serialize)==' \
  scripts/requirements.txt >"$env_dir/test-requirements.txt"
"${pip[@]}" install --quiet -r "$env_dir/test-requirements.txt"
CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "${pip[@]}" install --quiet .
site=$("$env_dir/bin/python" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')
(cd / && "$env_dir/bin/python" -s -c 'import os, sys, proxima
where = os.path.dirname(os.path.realpath(proxima.__file__))
if where != os.path.realpath(sys.argv[1]):
    sys.exit("pip: imported %s, not the module pip installed in %s" % (proxima.__file__, sys.argv[1]))
print("pip: import proxima from", proxima.__file__)' "$site")
for stub in proxima.pyi proxima-stubs/__init__.pyi; do
  [ -f "$site/$stub" ] || { echo "pip: $site/$stub was not installed" >&2; exit 1; }
done
# From outside the checkout: the tests' folder holds no module, and the build
# tree's is not on the path, so the tests import the installed one.
(cd "$env_dir" && PYTHONDONTWRITEBYTECODE=1 "$env_dir/bin/python" -s -m pytest -p no:cacheprovider "$root/tests/python")
