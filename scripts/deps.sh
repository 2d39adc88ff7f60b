#!/usr/bin/env bash
# Installs the Debian packages Proxima builds, tests and benchmarks with.
# Skips apt-get entirely when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libeigen3-dev libqhull-dev nlohmann-json3-dev libcli11-dev
  # URDF and SRDF reading (our own reader over tinyxml2, not urdfdom: see
  # include/proxima/robot/urdf.hpp).
  libtinyxml2-dev
  # COLLADA (.dae) meshes, as URDFs often name them (src/io/dae_reader.cpp).
  libassimp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # The Python module (src/python) and its tests; python3-dev brings the
  # headers it compiles against.
  python3-dev python3-numpy pybind11-dev
  # Test mesh: the MuJoCo samples ship a scanned, open mug (model/mug/mug.obj).
  libmujoco-samples
  # Peers for the side-by-side benchmark (never linked into the library).
  libfcl-dev libccd-dev libbullet-dev
  # Optional penetration-depth peer (the peers build without it).
  libode-dev
)
# npm fetches the stl-models test meshes (scripts/fetch_test_data.sh). Any
# npm will do; Node.js from elsewhere brings its own, which Debian's npm
# package would conflict with.
command -v npm >/dev/null || packages+=(npm)

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
