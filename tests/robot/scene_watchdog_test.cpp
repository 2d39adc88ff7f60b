// The watchdog on the Franka Panda (tests/data/robots/panda): its clearance
// from the scene checker, its tool from the model's kinematics, a jog
// towards a table stopped before contact.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/point_cloud.hpp>
#include <proxima/robot/scene_watchdog.hpp>
#include <proxima/robot/urdf.hpp>

#include "closed_loop.hpp"
#include "robot_test_support.hpp"

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
  // The channels: self, then each object.
  Environment two = env;
  two.add("post", Cylinder(0.05, 1.0), Transform::from_translation(Vec3(-0.5, 0.4, 0.5)));
  const SceneClearances channels = scene_clearances(checker, two);
  ASSERT_EQ(channels.channels, 3u);
  std::vector<double> d(3);
  channels.fn(q, d);
  EXPECT_EQ(d[0], self);
  EXPECT_EQ(d[1], outside);
  Environment post_only;
  post_only.objects.push_back(two.objects[1]);
  EXPECT_EQ(d[2], checker.environment_distance(s, post_only).distance);
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
  const SceneClearances channels = scene_clearances(checker, env);
  ASSERT_EQ(channels.channels, 4u);
  EXPECT_EQ(channels.names, (std::vector<std::string>{"self", "desk", "post", "scan"}));
  std::vector<double> d(channels.channels);
  channels.fn(q, d);
  const RobotState s = checker.state(q);
  EXPECT_EQ(d[0], checker.self_distance(s).distance);
  double desk = std::numeric_limits<double>::infinity(), post = desk, scan = desk;
  for (const EnvironmentObject& o : env.objects) {
    const double one = checker.environment_distance(s, Environment{{o}}).distance;
    double& into = o.group == "desk" ? desk : o.group == "scan" ? scan : post;
    into = std::min(into, one);
  }
  EXPECT_EQ(d[1], desk);
  EXPECT_EQ(d[2], post);
  EXPECT_EQ(d[3], scan);
  EXPECT_LT(scan, post);
  EXPECT_EQ(scene_clearance(checker, env)(q), std::min({d[0], desk, post, scan}));
  // An object the queries cannot use is refused when the channels are made.
  Environment bad = env;
  bad.add("lost", Sphere(0.1), Transform::from_translation(Vec3(std::numeric_limits<double>::quiet_NaN(), 0, 0)));
  robot_test::expect_error([&] { scene_clearances(checker, bad); }, {"lost"});
  // A channel name used twice (an object named as a group, or "self") is
  // refused: the watchdog's report could not say which one approached.
  for (const char* clash : {"desk", "self", "post"}) {
    Environment twice = env;
    twice.add(clash, Sphere(0.1), Transform::from_translation(Vec3(0.0, 2.0, 0.5)));
    robot_test::expect_error([&] { scene_clearances(checker, twice); }, {"two channels", clash});
  }
  Environment no_self = env;
  no_self.add("self", Sphere(0.1), Transform::from_translation(Vec3(0.0, 2.0, 0.5)));
  EXPECT_EQ(scene_clearances(checker, no_self, {.self = false}).names.back(), "self");
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

}  // namespace
}  // namespace proxima::robot
