// SPDX-License-Identifier: BSD-3-Clause
// Motions the time-of-impact tests build themselves (axis, angle, travel),
// and the checks every answer must pass against a true clearance function.
#pragma once

#include <cmath>
#include <functional>

#include <gtest/gtest.h>

#include <proxima/query.hpp>

#include "random.hpp"

namespace proxima::testing {

// A motion as the test defines it: origin p0 + t·dp, rotation
// AngleAxis(t·angle, axis)·R0, with angle < π so that it is the shorter way.
struct TestMotion {
  Mat3 r0 = Mat3::Identity();
  Vec3 p0 = Vec3::Zero();
  Vec3 dp = Vec3::Zero();
  Vec3 axis = Vec3::UnitZ();
  double angle = 0.0;
  Transform at(double t) const {
    return {Mat3(Eigen::AngleAxisd(t * angle, axis) * r0), p0 + t * dp};
  }
};

inline TestMotion random_motion(Rng& rng, double half, double travel, double max_angle) {
  TestMotion m;
  m.r0 = rng.pose(half).R;
  m.p0 = rng.uniform_vec(-half, half);
  m.dp = rng.uniform_vec(-travel, travel);
  m.axis = rng.unit_vector();
  m.angle = rng.uniform(0.0, max_angle);
  return m;
}

// Half the cases of a workload: A heads for where B will be at t = 0.6,
// give or take 0.1 m.
inline void aim(TestMotion& a, const TestMotion& b, Rng& rng) {
  a.dp = (b.p0 - a.p0) / 0.6 + b.dp + rng.uniform_vec(-0.1, 0.1);
}

// The first t in [0, 1] with h(t) ≤ 0 on a grid of n steps, refined by
// bisection; 2 when the grid finds none.
inline double first_root(const std::function<double(double)>& h, int n) {
  if (h(0.0) <= 0.0) return 0.0;
  for (int i = 1; i <= n; ++i) {
    const double hi = static_cast<double>(i) / n;
    if (h(hi) > 0.0) continue;
    double lo = static_cast<double>(i - 1) / n, up = hi;
    for (int k = 0; k < 60; ++k) {
      const double mid = 0.5 * (lo + up);
      (h(mid) > 0.0 ? lo : up) = mid;
    }
    return up;
  }
  return 2.0;
}

// What every answer must satisfy, given the true clearance function g(t)
// (distance minus the requested clearance): at the reported time, g is in
// [0, accuracy]; no earlier time on a fine grid has g < 0; no contact at all
// when none is reported.
inline void expect_conservative(const TimeOfImpactResult& r, const std::function<double(double)>& g, double accuracy,
                         double slack) {
  ASSERT_EQ(r.status, Status::ok);
  ASSERT_TRUE(std::isfinite(r.time));
  const double truth = first_root(g, 4000);
  if (truth == 0.0) {  // within the clearance from the start
    EXPECT_TRUE(r.collide);
    EXPECT_EQ(r.time, 0.0);
    return;
  }
  if (!r.collide) {
    EXPECT_EQ(r.time, 1.0);
    EXPECT_GT(truth, 1.0) << "missed a contact at t = " << truth;
    return;
  }
  EXPECT_LE(g(r.time), accuracy + slack) << "t = " << r.time;
  EXPECT_GE(g(r.time), -slack) << "t = " << r.time;
  EXPECT_LE(r.time, truth + 1e-12);
  for (int i = 0; i < 400; ++i) {
    const double s = r.time * i / 400.0;
    ASSERT_GT(g(s), -slack) << "contact at t = " << s << " before the reported " << r.time;
  }
}

}  // namespace proxima::testing
