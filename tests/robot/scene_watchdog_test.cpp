// SPDX-License-Identifier: BSD-3-Clause
// The watchdog on the Franka Panda (tests/data/robots/panda): its clearance
// from the scene checker, its tool from the model's kinematics, a jog
// towards a table stopped before contact.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/point_cloud.hpp>
#include <proxima/robot/scene_watchdog.hpp>
#include <proxima/robot/urdf.hpp>

#include "closed_loop.hpp"
#include "minkowski_oracle.hpp"
#include "robot_test_support.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

const SceneChecker& watched_panda() {
  static const SceneChecker checker = robot_test::panda_checker(MeshMode::convex_hull);
  return checker;
}

// A table in front of the robot, its top 0.2 m above the base.
Environment table_cell() {
  Environment env;
  env.add("table", Box(Vec3(0.6, 1.0, 0.1)), Transform::from_translation(Vec3(0.65, 0.0, 0.15)));
  return env;
}

std::vector<double> ready_pose() {
  constexpr double pi = std::numbers::pi;
  return {0.0, -pi / 4, 0.0, -3 * pi / 4, 0.0, pi / 2, pi / 4, 0.04};
}

TEST(SceneWatchdog, ClearanceIsTheCheckersSmallestDistance) {
  const SceneChecker& checker = watched_panda();
  const Environment env = table_cell();
  std::vector<double> q = ready_pose();
  q.resize(checker.model().variable_count(), 0.0);
  const RobotState s = checker.state(q);
  ASSERT_EQ(s.status, Status::ok);
  const double self = checker.self_distance(s).distance, outside = checker.environment_distance(s, env).distance;
  EXPECT_EQ(scene_clearance(checker, env)(q), std::min(self, outside));
  EXPECT_EQ(scene_clearance(checker, env, {.self = false})(q), outside);
  EXPECT_EQ(scene_clearance(checker, env, {.environment = false})(q), self);
  // The channels: each pair of links, then each object.
  Environment two = env;
  two.add("post", Cylinder(0.05, 1.0), Transform::from_translation(Vec3(-0.5, 0.4, 0.5)));
  const SceneClearances channels = scene_clearances(checker, two);
  const std::size_t pairs = checker.self_pairs().size();
  ASSERT_GT(pairs, 10u);
  ASSERT_EQ(channels.channels, pairs + 2);
  std::vector<double> d(channels.channels);
  channels.fn(q, d);
  EXPECT_NEAR(*std::min_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(pairs)), self, 1e-12);
  EXPECT_EQ(d[pairs], outside);
  Environment post_only;
  post_only.objects.push_back(two.objects[1]);
  EXPECT_EQ(d[pairs + 1], checker.environment_distance(s, post_only).distance);
  EXPECT_EQ(scene_clearances(checker, two, {.self = false}).channels, 2u);
  // An unanswerable configuration is NaN, which the watchdog turns into a stop.
  const std::vector<double> short_q{0.0, 0.1};
  EXPECT_TRUE(std::isnan(scene_clearance(checker, env)(short_q)));
  channels.fn(short_q, d);
  for (const double x : d) EXPECT_TRUE(std::isnan(x));
}

// Grouped objects (a point cloud's cubes, a table's top and post) are one
// channel each: the nearest of them, which is the minimum over the
// objects' own one-object distances.
TEST(SceneWatchdog, GroupsAreOneChannelEach) {
  const SceneChecker& checker = watched_panda();
  Environment env = table_cell();
  env.add("leg", Box(Vec3(0.05, 0.05, 0.2)), Transform::from_translation(Vec3(0.4, 0.45, 0.0)));
  env.add("post", Cylinder(0.05, 1.0), Transform::from_translation(Vec3(-0.5, 0.4, 0.5)));
  env.objects[0].group = env.objects[1].group = "desk";
  std::vector<Vec3> points;
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) points.emplace_back(0.02 * i, 0.03 * j, 0.01 * ((i * j) % 3));
  ASSERT_GT(add_point_cloud(env, "scan", points, 0.025, Transform::from_translation(Vec3(0.2, -0.6, 0.4))), 20u);
  std::vector<double> q = ready_pose();
  q.resize(checker.model().variable_count(), 0.0);
  const SceneClearances all = scene_clearances(checker, env);
  EXPECT_EQ(all.channels, checker.self_pairs().size() + 3);
  EXPECT_EQ(std::vector<std::string>(all.names.end() - 3, all.names.end()),
            (std::vector<std::string>{"desk", "post", "scan"}));
  const SceneClearances channels = scene_clearances(checker, env, {.self = false});
  ASSERT_EQ(channels.channels, 3u);
  EXPECT_EQ(channels.names, (std::vector<std::string>{"desk", "post", "scan"}));
  EXPECT_EQ(channels.self_pair, (std::vector<bool>{false, false, false}));
  std::vector<double> d(channels.channels);
  channels.fn(q, d);
  const RobotState s = checker.state(q);
  double desk = std::numeric_limits<double>::infinity(), post = desk, scan = desk;
  for (const EnvironmentObject& o : env.objects) {
    const double one = checker.environment_distance(s, Environment{{o}}).distance;
    double& into = o.group == "desk" ? desk : o.group == "scan" ? scan : post;
    into = std::min(into, one);
  }
  EXPECT_EQ(d[0], desk);
  EXPECT_EQ(d[1], post);
  EXPECT_EQ(d[2], scan);
  EXPECT_LT(scan, post);
  EXPECT_NEAR(scene_clearance(checker, env)(q), std::min({checker.self_distance(s).distance, desk, post, scan}),
              1e-12);
  // An object the queries cannot use is refused when the channels are made.
  Environment bad = env;
  bad.add("lost", Sphere(0.1), Transform::from_translation(Vec3(std::numeric_limits<double>::quiet_NaN(), 0, 0)));
  robot_test::expect_error([&] { scene_clearances(checker, bad); }, {"lost"});
  // A channel name used twice (an object named as a group, or as a pair of
  // links) is refused: the watchdog's report could not say which one approached.
  for (const char* clash : {"desk", "panda_link5/panda_link7", "post"}) {
    Environment twice = env;
    twice.add(clash, Sphere(0.1), Transform::from_translation(Vec3(0.0, 2.0, 0.5)));
    robot_test::expect_error([&] { scene_clearances(checker, twice); }, {"two channels", clash});
  }
  Environment no_self = env;
  no_self.add("panda_link5/panda_link7", Sphere(0.1), Transform::from_translation(Vec3(0.0, 2.0, 0.5)));
  EXPECT_EQ(scene_clearances(checker, no_self, {.self = false}).names.back(), "panda_link5/panda_link7");
  robot_test::expect_error([&] { scene_clearances(checker, env, {.exact_within = 0.0}); }, {"exact_within"});
}

// The world vertices of each of link l's hulls at q.
std::vector<std::vector<Eigen::Vector3d>> link_hulls(const SceneChecker& c, std::span<const double> q, int l) {
  std::vector<std::vector<Vec3>> elements;
  closed_loop::IndependentRobot(c).element_vertices(q, elements);
  std::size_t first = 0;
  for (int k = 0; k < l; ++k) first += c.geometry().links()[static_cast<std::size_t>(k)].shapes.size();
  std::vector<std::vector<Eigen::Vector3d>> out;
  for (std::size_t e = 0; e < c.geometry().links()[static_cast<std::size_t>(l)].shapes.size(); ++e)
    out.emplace_back(elements[first + e].begin(), elements[first + e].end());
  return out;
}

// The signed distance between two links' hulls by the Minkowski-difference
// oracle (qhull), independent of the narrow phase.
double oracle_pair(const SceneChecker& c, std::span<const double> q, int a, int b) {
  double d = std::numeric_limits<double>::infinity();
  for (const auto& x : link_hulls(c, q, a))
    for (const auto& y : link_hulls(c, q, b)) d = std::min(d, oracle::minkowski_signed_distance(x, y));
  return d;
}

// Each pair of links is a channel: its distance (the oracle's, from the
// hulls' vertices), exact below exact_within and a lower bound beyond it;
// minus the depth where two links overlap.
TEST(SceneWatchdog, EachPairOfLinksIsAChannelOfItsOwn) {
  const SceneChecker& checker = watched_panda();
  const auto& pairs = checker.self_pairs();
  std::vector<double> ready = ready_pose(), folded = ready;
  ready.resize(checker.model().variable_count(), 0.0);
  folded.resize(ready.size(), 0.0);
  folded[3] = -2.9;  // the elbow folded fully: the forearm over the upper arm
  folded[5] = 0.0;   // and the wrist flat against link 5
  for (const auto& q : {ready, folded}) {
    const SceneClearances exact = scene_clearances(checker, Environment{});
    const SceneClearances near = scene_clearances(checker, Environment{}, {.exact_within = 0.05});
    ASSERT_EQ(exact.channels, pairs.size());
    std::vector<double> d(exact.channels), n(exact.channels);
    exact.fn(q, d);
    near.fn(q, n);
    int within = 0;
    for (std::size_t c = 0; c < pairs.size(); ++c) {
      const auto [a, b] = pairs[c];
      EXPECT_EQ(exact.names[c], checker.model().link(a).name + "/" + checker.model().link(b).name);
      EXPECT_TRUE(exact.self_pair[c]);
      const double truth = oracle_pair(checker, q, a, b);
      EXPECT_NEAR(d[c], truth, 1e-7) << exact.names[c];
      if (truth < 0.05) {
        ++within;
        EXPECT_NEAR(n[c], truth, 1e-7) << exact.names[c];
      } else {
        EXPECT_GE(n[c], 0.05) << exact.names[c];
        EXPECT_LE(n[c], truth + 1e-9) << exact.names[c];
      }
    }
    EXPECT_GT(within, 0);
  }
}

// Distances by channel name (scene_thresholds): an object's, a pair's in
// either order, "self" for every pair; a pair given nothing rests close.
TEST(SceneWatchdog, ThresholdsAreGivenByChannelName) {
  const SceneChecker& checker = watched_panda();
  Environment env = table_cell();
  env.add("post", Cylinder(0.05, 1.0), Transform::from_translation(Vec3(-0.5, 0.4, 0.5)));
  const SceneClearances channels = scene_clearances(checker, env);
  const WatchdogOptions defaults;
  const auto index = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(channels.names.begin(), channels.names.end(), name) -
                                     channels.names.begin());
  };
  const std::size_t table = index("table"), post = index("post"), wrist = index("panda_link5/panda_link7");
  ASSERT_LT(wrist, channels.channels);
  const std::size_t elbow = wrist == 0 ? 1 : 0;  // another pair of links
  ASSERT_TRUE(channels.self_pair[elbow]);
  {
    const auto t = scene_thresholds(channels, defaults);
    ASSERT_EQ(t.size(), channels.channels);
    for (std::size_t c = 0; c < t.size(); ++c) {
      EXPECT_EQ(t[c].rests_close, channels.self_pair[c]) << channels.names[c];
      EXPECT_EQ(t[c].stop_distance, defaults.stop_distance);
      EXPECT_EQ(t[c].slow_distance, defaults.slow_distance);
      EXPECT_EQ(t[c].warn_distance, defaults.warn_distance);
    }
  }
  const auto t = scene_thresholds(channels, defaults,
                                  {{"table", 0.02, 0.15, 0.3},
                                   {"self", std::nullopt, std::nullopt, 0.12},
                                   {"panda_link7/panda_link5", 0.004, 0.01, std::nullopt}});
  EXPECT_EQ(t[table].stop_distance, 0.02);
  EXPECT_EQ(t[table].slow_distance, 0.15);
  EXPECT_EQ(t[table].warn_distance, 0.3);
  EXPECT_EQ(t[post].stop_distance, defaults.stop_distance);
  EXPECT_EQ(t[wrist].stop_distance, 0.004);
  EXPECT_EQ(t[wrist].slow_distance, 0.01);
  EXPECT_EQ(t[wrist].warn_distance, 0.12);  // from "self"
  EXPECT_FALSE(t[wrist].rests_close);
  EXPECT_EQ(t[elbow].warn_distance, 0.12);
  EXPECT_EQ(t[elbow].slow_distance, defaults.slow_distance);
  EXPECT_FALSE(t[elbow].rests_close);  // given distances are taken as they are
  robot_test::expect_error([&] { scene_thresholds(channels, defaults, {{"tabel", 0.02, {}, {}}}); },
                           {"'tabel'", "no channel"});
  robot_test::expect_error(
      [&] {
        scene_thresholds(channels, defaults,
                         {{"panda_link5/panda_link7", 0.02, {}, {}}, {"panda_link7/panda_link5", 0.02, {}, {}}});
      },
      {"given twice"});
  robot_test::expect_error([&] { scene_thresholds(channels, defaults, {{"table", {}, {}, {}}}); },
                           {"'table'", "no distance"});
  robot_test::expect_error([&] { scene_thresholds(channels, defaults, {{"table", 0.2, {}, {}}}); },
                           {"channel 'table'", "stop_distance < slow_distance"});
  robot_test::expect_error([&] { scene_thresholds(channels, defaults, {{"post", {}, {}, 0.05}}); },
                           {"channel 'post'", "slow_distance ≤ warn_distance"});
  EXPECT_EQ(largest_warn_distance(defaults, {{"table", 0.02, 0.15, 0.3}, {"post", {}, {}, 0.1}}), 0.3);
  EXPECT_EQ(largest_warn_distance(defaults, {}), defaults.warn_distance);
}

// The Panda's link 5 and link 7 rest 22 mm apart at the ready pose: a jog of
// joint 6 with the table 28 cm below the hand is not slowed by that pair
// unless it closes in further than it started (judged by the oracle's
// distances, not the watchdog's).
TEST(SceneWatchdog, APairRestingCloseDoesNotSlowAWristJog) {
  const SceneChecker& checker = watched_panda();
  const RobotModel& model = checker.model();
  const Environment env = table_cell();
  const std::vector<closed_loop::BoxObstacle> table = closed_loop::boxes_of(env);
  std::vector<double> q0 = ready_pose();
  q0.resize(model.variable_count(), 0.0);
  const auto& pairs = checker.self_pairs();
  std::vector<double> rest(pairs.size());
  for (std::size_t c = 0; c < pairs.size(); ++c) rest[c] = oracle_pair(checker, q0, pairs[c].first, pairs[c].second);
  const int l5 = model.link_index("panda_link5"), l7 = model.link_index("panda_link7");
  const double wrist_rest = oracle_pair(checker, q0, l5, l7);
  EXPECT_GT(wrist_rest, 0.015);
  EXPECT_LT(wrist_rest, 0.03);
  const double table_rest = closed_loop::independent_clearance(checker, q0, table, 1.0);
  EXPECT_GT(table_rest, 0.2);
  for (const double rate : {0.5, -0.5}) {
    const SceneClearances channels = scene_clearances(checker, env, {.exact_within = WatchdogOptions{}.warn_distance});
    WatchdogOptions o;
    o.channels = scene_thresholds(channels, o);
    Watchdog dog(q0.size(), channels.channels, channels.fn, o, {}, link_kinematics(model, "panda_hand"));
    std::vector<double> q = q0;
    int slowed = 0, samples = 0;
    for (double t = 0.0; t < 1.5; t += 0.032, ++samples) {
      const WatchdogState s = dog.update({t, q});
      ASSERT_EQ(s.status, Status::ok);
      if (s.speed_factor < 1.0) {
        ++slowed;
        // Slowed only where a pair of links has closed in below its rest
        // distance (or the table is within the slow distance).
        bool cause = closed_loop::independent_clearance(checker, q, table, o.slow_distance) < o.slow_distance;
        for (std::size_t c = 0; c < pairs.size() && !cause; ++c)
          cause = rest[c] < o.slow_distance && oracle_pair(checker, q, pairs[c].first, pairs[c].second) < rest[c];
        EXPECT_TRUE(cause) << "rate " << rate << ", t " << t << ": speed factor " << s.speed_factor << " on "
                           << channels.names[static_cast<std::size_t>(s.channel)];
      }
      q[5] += rate * s.speed_factor * 0.032;
      q[5] = std::clamp(q[5], model.joint(model.variable_joint(5)).lower, model.joint(model.variable_joint(5)).upper);
    }
    std::printf("joint 6 at %+.1f rad/s: slowed on %d of %d samples, link5–link7 from %.1f to %.1f mm\n", rate,
                slowed, samples, 1e3 * wrist_rest, 1e3 * oracle_pair(checker, q, l5, l7));
    // The pair stays within a millimetre of its rest: never slowed.
    EXPECT_GT(oracle_pair(checker, q, l5, l7), wrist_rest - 0.001);
    EXPECT_EQ(slowed, 0) << rate;
  }
}

TEST(SceneWatchdog, LinkKinematicsIsForwardKinematics) {
  const RobotModel& model = watched_panda().model();
  std::vector<double> q = ready_pose();
  q.resize(model.variable_count(), 0.0);
  const int hand = model.link_index("panda_hand");
  ASSERT_GE(hand, 0);
  const Transform base = Transform::from_translation(Vec3(0.1, -0.2, 0.3));
  const Transform t = link_kinematics(model, "panda_hand", base)(q);
  const Transform truth = forward_kinematics(model, q, base)[static_cast<std::size_t>(hand)];
  EXPECT_TRUE(t.R.isApprox(truth.R, 0.0) && t.p.isApprox(truth.p, 0.0));
  robot_test::expect_error([&] { link_kinematics(model, "panda_gripper_tip"); }, {"panda", "no link", "panda_gripper_tip"});
}

// The hand on a straight line with a steady turn about a fixed axis (eq. 2):
// joints found by Newton steps on the model's kinematics (least squares on
// a central-difference Jacobian), converged to 1e-12, so each sample is on
// the line, independent of how the predictor extrapolates.
std::vector<double> hand_at(const RobotModel& model, int hand, std::vector<double> q, const Transform& target) {
  auto pose = [&](const std::vector<double>& x) { return forward_kinematics(model, x)[static_cast<std::size_t>(hand)]; };
  auto error = [](const Transform& want, const Transform& at) {
    Eigen::Matrix<double, 6, 1> e;
    e.head<3>() = want.p - at.p;
    const Eigen::AngleAxisd aa(want.R * at.R.transpose());
    e.tail<3>() = aa.axis() * aa.angle();
    return e;
  };
  for (int it = 0; it < 50; ++it) {
    const Eigen::Matrix<double, 6, 1> e = error(target, pose(q));
    if (e.norm() < 1e-12) break;
    Eigen::Matrix<double, 6, Eigen::Dynamic> J(6, static_cast<Eigen::Index>(q.size()));
    for (std::size_t j = 0; j < q.size(); ++j) {
      std::vector<double> qp = q, qm = q;
      qp[j] += 1e-7;
      qm[j] -= 1e-7;
      J.col(static_cast<Eigen::Index>(j)) = error(pose(qp), pose(qm)) / 2e-7;
    }
    const Eigen::VectorXd dq = J.completeOrthogonalDecomposition().solve(e);
    for (std::size_t j = 0; j < q.size(); ++j) q[j] += dq(static_cast<Eigen::Index>(j));
  }
  return q;
}

TEST(SceneWatchdog, PredictsAPandaCartesianMotion) {
  const RobotModel& model = watched_panda().model();
  const int hand = model.link_index("panda_hand");
  std::vector<double> q = ready_pose();
  q.resize(model.variable_count(), 0.0);
  const Transform start = forward_kinematics(model, q)[static_cast<std::size_t>(hand)];
  const Vec3 u = Vec3(0.3, -0.5, -0.8).normalized(), axis = Vec3(0.2, 0.1, 1.0).normalized();
  const double v = 0.15, omega = 0.4;  // m/s, rad/s
  auto line = [&](double t) {
    Transform x;
    x.p = start.p + v * t * u;
    x.R = Eigen::AngleAxisd(omega * t, axis).toRotationMatrix() * start.R;
    return x;
  };
  MotionPredictor predictor(q.size(), {}, link_kinematics(model, "panda_hand"));
  constexpr double kFeed = 0.032;
  for (int k = 0; k < 10; ++k) {
    q = hand_at(model, hand, q, line(k * kFeed));
    predictor.add({k * kFeed, q});
  }
  const Prediction p = predictor.predict();
  ASSERT_EQ(p.model, MotionModel::cartesian);
  EXPECT_NEAR(p.linear_speed, v, 1e-6);
  EXPECT_LT((p.linear_direction - u).norm(), 1e-6);
  EXPECT_NEAR(p.angular_speed * p.rotation_axis.dot(axis), omega, 1e-6);
  // The path's joints (tracked by the predictor's damped least squares) put
  // the hand on the line's continuation.
  const double t_last = 9 * kFeed;
  const auto path = predictor.path(p, 0.3, 6);
  for (int k = 0; k < 6; ++k) {
    const Transform want = line(t_last + 0.05 * (k + 1));
    const Transform got = forward_kinematics(model, path[static_cast<std::size_t>(k)])[static_cast<std::size_t>(hand)];
    EXPECT_LT((got.p - want.p).norm(), 1e-4) << k;
    EXPECT_LT(Eigen::AngleAxisd(got.R * want.R.transpose()).angle(), 1e-4) << k;
  }
}

// The README's demo in a closed loop: the shoulder jogged towards the table
// at `rate` rad/s times the speed factor, one sample per 32 ms, until the
// motion stops. Judged by the links' geometry against the table box
// (tests/closed_loop/closed_loop.hpp), not by the checker that feeds the
// watchdog.
closed_loop::RunResult jog_panda_to_the_table(double rate, const char* tool) {
  const SceneChecker& checker = watched_panda();
  const RobotModel& model = checker.model();
  const Environment env = table_cell();
  const std::size_t dof = model.variable_count();
  std::vector<double> q = ready_pose();
  q.resize(dof, 0.0);
  const SceneClearances channels = scene_clearances(checker, env);
  Watchdog dog(dof, channels.channels, channels.fn, {}, {},
               tool != nullptr ? link_kinematics(model, tool) : ToolKinematics{});
  const std::vector<closed_loop::Obstacle> table = closed_loop::obstacles_of(env);
  const closed_loop::IndependentRobot judge(checker);
  EXPECT_GT(judge.clearance(q, table, 0.05), 0.15);
  std::vector<double> velocity(dof, 0.0), lower(dof), upper(dof);
  velocity[1] = rate;  // shoulder forward and down
  for (std::size_t j = 0; j < dof; ++j) {
    const Joint& jt = model.joint(model.variable_joint(j));
    lower[j] = jt.lower;
    upper[j] = jt.upper;
  }
  testing::Rng rng(1);
  const closed_loop::Controller ctl{.period = 0.032};
  const closed_loop::Jog jog = [&velocity](std::span<const double>, std::span<double> out) {
    std::copy(velocity.begin(), velocity.end(), out.begin());
    return true;
  };
  closed_loop::RunResult r = closed_loop::run(dog, q, jog, lower, upper, ctl, rng, judge, table, 0.05,
                                                 WatchdogOptions{}.stop_distance);
  // The guarantee's bound for this jog (watchdog.hpp): the shoulder's reach
  // times the jog's speed over one period, and κ for the tight form.
  const WatchdogOptions o;
  std::vector<std::vector<Vec3>> elements;
  judge.element_vertices(q, elements);
  const double v = rate * judge.reaches(q, elements, velocity)[1];
  const double kappa = std::numbers::pi * v * ctl.period / (2.0 * (o.slow_distance - o.stop_distance));
  EXPECT_LE(kappa, 1.0) << "the tight bound does not apply to this jog";
  std::printf("shoulder reach %.3f m, V·T %.2f mm, κ %.3f\n", v / rate, 1e3 * v * ctl.period, kappa);
  EXPECT_TRUE(r.stopped) << "the motion ended without a stop: at_limit " << r.at_limit << ", gave up " << r.gave_up
                         << ", at t = " << r.time << " s, speed factor " << r.last.speed_factor;
  EXPECT_EQ(r.last.level, WatchdogLevel::stop);
  EXPECT_EQ(r.last.speed_factor, 0.0);
  EXPECT_TRUE(r.held);
  EXPECT_EQ(channels.names[static_cast<std::size_t>(r.last.channel)], "table");
  EXPECT_GT(r.lowest, 0.0) << "the arm reached the table";
  EXPECT_GE(r.lowest, o.stop_distance) << "closer than the stop distance (κ = " << kappa << ")";
  // Stopped within the stop band, not far from the table (not useless).
  EXPECT_LT(r.final_clearance, 2.0 * o.stop_distance);
  return r;
}

// Once crawling slower than the predictor's "stationary" threshold the
// speed factor was frozen at 0.0059 and the hand reached the table at
// t = 20.99 s, never stopped.
TEST(SceneWatchdog, ClosedLoopPandaJogWithTheHandStopsBeforeTheTable) {
  const closed_loop::RunResult r = jog_panda_to_the_table(0.4, "panda_hand");
  std::printf("hand, 0.4 rad/s: ended after %.2f s (%d samples), clearance %.2f mm (lowest %.2f mm)\n", r.time,
              r.samples, 1e3 * r.final_clearance, 1e3 * r.lowest);
}

// Without a tool at 1 rad/s the predicted drop at 10.16 mm was below
// approach_epsilon, the answer `clear` at speed factor 1, and the next
// sample in contact.
TEST(SceneWatchdog, ClosedLoopPandaJogWithoutAToolStopsBeforeTheTable) {
  const closed_loop::RunResult r = jog_panda_to_the_table(1.0, nullptr);
  std::printf("no tool, 1 rad/s: ended after %.2f s (%d samples), clearance %.2f mm (lowest %.2f mm)\n", r.time,
              r.samples, 1e3 * r.final_clearance, 1e3 * r.lowest);
}

// Inside the table: the table channel reads the signed distance (minus the
// penetration depth, as the Minkowski oracle measures it from the links'
// hull vertices and the box's corners), pushing deeper is a stop, backing
// out is allowed and said so.
TEST(SceneWatchdog, InsideTheTablePushingDeeperStopsAndBackingOutIsAllowed) {
  const SceneChecker& checker = watched_panda();
  const RobotModel& model = checker.model();
  const Environment env = table_cell();
  const std::vector<closed_loop::Obstacle> table = closed_loop::obstacles_of(env);
  const closed_loop::IndependentRobot judge(checker);
  auto exact = [&](std::span<const double> x) { return judge.clearance(x, table, 0.05); };
  std::vector<double> q = ready_pose();
  q.resize(model.variable_count(), 0.0);
  // The shoulder turned on until the arm is 5–15 mm inside the table top.
  while (exact(q) > 0.05) q[1] += 0.01;
  while (exact(q) > -0.005) q[1] += 0.001;
  ASSERT_LT(exact(q), -0.005);
  ASSERT_GT(exact(q), -0.015);
  const SceneClearances channels = scene_clearances(checker, env, {.self = false});
  std::vector<double> d(1);
  channels.fn(q, d);
  EXPECT_NEAR(d[0], exact(q), 1e-6);
  EXPECT_NEAR(scene_clearance(checker, env, {.self = false})(q), exact(q), 1e-6);
  Watchdog dog(q.size(), channels.channels, channels.fn, {}, {}, link_kinematics(model, "panda_hand"));
  double t = 0.0, last = 0.0;
  for (int k = 0; k < 8; ++k, t += 0.032) {
    const WatchdogState s = dog.update({t, q});
    ASSERT_EQ(s.status, Status::ok);
    EXPECT_EQ(s.level, WatchdogLevel::stop) << k;
    EXPECT_EQ(s.speed_factor, 0.0) << k;
    EXPECT_FALSE(s.receding) << k;
    EXPECT_NEAR(s.clearance, exact(q), 1e-6) << k;
    if (k > 0) {
      EXPECT_LT(s.clearance, last) << k;
    }
    last = s.clearance;
    q[1] += 0.001;  // deeper
  }
  for (int k = 0; k < 6; ++k, t += 0.032) {
    q[1] -= 0.002;  // backing out
    const WatchdogState s = dog.update({t, q});
    ASSERT_EQ(s.status, Status::ok);
    EXPECT_TRUE(s.receding) << k;
    EXPECT_EQ(s.level, WatchdogLevel::clear) << k;
    EXPECT_EQ(s.speed_factor, 1.0) << k;
    EXPECT_LT(s.clearance, 0.0) << k;
    EXPECT_NEAR(s.clearance, exact(q), 1e-6) << k;
  }
  // Stopping while inside (no longer moving out) is a stop again.
  EXPECT_EQ(dog.update({t, q}).level, WatchdogLevel::stop);
}

// The self channels of random robots (robot_test::random_robot_urdf) with
// exact_within set: each reads its pair's
// distance (brute force over the shape pairs) where that is below
// exact_within, else a lower bound on it of at least exact_within.
// `meshes`: a folder for random_robot_urdf's meshes (none when empty), read
// in `mode`.
void expect_self_channels_are_lower_bounds(unsigned seed, const std::filesystem::path& meshes, MeshMode mode) {
  testing::Rng rng(seed);
  const int robots = std::max(4, testing::scaled(16)), draws = std::max(10, testing::scaled(60));
  int exact = 0, bounded = 0;
  for (int k = 0; k < robots; ++k) {
    const std::string urdf = robot_test::random_robot_urdf(rng, false, meshes);
    const RobotModel m = parse_urdf(urdf, meshes.empty() ? "." : meshes, {}, "random robot " + std::to_string(k));
    const SceneChecker c(RobotGeometry(m, robot_test::options(mode, k % 2 == 1 ? 0.004 : 0.0)),
                         AllowedCollisionMatrix::adjacent(m));
    SceneClearanceOptions o;
    o.environment = false;
    o.exact_within = rng.uniform(0.02, 0.12);
    const SceneClearances channels = scene_clearances(c, Environment{}, o);
    ASSERT_EQ(channels.channels, c.self_pairs().size());
    std::vector<double> q(m.variable_count()), read(channels.channels);
    for (int n = 0; n < draws; ++n) {
      robot_test::uniform_joints(m, rng, q);
      channels.fn(q, read);
      const RobotState s = c.state(q);
      for (std::size_t k2 = 0; k2 < channels.channels; ++k2) {
        const auto [a, b] = c.self_pairs()[k2];
        const double truth = robot_test::link_pair_distance(c.geometry(), s, a, b);
        if (truth <= 0.0) continue;  // overlapping: a depth, tested elsewhere
        if (truth < o.exact_within) {
          ++exact;
          EXPECT_NEAR(read[k2], truth, 1e-9) << channels.names[k2] << " robot " << k;
        } else {
          ++bounded;
          EXPECT_GE(read[k2], o.exact_within) << channels.names[k2] << " robot " << k;
          EXPECT_LE(read[k2], truth + 1e-9) << channels.names[k2] << " robot " << k << ": not a lower bound";
        }
      }
    }
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << urdf;
      return;
    }
  }
  EXPECT_GT(exact, 0);
  EXPECT_GT(bounded, 0);
}

TEST(SceneClearances, SelfChannelsBeyondExactWithinAreLowerBounds) {
  expect_self_channels_are_lower_bounds(53, {}, MeshMode::convex_hull);
}

// The same with random meshes on the links (robot_test::random_mesh_obj:
// bumpy, dented, some open), read as hulls and as raw surfaces.
TEST(SceneClearances, SelfChannelsOfRandomMeshRobotsAreLowerBounds) {
  testing::TempDir dir;
  expect_self_channels_are_lower_bounds(57, dir.path(), MeshMode::convex_hull);
  expect_self_channels_are_lower_bounds(59, dir.path(), MeshMode::triangle_mesh);
}

}  // namespace
}  // namespace proxima::robot
