// SPDX-License-Identifier: BSD-3-Clause
// Meshes for the mesh-layer tests: random soups with duplicate and zero-area
// triangles, grids (plane patches, with holes), closed boxes. Seeded.
#pragma once

#include <vector>

#include <proxima/shape/triangle_mesh.hpp>

#include "../support/random.hpp"

namespace proxima::testing {

/// `n` random triangles of size ~`size` in the cube [-half, half]³, with a
/// few exact duplicates, segments (collinear corners) and points mixed in.
inline TriangleMesh random_soup(Rng& rng, int n, double half, double size, double margin = 0.0) {
  std::vector<Vec3> v;
  std::vector<TriangleIndices> t;
  auto add = [&](const Vec3& a, const Vec3& b, const Vec3& c) {
    const auto i = static_cast<std::uint32_t>(v.size());
    v.push_back(a);
    v.push_back(b);
    v.push_back(c);
    t.push_back({i, i + 1, i + 2});
  };
  for (int k = 0; k < n; ++k) {
    const Vec3 c = rng.uniform_vec(-half, half);
    const int kind = k % 10;
    if (kind == 7 && !t.empty()) {
      t.push_back(t[static_cast<std::size_t>(rng.uniform(0, 0.999) * t.size())]);  // duplicate
    } else if (kind == 8) {
      const Vec3 d = size * rng.unit_vector();
      add(c, c + d, c + 0.3 * d);  // segment
    } else if (kind == 9) {
      add(c, c, c);  // point
    } else {
      const Vec3 a = c + size * rng.unit_vector(), b = c + size * rng.unit_vector(), d = c + size * rng.unit_vector();
      add(a, b, d);
    }
  }
  return TriangleMesh(std::move(v), std::move(t), margin);
}

/// Grid of n×n squares of side h in the plane z = 0, centred at the origin;
/// squares with skip(i, j) left out (holes).
template <class Skip>
TriangleMesh grid(int n, double h, Skip skip, double margin = 0.0) {
  std::vector<Vec3> v;
  std::vector<TriangleIndices> t;
  const double o = -0.5 * n * h;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) v.emplace_back(o + i * h, o + j * h, 0.0);
  auto id = [n](int i, int j) { return static_cast<std::uint32_t>(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (skip(i, j)) continue;
      t.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      t.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  return TriangleMesh(std::move(v), std::move(t), margin);
}

/// Closed box surface of half extents h (12 triangles, outward).
inline TriangleMesh box_mesh(const Vec3& h, double margin = 0.0) {
  std::vector<Vec3> v;
  for (int k = 0; k < 8; ++k) v.emplace_back((k & 1) ? h.x() : -h.x(), (k & 2) ? h.y() : -h.y(), (k & 4) ? h.z() : -h.z());
  std::vector<TriangleIndices> t = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                    {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return TriangleMesh(std::move(v), std::move(t), margin);
}

}  // namespace proxima::testing
