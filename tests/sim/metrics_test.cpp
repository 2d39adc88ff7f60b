// SPDX-License-Identifier: BSD-3-Clause
// The scene metrics on series built by hand, where the answer is known.
#include <cmath>

#include <gtest/gtest.h>

#include <proxima/sim/metrics.hpp>

#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

// The largest gain is the largest rise above the running minimum: 10 → 4 →
// 7 regains 3 J although it never comes back to the start.
TEST(EnergyExtremes, GainIsTheLargestRiseAboveTheRunningMinimum) {
  sim::EnergyExtremes e(10.0);
  for (const double x : {9.0, 4.0, 7.0, 6.0, 1.0, 2.5, 3.0, 2.0}) e.add(x);
  EXPECT_DOUBLE_EQ(e.max_gain, 3.0);  // 4 → 7 (1 → 3 is only 2)
  EXPECT_DOUBLE_EQ(e.max_loss, 9.0);  // 10 → 1
  // A series that only falls gains nothing; one that only rises loses nothing.
  sim::EnergyExtremes down(5.0), up(5.0);
  for (int i = 1; i <= 4; ++i) {
    down.add(5.0 - i);
    up.add(5.0 + i);
  }
  EXPECT_EQ(down.max_gain, 0.0);
  EXPECT_DOUBLE_EQ(down.max_loss, 4.0);
  EXPECT_DOUBLE_EQ(up.max_gain, 4.0);
  EXPECT_EQ(up.max_loss, 0.0);
}

// The scene metric itself, fed a world whose kinetic energy is set by hand
// between observations (no step, so the potential energy stays): 2 J,
// 0.5 J, 1.28 J, 0.18 J. Before, the gain was taken against the start: 0.
TEST(EnergyMetric, ReportsEnergyRegainedAfterALoss) {
  sim::World w;
  const int i = w.add(sim::make_body("ball", Sphere(0.1), 1000.0, Transform::identity()));
  sim::Body& b = w.bodies()[static_cast<std::size_t>(i)];
  const double m = b.mass.mass;
  const auto speed_for = [&](double energy) { return std::sqrt(2.0 * energy / m); };
  b.linear_velocity = Vec3(speed_for(2.0), 0, 0);
  sim::MetricSpec spec;
  spec.kind = "energy";
  const std::unique_ptr<sim::Metric> metric = sim::make_metric(spec, w);
  metric->start(w);
  for (const double e : {0.5, 1.28, 0.18}) {
    b.linear_velocity = Vec3(speed_for(e), 0, 0);
    metric->observe(w, sim::StepStats{});
  }
  const std::vector<sim::MetricResult> r = metric->results();
  ASSERT_EQ(r.size(), 2u);
  const double mgr = m * 9.81 * 0.1;  // the metric's scale, Σ m g R
  EXPECT_NEAR(r[1].value, 0.78 / mgr, 1e-12);
  EXPECT_NEAR(r[0].value, -1.82 / mgr, 1e-12);
  EXPECT_NE(r[0].text.find("max gain (rise above the running minimum) 0.78 J"), std::string::npos) << r[0].text;
  EXPECT_NE(r[0].text.find("max loss 1.82 J"), std::string::npos) << r[0].text;
}

}  // namespace
}  // namespace proxima
