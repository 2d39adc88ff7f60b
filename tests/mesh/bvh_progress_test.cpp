// SPDX-License-Identifier: BSD-3-Clause
// A BVH build's progress reports: from the split to 1, never decreasing, about a
// hundred of them on a grid of 20 000 triangles written here; the same
// hierarchy as the plain constructor; nothing reported to a callback once its
// build is over, even when the build threw.
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/mesh/bvh.hpp>

namespace proxima {
namespace {

// A flat n × n grid of squares, two triangles each.
TriangleMesh progress_grid(int n) {
  std::vector<Vec3> v;
  std::vector<TriangleIndices> t;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) v.emplace_back(i * 0.01, j * 0.01, 0.001 * ((i * 7 + j * 3) % 5));
  const auto at = [&](int i, int j) { return static_cast<std::uint32_t>(i * (n + 1) + j); };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      t.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      t.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  return TriangleMesh(std::move(v), std::move(t));
}

TEST(BvhProgress, ReportsRiseToOneAndTheHierarchyIsTheSame) {
  const TriangleMesh mesh = progress_grid(100);
  ASSERT_EQ(mesh.triangle_count(), 20000u);
  std::vector<double> seen;
  // On one thread: with more, the calling thread reports only while it
  // places leaves itself (bvh_threads_test.cpp), fewer times.
  BvhOptions one;
  one.threads = 1;
  const Bvh bvh(mesh, one, [&](double f) { seen.push_back(f); });
  ASSERT_GE(seen.size(), 50u);
  EXPECT_LE(seen.size(), 110u);
  EXPECT_GT(seen.front(), 0.0);
  EXPECT_DOUBLE_EQ(seen.back(), 1.0);
  int rises = 0;
  for (std::size_t i = 1; i < seen.size(); ++i) {
    EXPECT_GE(seen[i], seen[i - 1]) << i;
    rises += seen[i] > seen[i - 1];
  }
  EXPECT_GE(rises, 50);
  const Bvh plain(mesh);
  ASSERT_EQ(bvh.nodes().size(), plain.nodes().size());
  EXPECT_EQ(bvh.order(), plain.order());
  EXPECT_EQ(bvh.depth(), plain.depth());
}

TEST(BvhProgress, NoReportsOutsideItsBuild) {
  const TriangleMesh mesh = progress_grid(20);
  int calls = 0;
  BvhOptions bad;
  bad.leaf_size = 0;
  EXPECT_THROW(Bvh(mesh, bad, [&](double) { ++calls; }), Error);
  EXPECT_EQ(calls, 0);
  const Bvh after(mesh);  // a plain build after the failed one reports to nobody
  EXPECT_EQ(calls, 0);
  const Bvh none(mesh, {}, BvhProgress());  // an empty callback is allowed
  EXPECT_EQ(none.order(), after.order());
}

}  // namespace
}  // namespace proxima
