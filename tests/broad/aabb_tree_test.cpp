// SPDX-License-Identifier: BSD-3-Clause
// The AABB tree against brute force over random boxes, through inserts,
// moves and removals.
#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include <proxima/broad/aabb_tree.hpp>

#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

Aabb random_box(testing::Rng& rng) {
  const Vec3 c = rng.uniform_vec(-10, 10);
  const Vec3 h = rng.uniform_vec(0.05, 1.5);
  return Aabb::from_center_half_extents(c, h);
}

std::vector<std::pair<int, int>> brute_pairs(const std::vector<Aabb>& fat, const std::vector<bool>& alive) {
  std::vector<std::pair<int, int>> out;
  for (std::size_t i = 0; i < fat.size(); ++i)
    for (std::size_t j = i + 1; j < fat.size(); ++j)
      if (alive[i] && alive[j] && fat[i].overlaps(fat[j])) out.emplace_back(int(i), int(j));
  return out;
}

TEST(AabbTree, PairsMatchBruteForceThroughInsertMoveRemove) {
  testing::Rng rng(7);
  const int n = std::max(20, testing::scaled(300));
  const double fat = 0.2;
  broad::AabbTree tree;
  std::vector<Aabb> tight(n), fat_boxes(n);
  std::vector<int> leaf(n);
  std::vector<bool> alive(n, true);
  for (int i = 0; i < n; ++i) {
    tight[i] = random_box(rng);
    leaf[i] = tree.insert(tight[i], fat, i);
    fat_boxes[i] = tree.fat_box(leaf[i]);
  }
  std::vector<std::pair<int, int>> pairs;
  for (int round = 0; round < 20; ++round) {
    tree.pairs(pairs);
    ASSERT_EQ(pairs, brute_pairs(fat_boxes, alive)) << "round " << round;
    // Move some boxes a little (mostly staying inside their fat box), some far.
    for (int i = 0; i < n; ++i) {
      if (!alive[i]) continue;
      const double step = rng.uniform(0, 1) < 0.1 ? 5.0 : 0.1;
      const Vec3 d = rng.uniform_vec(-step, step);
      tight[i] = {tight[i].min + d, tight[i].max + d};
      const bool moved = tree.update(leaf[i], tight[i], fat);
      const bool inside = (fat_boxes[i].min.array() <= tight[i].min.array()).all() &&
                          (tight[i].max.array() <= fat_boxes[i].max.array()).all();
      EXPECT_EQ(moved, !inside);
      fat_boxes[i] = tree.fat_box(leaf[i]);
      EXPECT_TRUE((fat_boxes[i].min.array() <= tight[i].min.array()).all());
    }
    // Remove a few and add them back elsewhere.
    for (int k = 0; k < n / 20; ++k) {
      const int i = int(rng.uniform(0, n - 1e-9));
      if (alive[i]) {
        tree.remove(leaf[i]);
        alive[i] = false;
      } else {
        tight[i] = random_box(rng);
        leaf[i] = tree.insert(tight[i], fat, i);
        fat_boxes[i] = tree.fat_box(leaf[i]);
        alive[i] = true;
      }
    }
  }
  // Balanced: height stays logarithmic-ish even after all that churn.
  EXPECT_LE(tree.height(), 4 * int(std::log2(double(n)) + 1));
}

TEST(AabbTree, SortedInsertionStaysBalanced) {
  // A tower of boxes inserted bottom-up (a cube stack) must not become a list.
  broad::AabbTree tree;
  for (int i = 0; i < 1024; ++i)
    tree.insert(Aabb::from_center_half_extents(Vec3(0, 0, 0.11 * i), Vec3::Constant(0.05)), 0.0, i);
  EXPECT_LE(tree.height(), 25);
  std::vector<std::pair<int, int>> pairs;
  tree.pairs(pairs);
  EXPECT_TRUE(pairs.empty());
}

TEST(AabbTree, QueryFindsOverlaps) {
  broad::AabbTree tree;
  tree.insert(Aabb::from_center_half_extents(Vec3(0, 0, 0), Vec3::Constant(1)), 0.0, 10);
  tree.insert(Aabb::from_center_half_extents(Vec3(5, 0, 0), Vec3::Constant(1)), 0.0, 11);
  std::set<int> hit;
  tree.query(Aabb::from_center_half_extents(Vec3(0.5, 0, 0), Vec3::Constant(0.1)), [&](int u) { hit.insert(u); });
  EXPECT_EQ(hit, std::set<int>({10}));
}

}  // namespace
}  // namespace proxima
