// SPDX-License-Identifier: BSD-3-Clause
// BoxTree against brute force: for random boxes and random query boxes and
// gaps, near() reports exactly the boxes whose gap, computed here by
// separating the axes one by one, is within the gap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <proxima/broad/box_tree.hpp>
#include <proxima/core/error.hpp>

#include "../support/random.hpp"

namespace proxima::broad {
namespace {

using testing::Rng;

constexpr double kInf = std::numeric_limits<double>::infinity();

// The gap by its definition: the length of the shortest segment between the
// boxes, whose components are the per-axis separations.
double separation(const Aabb& a, const Aabb& b) {
  double s = 0.0;
  for (int i = 0; i < 3; ++i) {
    double g = 0.0;
    if (a.max[i] < b.min[i]) g = b.min[i] - a.max[i];
    else if (b.max[i] < a.min[i]) g = a.min[i] - b.max[i];
    s += g * g;
  }
  return std::sqrt(s);
}

Aabb random_box(Rng& rng, double spread, double size) {
  const Vec3 c = rng.uniform_vec(-spread, spread);
  const Vec3 h = rng.uniform_vec(0.0, size);
  return Aabb::from_center_half_extents(c, h);
}

std::vector<std::size_t> brute(const std::vector<Aabb>& boxes, const Aabb& q, double gap) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < boxes.size(); ++i)
    if (separation(q, boxes[i]) <= gap) out.push_back(i);
  return out;
}

std::vector<std::size_t> near_sorted(const BoxTree& t, const Aabb& q, double gap) {
  std::vector<std::size_t> out;
  t.near(q, gap, [&](std::size_t i) { out.push_back(i); });
  std::sort(out.begin(), out.end());
  return out;
}

TEST(BoxTree, NearFindsExactlyTheBoxesWithinTheGap) {
  Rng rng(2026);
  for (const std::size_t n : {1u, 2u, 7u, 100u, 3000u}) {
    std::vector<Aabb> boxes;
    for (std::size_t i = 0; i < n; ++i) boxes.push_back(random_box(rng, 5.0, 0.3));
    // A few unbounded ones: a floor, a wall.
    if (n > 10) {
      boxes.push_back({Vec3(-kInf, -kInf, -kInf), Vec3(kInf, kInf, -4.0)});
      boxes.push_back({Vec3(4.5, -kInf, -kInf), Vec3(kInf, kInf, kInf)});
    }
    const BoxTree tree(boxes, 4);
    const BoxTree flat = BoxTree::flat(boxes);
    EXPECT_EQ(tree.size(), boxes.size());
    EXPECT_EQ(tree.unbounded().size(), n > 10 ? 2u : 0u);
    std::size_t found = 0;
    for (int k = 0; k < 200; ++k) {
      const Aabb q = random_box(rng, 6.0, 1.0);
      const double gap = k % 4 == 0 ? 0.0 : rng.uniform(0.0, 2.0);
      const std::vector<std::size_t> want = brute(boxes, q, gap);
      ASSERT_EQ(near_sorted(tree, q, gap), want) << n << " boxes, query " << k;
      ASSERT_EQ(near_sorted(flat, q, gap), want) << n << " boxes, query " << k;
      found += want.size();
    }
    if (n >= 100) {
      EXPECT_GT(found, 0u) << n;  // the queries met something
    }
  }
}

TEST(BoxTree, EveryNodeHoldsItsBoxesAndEveryBoxIsInOneLeaf) {
  Rng rng(7);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 1000; ++i) boxes.push_back(random_box(rng, 10.0, 0.5));
  const BoxTree tree(boxes, 3);
  std::vector<int> seen(boxes.size(), 0);
  const auto& nodes = tree.nodes();
  ASSERT_FALSE(nodes.empty());
  // Walk from the root: children inside parents, leaves of at most 3.
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const BoxTree::Node& nd = nodes[stack.back()];
    stack.pop_back();
    if (nd.leaf()) {
      EXPECT_LE(nd.count, 3u);
      for (std::uint32_t k = nd.first; k < nd.first + nd.count; ++k) {
        const Aabb& b = boxes[tree.order()[k]];
        EXPECT_TRUE((nd.box.min.array() <= b.min.array()).all() && (b.max.array() <= nd.box.max.array()).all());
        ++seen[tree.order()[k]];
      }
      continue;
    }
    for (const std::uint32_t c : {nd.child, nd.child + 1}) {
      ASSERT_LT(c, nodes.size());
      const Aabb& b = nodes[c].box;
      EXPECT_TRUE((nd.box.min.array() <= b.min.array()).all() && (b.max.array() <= nd.box.max.array()).all());
      stack.push_back(c);
    }
  }
  for (std::size_t i = 0; i < boxes.size(); ++i) EXPECT_EQ(seen[i], 1) << i;
}

TEST(BoxTree, CoincidentBoxesStayOneLeaf) {
  // No position separates them: the build must stop, not recurse forever.
  const std::vector<Aabb> boxes(500, Aabb::from_center_half_extents(Vec3(1, 2, 3), Vec3(0.1, 0.1, 0.1)));
  const BoxTree tree(boxes, 4);
  ASSERT_EQ(tree.nodes().size(), 1u);
  EXPECT_EQ(tree.nodes()[0].count, 500u);
  std::size_t n = 0;
  tree.near(Aabb::from_center_half_extents(Vec3(1, 2, 3.3), Vec3::Zero()), 0.2, [&](std::size_t) { ++n; });
  EXPECT_EQ(n, 500u);
  tree.near(Aabb::from_center_half_extents(Vec3(1, 2, 3.5), Vec3::Zero()), 0.2, [&](std::size_t) { ++n; });
  EXPECT_EQ(n, 500u);
}

TEST(BoxTree, EmptyAndBadInput) {
  const BoxTree none(std::vector<Aabb>{});
  EXPECT_TRUE(none.empty());
  int calls = 0;
  none.near(Aabb::from_center_half_extents(Vec3::Zero(), Vec3::Ones()), kInf, [&](std::size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Aabb good = Aabb::from_center_half_extents(Vec3::Zero(), Vec3::Ones());
  try {
    (void)BoxTree({good, Aabb{Vec3(0, nan, 0), Vec3::Ones()}});
    FAIL() << "a NaN box was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("box 1 is NaN"), std::string::npos) << e.what();
  }
  try {
    (void)BoxTree::flat({Aabb{}});
    FAIL() << "an empty box was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("box 0 is empty"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)BoxTree({good}, 0), Error);
}

}  // namespace
}  // namespace proxima::broad
