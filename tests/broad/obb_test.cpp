// SPDX-License-Identifier: BSD-3-Clause
// Oriented-box gaps against the exact distance between the boxes, from the
// explicitly built Minkowski difference of their corners (tests/oracle):
// the gap is a lower bound everywhere, exact where a face normal is the
// direction of the shortest segment, and never calls touching boxes apart.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include <proxima/broad/obb.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima::broad {
namespace {

using testing::Rng;

std::vector<Vec3> obb_corners(const Obb& b) {
  std::vector<Vec3> c;
  for (int k = 0; k < 8; ++k) {
    const Vec3 s((k & 1) ? 1.0 : -1.0, (k & 2) ? 1.0 : -1.0, (k & 4) ? 1.0 : -1.0);
    c.push_back(b.center + b.axes * s.cwiseProduct(b.half));
  }
  return c;
}

Obb random_obb(Rng& rng, double spread) {
  const Transform pose = rng.pose(spread);
  return {pose.p, pose.R, rng.uniform_vec(0.01, 0.5)};
}

TEST(ObbGap, IsALowerBoundOnTheDistance) {
  Rng rng(4101);
  const int n = testing::scaled(4000);
  int separated = 0, tight = 0;
  for (int k = 0; k < n; ++k) {
    const Obb a = random_obb(rng, 0.8), b = random_obb(rng, 0.8);
    const double exact = oracle::minkowski_signed_distance(obb_corners(a), obb_corners(b));
    const double gap = obb_gap(a, b);
    ASSERT_LE(gap, std::max(exact, 0.0) + 1e-12) << k;
    if (exact <= 0.0) {
      EXPECT_LE(gap, 1e-12) << k;
      EXPECT_LE(obb_gap_bound(a, b), 0.0) << k;
    } else {
      ++separated;
      if (gap > 0.5 * exact) ++tight;
      EXPECT_LE(obb_gap_bound(a, b), exact) << k;
      EXPECT_LE(obb_gap_bound(a, b), gap) << k;
    }
  }
  // Most separated random pairs are proven so, most within a factor of two.
  EXPECT_GT(separated, n / 3);
  EXPECT_GT(tight, separated / 2);
}

TEST(ObbGap, ExactAlongAFaceNormal) {
  Rng rng(4102);
  for (int k = 0; k < 200; ++k) {
    const Transform pose = rng.pose(5.0);
    const Obb a{pose.p, pose.R, rng.uniform_vec(0.01, 0.5)};
    Obb b{Vec3::Zero(), pose.R, rng.uniform_vec(0.01, 0.5)};
    const int axis = k % 3;
    const double d = rng.uniform(0.0, 1.0);
    // b beside a along a's axis, overlapping in the other two directions.
    Vec3 offset = Vec3::Zero();
    offset[axis] = a.half[axis] + b.half[axis] + d;
    b.center = a.center + pose.R * offset;
    EXPECT_NEAR(obb_gap(a, b), d, 1e-12) << k;
    // Touching (d = 0 up to rounding) is never apart.
    offset[axis] = a.half[axis] + b.half[axis];
    b.center = a.center + pose.R * offset;
    EXPECT_LE(obb_gap_bound(a, b), 0.0) << k;
    EXPECT_NEAR(obb_gap(a, b), 0.0, 1e-12) << k;
  }
}

TEST(ObbGap, PlacedCarriesTheLocalBox) {
  const Aabb local{Vec3(-0.1, 0.0, 0.2), Vec3(0.3, 0.4, 0.6)};
  const Transform pose = Transform::from_axis_angle(Vec3(0, 0, 1), std::numbers::pi / 2, Vec3(1, 2, 3));
  const Obb o = Obb::placed(local, pose);
  EXPECT_TRUE(o.center.isApprox(pose.apply(local.center()), 1e-15));
  EXPECT_TRUE(o.half.isApprox(Vec3(0.2, 0.2, 0.2), 1e-15));
  EXPECT_EQ(o.axes, pose.R);
}

}  // namespace
}  // namespace proxima::broad
