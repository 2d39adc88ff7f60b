// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/motion_predictor.hpp>

#include "../support/planar_arm.hpp"
#include "robot_test_support.hpp"
#include "../support/random.hpp"

namespace proxima::robot {
namespace {

using testing::PlanarArm;

constexpr double kFeedPeriod = 0.032;  // the paper's controller poll

ToolKinematics kinematics_of(const PlanarArm& arm) {
  return [arm](std::span<const double> q) { return arm.tool(q); };
}

double angle_between(const std::vector<double>& a, const std::vector<double>& b) {
  double dot = 0.0, na = 0.0, nb = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return std::acos(std::clamp(dot / std::sqrt(na * nb), -1.0, 1.0));
}

// Eq. 1 by construction: q(t) = q0 + s(t) δ.
std::vector<double> joint_motion(const std::vector<double>& q0, const std::vector<double>& delta, double s) {
  std::vector<double> q(q0);
  for (std::size_t i = 0; i < q.size(); ++i) q[i] += s * delta[i];
  return q;
}

TEST(MotionPredictor, RecoversAJointMotion) {
  const PlanarArm arm;
  testing::Rng rng(21);
  const std::vector<double> q0{0.3, 1.1, -0.4, 0.2};
  std::vector<double> delta{0.6, -0.3, 0.7, 0.1};
  double n = 0.0;
  for (double d : delta) n += d * d;
  for (double& d : delta) d /= std::sqrt(n);
  for (const bool with_kinematics : {false, true}) {
    MotionPredictor predictor(4, {}, with_kinematics ? kinematics_of(arm) : ToolKinematics{});
    const double speed = 0.8;  // constant ds/dt
    double t = 0.0;
    for (int k = 0; k < 10; ++k, t += kFeedPeriod) {
      std::vector<double> q = joint_motion(q0, delta, speed * t);
      for (double& x : q) x += 1e-6 * rng.normal();  // encoder noise
      predictor.add({t, q});
    }
    const Prediction p = predictor.predict();
    ASSERT_EQ(p.model, MotionModel::joint) << with_kinematics;
    EXPECT_LT(angle_between(p.joint_direction, delta), 1e-4);
    EXPECT_NEAR(p.joint_speed, speed, 1e-3);
    if (with_kinematics) {
      EXPECT_GT(p.cartesian_residual, 10.0 * p.joint_residual);
    }
    // The path, against eq. 1 continued.
    const double t_last = t - kFeedPeriod;
    const auto path = predictor.path(p, 0.3, 3);
    ASSERT_EQ(path.size(), 3u);
    for (int k = 0; k < 3; ++k) {
      const std::vector<double> truth = joint_motion(q0, delta, speed * (t_last + 0.1 * (k + 1)));
      for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(path[k][i], truth[i], 2e-4) << k << " " << i;
    }
  }
}

TEST(MotionPredictor, FollowsTheDirectionOfAnAcceleratingJointMotion) {
  const std::vector<double> q0{0.0, 0.8, 0.0, 0.0};
  const std::vector<double> delta{0.0, 0.0, 1.0, 0.0};  // one jogged joint, as in manual mode
  MotionPredictor predictor(4);
  double t = 0.0;
  for (int k = 0; k < 10; ++k, t += kFeedPeriod) predictor.add({t, joint_motion(q0, delta, 0.1 * t + 2.0 * t * t)});
  const Prediction p = predictor.predict();
  ASSERT_EQ(p.model, MotionModel::joint);
  EXPECT_LT(angle_between(p.joint_direction, delta), 1e-9);
  // ds/dt at the end is 0.1 + 4 t ≈ 1.25; the fit over the last four samples lags by about 1.5 periods.
  const double t_last = t - kFeedPeriod;
  EXPECT_NEAR(p.joint_speed, 0.1 + 4.0 * t_last, 4.0 * 2.0 * kFeedPeriod);
}

TEST(MotionPredictor, RecoversACartesianMotion) {
  const PlanarArm arm;
  testing::Rng rng(22);
  const Vec3 p0(0.55, 0.25, 0.1), u = Vec3(-0.6, 0.7, 0.2).normalized();
  const double v = 0.25, omega = 0.6, theta0 = 0.4;  // m/s, rad/s
  MotionPredictor predictor(4, {}, kinematics_of(arm));
  double t = 0.0;
  for (int k = 0; k < 10; ++k, t += kFeedPeriod) {
    const Vec3 x = p0 + v * t * u;
    std::vector<double> q = arm.inverse(x.x(), x.y(), x.z(), theta0 + omega * t);
    for (double& qi : q) qi += 1e-7 * rng.normal();
    predictor.add({t, q});
  }
  const Prediction p = predictor.predict();
  ASSERT_EQ(p.model, MotionModel::cartesian);
  EXPECT_GT(p.joint_residual, 10.0 * p.cartesian_residual);
  EXPECT_LT(std::acos(std::min(1.0, p.linear_direction.dot(u))), 1e-3);
  EXPECT_NEAR(p.linear_speed, v, 1e-3);
  EXPECT_NEAR(p.angular_speed * p.rotation_axis.z(), omega, 1e-3);
  // The path's joints put the tool where eq. 2 continued puts it.
  const double t_last = t - kFeedPeriod;
  const auto path = predictor.path(p, 0.3, 6);
  for (int k = 0; k < 6; ++k) {
    const double tau = 0.05 * (k + 1);
    const Transform tool = arm.tool(path[k]);
    EXPECT_LT((tool.p - (p0 + v * (t_last + tau) * u)).norm(), 1e-4) << k;
    const double heading = std::atan2(tool.R(1, 0), tool.R(0, 0));
    EXPECT_NEAR(heading, theta0 + omega * (t_last + tau), 1e-4) << k;
  }
}

TEST(MotionPredictor, NoiseAloneIsStationary) {
  const PlanarArm arm;
  testing::Rng rng(23);
  const std::vector<double> q0{0.3, 1.1, -0.4, 0.2};
  for (const bool with_kinematics : {false, true}) {
    MotionPredictor predictor(4, {}, with_kinematics ? kinematics_of(arm) : ToolKinematics{});
    EXPECT_EQ(predictor.predict().model, MotionModel::stationary);  // no samples
    for (int k = 0; k < 10; ++k) {
      std::vector<double> q = q0;
      for (double& x : q) x += 1e-6 * rng.normal();
      predictor.add({k * kFeedPeriod, q});
      if (k == 0) {
        EXPECT_EQ(predictor.predict().model, MotionModel::stationary);  // one sample
      }
    }
    const Prediction p = predictor.predict();
    EXPECT_EQ(p.model, MotionModel::stationary);
    for (const auto& q : predictor.path(p, 0.5, 4)) EXPECT_EQ(q, p.q);
  }
}

TEST(MotionPredictor, BadInputIsNamed) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  robot_test::expect_error([] { MotionPredictor(0); }, {"at least one joint"});
  robot_test::expect_error([] { MotionPredictor(2, {.window = 1}); }, {"window"});
  robot_test::expect_error([] { MotionPredictor(2, {.length_scale = -1.0}); }, {"length_scale"});
  MotionPredictor p(2);
  robot_test::expect_error([&] { p.add({0.0, {1.0}}); }, {"1 joint values, the robot 2"});
  robot_test::expect_error([&] { p.add({0.0, {1.0, nan}}); }, {"joint 1 is not finite"});
  robot_test::expect_error([&] { p.add({nan, {1.0, 2.0}}); }, {"time is not finite"});
  p.add({1.0, {1.0, 2.0}});
  robot_test::expect_error([&] { p.add({1.0, {1.0, 2.0}}); }, {"not after the last one"});
  EXPECT_EQ(p.size(), 1u);  // the rejected samples were not kept
  robot_test::expect_error([&] { p.path(p.predict(), 0.0, 3); }, {"horizon"});
  robot_test::expect_error([&] { p.path(p.predict(), 1.0, 0); }, {"steps"});
}

}  // namespace
}  // namespace proxima::robot
