// SPDX-License-Identifier: BSD-3-Clause
// The predictor's options each change what they say (speed_window,
// still_speed, ik_iterations), and joint_positions() fills in mimic and fixed
// joints. Truth: closed forms of the motions fed in, the URDF's mimic rule.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/motion_predictor.hpp>
#include <proxima/robot/urdf.hpp>

#include "../support/planar_arm.hpp"
#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

constexpr double kPeriod = 0.032;

// One joint accelerating, s(t) = 0.1 t + 2 t². A least-squares line through
// w equally spaced samples of a parabola has the parabola's slope at their
// middle: the speed lags the last sample by (w − 1)/2 periods.
TEST(PredictorOptions, SpeedWindowSetsTheLagOfTheSpeed) {
  int checked = 0;
  for (const int w : {2, 4, 8}) {
    PredictorOptions o;
    o.speed_window = w;
    MotionPredictor predictor(3, o);
    double t = 0.0;
    for (int k = 0; k < 10; ++k, t += kPeriod) predictor.add({t, {0.2, 0.1 * t + 2.0 * t * t, -0.3}});
    const double t_last = t - kPeriod;
    const Prediction p = predictor.predict();
    ASSERT_EQ(p.model, MotionModel::joint) << w;
    const double t_mid = t_last - 0.5 * (w - 1) * kPeriod;
    EXPECT_NEAR(p.joint_speed, 0.1 + 4.0 * t_mid, 1e-9) << "speed_window " << w;
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

// A creep of 5e-4 rad/s: still under the default threshold (1e-3), moving
// under a threshold of 1e-4.
TEST(PredictorOptions, StillSpeedIsTheThresholdOfMotion) {
  for (const double still : {1e-3, 1e-4}) {
    PredictorOptions o;
    o.still_speed = still;
    MotionPredictor predictor(2, o);
    for (int k = 0; k < 10; ++k) predictor.add({k * kPeriod, {5e-4 * k * kPeriod, 0.0}});
    const Prediction p = predictor.predict();
    if (still > 5e-4) {
      EXPECT_EQ(p.model, MotionModel::stationary) << still;
    } else {
      ASSERT_EQ(p.model, MotionModel::joint) << still;
      EXPECT_NEAR(p.joint_speed, 5e-4, 1e-12);
    }
  }
}

// A Cartesian path's joints come from a few damped least-squares steps per
// point: one step tracks the tool worse than six.
TEST(PredictorOptions, IkIterationsSetHowCloseTheCartesianPathTracks) {
  const testing::PlanarArm arm;
  const Vec3 p0(0.55, 0.25, 0.1), u = Vec3(-0.6, 0.7, 0.2).normalized();
  const double v = 0.25, omega = 0.6, theta0 = 0.4;
  double error[2] = {0, 0};
  const int iterations[2] = {1, 6};
  for (int k = 0; k < 2; ++k) {
    PredictorOptions o;
    o.ik_iterations = iterations[k];
    MotionPredictor predictor(4, o, [&arm](std::span<const double> q) { return arm.tool(q); });
    double t = 0.0;
    for (int s = 0; s < 10; ++s, t += kPeriod) {
      const Vec3 x = p0 + v * t * u;
      predictor.add({t, arm.inverse(x.x(), x.y(), x.z(), theta0 + omega * t)});
    }
    const Prediction p = predictor.predict();
    ASSERT_EQ(p.model, MotionModel::cartesian);
    const double t_last = t - kPeriod;
    const auto path = predictor.path(p, 0.5, 5);
    for (int j = 0; j < 5; ++j)
      error[k] = std::max(error[k], (arm.tool(path[j]).p - (p0 + v * (t_last + 0.1 * (j + 1)) * u)).norm());
  }
  EXPECT_LT(error[1], 1e-4);
  EXPECT_GT(error[0], 2.0 * error[1]);
  robot_test::expect_error([] { MotionPredictor(2, {.ik_iterations = 0}); }, {"ik_iterations"});
  robot_test::expect_error([] { MotionPredictor(2, {.speed_window = 1}); }, {"speed_window"});
  robot_test::expect_error([] { MotionPredictor(2, {.still_speed = -1.0}); }, {"still_speed"});
}

// The small arm: revolute j1, j2, prismatic j3, a fixed tool and a finger
// mimicking j2 with multiplier −2 and offset 0.1.
TEST(Kinematics, JointPositionsFillInMimicAndFixedJoints) {
  const RobotModel m = parse_urdf(robot_test::small_arm_urdf(), ".");
  const std::vector<double> q{0.3, -0.7, 0.05};
  const std::vector<double> all = joint_positions(m, q);
  ASSERT_EQ(all.size(), m.joints().size());
  int checked = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string& name = m.joints()[i].name;
    const double expected = name == "j1"        ? 0.3
                            : name == "j2"      ? -0.7
                            : name == "j3"      ? 0.05
                            : name == "jfinger" ? -2.0 * -0.7 + 0.1
                                                : 0.0;  // fixed
    EXPECT_DOUBLE_EQ(all[i], expected) << name;
    ++checked;
  }
  EXPECT_EQ(checked, 5);
}

}  // namespace
}  // namespace proxima::robot
