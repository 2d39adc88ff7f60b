// SPDX-License-Identifier: BSD-3-Clause
// Forward kinematics of a small arm against products of closed-form
// homogeneous matrices written out here (cos/sin entries, not Eigen's
// AngleAxis or our Transform), to 1e-12.
#include <cmath>
#include <limits>
#include <numbers>

#include <gtest/gtest.h>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/urdf.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using Eigen::Matrix4d;

Matrix4d kin_rx(double a) {
  const double c = std::cos(a), s = std::sin(a);
  Matrix4d m;
  m << 1, 0, 0, 0, 0, c, -s, 0, 0, s, c, 0, 0, 0, 0, 1;
  return m;
}
Matrix4d kin_ry(double a) {
  const double c = std::cos(a), s = std::sin(a);
  Matrix4d m;
  m << c, 0, s, 0, 0, 1, 0, 0, -s, 0, c, 0, 0, 0, 0, 1;
  return m;
}
Matrix4d kin_rz(double a) {
  const double c = std::cos(a), s = std::sin(a);
  Matrix4d m;
  m << c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1;
  return m;
}
Matrix4d kin_tr(double x, double y, double z) {
  Matrix4d m = Matrix4d::Identity();
  m(0, 3) = x;
  m(1, 3) = y;
  m(2, 3) = z;
  return m;
}

void expect_pose(const Transform& t, const Matrix4d& m, const char* what) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(t.R(r, c), m(r, c), 1e-12) << what << " R(" << r << "," << c << ")";
    EXPECT_NEAR(t.p(r), m(r, 3), 1e-12) << what << " p(" << r << ")";
  }
}

RobotModel small_arm() { return parse_urdf(robot_test::small_arm_urdf(), ".", {}, "arm.urdf"); }

TEST(RobotKinematics, VariablesAreTheMovingNonMimicJointsInDocumentOrder) {
  const RobotModel m = small_arm();
  EXPECT_EQ(m.variable_names(), (std::vector<std::string>{"j1", "j2", "j3"}));
  EXPECT_EQ(m.links().size(), 6u);
  const Joint& finger = m.joint(m.joint_index("jfinger"));
  EXPECT_EQ(finger.variable, 1);
  EXPECT_DOUBLE_EQ(finger.variable_multiplier, -2.0);
  EXPECT_DOUBLE_EQ(finger.variable_offset, 0.1);
  EXPECT_NEAR(finger.axis.norm(), 1.0, 1e-15);
  EXPECT_EQ(m.link(m.root_link()).name, "base");
  EXPECT_TRUE(m.adjacent(m.link_index("l3"), m.link_index("finger")));
  EXPECT_FALSE(m.adjacent(m.link_index("l1"), m.link_index("l3")));
}

TEST(RobotKinematics, MatchesHandComposedTransforms) {
  const RobotModel m = small_arm();
  const double qs[][3] = {{0, 0, 0}, {0.7, -0.4, 0.1}, {-2.5, 1.9, 0.3}, {3.1, -2.2, -0.05}, {1.0, 0.25, 0.2}};
  for (const auto& q : qs) {
    const std::vector<Transform> T = forward_kinematics(m, q);
    // The rpy origin of j2: Rz(yaw) Ry(pitch) Rx(roll).
    const Matrix4d l1 = kin_tr(0, 0, 0.5) * kin_rz(q[0]);
    const Matrix4d l2 = l1 * kin_tr(0.1, 0, 0.3) * kin_rz(0.5) * kin_ry(-0.2) * kin_rx(0.3) * kin_ry(q[1]);
    const Matrix4d l3 = l2 * kin_tr(0.4, 0, 0) * kin_tr(q[2], 0, 0);
    const Matrix4d tool = l3 * kin_tr(0, 0, 0.1) * kin_rz(std::numbers::pi / 2);
    const Matrix4d finger = l3 * kin_tr(0.05, 0.02, 0) * kin_ry(0.7) * kin_rz(-2.0 * q[1] + 0.1);
    expect_pose(T[static_cast<std::size_t>(m.link_index("base"))], Matrix4d::Identity(), "base");
    expect_pose(T[static_cast<std::size_t>(m.link_index("l1"))], l1, "l1");
    expect_pose(T[static_cast<std::size_t>(m.link_index("l2"))], l2, "l2");
    expect_pose(T[static_cast<std::size_t>(m.link_index("l3"))], l3, "l3");
    expect_pose(T[static_cast<std::size_t>(m.link_index("tool"))], tool, "tool");
    expect_pose(T[static_cast<std::size_t>(m.link_index("finger"))], finger, "finger");
  }
}

// Joints about oblique axes (forward kinematics folds each revolute
// joint's motion into its origin by Rodrigues' formula): a rotation by θ
// about the unit axis with azimuth α and polar angle β is
// Rz(α) Ry(β) Rz(θ) Ry(−β) Rz(−α), which never forms the axis' cross matrix.
TEST(RobotKinematics, ObliqueAxesMatchConjugatedRotations) {
  const RobotModel m = parse_urdf(R"(<?xml version="1.0"?>
<robot name="oblique">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="turn" type="continuous">
    <parent link="a"/><child link="b"/>
    <origin xyz="0.1 0.2 0.3" rpy="0.3 -0.2 0.5"/><axis xyz="1 2 2"/>
  </joint>
  <joint name="slide" type="prismatic">
    <parent link="b"/><child link="c"/>
    <origin xyz="-0.2 0 0.4" rpy="0 0.7 0"/><axis xyz="2 -1 2"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>)",
                                  ".", {}, "oblique.urdf");
  const double alpha = std::atan2(2.0, 1.0), beta = std::acos(2.0 / 3.0);
  const Matrix4d origin_b = kin_tr(0.1, 0.2, 0.3) * kin_rz(0.5) * kin_ry(-0.2) * kin_rx(0.3);
  const Matrix4d origin_c = kin_tr(-0.2, 0, 0.4) * kin_ry(0.7);
  for (const double theta : {0.0, 0.4, -1.3, 2.9, -3.1}) {
    for (const double v : {0.0, 0.35, -0.8}) {
      const double q[] = {theta, v};
      const std::vector<Transform> T = forward_kinematics(m, q);
      const Matrix4d b = origin_b * kin_rz(alpha) * kin_ry(beta) * kin_rz(theta) * kin_ry(-beta) * kin_rz(-alpha);
      const Matrix4d c = b * origin_c * kin_tr(v * 2.0 / 3.0, -v / 3.0, v * 2.0 / 3.0);
      expect_pose(T[static_cast<std::size_t>(m.link_index("b"))], b, "b");
      expect_pose(T[static_cast<std::size_t>(m.link_index("c"))], c, "c");
    }
  }
}

TEST(RobotKinematics, BasePoseMovesEveryLink) {
  const RobotModel m = small_arm();
  const double q[] = {0.3, -0.6, 0.15};
  const Transform base = Transform::from_axis_angle(Vec3(1, 2, 3).normalized(), 0.8, Vec3(1, -2, 0.5));
  const std::vector<Transform> a = forward_kinematics(m, q);
  const std::vector<Transform> b = forward_kinematics(m, q, base);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Transform want = base * a[i];
    EXPECT_LT((b[i].R - want.R).norm(), 1e-12);
    EXPECT_LT((b[i].p - want.p).norm(), 1e-12);
  }
}

TEST(RobotKinematics, LimitViolationsAreReportedNotRejected) {
  const RobotModel m = small_arm();
  const double inside[] = {0.5, 0.2, 0.1};
  EXPECT_TRUE(joint_limit_violations(m, inside).empty());
  // j3 beyond 0.3; j2 = 1.5 keeps j2 inside but drives the finger to −2.9.
  const double outside[] = {0.5, 1.5, 0.5};
  EXPECT_NO_THROW(forward_kinematics(m, outside));
  const std::vector<LimitViolation> v = joint_limit_violations(m, outside);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].name, "j3");
  EXPECT_DOUBLE_EQ(v[0].value, 0.5);
  EXPECT_EQ(v[1].name, "jfinger");
  EXPECT_NEAR(v[1].value, -2.9, 1e-15);
  EXPECT_TRUE(joint_limit_violations(m, outside, 10.0).empty());
}

TEST(RobotKinematics, BadJointVectorsThrowNamingTheProblem) {
  const RobotModel m = small_arm();
  const double short_q[] = {0.1, 0.2};
  robot_test::expect_error([&] { forward_kinematics(m, short_q); }, {"arm", "2 values", "expected 3"});
  const double nan_q[] = {0.1, std::numeric_limits<double>::quiet_NaN(), 0.0};
  robot_test::expect_error([&] { forward_kinematics(m, nan_q); }, {"value 1", "j2", "not finite"});
  const double inf_q[] = {0.1, 0.0, std::numeric_limits<double>::infinity()};
  robot_test::expect_error([&] { forward_kinematics(m, inf_q); }, {"j3", "not finite"});
  const double ok_q[] = {0.0, 0.0, 0.0};
  Transform bad_base;
  bad_base.p.x() = std::numeric_limits<double>::quiet_NaN();
  robot_test::expect_error([&] { forward_kinematics(m, ok_q, bad_base); }, {"base pose", "not finite"});
}

}  // namespace
}  // namespace proxima::robot
