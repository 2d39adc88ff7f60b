// SPDX-License-Identifier: BSD-3-Clause
// The lower bounds of h_C over a polytope edge's Gauss-map arc that the
// coherence certificate's collecting walks keep features by
// (src/narrow/sat_edge_axis.hpp): arc_min against the arc's minimum in
// closed form in the arc's own angle (u(t) = cos t a + sin t b, so u·w =
// A cos t + B sin t, least at an end or at t = atan2(B, A) + π), checked in
// turn against dense sampling; arc_min_below is arc_min itself or +∞, and
// +∞ only where the minimum is above the floor, floors taken on both sides
// of the minimum and close to it.
#include <algorithm>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "../../src/narrow/sat_edge_axis.hpp"
#include "../support/random.hpp"

namespace proxima::edge_axis_test {
namespace {

using testing::Rng;

// The least u·w over the minor arc from n0 to n1 (unit, not opposite).
double arc_minimum(const Vec3& n0, const Vec3& n1, const Vec3& w) {
  const Vec3 a = n0;
  const Vec3 b = (n1 - n1.dot(a) * a).normalized();
  const double theta = std::atan2(n1.dot(b), n1.dot(a));
  const double A = a.dot(w), B = b.dot(w);
  double least = std::min(A, A * std::cos(theta) + B * std::sin(theta));
  double t = std::atan2(B, A) + M_PI;  // where A cos t + B sin t = −√(A² + B²)
  if (t > M_PI) t -= 2.0 * M_PI;
  if (t >= 0.0 && t <= theta) least = std::min(least, -std::hypot(A, B));
  return least;
}

// n1 at angle `angle` from n0.
Vec3 turned(const Vec3& n0, double angle, Rng& rng) {
  const Vec3 side = n0.cross(rng.unit_vector()).normalized();
  return std::cos(angle) * n0 + std::sin(angle) * side;
}

// A vector of random direction and length in [lo, hi), drawn in that order.
Vec3 random_vector(Rng& rng, double lo, double hi) {
  const double length = rng.uniform(lo, hi);
  return length * rng.unit_vector();
}

TEST(SatEdgeAxis, ArcMinimumInClosedFormMatchesSampling) {
  Rng rng(20261206);
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec3 n0 = rng.unit_vector();
    const double angle = rng.uniform(1e-3, 3.0);
    const Vec3 n1 = turned(n0, angle, rng);
    const Vec3 w = random_vector(rng, 0.01, 5.0);
    const double truth = arc_minimum(n0, n1, w);
    double sampled = std::numeric_limits<double>::infinity();
    const Vec3 b = (n1 - n1.dot(n0) * n0).normalized();
    const double theta = std::atan2(n1.dot(b), n1.dot(n0));
    for (int k = 0; k <= 4000; ++k) {
      const double t = theta * k / 4000.0;
      sampled = std::min(sampled, (std::cos(t) * n0 + std::sin(t) * b).dot(w));
    }
    // Sampling finds the minimum from above, within the spacing's sagitta.
    EXPECT_GE(sampled, truth - 1e-12 * (1.0 + w.norm()));
    EXPECT_LE(sampled - truth, w.norm() * (1.0 - std::cos(theta / 8000.0)) + 1e-12 * (1.0 + w.norm()));
    // arc_min is a lower bound, within its 1e-12 (1 + |w|) of the minimum.
    const double bound = narrow::detail::arc_min(n0, n1, w);
    EXPECT_LE(bound, truth);
    EXPECT_GE(bound, truth - 2e-12 * (1.0 + w.norm()) - 1e-14);
  }
}

TEST(SatEdgeAxis, ArcMinBelowSkipsOnlyArcsAboveTheFloor) {
  Rng rng(20261207);
  int skipped = 0, kept = 0, near_kept = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Vec3 n0 = rng.unit_vector();
    // Short arcs, as a hull's edges have, and long ones.
    const double angle = trial % 2 ? rng.uniform(1e-4, 0.3) : rng.uniform(0.3, 3.0);
    const Vec3 n1 = turned(n0, angle, rng);
    const Vec3 w = random_vector(rng, 0.01, 5.0);
    const double truth = arc_minimum(n0, n1, w);
    // Floors anywhere from far below to far above the minimum, and within a
    // hair of it on both sides.
    const double scale = 1.0 + w.norm();
    const double offset = trial % 3 == 0 ? rng.uniform(-1e-8, 1e-8) * scale : rng.uniform(-2.0, 2.0) * scale;
    const double floor = truth + offset;
    const double v = narrow::detail::arc_min_below(n0, n1, w, floor);
    if (std::isinf(v)) {
      ++skipped;
      EXPECT_GT(v, 0.0);
      // Skipped: no direction of the arc goes below the floor.
      EXPECT_GE(truth, floor) << "trial " << trial;
    } else {
      ++kept;
      EXPECT_EQ(v, narrow::detail::arc_min(n0, n1, w));
      if (std::abs(offset) < 1e-7 * scale) ++near_kept;
    }
    // Whatever it returns, a feature below the floor is never lost.
    if (truth < floor) {
      EXPECT_LT(v, floor) << "trial " << trial;
    }
  }
  // Both ways, and the floors at the minimum itself are kept (the bound
  // leaves room for rounding).
  EXPECT_GT(skipped, 2000);
  EXPECT_GT(kept, 2000);
  EXPECT_GT(near_kept, 1000);
}

}  // namespace
}  // namespace proxima::edge_axis_test
