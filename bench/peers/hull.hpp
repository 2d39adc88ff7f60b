// SPDX-License-Identifier: BSD-3-Clause
// Triangulated convex hull of a point set, for peers that want explicit faces.
#pragma once

#include <array>
#include <vector>

namespace proxima::bench::detail {

struct TriangleHull {
  std::vector<std::array<double, 3>> vertices;  ///< only points on the hull
  std::vector<std::array<int, 3>> triangles;    ///< counter-clockwise seen from outside
};

/// Throws std::runtime_error when qhull rejects the input (e.g. flat sets).
TriangleHull triangulate_hull(const std::vector<std::array<double, 3>>& points);

}  // namespace proxima::bench::detail
