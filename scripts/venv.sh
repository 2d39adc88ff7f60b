#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Makes the project's Python environment, ${PROXIMA_VENV:-.venv}, from PyPI
# with the pinned versions of scripts/requirements.txt. The interpreter is
# ${PROXIMA_PYTHON:-python3}. Returns at once when the environment already
# holds exactly those pins.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${PROXIMA_VENV:-.venv}
requirements=scripts/requirements.txt
stamp="$venv/.proxima-requirements"

if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && cmp -s "$requirements" "$stamp"; then
  echo "venv: $venv has the pinned packages"
  exit 0
fi
# A half-made environment (venv stopped before pip was in place) is made anew.
if [ -x "$venv/bin/python" ] && ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
  echo "venv: $venv has no working pip; making it again"
  rm -rf "$venv"
fi
if [ ! -x "$venv/bin/python" ]; then
  python=${PROXIMA_PYTHON:-python3}
  echo "venv: making $venv with $($python --version 2>&1) ($(command -v "$python"))"
  "$python" -m venv "$venv" || {
    rm -rf "$venv"
    echo "venv: '$python -m venv' failed; on Debian, apt-get install python3-venv (scripts/deps.sh does)" >&2
    exit 1
  }
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
cp "$requirements" "$stamp"
echo "venv: $venv ready ($("$venv/bin/python" --version 2>&1))"
