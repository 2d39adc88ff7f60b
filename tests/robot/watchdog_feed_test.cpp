// SPDX-License-Identifier: BSD-3-Clause
// The watchdog's feed sanity: samples beyond a joint's limits or implying a
// speed above its velocity limit stop the robot, naming the joint; samples
// and ticks out of order are errors, never answers as if current. Every
// limit and sample here is written out by hand.
#include <cmath>
#include <initializer_list>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/watchdog.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

constexpr double kFeedInf = std::numeric_limits<double>::infinity();

// Two joints, far from everything: any stop comes from the feed check.
WatchdogOptions feed_two_joint_limits() {
  WatchdogOptions o;
  o.limits.lower = {-1.0, -2.0};
  o.limits.upper = {1.0, 2.0};
  o.limits.tolerance = {0.02, 0.02};
  o.limits.velocity = {1.0, 3.0};
  o.limits.speed_tolerance = 1.5;
  return o;
}

const ClearanceFn kFeedFar = [](std::span<const double>) { return 5.0; };

void expect_feed_stop(const WatchdogState& s, WatchdogReason reason, int joint, double value, double limit) {
  EXPECT_EQ(s.status, Status::ok);
  EXPECT_EQ(s.level, WatchdogLevel::stop);
  EXPECT_EQ(s.speed_factor, 0.0);
  EXPECT_EQ(s.reason, reason);
  EXPECT_EQ(s.joint, joint);
  EXPECT_NEAR(s.joint_value, value, 1e-12);
  EXPECT_EQ(s.joint_limit, limit);
  EXPECT_FALSE(std::isnan(s.clearance));
  EXPECT_FALSE(std::isnan(s.predicted_clearance));
}

void expect_feed_clear(const WatchdogState& s) {
  EXPECT_EQ(s.level, WatchdogLevel::clear);
  EXPECT_EQ(s.speed_factor, 1.0);
  EXPECT_EQ(s.reason, WatchdogReason::none);
  EXPECT_EQ(s.joint, -1);
  EXPECT_EQ(s.joint_value, 0.0);
  EXPECT_EQ(s.joint_limit, 0.0);
}

TEST(WatchdogFeed, AJointBeyondItsLimitStopsWhileItReadsBeyond) {
  Watchdog dog(2, kFeedFar, feed_two_joint_limits());
  expect_feed_clear(dog.update({0.0, {0.99, 0.0}}));
  expect_feed_clear(dog.update({0.1, {1.015, 0.0}}));  // within the 0.02 tolerance
  expect_feed_stop(dog.update({0.2, {1.03, 0.0}}), WatchdogReason::joint_limit, 0, 1.03, 1.0);
  expect_feed_stop(dog.update({0.3, {1.04, 0.0}}), WatchdogReason::joint_limit, 0, 1.04, 1.0);
  expect_feed_clear(dog.update({0.4, {1.0, 0.0}}));  // back within the limits, at 0.4 rad/s
  // The lower side, on the second joint.
  expect_feed_stop(dog.update({0.5, {1.0, -2.021}}), WatchdogReason::joint_limit, 1, -2.021, -2.0);
  expect_feed_clear(dog.update({0.6, {1.0, -2.0}}));
}

TEST(WatchdogFeed, ASpeedAboveTheVelocityLimitStopsUntilAPlausibleSample) {
  Watchdog dog(2, kFeedFar, feed_two_joint_limits());
  expect_feed_clear(dog.update({0.0, {0.0, 0.0}}));
  // 1.4 rad/s on joint 0: within 1.5 × 1 rad/s. 4.4 rad/s on joint 1: within 1.5 × 3.
  expect_feed_clear(dog.update({0.1, {0.14, 0.44}}));
  // 1.6 rad/s: beyond.
  expect_feed_stop(dog.update({0.2, {0.30, 0.44}}), WatchdogReason::joint_speed, 0, 1.6, 1.0);
  // 0.1 rad/s from the sample before, which broke the limit: plausible again.
  expect_feed_clear(dog.update({0.3, {0.31, 0.44}}));
  // A spike on joint 1 (it reads within its position limits) and back: the
  // way back is as fast, so two sane samples in a row end the stop.
  expect_feed_stop(dog.update({0.4, {0.31, 1.44}}), WatchdogReason::joint_speed, 1, 10.0, 3.0);
  expect_feed_stop(dog.update({0.5, {0.31, 0.45}}), WatchdogReason::joint_speed, 1, 9.9, 3.0);
  expect_feed_clear(dog.update({0.6, {0.31, 0.46}}));
}

TEST(WatchdogFeed, APositionFaultComesBeforeASpeedFault) {
  Watchdog dog(2, kFeedFar, feed_two_joint_limits());
  dog.update({0.0, {0.0, 0.0}});
  // Joint 1 is too fast (20 rad/s) and joint 0 beyond its upper limit: the
  // position is named, as it reads even without the sample before.
  expect_feed_stop(dog.update({0.1, {1.5, 2.0}}), WatchdogReason::joint_limit, 0, 1.5, 1.0);
}

TEST(WatchdogFeed, AFaultySampleIsNeitherJudgedNorFitted) {
  int calls = 0;
  const ClearanceFn counted = [&calls](std::span<const double>) {
    ++calls;
    return 5.0;
  };
  Watchdog dog(2, counted, feed_two_joint_limits());
  dog.update({0.0, {0.0, 0.0}});
  dog.update({0.1, {0.05, 0.0}});
  ASSERT_EQ(dog.predictor().size(), 2u);
  const int before = calls;
  const WatchdogState s = dog.update({0.2, {1.5, 0.0}});
  EXPECT_EQ(s.reason, WatchdogReason::joint_limit);
  EXPECT_EQ(calls, before) << "a clearance was computed for a sample that is not the robot";
  EXPECT_EQ(dog.predictor().size(), 0u);
  EXPECT_EQ(s.model, MotionModel::stationary);
  // The prediction starts afresh from the next sane sample.
  const WatchdogState next = dog.update({1.0, {0.9, 0.0}});  // 0.75 rad/s from the faulty sample
  EXPECT_EQ(dog.predictor().size(), 1u);
  EXPECT_EQ(next.model, MotionModel::stationary);
  EXPECT_EQ(dog.state().reason, WatchdogReason::none);
}

// A slow-down in force when a faulty sample comes stays in force after it:
// the sample that ends the feed stop is judged against it.
TEST(WatchdogFeed, ASlowDownHeldBeforeAFaultHoldsAfterIt) {
  // The clearance is joint 0 itself (m): approaching 0 as it falls.
  const ClearanceFn along = [](std::span<const double> q) { return q[0]; };
  WatchdogOptions o = feed_two_joint_limits();
  o.limits.lower = {-kFeedInf, -2.0};
  o.limits.upper = {kFeedInf, 2.0};
  Watchdog dog(2, along, o);
  double held = 1.0;
  for (int k = 0; k < 6; ++k) held = dog.update({0.1 * k, {0.08 - 0.005 * k, 0.0}}).speed_factor;
  ASSERT_LT(held, 1.0);
  ASSERT_GT(held, 0.0);
  expect_feed_stop(dog.update({0.6, {0.055, 2.5}}), WatchdogReason::joint_limit, 1, 2.5, 2.0);
  // Standing still at the same clearance, joint 1 back at 2.5 rad/s: no
  // longer a feed stop, still slowed.
  const WatchdogState s = dog.update({0.8, {0.055, 2.0}});
  EXPECT_EQ(s.reason, WatchdogReason::clearance);
  EXPECT_GT(s.speed_factor, 0.0);
  EXPECT_LE(s.speed_factor, held);
}

TEST(WatchdogFeed, UnboundedJointsAndEmptyLimitsAreNotChecked) {
  WatchdogOptions o;
  o.limits.lower = {-kFeedInf, -1.0};
  o.limits.upper = {kFeedInf, 1.0};
  o.limits.velocity = {kFeedInf, 1.0};
  Watchdog dog(2, kFeedFar, o);
  expect_feed_clear(dog.update({0.0, {100.0, 0.0}}));
  expect_feed_clear(dog.update({0.1, {-100.0, 0.0}}));  // 2000 rad/s on a joint without a velocity limit
  // No tolerance given: 0.
  expect_feed_stop(dog.update({0.2, {0.0, 1.0 + 1e-9}}), WatchdogReason::joint_limit, 1, 1.0 + 1e-9, 1.0);
  Watchdog unchecked(2, kFeedFar);
  expect_feed_clear(unchecked.update({0.0, {1e6, -1e6}}));
  expect_feed_clear(unchecked.update({1e-6, {-1e6, 1e6}}));
}

TEST(WatchdogFeed, SamplesAndTicksOutOfOrderAreErrorsThatChangeNothing) {
  Watchdog dog(2, kFeedFar, feed_two_joint_limits());
  dog.update({1.0, {0.0, 0.0}});
  const WatchdogState before = dog.state();
  robot_test::expect_error([&] { dog.update({1.0, {0.0, 0.0}}); }, {"not after"});
  robot_test::expect_error([&] { dog.update({0.5, {0.0, 0.0}}); }, {"not after"});
  robot_test::expect_error([&] { (void)dog.tick(0.99); }, {"tick time", "before the last sample"});
  EXPECT_EQ(dog.state().speed_factor, before.speed_factor);
  EXPECT_EQ(dog.predictor().size(), 1u);
  EXPECT_FALSE(dog.tick(1.0).stale);  // at the sample's own time: fresh
  // After a faulty sample (the prediction cleared), its time still counts.
  dog.update({2.0, {1.5, 0.0}});
  robot_test::expect_error([&] { dog.update({1.5, {0.0, 0.0}}); }, {"not after"});
  robot_test::expect_error([&] { (void)dog.tick(1.9); }, {"before the last sample"});
  EXPECT_EQ(dog.state().reason, WatchdogReason::joint_limit);
}

TEST(WatchdogFeed, NonFiniteJointsStayErrors) {
  Watchdog dog(2, kFeedFar, feed_two_joint_limits());
  dog.update({0.0, {0.0, 0.0}});
  robot_test::expect_error([&] { dog.update({0.1, {kFeedInf, 0.0}}); }, {"joint 0", "not finite"});
  robot_test::expect_error([&] { dog.update({0.1, {0.0, std::nan("")}}); }, {"joint 1", "not finite"});
  robot_test::expect_error([&] { dog.update({kFeedInf, {0.0, 0.0}}); }, {"time", "not finite"});
  EXPECT_EQ(dog.state().reason, WatchdogReason::none);
  expect_feed_clear(dog.update({0.1, {0.0, 0.0}}));
}

TEST(WatchdogFeed, ReasonsNameTheCause) {
  // The clearance is joint 0 (m); NaN beyond 10.
  const ClearanceFn along = [](std::span<const double> q) { return q[0] > 10.0 ? std::nan("") : q[0]; };
  WatchdogOptions o;
  o.stale_after = 0.1;
  o.stop_after = 0.3;
  Watchdog fresh(1, along, o);
  EXPECT_EQ(fresh.update({0.0, {1.0}}).reason, WatchdogReason::none);
  EXPECT_EQ(fresh.tick(0.05).reason, WatchdogReason::none);  // not yet stale
  EXPECT_EQ(fresh.tick(0.2).reason, WatchdogReason::stale_feed);
  EXPECT_NEAR(fresh.tick(0.2).speed_factor, 0.5, 1e-12);
  Watchdog invalid(1, along, o);
  EXPECT_EQ(invalid.update({0.0, {11.0}}).reason, WatchdogReason::invalid_clearance);
  Watchdog close(1, along, o);
  const WatchdogState s = close.update({0.0, {0.005}});  // below the stop distance
  EXPECT_EQ(s.level, WatchdogLevel::stop);
  EXPECT_EQ(s.reason, WatchdogReason::clearance);
  // A stop the clearance called keeps its reason when the feed goes stale.
  EXPECT_EQ(close.tick(0.4).reason, WatchdogReason::clearance);
  EXPECT_TRUE(close.tick(0.4).stale);
}

TEST(WatchdogFeed, BadLimitsAreNamed) {
  // Two joints with one change to the valid limits.
  const auto fails = [](auto change, std::initializer_list<std::string> parts) {
    WatchdogOptions o = feed_two_joint_limits();
    change(o.limits);
    robot_test::expect_error([&] { Watchdog(2, kFeedFar, o); }, parts);
  };
  fails([](FeedLimits& l) { l.lower = {0, 0, 0}; }, {"limits.lower", "3 entries", "2 joint variables"});
  fails([](FeedLimits& l) { l.velocity = {1}; }, {"limits.velocity", "1 entries"});
  fails([](FeedLimits& l) { l.tolerance = {1, 1, 1}; }, {"limits.tolerance"});
  fails([](FeedLimits& l) { l.upper.clear(); }, {"limits.lower and limits.upper"});
  fails([](FeedLimits& l) { l.lower.clear(), l.upper.clear(); }, {"limits.tolerance is given without"});
  fails([](FeedLimits& l) { l.lower[1] = 3.0; }, {"limits.lower[1]", "above", "limits.upper[1]"});
  fails([](FeedLimits& l) { l.lower[0] = std::nan(""); }, {"limits.lower[0]"});
  fails([](FeedLimits& l) { l.lower[0] = kFeedInf, l.upper[0] = kFeedInf; }, {"limits.lower[0]", "below +inf"});
  fails([](FeedLimits& l) { l.upper[1] = -kFeedInf, l.lower[1] = -kFeedInf; }, {"limits.upper[1]", "above -inf"});
  fails([](FeedLimits& l) { l.tolerance[1] = -0.01; }, {"limits.tolerance[1]", ">= 0"});
  fails([](FeedLimits& l) { l.tolerance[0] = kFeedInf; }, {"limits.tolerance[0]"});
  fails([](FeedLimits& l) { l.velocity[1] = 0.0; }, {"limits.velocity[1]", "positive"});
  fails([](FeedLimits& l) { l.velocity[0] = std::nan(""); }, {"limits.velocity[0]"});
  fails([](FeedLimits& l) { l.speed_tolerance = 0.9; }, {"limits.speed_tolerance", ">= 1"});
  fails([](FeedLimits& l) { l.speed_tolerance = kFeedInf; }, {"limits.speed_tolerance"});
}

}  // namespace
}  // namespace proxima::robot
