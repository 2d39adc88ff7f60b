// SPDX-License-Identifier: BSD-3-Clause
// The pending items of the best-first distance traversals (traversal.hpp's
// PendingQueue): least bound first while the heap holds them; once it
// fills, a depth-first stack with the nearest of the heap's items on top;
// every item pushed comes out once; a full stack refuses the push.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "../../src/mesh/traversal.hpp"
#include "../support/random.hpp"

namespace proxima::mesh::detail {
namespace {

struct Item {
  std::uint32_t id;
  double lb;
};

TEST(PendingQueue, LeastBoundFirstWhileTheHeapHoldsTheItems) {
  testing::Rng rng(71);
  PendingQueue<Item> q;
  std::vector<double> pushed;
  // Interleaved pushes and pops (two pops a three pushes), 1,000 pending at
  // the end, fewer than kHeap: each pop is the least of those pending.
  std::vector<double> popped, pending;
  for (std::uint32_t k = 0; k < 3000; ++k) {
    const double lb = rng.uniform(0.0, 1.0);
    ASSERT_TRUE(q.push({k, lb}));
    pushed.push_back(lb);
    pending.push_back(lb);
    if (k % 3 != 0) {
      const Item it = q.pop();
      const auto least = std::min_element(pending.begin(), pending.end());
      ASSERT_EQ(it.lb, *least);
      pending.erase(least);
      popped.push_back(it.lb);
    }
  }
  ASSERT_TRUE(q.ordered());
  std::vector<double> rest;
  double last = -1.0;
  while (!q.empty()) {
    const Item it = q.pop();
    EXPECT_GE(it.lb, last);
    last = it.lb;
    rest.push_back(it.lb);
  }
  popped.insert(popped.end(), rest.begin(), rest.end());
  std::sort(pushed.begin(), pushed.end());
  std::sort(popped.begin(), popped.end());
  EXPECT_EQ(popped, pushed);
}

TEST(PendingQueue, AFullHeapBecomesAStackWithTheNearestOnTop) {
  testing::Rng rng(72);
  PendingQueue<Item> q;
  std::vector<double> heap_items;
  for (std::uint32_t k = 0; k < static_cast<std::uint32_t>(PendingQueue<Item>::kHeap); ++k) {
    heap_items.push_back(rng.uniform(0.0, 1.0));
    ASSERT_TRUE(q.push({k, heap_items.back()}));
  }
  EXPECT_TRUE(q.ordered());
  // The next push turns the heap into a stack: that item on top, then the
  // heap's items from the nearest to the farthest.
  ASSERT_TRUE(q.push({9999, 0.5}));
  EXPECT_FALSE(q.ordered());
  EXPECT_EQ(q.pop().id, 9999u);
  std::sort(heap_items.begin(), heap_items.end());
  for (const double lb : heap_items) {
    ASSERT_FALSE(q.empty());
    EXPECT_EQ(q.pop().lb, lb);
  }
  EXPECT_TRUE(q.empty());
}

TEST(PendingQueue, ABoundThatIsNotANumberComesFirst) {
  PendingQueue<Item> q;
  ASSERT_TRUE(q.push({1, 0.5}));
  ASSERT_TRUE(q.push({2, std::numeric_limits<double>::quiet_NaN()}));
  ASSERT_TRUE(q.push({3, 0.25}));
  EXPECT_EQ(q.pop().id, 2u);
  EXPECT_EQ(q.pop().id, 3u);
  EXPECT_EQ(q.pop().id, 1u);
  EXPECT_TRUE(q.empty());
}

TEST(PendingQueue, AFullStackRefusesThePush) {
  PendingQueue<Item> q;
  const int capacity = PendingQueue<Item>::kHeap + kStack;
  for (int k = 0; k < capacity; ++k) ASSERT_TRUE(q.push({static_cast<std::uint32_t>(k), 1.0 / (1 + k)}));
  EXPECT_FALSE(q.push({0, 0.0}));
  int n = 0;
  while (!q.empty()) {
    q.pop();
    ++n;
  }
  EXPECT_EQ(n, capacity);
}

// next_below: best first, the first item at or above the limit ends the
// walk; depth first, such items are skipped and the ones below still come.
TEST(PendingQueue, NextBelowStopsBestFirstAndSkipsDepthFirst) {
  PendingQueue<Item> q;
  for (std::uint32_t k = 0; k < 10; ++k) ASSERT_TRUE(q.push({k, 0.1 * k}));
  std::vector<std::uint32_t> got;
  for (Item it{}; q.next_below(0.45, it);) got.push_back(it.id);
  EXPECT_EQ(got, (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_FALSE(q.empty());  // 6..9 left: never popped
  PendingQueue<Item> s;
  for (std::uint32_t k = 0; k < static_cast<std::uint32_t>(PendingQueue<Item>::kHeap) + 1; ++k)
    ASSERT_TRUE(s.push({k, k % 2 == 0 ? 0.0 : 1.0}));
  ASSERT_FALSE(s.ordered());
  int below = 0;
  for (Item it{}; s.next_below(0.5, it);) {
    EXPECT_LT(it.lb, 0.5);
    ++below;
  }
  EXPECT_EQ(below, (PendingQueue<Item>::kHeap + 2) / 2);
  EXPECT_TRUE(s.empty());
}

}  // namespace
}  // namespace proxima::mesh::detail
