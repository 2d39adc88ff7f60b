// SPDX-License-Identifier: BSD-3-Clause
// A BVH's structure checked from its arrays alone, with distances written
// out here (independent of the build and of the library's triangle code):
// every triangle in exactly one leaf, boxes around their triangles and
// children, children adjacent, every corner in each ancestor's OBB and RSS,
// memory as documented.
#pragma once

#include <algorithm>
#include <cmath>
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

// Point–segment and point–triangle distances written out here (the plane
// when the projection falls inside, else the nearest edge), independent of
// the build and of the library's triangle code.
inline double point_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 d = b - a;
  const double dd = d.squaredNorm();
  const double s = dd > 0.0 ? std::clamp((p - a).dot(d) / dd, 0.0, 1.0) : 0.0;
  return (p - (a + s * d)).norm();
}
inline double point_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = (b - a).cross(c - a);
  const double nn = n.squaredNorm();
  if (nn > 0.0) {
    const double h = (p - a).dot(n) / nn;
    const Vec3 q = p - h * n;
    const bool in = (b - a).cross(q - a).dot(n) >= 0.0 && (c - b).cross(q - b).dot(n) >= 0.0 &&
                    (a - c).cross(q - c).dot(n) >= 0.0;
    if (in) return std::abs(h) * std::sqrt(nn);
  }
  return std::min({point_segment(p, a, b), point_segment(p, b, c), point_segment(p, c, a)});
}

// Distance from x (relative to the BVH origin) to node i's RSS rectangle:
// the parallelogram its float axes span, as two triangles.
inline double rss_rect_distance(const Bvh& bvh, std::size_t i, const Vec3& rel) {
  const BvhRss& r = bvh.rss()[i];
  const Vec3 c(r.center[0], r.center[1], r.center[2]);
  const Vec3 u = double(r.half[0]) * Vec3(r.axis[0][0], r.axis[0][1], r.axis[0][2]);
  const Vec3 v = double(r.half[1]) * Vec3(r.axis[1][0], r.axis[1][1], r.axis[1][2]);
  return std::min(point_triangle(rel, c - u - v, c + u - v, c + u + v),
                  point_triangle(rel, c - u - v, c + u + v, c - u + v));
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
