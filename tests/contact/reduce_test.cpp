// SPDX-License-Identifier: BSD-3-Clause
// Reduction of a manifold: the deepest point stays, at most k remain, and
// the kept points span nearly the largest area any k of them could.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <proxima/contact/reduce.hpp>

#include "../support/random.hpp"

namespace proxima {
namespace {

double polygon_area(std::vector<Eigen::Vector2d> p) {
  // Brute-force hull area: sort by angle about the centroid (the points are
  // in convex position in these tests).
  Eigen::Vector2d c = Eigen::Vector2d::Zero();
  for (const auto& x : p) c += x;
  c /= static_cast<double>(p.size());
  std::sort(p.begin(), p.end(), [&](const auto& a, const auto& b) {
    return std::atan2(a.y() - c.y(), a.x() - c.x()) < std::atan2(b.y() - c.y(), b.x() - c.x());
  });
  double area = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto& a = p[i];
    const auto& b = p[(i + 1) % p.size()];
    area += a.x() * b.y() - a.y() * b.x();
  }
  return 0.5 * std::abs(area);
}

TEST(ReduceContacts, KeepsTheDeepestAndNearlyTheLargestArea) {
  testing::Rng rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    // Points on a circle (convex position) with random depths, in the plane z = 0.
    const int n = 6 + trial % 10;
    std::vector<Contact> pts;
    for (int i = 0; i < n; ++i) {
      const double t = rng.uniform(0, 2 * M_PI);
      Contact c;
      c.point = Vec3(std::cos(t), std::sin(t), 0.0);
      c.depth = rng.uniform(0, 0.01);
      pts.push_back(c);
    }
    const auto deepest = std::max_element(pts.begin(), pts.end(),
                                          [](const Contact& a, const Contact& b) { return a.depth < b.depth; });
    const Vec3 deepest_point = deepest->point;
    // The best area of any 4 points, by brute force over all 4-subsets.
    double best = 0.0;
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b)
        for (int c = b + 1; c < n; ++c)
          for (int d = c + 1; d < n; ++d) {
            std::vector<Eigen::Vector2d> q;
            for (int k : {a, b, c, d}) q.emplace_back(pts[k].point.x(), pts[k].point.y());
            best = std::max(best, polygon_area(q));
          }
    std::vector<Contact> kept = pts;
    reduce_contacts(kept, 4, Vec3::UnitZ());
    ASSERT_EQ(kept.size(), 4u);
    EXPECT_TRUE(std::any_of(kept.begin(), kept.end(), [&](const Contact& c) { return c.point == deepest_point; }));
    std::vector<Eigen::Vector2d> q;
    for (const Contact& c : kept) q.emplace_back(c.point.x(), c.point.y());
    // Greedy with the deepest point forced in: at least half the optimum.
    EXPECT_GE(polygon_area(q), 0.5 * best) << "trial " << trial;
  }
}

TEST(ReduceContacts, LeavesSmallSetsAndZeroAlone) {
  std::vector<Contact> pts(3);
  for (int i = 0; i < 3; ++i) pts[i].point = Vec3(i, i * i, 0);
  std::vector<Contact> same = pts;
  reduce_contacts(same, 4, Vec3::UnitZ());
  EXPECT_EQ(same.size(), 3u);
  reduce_contacts(same, 0, Vec3::UnitZ());
  EXPECT_EQ(same.size(), 3u);
  reduce_contacts(same, 1, Vec3::UnitZ());
  EXPECT_EQ(same.size(), 1u);
}

TEST(ReduceContacts, IsDeterministic) {
  std::vector<Contact> pts(12);
  for (int i = 0; i < 12; ++i) pts[i].point = Vec3(std::cos(i * 0.5), std::sin(i * 0.5), 0);
  std::vector<Contact> a = pts, b = pts;
  reduce_contacts(a, 5, Vec3::UnitZ());
  reduce_contacts(b, 5, Vec3::UnitZ());
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].point, b[i].point);
}

}  // namespace
}  // namespace proxima
