// SPDX-License-Identifier: BSD-3-Clause
// The watchdog's feed limits from a robot model: the URDF's position and
// velocity limits, per joint variable, as its text states them (read here
// with a plain string search, not the URDF reader); and a Panda watchdog
// stopping on a sample beyond them.
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/scene_watchdog.hpp>
#include <proxima/robot/urdf.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

constexpr double kLimitsInf = std::numeric_limits<double>::infinity();

struct TextLimit {
  std::string type;
  double lower = 0.0, upper = 0.0, velocity = 0.0;
};

// attr="value" inside `element`, empty when absent.
std::string text_attribute(const std::string& element, const std::string& name) {
  const std::size_t at = element.find(" " + name + "=\"");
  if (at == std::string::npos) return {};
  const std::size_t begin = at + name.size() + 3;
  return element.substr(begin, element.find('"', begin) - begin);
}

// Every <joint> of a URDF's text with its type and <limit>.
std::map<std::string, TextLimit> text_limits(const std::string& urdf) {
  std::map<std::string, TextLimit> out;
  for (std::size_t at = urdf.find("<joint "); at != std::string::npos; at = urdf.find("<joint ", at + 1)) {
    const std::size_t end = urdf.find("</joint>", at);
    const std::string joint = urdf.substr(at, end - at);
    TextLimit l;
    l.type = text_attribute(joint.substr(0, joint.find('>')), "type");
    const std::size_t limit = joint.find("<limit ");
    if (limit != std::string::npos) {
      const std::string e = joint.substr(limit, joint.find('>', limit) - limit);
      l.lower = std::stod(text_attribute(e, "lower"));
      l.upper = std::stod(text_attribute(e, "upper"));
      l.velocity = std::stod(text_attribute(e, "velocity"));
    }
    out[text_attribute(joint.substr(0, joint.find('>')), "name")] = l;
  }
  return out;
}

TEST(FeedLimits, AreThePandaUrdfsNumbers) {
  const auto file = robot_test::robots_dir() / "panda" / "panda.urdf";
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const std::map<std::string, TextLimit> truth = text_limits(text.str());
  const RobotModel model = load_urdf(file);
  const FeedLimits l = feed_limits(model);
  const std::vector<std::string> names = model.variable_names();
  ASSERT_EQ(names.size(), 7u);
  ASSERT_EQ(l.lower.size(), 7u);
  ASSERT_EQ(l.velocity.size(), 7u);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const TextLimit& t = truth.at(names[i]);
    ASSERT_EQ(t.type, "revolute") << names[i];
    EXPECT_EQ(l.lower[i], t.lower) << names[i];
    EXPECT_EQ(l.upper[i], t.upper) << names[i];
    EXPECT_EQ(l.velocity[i], t.velocity) << names[i];
    EXPECT_EQ(l.tolerance[i], 0.02) << names[i];
  }
  EXPECT_EQ(l.speed_tolerance, 1.5);
}

// Revolute, continuous and prismatic joints; a velocity given, absent, or 0.
constexpr const char* kLimitsArm = R"(<?xml version="1.0"?>
<robot name="limits">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <joint name="turn" type="continuous"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
    <limit effort="1" velocity="1.25"/></joint>
  <joint name="slide" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="1 0 0"/>
    <limit lower="-0.1" upper="0.3" effort="1" velocity="0.5"/></joint>
  <joint name="free" type="continuous"><parent link="b"/><child link="c"/><axis xyz="0 0 1"/></joint>
  <joint name="bend" type="revolute"><parent link="c"/><child link="d"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="2" effort="1" velocity="0"/></joint>
</robot>)";

TEST(FeedLimits, ContinuousPrismaticAndMissingVelocities) {
  const RobotModel model = parse_urdf(kLimitsArm, ".");
  FeedLimitOptions o;
  o.angle_tolerance = 0.03;
  o.length_tolerance = 0.004;
  o.speed_tolerance = 2.0;
  const FeedLimits l = feed_limits(model, o);
  EXPECT_EQ(l.lower, (std::vector<double>{-kLimitsInf, -0.1, -kLimitsInf, -1.0}));
  EXPECT_EQ(l.upper, (std::vector<double>{kLimitsInf, 0.3, kLimitsInf, 2.0}));
  EXPECT_EQ(l.tolerance, (std::vector<double>{0.03, 0.004, 0.03, 0.03}));
  // No velocity, or the exporters' 0 for "not given": unchecked.
  EXPECT_EQ(l.velocity, (std::vector<double>{1.25, 0.5, kLimitsInf, kLimitsInf}));
  EXPECT_EQ(l.speed_tolerance, 2.0);
  // The watchdog takes them, and trips on the prismatic joint 4 mm + beyond.
  WatchdogOptions wo;
  wo.limits = l;
  Watchdog dog(4, [](std::span<const double>) { return 1.0; }, wo);
  EXPECT_EQ(dog.update({0.0, {50.0, 0.303, -7.0, 2.02}}).reason, WatchdogReason::none);
  const WatchdogState s = dog.update({1.0, {50.0, 0.305, -7.0, 2.02}});
  EXPECT_EQ(s.reason, WatchdogReason::joint_limit);
  EXPECT_EQ(s.joint, 1);
  EXPECT_EQ(s.joint_limit, 0.3);
}

TEST(FeedLimits, BadTolerancesAndVelocitiesAreNamed) {
  const RobotModel model = parse_urdf(kLimitsArm, ".");
  using robot_test::expect_error;
  expect_error([&] { feed_limits(model, {.angle_tolerance = -0.01}); }, {"angle_tolerance"});
  expect_error([&] { feed_limits(model, {.length_tolerance = kLimitsInf}); }, {"length_tolerance"});
  expect_error([&] { feed_limits(model, {.speed_tolerance = 0.5}); }, {"speed_tolerance", ">= 1"});
  std::string negative = kLimitsArm;
  negative.replace(negative.find("velocity=\"0.5\""), 14, "velocity=\"-1\"");
  expect_error([&] { parse_urdf(negative, "."); }, {"slide", "velocity", "negative"});
  std::string word = kLimitsArm;
  word.replace(word.find("velocity=\"0.5\""), 14, "velocity=\"fast\"");
  expect_error([&] { parse_urdf(word, "."); }, {"slide", "velocity", "not a number"});
}

TEST(FeedLimits, APandaWatchdogStopsOnASampleBeyondTheUrdfsLimit) {
  static const SceneChecker checker = robot_test::panda_checker(MeshMode::convex_hull);
  const SceneClearances c = scene_clearances(checker, Environment{});
  WatchdogOptions o;
  o.limits = feed_limits(checker.model());
  Watchdog dog(checker.model().variable_count(), c.channels, c.fn, o);
  // panda_joint4's upper limit is 0.0873 (the URDF's text).
  std::vector<double> q{0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785};
  EXPECT_EQ(dog.update({0.0, q}).reason, WatchdogReason::none);
  q[3] = 0.0873 + 0.021;
  const WatchdogState s = dog.update({10.0, q});
  EXPECT_EQ(s.level, WatchdogLevel::stop);
  EXPECT_EQ(s.reason, WatchdogReason::joint_limit);
  EXPECT_EQ(s.joint, 3);
  EXPECT_EQ(s.joint_limit, 0.0873);
  // panda_joint1 at 5 rad/s, its limit 2.3925 rad/s (× 1.5 = 3.59).
  q[3] = -2.356;
  EXPECT_EQ(dog.update({20.0, q}).reason, WatchdogReason::none);
  q[0] += 5.0 * 0.032;
  const WatchdogState fast = dog.update({20.032, q});
  EXPECT_EQ(fast.reason, WatchdogReason::joint_speed);
  EXPECT_EQ(fast.joint, 0);
  EXPECT_NEAR(fast.joint_value, 5.0, 1e-9);
  EXPECT_EQ(fast.joint_limit, 2.3925);
}

}  // namespace
}  // namespace proxima::robot
