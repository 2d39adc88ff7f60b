// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/watchdog.hpp>

#include "../support/planar_arm.hpp"
#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using testing::PlanarArm;

constexpr double kPeriod = 0.032;

// A wall at x = 0.8 and a tool ball of 2 cm: the clearance in closed form.
struct WallCell {
  PlanarArm arm;
  double wall_x = 0.8, tool_radius = 0.02;
  double clearance(std::span<const double> q) const { return wall_x - arm.tool(q).p.x() - tool_radius; }
  ClearanceFn fn() const {
    return [this](std::span<const double> q) { return clearance(q); };
  }
};

// Joint 1 jogged at `rate` (rad/s) times the watchdog's speed factor, as a
// controller whose monitor speed the watchdog sets.
struct Jog {
  std::vector<double> q;
  double rate;
};

TEST(Watchdog, SlowsAndStopsAJogTowardsAWallBeforeContact) {
  const WallCell cell;
  Watchdog dog(4, cell.fn());
  // Start 0.35 m from the wall (tool at x ≈ 0.43), jog joint 1 so the tool swings towards +x.
  Jog jog{{1.6, -1.2, 0.3, 0.0}, -1.0};
  ASSERT_GT(cell.clearance(jog.q), 0.25);
  double factor = 1.0, min_clearance = 1e9, max_warning = 0.0;
  bool early = false, slowed = false;
  WatchdogState s;
  for (int k = 0; k < 400; ++k) {
    s = dog.update({k * kPeriod, jog.q});
    ASSERT_EQ(s.status, Status::ok);
    factor = s.speed_factor;
    ASSERT_GE(factor, 0.0);
    ASSERT_LE(factor, 1.0);
    // Slowing down before the present clearance is below slow_distance: the prediction at work.
    early |= s.level == WatchdogLevel::slow && s.clearance > 2.0 * WatchdogOptions{}.slow_distance;
    slowed |= s.level == WatchdogLevel::slow;
    max_warning = std::max(max_warning, s.warning);
    jog.q[0] += jog.rate * factor * kPeriod;
    min_clearance = std::min(min_clearance, cell.clearance(jog.q));
  }
  EXPECT_GT(min_clearance, 0.0) << "the tool reached the wall";
  EXPECT_TRUE(early);
  EXPECT_TRUE(slowed);
  EXPECT_GT(max_warning, 0.5);
  EXPECT_EQ(s.level, WatchdogLevel::stop);
  EXPECT_EQ(s.speed_factor, 0.0);
  // It creeps up to the stop distance (measured here: comes to rest at 10.9 mm for 10 mm).
  EXPECT_LT(cell.clearance(jog.q), 2.0 * WatchdogOptions{}.stop_distance) << "stopped too early to be useful";
  EXPECT_GT(cell.clearance(jog.q), 0.5 * WatchdogOptions{}.stop_distance);
}

TEST(Watchdog, MovingAwayNeverWarns) {
  const WallCell cell;
  Watchdog dog(4, cell.fn());
  // 3 cm from the wall, jogging away: inside every threshold but warn-free.
  std::vector<double> q{0.15, -0.35, 0.1, 0.0};
  const PlanarArm arm;
  double x = arm.tool(q).p.x();
  // Place the tool 3 cm from the wall along x by turning joint 1 until it is.
  for (int it = 0; it < 60 && std::abs(cell.clearance(q) - 0.03) > 1e-9; ++it) {
    const double h = 1e-7;
    std::vector<double> qh = q;
    qh[0] += h;
    const double slope = (cell.clearance(qh) - cell.clearance(q)) / h;
    q[0] -= (cell.clearance(q) - 0.03) / slope;
  }
  x = arm.tool(q).p.x();
  ASSERT_NEAR(cell.wall_x - x - cell.tool_radius, 0.03, 1e-6);
  const std::vector<double> turned{q[0] + 0.01, q[1], q[2], q[3]};
  const double away = cell.clearance(turned) > cell.clearance(q) ? 1.0 : -1.0;
  for (int k = 0; k < 20; ++k) {
    const WatchdogState s = dog.update({k * kPeriod, q});
    if (k >= 1) {
      EXPECT_FALSE(s.approaching) << k;
      EXPECT_EQ(s.level, WatchdogLevel::clear) << k;
      EXPECT_EQ(s.warning, 0.0) << k;
      EXPECT_EQ(s.speed_factor, 1.0) << k;
    }
    q[0] += away * 0.5 * kPeriod;
  }
}

// A signed clearance: negative inside an obstacle. Pushing deeper is a
// stop; moving out is allowed at full speed and reported as receding;
// standing still inside is a stop.
TEST(Watchdog, InsideAnObstaclePushingDeeperStopsMovingOutIsAllowed) {
  ClearanceFn clearance = [](std::span<const double> q) { return -q[0]; };  // q[0] m deep
  Watchdog dog(1, clearance);
  double t = 0.0, q = 0.005;
  for (int k = 0; k < 10; ++k, t += kPeriod, q += 0.2 * kPeriod) {
    const WatchdogState s = dog.update({t, {q}});
    EXPECT_EQ(s.clearance, -q);
    if (k > 1) {
      EXPECT_TRUE(s.approaching) << k;
    }
    EXPECT_EQ(s.level, WatchdogLevel::stop) << k;
    EXPECT_EQ(s.speed_factor, 0.0) << k;
    EXPECT_FALSE(s.receding) << k;
  }
  q -= 0.2 * kPeriod;  // the step after the last sample was never sent
  for (int k = 0; k < 8; ++k, t += kPeriod) {
    q -= 0.2 * kPeriod;
    const WatchdogState s = dog.update({t, {q}});
    EXPECT_TRUE(s.receding) << k;
    EXPECT_FALSE(s.approaching) << k;
    EXPECT_EQ(s.level, WatchdogLevel::clear) << k;
    EXPECT_EQ(s.speed_factor, 1.0) << k;
    EXPECT_EQ(s.warning, 0.0) << k;
  }
  const WatchdogState still = dog.update({t, {q}});
  EXPECT_LT(still.clearance, 0.0);
  EXPECT_EQ(still.level, WatchdogLevel::stop);
  EXPECT_FALSE(still.receding);
}

// The two ways a slow-down was lifted too early, in closed form: a crawl the
// predictor reads as stationary, and a predicted change below
// approach_epsilon. Closing in at any speed ends in an exact 0 at the stop
// band, before the stop distance, never a crawl or a jump back to 1.
TEST(Watchdog, ASlowDownIsNeverLiftedByACrawlOrATinyPredictedChange) {
  const WatchdogOptions o;
  for (const double rate : {0.05, 0.4, 1.0, 1.5}) {  // m/s towards the wall at factor 1
    ClearanceFn clearance = [](std::span<const double> q) { return 0.3 - q[0]; };
    Watchdog dog(1, clearance, o);
    double t = 0.0, q = 0.0, lowest = 1.0, factor = 1.0;
    bool slowed = false;
    int samples = 0;
    for (; samples < 1000000; ++samples, t += kPeriod) {
      const WatchdogState s = dog.update({t, {q}});
      ASSERT_FALSE(s.receding) << rate << " m/s, sample " << samples;
      if (slowed) {
        // Within slow_distance, only a fresh prediction of the approach may
        // raise the factor (the robot slowed, so the path ahead is shorter).
        ASSERT_GE(s.level, WatchdogLevel::slow) << rate << " m/s, sample " << samples << ": the slow-down was lifted";
        // Read as still or barely approaching, it never rises; except that
        // a stop the prediction called short of the stop band becomes a
        // 1 % crawl once the robot stands still.
        const bool called = factor == 0.0 && s.clearance - o.stop_distance > stop_band(o);
        if (!s.approaching) {
          ASSERT_LE(s.speed_factor, called ? 0.01 : factor) << rate << " m/s, sample " << samples;
        }
      }
      slowed |= s.level >= WatchdogLevel::slow && s.clearance < o.slow_distance;
      factor = s.speed_factor;
      // Stopped for good: a stop answered for a robot that reads as still.
      if (factor == 0.0 && s.model == MotionModel::stationary) break;
      q += rate * factor * kPeriod;
      lowest = std::min(lowest, clearance(std::vector<double>{q}));
    }
    EXPECT_EQ(factor, 0.0) << rate << " m/s: never stopped";
    // κ = π·V·T/(2(slow − stop)) ≤ 1 for these: the tight bound.
    EXPECT_GE(lowest, o.stop_distance) << rate;
    EXPECT_LT(lowest, 2.0 * o.stop_distance) << rate << ": stopped far from the wall";
    // Standing still at the stop, it stays a stop.
    EXPECT_EQ(dog.update({t + kPeriod, {q}}).speed_factor, 0.0) << rate;
  }
}

TEST(Watchdog, AStopCalledFarOutResumesByDoublingNeverAtOnce) {
  // So fast that the prediction calls a stop beyond warn_distance: standing
  // there, the robot must not be let go at full speed (and be stopped again
  // the next sample), but resume at most doubling its speed per sample,
  // until it stops in the band before the wall.
  const WatchdogOptions o;
  for (const double rate : {1.5, 3.0}) {
    ClearanceFn clearance = [](std::span<const double> q) { return 0.6 - q[0]; };
    Watchdog dog(1, clearance, o);
    double t = 0.0, q = 0.0, lowest = 1.0, factor = 1.0;
    int held_far_out = 0, samples = 0;
    for (; samples < 100000; ++samples, t += kPeriod) {
      const WatchdogState s = dog.update({t, {q}});
      if (factor < 1.0 && !s.receding) {
        ASSERT_LE(s.speed_factor, 2.0 * std::max(factor, 0.01)) << rate << " m/s, sample " << samples;
        held_far_out += s.clearance > o.slow_distance ? 1 : 0;
      }
      factor = s.speed_factor;
      if (factor == 0.0 && s.model == MotionModel::stationary && s.clearance - o.stop_distance <= stop_band(o)) break;
      q += rate * factor * kPeriod;
      lowest = std::min(lowest, clearance(std::vector<double>{q}));
    }
    EXPECT_GT(held_far_out, 0) << rate << " m/s: no slow-down was held beyond slow_distance";
    EXPECT_EQ(factor, 0.0) << rate << " m/s: never stopped in the band";
    EXPECT_GE(lowest, o.stop_distance - rate * kPeriod) << rate;
  }
}

TEST(Watchdog, ApproachingIsPredictedBeforeTheClearanceDrops) {
  // The same approach seen one sample at a time: the prediction warns while
  // the present clearance is still above the warn distance.
  const WallCell cell;
  WatchdogOptions o;
  o.horizon = 1.0;
  Watchdog dog(4, cell.fn(), o);
  std::vector<double> q{1.6, -1.2, 0.3, 0.0};
  bool early = false;
  for (int k = 0; k < 200 && !early; ++k) {
    const WatchdogState s = dog.update({k * kPeriod, q});
    early = s.level != WatchdogLevel::clear && s.clearance > o.warn_distance;
    if (early) {
      EXPECT_LT(s.predicted_clearance, s.clearance);
    }
    q[0] -= 0.5 * kPeriod;
  }
  EXPECT_TRUE(early);
}

TEST(Watchdog, TimeToStopDistanceMatchesTheMotion) {
  // A prismatic approach in closed form: a clearance linear in q4 at 0.2 m/s.
  const double speed = 0.2;
  ClearanceFn clearance = [](std::span<const double> q) { return 1.0 - q[3]; };
  WatchdogOptions o;
  o.horizon = 5.0;
  o.path_steps = 50;
  Watchdog dog(4, clearance, o);
  WatchdogState s;
  for (int k = 0; k < 10; ++k) s = dog.update({k * kPeriod, {0.0, 0.0, 0.0, speed * k * kPeriod}});
  const double d_now = 1.0 - speed * 9 * kPeriod;
  EXPECT_NEAR(s.clearance, d_now, 1e-12);
  EXPECT_NEAR(s.time_to_stop_distance, (d_now - o.stop_distance) / speed, 1e-6);
  EXPECT_TRUE(s.approaching);
}

TEST(Watchdog, AChannelThatMeasuredNothingStaysFinite) {
  // Nothing to measure (+inf) until the path brings an object within reach:
  // the time to the stop distance is finite, never NaN.
  ClearanceFn clearance = [](std::span<const double> q) {
    return q[0] < 0.5 ? std::numeric_limits<double>::infinity() : 1.0 - q[0];
  };
  WatchdogOptions o;
  o.horizon = 2.0;
  Watchdog dog(1, clearance, o);
  WatchdogState s;
  for (int k = 0; k < 5; ++k) s = dog.update({0.1 * k, {0.1 * k}});
  EXPECT_EQ(s.status, Status::ok);
  EXPECT_TRUE(std::isinf(s.clearance));
  EXPECT_FALSE(std::isnan(s.time_to_stop_distance));
  EXPECT_TRUE(std::isfinite(s.time_to_stop_distance));
  EXPECT_EQ(s.level, WatchdogLevel::stop);
}

TEST(Watchdog, StaleFeedRampsTheSpeedFactorToAStop) {
  const WallCell cell;
  WatchdogOptions o;
  o.stale_after = 0.1;
  o.stop_after = 0.3;
  Watchdog dog(4, cell.fn(), o);
  EXPECT_EQ(dog.tick(5.0).speed_factor, 1.0);  // no feed yet: nothing to judge
  // Well clear of the wall (at {0.2, 0.3, 0, 0} the tool is within the
  // stop distance, a stop of its own).
  const std::vector<double> clear{1.6, -1.2, 0.3, 0.0};
  ASSERT_GT(cell.clearance(clear), 0.25);
  dog.update({1.0, clear});
  EXPECT_EQ(dog.tick(1.05).speed_factor, 1.0);
  EXPECT_FALSE(dog.tick(1.05).stale);
  EXPECT_NEAR(dog.tick(1.2).speed_factor, 0.5, 1e-12);
  EXPECT_TRUE(dog.tick(1.2).stale);
  EXPECT_EQ(dog.tick(1.3).speed_factor, 0.0);
  EXPECT_EQ(dog.tick(1.3).level, WatchdogLevel::stop);
  EXPECT_EQ(dog.tick(std::numeric_limits<double>::quiet_NaN()).speed_factor, 0.0);
  // A fresh sample ends it.
  EXPECT_EQ(dog.update({1.35, clear}).speed_factor, 1.0);
}

TEST(Watchdog, NanClearanceStopsWithoutNan) {
  ClearanceFn clearance = [](std::span<const double> q) {
    return q[0] > 0.5 ? std::numeric_limits<double>::quiet_NaN() : 1.0;
  };
  Watchdog dog(1, clearance);
  EXPECT_EQ(dog.update({0.0, {0.0}}).status, Status::ok);
  const WatchdogState s = dog.update({0.1, {0.6}});
  EXPECT_EQ(s.status, Status::invalid_input);
  EXPECT_EQ(s.level, WatchdogLevel::stop);
  EXPECT_EQ(s.speed_factor, 0.0);
  EXPECT_FALSE(std::isnan(s.clearance));
  EXPECT_FALSE(std::isnan(s.predicted_clearance));
}

// The stop band in closed form: the quarter wave sin(π/2·x) (gamma 1) falls
// to stop_factor at x = (2/π)·asin(stop_factor) of the slow ramp's width.
double band_of(double stop, double slow, double stop_factor = 0.01) {
  return 2.0 / std::numbers::pi * std::asin(stop_factor) * (slow - stop);
}

// A slider at q[0] m closes in on two obstacles, 1 m and 1.05 m away; the
// farther one has distances of its own (stop 8 cm): the slider stops where
// that channel reaches its stop band, not at the default 1 cm of the nearer.
TEST(Watchdog, EachChannelStopsAtItsOwnDistances) {
  const ClearancesFn two = [](std::span<const double> q, std::span<double> out) {
    out[0] = 1.0 - q[0];
    out[1] = 1.05 - q[0];
  };
  WatchdogOptions o;
  o.channels = {{}, {.stop_distance = 0.08, .slow_distance = 0.12, .warn_distance = 0.3}};
  Watchdog dog(1, 2, two, o);
  EXPECT_EQ(dog.thresholds(1).stop_distance, 0.08);
  EXPECT_EQ(dog.thresholds(0).stop_distance, WatchdogOptions{}.stop_distance);
  EXPECT_NEAR(stop_band(o.channels[1], o), band_of(0.08, 0.12), 1e-15);
  EXPECT_NEAR(stop_band(o), band_of(0.01, 0.10), 1e-15);
  std::vector<double> q{0.0};
  const double rate = 0.2, period = 0.01;
  WatchdogState s;
  double t = 0.0;
  // Until stopped and standing still (a stop the prediction calls further
  // out holds as a crawl once the slider stands).
  for (int k = 0; k < 100000; ++k, t += period) {
    s = dog.update({t, q});
    if (s.speed_factor == 0.0 && s.model == MotionModel::stationary) break;
    q[0] += rate * s.speed_factor * period;
  }
  ASSERT_EQ(s.level, WatchdogLevel::stop);
  EXPECT_EQ(s.channel, 1);
  // Channel 1 within its band of 8 cm, and not below 8 cm less one period's travel.
  EXPECT_LE(1.05 - q[0] - 0.08, band_of(0.08, 0.12) + 1e-12);
  EXPECT_GE(1.05 - q[0], 0.08 - rate * period);
  EXPECT_GT(1.0 - q[0], 0.02);  // the nearer channel never came close to its own 1 cm
}

// A channel resting close by design (a wrist 22 mm beside its hand) takes
// its slow and warn distances from its first clearance: holding there, or
// a tiny wobble, is never slowed; closing in further ramps down to a stop
// short of contact.
TEST(Watchdog, AChannelThatRestsCloseTakesItsFirstClearance) {
  const auto wobble = [](int k) { return k % 4 == 1 ? 2e-4 : k % 4 == 3 ? -2e-4 : 0.0; };
  const ClearancesFn gap = [](std::span<const double> q, std::span<double> out) { out[0] = q[0]; };
  WatchdogOptions o;
  o.channels = {{.rests_close = true}};
  {
    Watchdog dog(1, 1, gap, o);
    double t = 0.0;
    for (int k = 0; k < 50; ++k, t += 0.032) {
      // ±0.2 mm of sensor noise around 22 mm.
      const WatchdogState s = dog.update({t, {0.022 + wobble(k)}});
      EXPECT_EQ(s.speed_factor, 1.0) << k;
    }
    EXPECT_EQ(dog.thresholds(0).stop_distance, 0.01);
    EXPECT_EQ(dog.thresholds(0).slow_distance, 0.016);
    EXPECT_EQ(dog.thresholds(0).warn_distance, 0.022);
  }
  {
    // The same channel not resting close is slowed by the wobble at 22 mm
    // (the default slow distance is 10 cm): what the rule is for.
    Watchdog dog(1, 1, gap);
    double lowest = 1.0, t = 0.0;
    for (int k = 0; k < 50; ++k, t += 0.032) lowest = std::min(lowest, dog.update({t, {0.022 + wobble(k)}}).speed_factor);
    EXPECT_LT(lowest, 0.5);
  }
  {
    // Closing in from 22 mm: a stop within the band above 10 mm.
    Watchdog dog(1, 1, gap, o);
    std::vector<double> q{0.022};
    WatchdogState s;
    double t = 0.0;
    for (int k = 0; k < 100000; ++k, t += 0.01) {
      s = dog.update({t, q});
      if (s.speed_factor == 0.0 && s.model == MotionModel::stationary) break;
      q[0] -= 0.05 * s.speed_factor * 0.01;
    }
    EXPECT_EQ(s.level, WatchdogLevel::stop);
    EXPECT_LE(q[0] - 0.01, band_of(0.01, 0.016) + 1e-12);
    EXPECT_GE(q[0], 0.01 - 0.05 * 0.01);
  }
  // Resting at 6 mm, inside the stop distance: stop at 3 mm, slow from
  // 4.5 mm, warn from 6 mm.
  const auto settled = [&](double first) {
    Watchdog dog(1, 1, gap, o);
    dog.update({0.0, {first}});
    return dog.thresholds(0);
  };
  EXPECT_EQ(settled(0.006).stop_distance, 0.003);
  EXPECT_DOUBLE_EQ(settled(0.006).slow_distance, 0.0045);
  EXPECT_EQ(settled(0.006).warn_distance, 0.006);
  // Beyond the slow distance, touching or inside: the distances as given.
  for (const double first : {0.15, 0.0, -0.004}) {
    EXPECT_EQ(settled(first).stop_distance, 0.01) << first;
    EXPECT_EQ(settled(first).slow_distance, 0.10) << first;
    EXPECT_EQ(settled(first).warn_distance, 0.20) << first;
  }
  // The first finite clearance counts, not a NaN before it.
  Watchdog dog(1, 1, [](std::span<const double> q, std::span<double> out) {
    out[0] = q[0] < 0.0 ? std::numeric_limits<double>::quiet_NaN() : q[0];
  }, o);
  dog.update({0.0, {-1.0}});
  EXPECT_EQ(dog.thresholds(0).slow_distance, 0.10);
  dog.update({0.1, {0.03}});
  EXPECT_EQ(dog.thresholds(0).warn_distance, 0.03);
  EXPECT_EQ(dog.thresholds(0).slow_distance, 0.02);
  EXPECT_EQ(dog.thresholds(0).stop_distance, 0.01);
}

// A slow-down held on a channel whose clearance then holds steady (a move
// along a wall, a wrist rolling beside its hand) is raised by doubling once
// a whole horizon has passed without a fall, never above the ramp of the
// clearance (closed form): it does not crawl for ever.
TEST(Watchdog, AHeldSlowDownResumesOnlyAfterAHorizonWithoutAFall) {
  const ClearancesFn gap = [](std::span<const double> q, std::span<double> out) { out[0] = q[0]; };
  const WatchdogOptions o;
  Watchdog dog(1, 1, gap, o);
  const double period = 0.032;
  double t = 0.0, x = 0.3;
  WatchdogState s;
  // Closing in at 0.2 m/s times the factor, until held below 6 cm.
  for (; x > 0.06; t += period) {
    s = dog.update({t, {x}});
    x -= 0.2 * s.speed_factor * period;
  }
  ASSERT_EQ(s.level, WatchdogLevel::slow);
  const double ramp = std::sin(std::numbers::pi / 2 * (x - o.stop_distance) / (o.slow_distance - o.stop_distance));
  // The last fall shows at the next sample: holding steady from there.
  const double since = t;
  double held = -1.0;
  int raised_at = -1;
  for (int k = 0; k < 60; ++k, t += period) {
    s = dog.update({t, {x}});
    EXPECT_LE(s.speed_factor, ramp + 1e-12) << k;
    // The first samples still fit the approach (which may raise the factor
    // to the ramp of the predicted clearance); held from the first that
    // reads the slider as still.
    if (s.model != MotionModel::stationary) continue;
    if (held < 0.0) held = s.speed_factor;
    if (t - since < o.horizon - 1e-9) {
      EXPECT_EQ(s.speed_factor, held) << k;
    } else if (raised_at < 0) {
      raised_at = k;
      EXPECT_GT(s.speed_factor, held) << k;
    }
  }
  EXPECT_LT(held, ramp - 0.05);
  ASSERT_GE(raised_at, 0);
  EXPECT_NEAR(s.speed_factor, ramp, 1e-12);
}

TEST(Watchdog, BadOptionsAreNamed) {
  const ClearanceFn ok = [](std::span<const double>) { return 1.0; };
  robot_test::expect_error([] { Watchdog(2, ClearanceFn{}); }, {"no clearance function"});
  robot_test::expect_error([&] { Watchdog(2, ok, {.stop_distance = 0.2, .slow_distance = 0.1}); },
                           {"stop_distance < slow_distance"});
  robot_test::expect_error([&] { Watchdog(2, ok, {.horizon = -1.0}); }, {"horizon"});
  robot_test::expect_error([&] { Watchdog(2, ok, {.path_steps = 0}); }, {"path_steps"});
  robot_test::expect_error([&] { Watchdog(2, ok, {.stale_after = 0.5, .stop_after = 0.4}); }, {"stale_after"});
  robot_test::expect_error([&] { Watchdog(2, ok, {.stop_factor = 1.0}); }, {"stop_factor"});
  robot_test::expect_error([&] { Watchdog(2, ok, {.stop_factor = 0.0}); }, {"stop_factor"});
  robot_test::expect_error([&] { Watchdog(2, ok, {.stop_factor = -0.1}); }, {"stop_factor"});
  robot_test::expect_error([&] { Watchdog(0, ok); }, {"at least one joint"});
  robot_test::expect_error([&] { Watchdog(2, ok, {.channels = {{}, {}}}); }, {"2 channel thresholds for 1 channels"});
  robot_test::expect_error(
      [&] { Watchdog(2, ok, {.channels = {{.stop_distance = 0.1, .slow_distance = 0.05, .warn_distance = 0.2}}}); },
      {"channel 0", "stop_distance < slow_distance"});
  robot_test::expect_error([&] { Watchdog(2, ok, {.channels = {{.warn_distance = 0.05}}}); },
                           {"channel 0", "slow_distance ≤ warn_distance"});
  robot_test::expect_error([] { stop_band(WatchdogOptions{.stop_factor = 2.0}); }, {"stop_factor"});
  robot_test::expect_error([] { stop_band({.stop_distance = -1.0}, WatchdogOptions{}); }, {"stop_distance"});
  Watchdog dog(2, ok);
  robot_test::expect_error([&] { dog.update({0.0, {1.0, 2.0, 3.0}}); }, {"3 joint values"});
}

}  // namespace
}  // namespace proxima::robot
