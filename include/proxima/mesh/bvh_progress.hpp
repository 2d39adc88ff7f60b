// SPDX-License-Identifier: BSD-3-Clause
// A BVH build that reports how far it has got, for programs that show a
// progress line while a large mesh is prepared (a million triangles take
// seconds). The library itself prints nothing: the caller decides.
#pragma once

#include <functional>

#include <proxima/mesh/bvh.hpp>

namespace proxima {

/// Called with the share of the build done, from 0 to 1, non-decreasing:
/// about a hundred times over the split into leaves, then once after the
/// bounding-volume fits and once at the end (1). Called on the building
/// thread; it must not throw.
using BvhProgress = std::function<void(double fraction)>;

/// Bvh(mesh, options), reporting to `progress` (empty: none) on the way.
/// Same hierarchy, same exceptions.
Bvh build_bvh(TriangleMesh mesh, const BvhOptions& options, const BvhProgress& progress);

}  // namespace proxima
