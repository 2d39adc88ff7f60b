// SPDX-License-Identifier: BSD-3-Clause
// A BVH's structure checked from its arrays alone, with distances written
// out here (independent of the build and of the library's triangle code):
// every triangle in exactly one leaf, boxes around their triangles and
// children, children adjacent, every corner in each ancestor's OBB and RSS,
// memory as documented.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/mesh/bvh.hpp>

namespace proxima::testing {

// x (relative to the BVH origin) inside node i's oriented box, measured along
// its float axes as the queries do.
inline bool inside_obb(const Bvh& bvh, std::size_t i, const Vec3& rel) {
  const BvhObb& o = bvh.obbs()[i];
  const Vec3 d = rel - Vec3(o.center[0], o.center[1], o.center[2]);
  for (int k = 0; k < 3; ++k)
    if (std::abs(Vec3(o.axis[k][0], o.axis[k][1], o.axis[k][2]).dot(d)) > o.half[k]) return false;
  return true;
}

// Distance from x (relative to the BVH origin) to node i's RSS rectangle,
// the parallelogram c + s·u + t·v (|s| ≤ half[0], |t| ≤ half[1]) its float
// axes span: the least-squares (s, t) from the 2×2 normal equations when it
// falls inside, else the nearest of the four edges (a convex quadratic over
// a box has its minimum there). Not by splitting the parallelogram into two
// triangles: a rectangle 1e-10 wide makes those slivers whose inside test
// misjudges by more than the radius's own rounding.
inline double rss_rect_distance(const Bvh& bvh, std::size_t i, const Vec3& rel) {
  const BvhRss& r = bvh.rss()[i];
  const Vec3 d = rel - Vec3(r.center[0], r.center[1], r.center[2]);
  const Vec3 u(r.axis[0][0], r.axis[0][1], r.axis[0][2]), v(r.axis[1][0], r.axis[1][1], r.axis[1][2]);
  const double h0 = r.half[0], h1 = r.half[1];
  const double uu = u.dot(u), uv = u.dot(v), vv = v.dot(v), ud = u.dot(d), vd = v.dot(d);
  auto at = [&](double s, double t) { return (d - s * u - t * v).norm(); };
  const double det = uu * vv - uv * uv;
  if (det > 0.0) {
    const double s = (vv * ud - uv * vd) / det, t = (uu * vd - uv * ud) / det;
    if (std::abs(s) <= h0 && std::abs(t) <= h1) return at(s, t);
  }
  double best = std::numeric_limits<double>::infinity();
  for (const double s : {-h0, h0}) best = std::min(best, at(s, std::clamp((vd - s * uv) / vv, -h1, h1)));
  for (const double t : {-h1, h1}) best = std::min(best, at(std::clamp((ud - t * uv) / uu, -h0, h0), t));
  return best;
}

// Recursively checks node i; returns the number of triangles below it.
// `path` holds i's ancestors (and i): every leaf triangle must be in their OBBs.
// `volumes`: also every corner in each ancestor's OBB and RSS.
inline std::size_t check_node(const Bvh& bvh, std::size_t i, std::vector<int>& seen, int leaf_size, bool volumes,
                              std::vector<std::size_t> path = {}) {
  const BvhNode& n = bvh.nodes()[i];
  path.push_back(i);
  for (int k = 0; k < 3; ++k) EXPECT_LE(n.lo[k], n.hi[k]);
  auto inside = [&](const BvhNode& outer, const Vec3& rel) {
    for (int k = 0; k < 3; ++k)
      if (!(outer.lo[k] <= rel[k] && rel[k] <= outer.hi[k])) return false;
    return true;
  };
  if (n.leaf()) {
    EXPECT_LE(n.count, static_cast<std::uint32_t>(leaf_size));
    for (std::uint32_t j = 0; j < n.count; ++j) {
      const std::uint32_t t = bvh.order()[n.index + j];
      ++seen[t];
      for (int k = 0; k < 3; ++k) {
        const Vec3 rel = bvh.mesh().corner(t, k) - bvh.origin();
        EXPECT_TRUE(inside(n, rel));
        if (!volumes) continue;
        for (std::size_t p : path) {
          if (!bvh.obbs().empty()) { EXPECT_TRUE(inside_obb(bvh, p, rel)) << "node " << p; }
          // Every corner within the radius of every ancestor's rectangle
          // (a rounding's worth of slack for the independent distance).
          if (!bvh.rss().empty()) {
            const double d = rss_rect_distance(bvh, p, rel);
            EXPECT_LE(d, double(bvh.rss()[p].radius) * (1 + 1e-12) + 1e-15 * (1 + rel.norm())) << "node " << p;
          }
        }
      }
    }
    return n.count;
  }
  EXPECT_GT(n.index, i);
  EXPECT_LT(n.index + 1, bvh.nodes().size());
  for (std::uint32_t c = n.index; c <= n.index + 1; ++c) {
    const BvhNode& ch = bvh.nodes()[c];
    EXPECT_TRUE(inside(n, Vec3(ch.lo[0], ch.lo[1], ch.lo[2])));
    EXPECT_TRUE(inside(n, Vec3(ch.hi[0], ch.hi[1], ch.hi[2])));
  }
  return check_node(bvh, n.index, seen, leaf_size, volumes, path) +
         check_node(bvh, n.index + 1, seen, leaf_size, volumes, path);
}

inline void check_bvh(const Bvh& bvh, int leaf_size, bool volumes = true) {
  std::vector<int> seen(bvh.mesh().triangle_count(), 0);
  EXPECT_EQ(check_node(bvh, 0, seen, leaf_size, volumes), bvh.mesh().triangle_count());
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
  EXPECT_LE(bvh.depth(), 80);
  EXPECT_TRUE(bvh.obbs().empty() || bvh.obbs().size() == bvh.nodes().size());
  EXPECT_TRUE(bvh.rss().empty() || bvh.rss().size() == bvh.nodes().size());
  EXPECT_EQ(bvh.bvh_bytes(), bvh.nodes().size() * 32 + bvh.obbs().size() * 64 + bvh.rss().size() * 48 +
                                 bvh.order().size() * 4);
}

}  // namespace proxima::testing
