#!/usr/bin/env bash
# Fetches the test meshes nobody here made into a cache that is not
# committed: npm's stl-models (Stanford bunny, ~15 deliberately broken STL
# files). Idempotent: returns at once when the pinned version is in place.
# The tests find the cache through PROXIMA_TEST_DATA (default
# third_party/cache) and fail, not skip, when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# Pinned; tests/CMakeLists.txt names the same version.
stl_models_version=0.12.0
stl_models_sha1=d44477bfaceaa9fcffb1a8016e3a3373d22c3f5e

cache=${PROXIMA_TEST_DATA:-third_party/cache}
target="$cache/stl-models-$stl_models_version"
if [ -f "$target/.complete" ]; then
  echo "test data: stl-models $stl_models_version present in $target"
  exit 0
fi

command -v npm >/dev/null || { echo "test data: npm is needed (apt-get install npm)" >&2; exit 1; }
mkdir -p "$cache"
work=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "test data: fetching stl-models@$stl_models_version"
(cd "$work" && npm pack --silent "stl-models@$stl_models_version" >/dev/null)
tarball="$work/stl-models-$stl_models_version.tgz"
echo "$stl_models_sha1  $tarball" | sha1sum -c --quiet -
tar -xzf "$tarball" -C "$work"
# Swap in whole, so an interrupted fetch never leaves a half-filled target.
rm -rf "$target"
mv "$work/package" "$target"
touch "$target/.complete"
echo "test data: stl-models $stl_models_version in $target"
