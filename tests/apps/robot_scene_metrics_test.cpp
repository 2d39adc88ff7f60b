// SPDX-License-Identifier: BSD-3-Clause
// The demo report's robot-scene metrics against a block on an inclined
// plate held by a stiff PD: below the friction angle the block sticks (no
// slip) and presses with m g cos α; above it, it slides down the slope by
// the incline's closed form, ½ g (sin α − μ cos α) t², in the plate's frame.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <proxima/robot/urdf.hpp>
#include <proxima/sim/body.hpp>

#include "robot_scene_metrics.hpp"

namespace proxima {
namespace {

constexpr double kG = 9.81;

// A 1 m × 0.3 m × 0.04 m plate of 2 kg on a revolute joint about +y at the
// origin (positive q turns its x axis down).
robot::RobotGeometry plate() {
  const std::string urdf =
      "<robot name=\"arm\"><link name=\"base\"/><link name=\"plate\"><inertial><origin xyz=\"0.5 0 0\"/>"
      "<mass value=\"2\"/><inertia ixx=\"0.015267\" iyy=\"0.166933\" izz=\"0.181667\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
      "</inertial><collision><origin xyz=\"0.5 0 0\"/><geometry><box size=\"1 0.3 0.04\"/></geometry></collision>"
      "</link><joint name=\"pivot\" type=\"continuous\"><parent link=\"base\"/><child link=\"plate\"/>"
      "<axis xyz=\"0 1 0\"/><dynamics damping=\"200\"/></joint></robot>";
  return robot::RobotGeometry(robot::parse_urdf(urdf, "."));
}

struct InclineRun {
  std::vector<sim::MetricResult> metrics;
  double mass = 0.0;
};

// The block (10 cm, 1000 kg/m³) 0.4 m along the plate tilted by alpha, μ
// 0.4; 100 steps to settle, then `steps` more, the window from step 100.
InclineRun block_on_incline(double alpha, int steps) {
  sim::World w;
  w.friction.default_mu = 0.4;
  w.options.dt = 1e-3;
  const Vec3 slope(std::cos(alpha), 0.0, -std::sin(alpha)), normal(std::sin(alpha), 0.0, std::cos(alpha));
  const Mat3 tilt = Eigen::AngleAxisd(alpha, Vec3::UnitY()).toRotationMatrix();
  w.add(sim::make_body("block", Box(0.1, 0.1, 0.1), 1000.0, Transform{tilt, 0.4 * slope + 0.07 * normal}));
  robot::RobotWorld rw(plate(), Transform::identity(),
                       {Eigen::VectorXd::Constant(1, alpha), Eigen::VectorXd::Zero(1)}, std::move(w));
  rw.robot().set_pd(Eigen::VectorXd::Constant(1, 1e5), Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, alpha),
                    Eigen::VectorXd::Zero(1));
  apps::RobotSceneMetrics metrics(0, 0.1);
  for (int i = 0; i < 100 + steps; ++i) {
    rw.step();
    metrics.observe(rw);
  }
  return {metrics.results(rw.world().options.dt, 0.5), rw.world().bodies()[0].mass.mass};
}

const sim::MetricResult* find(const std::vector<sim::MetricResult>& m, const std::string& name) {
  for (const sim::MetricResult& r : m)
    if (r.name == name) return &r;
  return nullptr;
}

TEST(RobotSceneMetrics, AStickingBlockDoesNotSlipAndPressesWithItsWeight) {
  const double alpha = 0.25;  // below atan 0.4
  const InclineRun r = block_on_incline(alpha, 300);
  const sim::MetricResult* slip = find(r.metrics, "slip");
  const sim::MetricResult* noise = find(r.metrics, "force_noise");
  const sim::MetricResult* real_time = find(r.metrics, "real_time");
  ASSERT_TRUE(slip && noise && real_time);
  EXPECT_LT(slip->value, 1e-3);  // mm
  // The text carries the mean force: m g cos α.
  const double expected = r.mass * kG * std::cos(alpha);
  const double mean = std::stod(noise->text.substr(noise->text.find("links ") + 6));
  EXPECT_NEAR(mean, expected, 1e-3 * expected) << noise->text;
  EXPECT_LT(noise->value, 1e-3 * expected);
  EXPECT_DOUBLE_EQ(real_time->value, 2.0);  // 1 ms steps taking 0.5 ms
}

TEST(RobotSceneMetrics, ASlidingBlockSlipsAsTheInclineSays) {
  const double alpha = 0.6, mu = 0.4;
  const int steps = 300;
  const InclineRun r = block_on_incline(alpha, steps);
  const sim::MetricResult* slip = find(r.metrics, "slip");
  ASSERT_NE(slip, nullptr);
  // Sliding from rest at t = 0 under semi-implicit Euler, s_n = a Δt² n (n + 1) / 2
  // after n steps; the window runs from step 100 to step 100 + steps.
  const double a = kG * (std::sin(alpha) - mu * std::cos(alpha)), dt = 1e-3;
  const auto s = [&](double n) { return 0.5 * a * dt * dt * n * (n + 1.0); };
  const double expected_mm = 1e3 * (s(100.0 + steps) - s(100.0));
  EXPECT_NEAR(slip->value, expected_mm, 0.01 * expected_mm);
}

TEST(RobotSceneMetrics, NoHolderNoSlipAndNoContactNoNoise) {
  // The plate swinging free in an empty world: no body, no contact.
  robot::RobotWorld rw(plate(), Transform::identity(), {Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1)},
                       sim::World{});
  apps::RobotSceneMetrics metrics(-1, 0.0);
  for (int i = 0; i < 50; ++i) {
    rw.step();
    metrics.observe(rw);
  }
  const std::vector<sim::MetricResult> m = metrics.results(1e-3, 0.25);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].name, "real_time");
  EXPECT_DOUBLE_EQ(m[0].value, 4.0);
}

}  // namespace
}  // namespace proxima
