// SPDX-License-Identifier: BSD-3-Clause
// A BVH built on several threads: the same hierarchy, byte for byte, as on
// one (nodes, volumes, leaf order, depth, edge flags), for thread counts
// that cut the tree into parts at different places; a valid tree
// (bvh_checks.hpp);
// progress reported on the calling thread only; a bad thread count refused.
#include <cstring>
#include <string>
#include <thread>
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

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

void expect_same(const Bvh& a, const Bvh& b, const std::string& what) {
  EXPECT_TRUE(same_bytes(a.nodes(), b.nodes())) << what;
  EXPECT_TRUE(same_bytes(a.rss(), b.rss())) << what;
  EXPECT_TRUE(same_bytes(a.obbs(), b.obbs())) << what;
  EXPECT_EQ(a.order(), b.order()) << what;
  EXPECT_EQ(a.depth(), b.depth()) << what;
  EXPECT_EQ(a.smooth_edges(), b.smooth_edges()) << what;
  EXPECT_EQ(a.feature_owners(), b.feature_owners()) << what;
}

// 140,000 triangles: one thread cuts the tree into parts of at most 8,750
// triangles, two into parts of at most 4,375, three and eight at 4,096.
TEST(BvhThreads, EveryThreadCountBuildsTheSameHierarchy) {
  Rng rng(77);
  const TriangleMesh soup = testing::random_soup(rng, 140000, 1.0, 0.02);
  BvhOptions one;
  one.threads = 1;
  const Bvh serial(soup, one);
  check_bvh(serial, 4, false);  // the tree; its volumes are bvh_test.cpp's
  ASSERT_GT(serial.nodes().size(), 60000u);
  for (int threads : {2, 3, 8, 0}) {
    BvhOptions o;
    o.threads = threads;
    const Bvh parallel(soup, o);
    expect_same(serial, parallel, "threads " + std::to_string(threads));
    EXPECT_EQ(parallel.options().threads, threads);
  }
}

TEST(BvhThreads, EveryVolumeAndSplitAlike) {
  Rng rng(78);
  const TriangleMesh soup = testing::random_soup(rng, 30000, 1.0, 0.03);
  for (BvhSplit split : {BvhSplit::sah, BvhSplit::median})
    for (BvhVolume volume : {BvhVolume::aabb, BvhVolume::obb, BvhVolume::rss}) {
      BvhOptions o{split, 2, volume, 1};
      const Bvh serial(soup, o);
      o.threads = 3;
      const Bvh parallel(soup, o);
      check_bvh(parallel, 2, false);
      expect_same(serial, parallel, "split " + std::to_string(int(split)) + " volume " + std::to_string(int(volume)));
    }
}

TEST(BvhThreads, ProgressOnTheCallingThreadOnly) {
  Rng rng(79);
  const TriangleMesh soup = testing::random_soup(rng, 60000, 1.0, 0.02);
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<double> seen;
  int elsewhere = 0;
  BvhOptions o;
  o.threads = 4;
  const Bvh bvh(soup, o, [&](double f) {
    if (std::this_thread::get_id() != caller) ++elsewhere;
    seen.push_back(f);
  });
  EXPECT_EQ(elsewhere, 0);
  ASSERT_GE(seen.size(), 2u);  // at least after the fits and at the end
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]) << i;
  EXPECT_DOUBLE_EQ(seen.back(), 1.0);
}

TEST(BvhThreads, RefusesANegativeOrHugeCount) {
  const TriangleMesh m = testing::box_mesh(Vec3(1, 1, 1));
  for (int threads : {-1, 1 << 20}) {
    BvhOptions o;
    o.threads = threads;
    try {
      const Bvh bvh(m, o);
      ADD_FAILURE() << threads << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("threads"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace proxima
