// SPDX-License-Identifier: BSD-3-Clause
// The watchdog's automatic mode on a two-joint robot whose clearance is a
// closed form (a wall at q0 = w in joint space: clearance w − q0), so that
// every located time, deviation, predicted clearance and crossing time has
// an answer by hand: programs and their validation (program.hpp), the
// follower (program_follower.hpp) as the watchdog's path provider.
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/program.hpp>
#include <proxima/robot/program_follower.hpp>
#include <proxima/robot/watchdog.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace program_test {

using robot_test::expect_error;

JointLimits two_joints() { return {{-3.0, -3.0}, {3.0, 3.0}, {"shoulder", "elbow"}}; }

ProgramRequest waypoints(std::vector<ProgramWaypoint> w) {
  ProgramRequest r;
  r.waypoints = std::move(w);
  return r;
}

// The wall at q0 = w: the clearance is w − q0.
ClearanceFn wall(double w) {
  return [w](std::span<const double> q) { return w - q[0]; };
}

TEST(Program, ValidationNamesTheFieldAndTheReason) {
  const JointLimits l = two_joints();
  const std::vector<double> here{0.0, 0.0};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto make = [&](const ProgramRequest& r) { return [r, &l, &here] { JointProgram p(r, here, l); }; };
  expect_error(make({}), {"waypoints", "at least one"});
  expect_error(make(waypoints({{0.0, {0.0, 0.0}}, {1.0, {0.0, 0.1}}, {1.0, {0.0, 0.2}}})),
               {"waypoints[2].t", "must be after waypoints[1].t"});
  expect_error(make(waypoints({{0.0, {0.0, 0.0}}, {0.5, {0.0, 0.1}}, {0.2, {0.0, 0.2}}})), {"waypoints[2].t"});
  expect_error(make(waypoints({{nan, {0.0, 0.0}}})), {"waypoints[0].t", "not a finite"});
  expect_error(make(waypoints({{0.0, {0.0, 0.0}}, {1.0, {0.0}}})), {"waypoints[1].q", "has 1 values", "2 joints"});
  expect_error(make(waypoints({{0.0, {0.0, nan}}})), {"waypoints[0].q[1] (elbow)", "not a finite"});
  expect_error(make(waypoints({{0.0, {0.0, 0.0}}, {1.0, {3.5, 0.0}}})),
               {"waypoints[1].q[0] (shoulder)", "3.5", "outside the joint's limits"});
  ProgramRequest both = waypoints({{0.0, {0.0, 0.0}}});
  both.to = {1.0, 1.0};
  both.speed = 1.0;
  expect_error(make(both), {"either", "not both"});
  ProgramRequest to;
  to.to = {1.0, 1.0};
  expect_error(make(to), {"speed", "> 0"});
  to.speed = -1.0;
  expect_error(make(to), {"speed", "-1"});
  to.speed = std::numeric_limits<double>::infinity();
  expect_error(make(to), {"speed"});
  to.speed = 1.0;
  to.to = {1.0};
  expect_error(make(to), {"to", "has 1 values"});
  to.to = {1.0, -4.0};
  expect_error(make(to), {"to[1] (elbow)", "outside"});
  ProgramRequest speed_only;
  speed_only.speed = 1.0;
  expect_error(make(speed_only), {"to", "missing"});
  // A follower refuses a bad program when it is set, not at the next sample.
  ProgramFollower follower(1, l, {});
  expect_error([&] { follower.set(both); }, {"program:", "not both"});
  EXPECT_FALSE(follower.active());
  expect_error([&] { ProgramFollower(1, l, {}, {.tolerance = 0.0, .fallback = 1.0}); }, {"tolerance"});
  expect_error([&] { ProgramFollower(1, l, {}, {.tolerance = 0.1, .fallback = 0.05}); }, {"fallback"});
}

TEST(Program, ASegmentTakesTheTimeOfItsLongestJointMove) {
  const JointLimits l = two_joints();
  ProgramRequest r;
  r.to = {1.0, -0.5};
  r.speed = 0.5;
  const JointProgram p(r, std::vector<double>{0.0, 0.0}, l);
  ASSERT_EQ(p.waypoints().size(), 2u);
  EXPECT_EQ(p.start_time(), 0.0);
  EXPECT_DOUBLE_EQ(p.end_time(), 2.0);  // 1 rad at 0.5 rad/s; the elbow's 0.5 rad is scaled to arrive with it
  const std::vector<double> mid = p.at(1.0);
  EXPECT_DOUBLE_EQ(mid[0], 0.5);
  EXPECT_DOUBLE_EQ(mid[1], -0.25);
  EXPECT_EQ(p.at(5.0), r.to);
  // Already at the target: standing still.
  const JointProgram still(r, r.to, l);
  EXPECT_EQ(still.waypoints().size(), 1u);
  EXPECT_EQ(still.at(3.0), r.to);
}

TEST(Program, LocatesTheClosestPointAndWalksThroughADwellAsExpected) {
  const JointProgram p(waypoints({{0.0, {0.0, 0.0}}, {1.0, {1.0, 0.0}}, {2.0, {1.0, 0.0}}, {3.0, {1.0, 1.0}}}), {},
                       two_joints());
  const std::vector<double> beside{0.5, 0.2};
  JointProgram::Location at = p.locate(beside, 0.0, 3.0, 0.0);
  EXPECT_DOUBLE_EQ(at.t, 0.5);
  EXPECT_DOUBLE_EQ(at.deviation, 0.2);
  // In the dwell every time from 1 to 2 is as close: the expected one.
  const std::vector<double> corner{1.0, 0.0};
  at = p.locate(corner, 0.0, 3.0, 1.7);
  EXPECT_DOUBLE_EQ(at.t, 1.7);
  EXPECT_EQ(at.deviation, 0.0);
  // Only the times allowed: the robot cannot be past t = 0.5 yet.
  const std::vector<double> ahead{0.9, 0.0};
  at = p.locate(ahead, 0.0, 0.5, 0.5);
  EXPECT_DOUBLE_EQ(at.t, 0.5);
  EXPECT_NEAR(at.deviation, 0.4, 1e-15);
  // The last leg: (1, 0.25) is at t = 2.25.
  const std::vector<double> up{1.1, 0.25};
  at = p.locate(up, 0.0, 3.0, 0.0);
  EXPECT_DOUBLE_EQ(at.t, 2.25);
  EXPECT_NEAR(at.deviation, 0.1, 1e-15);
}

// A program driven by an obedient controller: the program clock advances by
// the speed factor times each period.
struct ProgramRun {
  std::vector<WatchdogState> states;
  double tau = 0.0;
};

ProgramRun drive(Watchdog& dog, const JointProgram& p, double period, int samples) {
  ProgramRun run;
  double t = 0.0;
  for (int k = 0; k < samples; ++k, t += period) {
    run.states.push_back(dog.update({t, p.at(run.tau)}));
    run.tau += run.states.back().speed_factor * period;
  }
  return run;
}

TEST(ProgramWatchdog, AProgramClearOfTheWallNeverSlows) {
  // Towards the wall at q0 = 1 but no nearer than 0.3 (beyond warn_distance
  // 0.2), then along it.
  const JointLimits l = two_joints();
  const ProgramRequest r = waypoints({{0.0, {0.0, 0.0}}, {1.0, {0.7, 0.0}}, {2.0, {0.7, 1.0}}});
  Watchdog dog(2, wall(1.0));
  const auto follower = follow_programs(dog, l);
  follower->set(r);
  const JointProgram p(r, {}, l);
  const ProgramRun run = drive(dog, p, 0.032, 80);
  EXPECT_GE(run.tau, 2.0);  // ran to its end at full speed
  for (const WatchdogState& s : run.states) {
    EXPECT_EQ(s.level, WatchdogLevel::clear);
    EXPECT_EQ(s.speed_factor, 1.0);
    EXPECT_TRUE(s.programmed);
    EXPECT_FALSE(s.off_program);
    EXPECT_NEAR(s.deviation, 0.0, 1e-12);
    EXPECT_GE(s.predicted_clearance, 0.3 - 1e-12);
  }
}

TEST(ProgramWatchdog, ATurnIntoTheWallIsSeenBeforeTheFeedShowsIt) {
  // Along q1 first (the clearance does not change), then at t = 0.3 into the
  // wall at q0 = 0.3. At t = 0.096 the feed shows a motion along the wall;
  // the program knows the turn: half a second on (program time 0.596) q0 is
  // 0.296, and q0 = 0.29 (the stop distance) is reached at program time 0.59.
  const JointLimits l = two_joints();
  const ProgramRequest r = waypoints({{0.0, {0.0, 0.0}}, {0.3, {0.0, 0.3}}, {1.3, {1.0, 0.3}}});
  const JointProgram p(r, {}, l);
  Watchdog manual(2, wall(0.3)), automatic(2, wall(0.3));
  follow_programs(automatic, l)->set(r);
  WatchdogState m, a;
  for (int k = 0; k < 4; ++k) {
    const double t = 0.032 * k;
    m = manual.update({t, p.at(t)});
    a = automatic.update({t, p.at(t)});
    // Half a second on from the start the program is 0.1 from the wall:
    // the top of the slow ramp.
    if (k == 0) {
      EXPECT_GT(a.speed_factor, 0.999);
    }
  }
  EXPECT_EQ(m.level, WatchdogLevel::clear);
  EXPECT_EQ(m.speed_factor, 1.0);
  EXPECT_DOUBLE_EQ(m.predicted_clearance, 0.3);
  EXPECT_TRUE(a.programmed);
  EXPECT_DOUBLE_EQ(a.program_time, 0.096);
  EXPECT_NEAR(a.predicted_clearance, 0.3 - 0.296, 1e-12);
  EXPECT_NEAR(a.time_to_stop_distance, 0.59 - 0.096, 1e-12);
  EXPECT_TRUE(a.approaching);
  EXPECT_EQ(a.level, WatchdogLevel::stop);  // predicted below stop_distance: the ramp is 0
}

TEST(ProgramWatchdog, ASampleOffTheProgramIsFlaggedAndFarOffFallsBackToThePrediction) {
  const JointLimits l = two_joints();
  const ProgramRequest r = waypoints({{0.0, {0.0, 0.0}}, {2.0, {0.0, 2.0}}});
  Watchdog dog(2, wall(1.0));
  const auto follower = follow_programs(dog, l, {.tolerance = 0.05, .fallback = 0.2});
  follower->set(r);
  // On the program, then 0.03 beside it (within the tolerance), 0.1 beside
  // it (off), 0.5 (beyond the fallback), and back on it.
  const double offsets[] = {0.0, 0.03, 0.1, 0.5, 0.0};
  const bool off[] = {false, false, true, true, false};
  const bool programmed[] = {true, true, true, false, true};
  for (int k = 0; k < 5; ++k) {
    const double t = 0.032 * k;
    const WatchdogState s = dog.update({t, {-offsets[k], t}});
    EXPECT_NEAR(s.deviation, offsets[k], 1e-12) << k;
    EXPECT_NEAR(s.program_time, t, 1e-12) << k;
    EXPECT_EQ(s.off_program, off[k]) << k;
    EXPECT_EQ(s.programmed, programmed[k]) << k;
    // Off the program is at least a warning, though the wall is far.
    EXPECT_EQ(s.level, off[k] ? WatchdogLevel::warn : WatchdogLevel::clear) << k;
  }
  // Cleared: the manual mode, no deviation.
  follower->clear();
  const WatchdogState s = dog.update({0.2, {0.0, 0.2}});
  EXPECT_FALSE(s.programmed);
  EXPECT_TRUE(std::isnan(s.deviation));
  EXPECT_FALSE(s.off_program);
}

TEST(ProgramWatchdog, ASegmentSetWhileRunningStartsAtTheNextSample) {
  const JointLimits l = two_joints();
  Watchdog dog(2, wall(1.0));
  const auto follower = follow_programs(dog, l);
  EXPECT_FALSE(dog.update({0.0, {0.2, 0.1}}).programmed);
  ProgramRequest r;
  r.to = {0.6, 0.1};
  r.speed = 0.5;
  follower->set(r);
  EXPECT_TRUE(follower->active());
  // From (0.2, 0.1): 0.4 rad at 0.5 rad/s, 0.8 s; the next sample is its start.
  const WatchdogState s = dog.update({0.032, {0.2, 0.1}});
  ASSERT_TRUE(follower->program().has_value());
  EXPECT_DOUBLE_EQ(follower->program()->end_time(), 0.8);
  EXPECT_TRUE(s.programmed);
  EXPECT_EQ(s.program_time, 0.0);
  EXPECT_EQ(s.deviation, 0.0);
  // Half a second on at full rate: q0 = 0.45, clearance 0.55.
  EXPECT_NEAR(s.predicted_clearance, 0.55, 1e-12);
  EXPECT_TRUE(s.approaching);
}

// A continuous check (here by hand: a thin wall at q0 = 0.3, clearance
// |0.3 − q0|, within stop_distance from q0 = 0.29) gives the crossing the
// point beyond the wall misses; one that cannot answer stops the robot,
// never a NaN.
TEST(ProgramWatchdog, TheContinuousCheckGivesTheCrossingAndOneThatCannotAnswerStops) {
  const JointLimits l = two_joints();
  const ProgramRequest r = waypoints({{0.0, {0.0, 0.0}}, {1.0, {1.0, 0.0}}});
  SegmentCheckFn wall_check = [](std::span<const double> q0, std::span<const double> q1, double clearance) {
    SegmentCrossing c;
    const double at = 0.3 - clearance;  // q0 where the clearance 0.3 − q0 falls to `clearance`
    if (q1[0] > at && q0[0] <= at) {
      c.found = true;
      c.s = (at - q0[0]) / (q1[0] - q0[0]);
      c.distance = clearance;
    }
    return c;
  };
  WatchdogOptions one_point;
  one_point.path_steps = 1;  // the point half a second on: q0 = 0.5, 0.2 beyond the wall
  const ClearanceFn thin = [](std::span<const double> q) { return std::abs(0.3 - q[0]); };
  Watchdog blind(2, thin, one_point), dog(2, thin, one_point);
  follow_programs(blind, l)->set(r);
  follow_programs(dog, l, {}, wall_check)->set(r);
  const WatchdogState b0 = blind.update({0.0, {0.0, 0.0}});
  EXPECT_TRUE(std::isinf(b0.time_to_stop_distance));
  EXPECT_NEAR(b0.predicted_clearance, 0.2, 1e-12);
  EXPECT_EQ(b0.speed_factor, 1.0);  // as far as the point tells, nothing within slow_distance
  const WatchdogState s = dog.update({0.0, {0.0, 0.0}});
  EXPECT_NEAR(s.time_to_stop_distance, 0.29, 1e-12);  // program time = wall time at full rate
  EXPECT_NEAR(s.predicted_clearance, 0.01, 1e-12);
  EXPECT_EQ(s.level, WatchdogLevel::stop);

  Watchdog broken(2, wall(0.3));
  follow_programs(broken, l, {}, [](std::span<const double>, std::span<const double>, double) {
    SegmentCrossing c;
    c.status = Status::invalid_input;
    c.message = "no answer";
    return c;
  })->set(r);
  const WatchdogState b = broken.update({0.0, {0.0, 0.0}});
  EXPECT_EQ(b.status, Status::invalid_input);
  EXPECT_EQ(b.level, WatchdogLevel::stop);
  EXPECT_EQ(b.speed_factor, 0.0);
  EXPECT_FALSE(std::isnan(b.clearance));
}

}  // namespace program_test
}  // namespace proxima::robot
