// SPDX-License-Identifier: BSD-3-Clause
// The automatic mode on the Franka Panda: a program that swings the arm
// about its base through a 4 mm plate standing between two of the points
// the watchdog checks, so that checking the points alone misses it. The
// continuous check (scene_segment_check) finds it; the program run by a
// simulated controller at the watchdog's speed factor stops before it.
// Judged by the links' hull vertices against the plate's corners (the
// Minkowski oracle of closed_loop.hpp), not by the scene checker.
#include <cmath>
#include <cstdio>
#include <numbers>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/program_follower.hpp>
#include <proxima/robot/scene_watchdog.hpp>

#include "closed_loop.hpp"
#include "robot_test_support.hpp"

namespace proxima::robot {
namespace program_panda_test {

constexpr double kPi = std::numbers::pi;
constexpr double kPlateYaw = 0.0;  // the plate's bearing about the base

const SceneChecker& panda() {
  static const SceneChecker checker = robot_test::panda_checker(MeshMode::convex_hull);
  return checker;
}

// A vertical plate 4 mm thick, standing radially at bearing kPlateYaw from
// 0.45 m to 0.95 m off the base axis, 1.2 m high: the arm reaching out
// (pose) cannot swing past it about its base.
Environment plate_cell() {
  Environment env;
  const double c = std::cos(kPlateYaw / 2), s = std::sin(kPlateYaw / 2);
  const Vec3 at(0.7 * std::cos(kPlateYaw), 0.7 * std::sin(kPlateYaw), 0.6);
  env.add("plate", Box(Vec3(0.5, 0.004, 1.2)), Transform::from_quaternion(c, 0.0, 0.0, s, at));
  return env;
}

// The arm reaching out (0.68 m from the base axis) at bearing `yaw`: it
// meets the plate from bearing −0.25 to 0.15 rad, and is 89 mm from it at
// ±0.5 rad.
std::vector<double> pose(double yaw) {
  std::vector<double> q{yaw, 0.3, 0.0, -1.2, 0.0, 1.5, kPi / 4, 0.04};
  q.resize(panda().model().variable_count(), 0.0);
  return q;
}

ProgramRequest swing(double from, double to, double speed) {
  ProgramRequest r;
  r.waypoints = {{0.0, pose(from)}, {std::abs(to - from) / speed, pose(to)}};
  return r;
}

// Two points checked, one and two seconds ahead: a full-speed swing of
// 1 rad/s puts them a radian apart.
WatchdogOptions sparse() {
  WatchdogOptions o;
  o.horizon = 2.0;
  o.path_steps = 2;
  return o;
}

struct Cell {
  Environment env = plate_cell();
  SceneClearances channels = scene_clearances(panda(), env);
  std::vector<closed_loop::BoxObstacle> boxes = closed_loop::boxes_of(env);
  double exact(std::span<const double> q) const { return closed_loop::independent_clearance(panda(), q, boxes, 0.05); }
};

TEST(ProgramPanda, AThinPlateBetweenThePathPointsIsFoundByTheContinuousCheck) {
  const Cell cell;
  const ProgramRequest program = swing(-1.5, 1.0, 1.0);
  const JointProgram p(program, {}, joint_limits(panda().model()));
  // The truth: the points checked from the start (bearings −0.5 and +0.5)
  // are clear of the plate, the swing between them passes through it.
  const WatchdogOptions o = sparse();
  EXPECT_GT(cell.exact(p.at(1.0)), o.stop_distance + 0.01);
  EXPECT_GT(cell.exact(p.at(2.0)), o.stop_distance + 0.01);
  double deepest = 1.0;
  for (int k = 0; k <= 200; ++k) deepest = std::min(deepest, cell.exact(p.at(1.0 + k / 200.0)));
  ASSERT_LT(deepest, 0.0) << "the swing does not pass through the plate";

  // With the points alone the first sample sees nothing within stop_distance.
  Watchdog points_only(p.dof(), cell.channels.channels, cell.channels.fn, o);
  follow_programs(points_only, joint_limits(panda().model()))->set(program);
  const WatchdogState blind = points_only.update({0.0, p.at(0.0)});
  EXPECT_TRUE(blind.programmed);
  EXPECT_TRUE(std::isinf(blind.time_to_stop_distance));
  EXPECT_GT(blind.predicted_clearance, o.stop_distance);

  // The continuous check finds the plate: a stop, and the time it gives is
  // where the arm comes within stop_distance of it.
  Watchdog dog(p.dof(), cell.channels.channels, cell.channels.fn, o);
  follow_programs(dog, joint_limits(panda().model()), {}, scene_segment_check(panda(), cell.env, cell.channels))
      ->set(program);
  const WatchdogState s = dog.update({0.0, p.at(0.0)});
  ASSERT_EQ(s.status, Status::ok);
  EXPECT_TRUE(s.programmed);
  EXPECT_EQ(s.level, WatchdogLevel::stop);
  EXPECT_EQ(s.speed_factor, 0.0);
  EXPECT_EQ(cell.channels.names.at(static_cast<std::size_t>(s.channel)), "plate");
  EXPECT_LE(s.predicted_clearance, o.stop_distance + 1e-4);
  ASSERT_TRUE(std::isfinite(s.time_to_stop_distance));
  // Full rate at the first sample: program time = wall time.
  const double crossing = s.time_to_stop_distance;
  EXPECT_GT(crossing, 1.0);
  EXPECT_LT(crossing, 2.0);
  const double there = cell.exact(p.at(crossing));
  EXPECT_GE(there, o.stop_distance - 1e-6);
  EXPECT_LE(there, o.stop_distance + 2e-4);
  // And nothing closer before it (dense samples of the program).
  for (int k = 0; k < 100; ++k) EXPECT_GT(cell.exact(p.at(crossing * k / 100.0)), o.stop_distance) << k;
  std::printf("plate crossing %.4f s after the start, %.3f mm from the plate there\n", crossing, 1e3 * there);
}

TEST(ProgramPanda, ClosedLoopTheProgramStopsBeforeThePlate) {
  const Cell cell;
  const ProgramRequest program = swing(-1.5, 1.0, 1.0);
  const JointLimits limits = joint_limits(panda().model());
  const JointProgram p(program, {}, limits);
  // The bound (watchdog.hpp): the swing's speed times the base joint's reach.
  const double v = 1.0 * closed_loop::reach(panda(), p.at(0.0), 0);
  struct Case {
    int delay;
    double period;
    bool sparse;  ///< the two points a radian apart, else the default ten over half a second
  };
  // Those whose bound is above 0 (at the longest jittered period).
  // The sanitizer run takes the first.
  const std::vector<Case> cases =
      testing::reduced_run() ? std::vector<Case>{Case{0, 0.008, true}}
                             : std::vector<Case>{Case{0, 0.008, true}, Case{0, 0.008, false}, Case{1, 0.004, false}};
  for (const Case k : cases) {
    const WatchdogOptions o = k.sparse ? sparse() : WatchdogOptions{};
    Watchdog dog(p.dof(), cell.channels.channels, cell.channels.fn, o);
    follow_programs(dog, limits, {}, scene_segment_check(panda(), cell.env, cell.channels))->set(program);
    testing::Rng rng(7);
    const closed_loop::Controller ctl{.period = k.period, .jitter = 0.25, .delay = k.delay};
    auto exact = [&](std::span<const double> q) { return cell.exact(q); };
    const closed_loop::RunResult r = closed_loop::run_program(
        dog, [&](double tau) { return p.at(tau); }, 0.0, p.end_time(), ctl, rng, exact);
    const double bound = o.stop_distance - (1 + k.delay) * v * r.longest_interval;
    std::printf(
        "%s, delay %d, period %.0f ms: stopped %d after %.2f s (%d samples) at bearing %.4f, clearance %.2f mm "
        "(lowest %.2f, bound %.2f)\n",
        k.sparse ? "sparse" : "default", k.delay, 1e3 * k.period, r.stopped, r.time, r.samples, r.q[0],
        1e3 * r.final_clearance, 1e3 * r.lowest, 1e3 * bound);
    ASSERT_GT(bound, 0.0);
    EXPECT_TRUE(r.stopped) << "the program ran on: at its end " << r.at_limit << ", gave up " << r.gave_up;
    EXPECT_TRUE(r.held);
    EXPECT_EQ(r.last.speed_factor, 0.0);
    EXPECT_EQ(cell.channels.names.at(static_cast<std::size_t>(r.last.channel)), "plate");
    EXPECT_LT(r.q[0], -0.25) << "past the plate's first contact";
    EXPECT_GE(r.lowest, bound);
    EXPECT_GE(r.final_clearance, bound);
    // Not stopped uselessly far: within the slow-down distance of the plate.
    EXPECT_LT(r.final_clearance, o.slow_distance);
  }
}

TEST(ProgramPanda, AProgramClearOfThePlateNeverSlows) {
  const Cell cell;
  // Towards the plate, ending a radian short of it: by the oracle never
  // within warn_distance.
  const ProgramRequest program = swing(-1.6, -1.1, 1.0);
  const JointLimits limits = joint_limits(panda().model());
  const JointProgram p(program, {}, limits);
  const WatchdogOptions o;
  for (int k = 0; k <= 100; ++k) ASSERT_GT(cell.exact(p.at(p.end_time() * k / 100.0)), o.warn_distance) << k;
  Watchdog dog(p.dof(), cell.channels.channels, cell.channels.fn, o);
  follow_programs(dog, limits, {}, scene_segment_check(panda(), cell.env, cell.channels))->set(program);
  double tau = 0.0;
  for (double t = 0.0; tau < p.end_time() + 0.1; t += 0.032) {
    const WatchdogState s = dog.update({t, p.at(tau)});
    ASSERT_EQ(s.status, Status::ok);
    EXPECT_TRUE(s.programmed);
    EXPECT_EQ(s.level, WatchdogLevel::clear) << t;
    EXPECT_EQ(s.speed_factor, 1.0) << t;
    EXPECT_TRUE(std::isinf(s.time_to_stop_distance)) << t;
    tau += s.speed_factor * 0.032;
  }
}

TEST(ProgramPanda, SegmentCheckRefusesChannelsOfAnotherEnvironment) {
  const Cell cell;
  Environment two = cell.env;
  two.add("box", Box(Vec3(0.1, 0.1, 0.1)), Transform::from_translation(Vec3(0.0, 0.8, 0.3)));
  robot_test::expect_error([&] { scene_segment_check(panda(), two, cell.channels); }, {"another environment"});
}

}  // namespace program_panda_test
}  // namespace proxima::robot
