// SPDX-License-Identifier: BSD-3-Clause
// BVH structure: every triangle in exactly one leaf, boxes contain their
// triangles and children, children adjacent, memory as documented.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/mesh/bvh.hpp>

#include "bvh_checks.hpp"
#include "mesh_fixtures.hpp"

namespace proxima {
namespace {

using testing::check_bvh;
using testing::Rng;

TEST(Bvh, SoupsEverySplitAndLeafSize) {
  Rng rng(21);
  for (int n : {1, 2, 5, 37, 1000}) {
    const TriangleMesh m = testing::random_soup(rng, n, 1.0, 0.1);
    for (BvhSplit split : {BvhSplit::sah, BvhSplit::median})
      for (BvhVolume vol : {BvhVolume::aabb, BvhVolume::obb, BvhVolume::rss})
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

TEST(Bvh, RssOfCurvedAndFlatPatches) {
  // A curved patch (the RSS's case) and a flat grid with holes: every corner
  // within its nodes' radii (check_bvh), and on the flat grid the radii are
  // rounding-sized (the rectangles lie in the plane).
  std::vector<Vec3> v;
  std::vector<TriangleIndices> t;
  const int n = 30;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const double a = 0.05 * i, b = 0.05 * j;
      v.emplace_back(std::sin(a) * std::cos(b), std::sin(a) * std::sin(b), std::cos(a));
    }
  for (std::uint32_t j = 0; j < n; ++j)
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t k = j * (n + 1) + i;
      t.push_back({k, k + 1, k + n + 2});
      t.push_back({k, k + n + 2, k + n + 1});
    }
  check_bvh(Bvh(TriangleMesh(v, t), {BvhSplit::sah, 4, BvhVolume::rss}), 4);
  const Bvh flat(testing::grid(20, 0.1, [](int i, int j) { return (i * 7 + j) % 5 == 0; }),
                 {BvhSplit::sah, 2, BvhVolume::rss});
  check_bvh(flat, 2);
  for (const BvhRss& r : flat.rss()) EXPECT_LT(r.radius, 1e-6);
}

TEST(Bvh, RssAroundSegmentsAndPointsInSmallLeaves) {
  // Leaves of one or two triangles that are segments or points: rectangles
  // a rounding wide and radii of a few nanometres, where the radius's own
  // rounding allowance is what keeps the corners inside. Every corner within
  // every ancestor's radius, measured independently of the build.
  Rng rng(78);
  const TriangleMesh soup = testing::random_soup(rng, 30000, 1.0, 0.03);
  for (BvhSplit split : {BvhSplit::sah, BvhSplit::median})
    for (int leaf : {1, 2}) check_bvh(Bvh(soup, {split, leaf, BvhVolume::rss}), leaf);
}

TEST(Bvh, RejectsBadLeafSize) {
  const TriangleMesh m = testing::box_mesh(Vec3(1, 1, 1));
  EXPECT_THROW(Bvh(m, {BvhSplit::sah, 0, BvhVolume::obb}), Error);
  EXPECT_THROW(Bvh(m, {BvhSplit::sah, 9, BvhVolume::obb}), Error);
}

}  // namespace
}  // namespace proxima
