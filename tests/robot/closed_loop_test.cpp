// SPDX-License-Identifier: BSD-3-Clause
// The watchdog's closed-loop guarantee (watchdog.hpp) on a seeded sample of
// random joint jogs: the Panda and the UR5 in their MotionBenchMaker cage
// (eight boxes), jogs of one joint at 0.05–2 rad/s towards a wall, sample
// periods of 4–32 ms with ±25 % jitter, the answer applied at once or one
// sample late, with and without a tool for the Cartesian model; each run
// until the motion stops. Judged by the links' geometry against the boxes
// (tests/closed_loop/closed_loop.hpp: separating axes, then the Minkowski
// oracle), not by the scene checker that feeds the watchdog: no contact,
// and nothing closer than
// stop_distance − (1 + delay)·V·T, V the jog's speed times the joint's reach.
// A run's "lowest" is exact below stop_distance and a lower bound above it;
// its final clearance is exact.
// PROXIMA_CLOSED_LOOP_RUNS sets the number of runs per robot and tool (default 3).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/scene_watchdog.hpp>
#include <proxima/robot/urdf.hpp>

#include "closed_loop.hpp"
#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;

Environment loop_scene(const std::string& robot, const std::string& name) {
  Environment env = read_planning_scene(robot_test::robots_dir() / robot / "scenes" / (name + ".yaml")).environment;
  for (const EnvironmentObject& o : env.objects) {
    const auto* s = std::get_if<Shape>(&o.geometry);
    EXPECT_TRUE(s && s->type() == ShapeType::box) << o.name;
  }
  return env;
}

int loop_runs() {
  const char* n = std::getenv("PROXIMA_CLOSED_LOOP_RUNS");
  return n != nullptr ? std::max(1, std::atoi(n)) : testing::reduced_run() ? 1 : 3;
}

struct LoopStats {
  std::vector<double> stop_clearance, time_to_stop;
  int contacts = 0, violations = 0, stops = 0, limits = 0;
};

// `runs` jogs of the robot of `checker` (its elements boxes or hulls)
// among the boxes of `env`; returns how many it ran (a robot for which no
// start and jog towards a box turn up in 2,000 draws runs none). Every run
// keeps the guaranteed bound; with `never_touch`, none makes contact
// either, else only those whose bound is above 0 (a jog so fast that two
// periods cover more than stop_distance may touch within the bound).
int campaign(const SceneChecker& checker, const Environment& env, const std::string& robot,
             const std::vector<std::size_t>& arm, const char* tool, unsigned seed, int runs, bool never_touch) {
  const RobotModel& model = checker.model();
  const closed_loop::IndependentRobot judge(checker);
  const std::vector<closed_loop::Obstacle> boxes = closed_loop::obstacles_of(env);
  WatchdogOptions o;
  const SceneClearances channels = watched_channels(checker, env, o);
  const std::size_t dof = model.variable_count();
  std::vector<double> lower(dof), upper(dof);
  for (std::size_t j = 0; j < dof; ++j) {
    const Joint& jt = model.joint(model.variable_joint(j));
    lower[j] = jt.lower;
    upper[j] = jt.upper;
  }
  Rng rng(seed);
  LoopStats stats;
  int ran = 0;
  for (int run = 0; run < runs; ++run) {
    // A start clear of the cage (≥ 3 cm by the oracle) and of itself, and a
    // jog of one arm joint that would reach a wall within 1 rad.
    std::vector<double> q(dof), velocity(dof, 0.0);
    std::size_t joint = 0;
    double sign = 1.0;
    bool found = false;
    for (int draw = 0; draw < 2000 && !found; ++draw) {
      for (std::size_t j = 0; j < dof; ++j) q[j] = rng.uniform(lower[j], upper[j]);
      joint = arm[static_cast<std::size_t>(rng.uniform(0.0, static_cast<double>(arm.size())))];
      sign = rng.uniform(0.0, 1.0) < 0.5 ? -1.0 : 1.0;
      const RobotState s = checker.state(q);
      if (checker.self_collision(s).collide() || checker.environment_distance(s, env).distance < 0.03) continue;
      if (judge.clearance(q, boxes, 0.05) < 0.03) continue;
      bool hits = false;
      std::vector<double> x = q;
      for (int k = 1; k <= 100 && !hits; ++k) {
        x[joint] = q[joint] + sign * 0.01 * k;
        if (x[joint] < lower[joint] || x[joint] > upper[joint]) break;
        hits = checker.environment_collision(checker.state(x), env).collide();
      }
      found = hits;
    }
    if (!found) break;
    ++ran;
    const double rate = 0.05 * std::pow(40.0, rng.uniform(0.0, 1.0));  // log-uniform 0.05–2 rad/s
    velocity[joint] = sign * rate;
    closed_loop::Controller ctl;
    ctl.period = rng.uniform(0.004, 0.032);
    ctl.jitter = 0.25;
    ctl.delay = rng.uniform(0.0, 1.0) < 0.5 ? 0 : 1;
    ctl.give_up = 300.0;
    Watchdog dog(dof, channels.channels, channels.fn, o, {},
                 tool != nullptr ? link_kinematics(model, tool) : ToolKinematics{});
    const closed_loop::Jog jog = [&velocity](std::span<const double>, std::span<double> out) {
      std::copy(velocity.begin(), velocity.end(), out.begin());
      return true;
    };
    // Exact (the oracle) below the stop distance, where the assertions
    // look; a lower bound above it. The final clearance exactly.
    closed_loop::RunResult r = closed_loop::run(dog, q, jog, lower, upper, ctl, rng, judge, boxes, o.stop_distance,
                                                 o.stop_distance);
    r.final_clearance = judge.clearance(r.q, boxes, 0.05);
    // A jog of one joint: V is its rate times the joint's reach, which the
    // turn about that joint's own axis does not change.
    std::vector<std::vector<Vec3>> elements;
    judge.element_vertices(q, elements);
    const double v = rate * judge.reaches(q, elements, velocity)[joint];
    EXPECT_GE(r.speed_bound, v * (1 - 1e-9)) << "the run's own speed bound is below the jog's";
    const double bound = o.stop_distance - (1 + ctl.delay) * v * r.longest_interval;
    const std::string what = robot + (tool != nullptr ? " with tool" : "") + " run " + std::to_string(run) +
                             ": joint " + std::to_string(joint) + " at " + std::to_string(sign * rate) +
                             " rad/s, period " + std::to_string(ctl.period) + " s, delay " +
                             std::to_string(ctl.delay) + ", bound " + std::to_string(bound) + " m";
    std::printf("  %s: %s after %.2f s (%d samples) on channel %s, lowest %.2f mm, final %.2f mm\n", what.c_str(),
                r.stopped ? "stopped" : r.at_limit ? "at a joint limit" : "still moving", r.time, r.samples,
                channels.names[static_cast<std::size_t>(r.last.channel)].c_str(), 1e3 * r.lowest,
                1e3 * r.final_clearance);
    EXPECT_FALSE(r.gave_up) << what;
    if (never_touch || bound > 0.0) {
      EXPECT_GT(r.lowest, 0.0) << what << ": contact";
    }
    EXPECT_GE(r.lowest, bound) << what << ": closer than the guaranteed bound";
    if (r.stopped) {
      EXPECT_TRUE(r.held) << what;
    }
    stats.contacts += r.lowest <= 0.0;
    stats.violations += r.lowest < bound;
    stats.limits += r.at_limit;
    if (r.stopped) {
      ++stats.stops;
      stats.stop_clearance.push_back(r.final_clearance);
      stats.time_to_stop.push_back(r.time);
    }
  }
  auto quantiles = [](std::vector<double> x, double scale) {
    if (x.empty()) return std::string("-");
    std::sort(x.begin(), x.end());
    auto at = [&](double f) { return scale * x[static_cast<std::size_t>(f * static_cast<double>(x.size() - 1))]; };
    char buf[128];
    std::snprintf(buf, sizeof buf, "min %.2f, median %.2f, max %.2f", at(0.0), at(0.5), at(1.0));
    return std::string(buf);
  };
  std::printf("%s%s: %d runs, %d stops, %d at a joint limit, %d contacts, %d below the bound; stop clearance (mm) %s; "
              "time to stop (s) %s\n",
              robot.c_str(), tool != nullptr ? " with tool" : "", ran, stats.stops, stats.limits, stats.contacts,
              stats.violations, quantiles(stats.stop_clearance, 1e3).c_str(), quantiles(stats.time_to_stop, 1.0).c_str());
  return ran;
}

// A shipped robot in its cage: every run finds its start and jog.
void shipped_campaign(const std::string& robot, const std::vector<std::size_t>& arm, const char* tool,
                      unsigned seed) {
  const SceneChecker checker = robot_test::shipped_checker(robot, MeshMode::convex_hull);
  EXPECT_EQ(campaign(checker, loop_scene(robot, "cage_scene0001"), robot, arm, tool, seed, loop_runs(), true),
            loop_runs());
}

TEST(ClosedLoop, RandomPandaJogsStopClearOfTheCage) {
  shipped_campaign("panda", {0, 1, 2, 3, 4, 5, 6}, nullptr, 11);
  shipped_campaign("panda", {0, 1, 2, 3, 4, 5, 6}, "panda_hand", 12);
}

TEST(ClosedLoop, RandomUr5JogsStopClearOfTheCage) {
  shipped_campaign("ur5", {0, 1, 2, 3, 4, 5}, nullptr, 21);
  shipped_campaign("ur5", {0, 1, 2, 3, 4, 5}, "tool0", 22);
}

// Random robots of boxes (robot_test::random_robot_urdf: prismatic and
// mimic joints about odd axes, a branch, fixed links in mid-chain; the
// pairs that often touch allowed, as an SRDF does) among random boxes
// within their reach, jogging any of their joints, the last link as the
// tool every other time.
// `meshes`: a folder for random_robot_urdf's meshes (none when empty), their
// hulls the robots' elements beside the boxes.
void random_campaigns(unsigned seed, const std::filesystem::path& meshes) {
  Rng rng(seed);
  const int robots = testing::reduced_run() ? 6 : 16;
  int ran = 0;
  for (int k = 0; k < robots; ++k) {
    const std::string urdf = robot_test::random_robot_urdf(rng, true, meshes);
    const RobotModel m = parse_urdf(urdf, meshes.empty() ? "." : meshes, {}, "random robot " + std::to_string(k));
    const RobotGeometry geometry(m, robot_test::options(MeshMode::convex_hull));
    // The self pairs touching at a quarter of the samples or more allowed
    // too: starts clear of every checked pair must be common.
    const SceneChecker checker(geometry, robot_test::always_near_allowed(geometry, m, rng, 64, 0.01, 0.25));
    // Boxes where the robot reaches: each 15–30 cm from where a random
    // link's origin is at a random configuration.
    Environment env;
    std::vector<double> q(m.variable_count());
    for (int o = 0; o < 3; ++o) {
      robot_test::uniform_joints(m, rng, q);
      const RobotState s = checker.state(q);
      const auto link = static_cast<std::size_t>(rng.uniform(1.0, static_cast<double>(m.links().size())));
      const Vec3 near = s.link_poses[link].p + rng.uniform(0.15, 0.3) * rng.unit_vector();
      env.add("box" + std::to_string(o), Box(rng.uniform_vec(0.03, 0.15)), Transform{rng.pose(0.0).R, near});
    }
    std::vector<std::size_t> arm(m.variable_count());
    for (std::size_t v = 0; v < arm.size(); ++v) arm[v] = v;
    const std::string tool = m.links().back().name;
    ran += campaign(checker, env, "random robot " + std::to_string(k), arm, k % 2 == 1 ? tool.c_str() : nullptr,
                    static_cast<unsigned>(100 + k), loop_runs(), false);
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << urdf;
      return;
    }
  }
  // A robot may find no clear start with a box in a jog's way (0 runs):
  // about half of them do.
  EXPECT_GE(ran, robots * loop_runs() / 4);
}

TEST(ClosedLoop, RandomRobotsJogsStopClearOfRandomBoxes) { random_campaigns(23, {}); }

// The same with random meshes' hulls (robot_test::random_mesh_obj: bumpy,
// dented, some open) for two in five of the elements.
TEST(ClosedLoop, RandomMeshRobotsJogsStopClearOfRandomBoxes) {
  testing::TempDir dir;
  random_campaigns(29, dir.path());
}

}  // namespace
}  // namespace proxima::robot
