// BVH structure: every triangle in exactly one leaf, boxes contain their
// triangles and children, children adjacent, memory as documented.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/mesh/bvh.hpp>

#include "mesh_fixtures.hpp"

namespace proxima {
namespace {

using testing::Rng;

// x (relative to the BVH origin) inside node i's oriented box, measured along
// its float axes as the queries do.
bool inside_obb(const Bvh& bvh, std::size_t i, const Vec3& rel) {
  const BvhObb& o = bvh.obbs()[i];
  const Vec3 d = rel - Vec3(o.center[0], o.center[1], o.center[2]);
  for (int k = 0; k < 3; ++k)
    if (std::abs(Vec3(o.axis[k][0], o.axis[k][1], o.axis[k][2]).dot(d)) > o.half[k]) return false;
  return true;
}

// Recursively checks node i; returns the number of triangles below it.
// `path` holds i's ancestors (and i): every leaf triangle must be in their OBBs.
std::size_t check_node(const Bvh& bvh, std::size_t i, std::vector<int>& seen, int leaf_size,
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
        for (std::size_t p : path)
          if (!bvh.obbs().empty()) { EXPECT_TRUE(inside_obb(bvh, p, rel)) << "node " << p; }
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
  return check_node(bvh, n.index, seen, leaf_size, path) + check_node(bvh, n.index + 1, seen, leaf_size, path);
}

void check_bvh(const Bvh& bvh, int leaf_size) {
  std::vector<int> seen(bvh.mesh().triangle_count(), 0);
  EXPECT_EQ(check_node(bvh, 0, seen, leaf_size), bvh.mesh().triangle_count());
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
  EXPECT_LE(bvh.depth(), 80);
  EXPECT_TRUE(bvh.obbs().empty() || bvh.obbs().size() == bvh.nodes().size());
  EXPECT_EQ(bvh.bvh_bytes(), bvh.nodes().size() * 32 + bvh.obbs().size() * 64 + bvh.order().size() * 4);
}

TEST(Bvh, SoupsEverySplitAndLeafSize) {
  Rng rng(21);
  for (int n : {1, 2, 5, 37, 1000}) {
    const TriangleMesh m = testing::random_soup(rng, n, 1.0, 0.1);
    for (BvhSplit split : {BvhSplit::sah, BvhSplit::median})
      for (BvhVolume vol : {BvhVolume::aabb, BvhVolume::obb})
        for (int leaf : {1, 4, 8}) check_bvh(Bvh(m, {split, leaf, vol}), leaf);
  }
}

TEST(Bvh, AllDuplicatesAndFarFromOrigin) {
  // 500 copies of one triangle: centroids all equal, split by count.
  std::vector<Vec3> v = {Vec3(1e6, 1e6, 1e6), Vec3(1e6 + 1, 1e6, 1e6), Vec3(1e6, 1e6 + 1, 1e6)};
  std::vector<TriangleIndices> t(500, TriangleIndices{0, 1, 2});
  const Bvh bvh(TriangleMesh(v, t));
  check_bvh(bvh, 4);
  // Boxes are relative to the mesh centre, so they stay tight there.
  EXPECT_LT(bvh.nodes()[0].hi[0] - bvh.nodes()[0].lo[0], 1.0 + 1e-6);
}

TEST(Bvh, RejectsBadLeafSize) {
  const TriangleMesh m = testing::box_mesh(Vec3(1, 1, 1));
  EXPECT_THROW(Bvh(m, {BvhSplit::sah, 0, BvhVolume::obb}), Error);
  EXPECT_THROW(Bvh(m, {BvhSplit::sah, 9, BvhVolume::obb}), Error);
}

}  // namespace
}  // namespace proxima
