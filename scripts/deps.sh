#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the Debian packages Proxima builds, tests and benchmarks with.
# Skips apt-get entirely when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libeigen3-dev libqhull-dev nlohmann-json3-dev libcli11-dev
  # URDF and SRDF reading (our own reader over tinyxml2, not urdfdom: see
  # include/proxima/robot/urdf.hpp).
  libtinyxml2-dev
  # MoveIt planning scenes in YAML (src/robot/planning_scene_yaml.cpp).
  libyaml-cpp-dev
  # COLLADA (.dae) meshes, as URDFs often name them (src/io/dae_reader.cpp).
  libassimp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # The Python module (src/python): python3-dev brings the headers it
  # compiles against, python3-venv the project's environment (scripts/venv.sh
  # fills it from PyPI with numpy, pybind11, pytest and the bench's peers).
  python3-dev python3-venv
  # Real meshes for the reader and mesh tests, none made here: a scanned, open
  # mug (MuJoCo's samples, model/mug/mug.obj), the Stanford bunny (glmark2's
  # data, models/bunny.obj), and the files of assimp's own test suite
  # (STL/OBJ/PLY from real exporters, and its invalid/ inputs).
  libmujoco-samples glmark2-data assimp-testmodels
  # Peers for the side-by-side benchmark (never linked into the library).
  libfcl-dev libccd-dev libbullet-dev
  # Optional penetration-depth peer (the peers build without it).
  libode-dev
  # The 3-D replay pages (proxima sim/query --html) inline three.js from
  # /usr/share/javascript/three; the viewer test loads them in headless Chromium.
  libjs-three chromium
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
