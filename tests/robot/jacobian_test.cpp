// SPDX-License-Identifier: BSD-3-Clause
// Link point Jacobians against the closed form of a planar two-link arm and
// against central differences of forward kinematics on the Panda, the UR5
// and a chain of mimic joints.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/jacobian.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/urdf.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

// Two revolute joints about z; link 1 is l1 long along its x axis, the
// second joint sits at its end.
std::string planar_arm(double l1) {
  return "<robot name=\"planar\"><link name=\"base\"/><link name=\"upper\"/><link name=\"fore\"/>"
         "<joint name=\"shoulder\" type=\"continuous\"><parent link=\"base\"/><child link=\"upper\"/>"
         "<axis xyz=\"0 0 1\"/></joint>"
         "<joint name=\"elbow\" type=\"continuous\"><parent link=\"upper\"/><child link=\"fore\"/>"
         "<origin xyz=\"" +
         robot_test::exact(l1) + " 0 0\"/><axis xyz=\"0 0 1\"/></joint></robot>";
}

TEST(PointJacobian, PlanarTwoLinkArmMatchesClosedForm) {
  const double l1 = 0.7, l2 = 0.45;
  const RobotModel m = parse_urdf(planar_arm(l1), ".");
  const int fore = m.link_index("fore");
  PointJacobian J;
  for (const auto& [t1, t2] : std::vector<std::pair<double, double>>{{0.0, 0.0}, {0.3, -1.1}, {2.5, 0.8}}) {
    const std::vector<double> q{t1, t2};
    const std::vector<Transform> poses = forward_kinematics(m, q);
    // The tip of the forearm, l2 along its x axis.
    const Vec3 tip = poses[static_cast<std::size_t>(fore)].apply(Vec3(l2, 0.0, 0.0));
    point_jacobian(m, poses, fore, tip, J);
    const double s1 = std::sin(t1), c1 = std::cos(t1), s12 = std::sin(t1 + t2), c12 = std::cos(t1 + t2);
    Eigen::Matrix<double, 6, 2> expected;
    expected << -l1 * s1 - l2 * s12, -l2 * s12,  //
        l1 * c1 + l2 * c12, l2 * c12,            //
        0.0, 0.0,                                //
        0.0, 0.0,                                //
        0.0, 0.0,                                //
        1.0, 1.0;
    EXPECT_LE((J - expected).cwiseAbs().maxCoeff(), 1e-14) << "q = " << t1 << ", " << t2 << "\n" << J;
  }
}

// The Jacobian of every link at a point fixed on it, against central
// differences of forward kinematics: linear rows from the point's motion,
// angular rows from R(q + h) R(q − h)ᵀ ≈ I + 2h [ω]×. Truncation is
// O(h²) ≈ 1e-10 and rounding about 1e-16 / h ≈ 1e-11 at h = 1e-5.
void expect_finite_differences(const RobotModel& m, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> angle(-2.0, 2.0), offset(-0.1, 0.1);
  const std::size_t n = m.variable_count();
  const double h = 1e-5;
  const Transform base{Eigen::AngleAxisd(0.4, Vec3(1.0, 2.0, 3.0).normalized()).toRotationMatrix(),
                       Vec3(0.2, -0.3, 0.5)};
  PointJacobian J;
  int checked = 0;
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<double> q(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Joint& j = m.joint(m.variable_joint(i));
      const double lo = std::isfinite(j.lower) ? j.lower : -2.0, hi = std::isfinite(j.upper) ? j.upper : 2.0;
      q[i] = lo + (hi - lo) * (0.5 + 0.4 * std::sin(angle(rng)));
    }
    const std::vector<Transform> poses = forward_kinematics(m, q, base);
    for (std::size_t l = 0; l < m.links().size(); ++l) {
      const Vec3 local(offset(rng), offset(rng), offset(rng));
      const Vec3 point = poses[l].apply(local);
      point_jacobian(m, poses, static_cast<int>(l), point, J);
      for (std::size_t i = 0; i < n; ++i) {
        std::vector<double> qp = q, qm = q;
        qp[i] += h;
        qm[i] -= h;
        const Transform Tp = forward_kinematics(m, qp, base)[l], Tm = forward_kinematics(m, qm, base)[l];
        const Vec3 lin = (Tp.apply(local) - Tm.apply(local)) / (2.0 * h);
        const Mat3 D = Tp.R * Tm.R.transpose();
        const Vec3 ang = Vec3(D(2, 1) - D(1, 2), D(0, 2) - D(2, 0), D(1, 0) - D(0, 1)) / (4.0 * h);
        const auto col = J.col(static_cast<Eigen::Index>(i));
        EXPECT_LE((col.head<3>() - lin).cwiseAbs().maxCoeff(), 1e-7)
            << m.name() << " link " << m.link(static_cast<int>(l)).name << " variable " << i;
        EXPECT_LE((col.tail<3>() - ang).cwiseAbs().maxCoeff(), 1e-7)
            << m.name() << " link " << m.link(static_cast<int>(l)).name << " variable " << i;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 5 * static_cast<int>(m.links().size() * n));
}

TEST(PointJacobian, PandaMatchesFiniteDifferences) {
  expect_finite_differences(load_urdf(robot_test::robots_dir() / "panda" / "panda.urdf"), 11);
}

TEST(PointJacobian, MimicJointsFoldIntoTheirTargetsColumns) {
  // The shipped robots have no moving mimic joint (the Panda's fingers are
  // fixed): a chain where a revolute and a prismatic joint each follow
  // another, with multipliers and offsets, composed through a mimic of a
  // mimic. Differences of forward kinematics see the mimics move with
  // their targets; the Jacobian must put their motion in those columns.
  const RobotModel m = parse_urdf(
      "<robot name=\"mimics\"><link name=\"l0\"/><link name=\"l1\"/><link name=\"l2\"/><link name=\"l3\"/>"
      "<link name=\"l4\"/><link name=\"l5\"/>"
      "<joint name=\"a\" type=\"revolute\"><parent link=\"l0\"/><child link=\"l1\"/><axis xyz=\"0 0 1\"/>"
      "<limit lower=\"-2\" upper=\"2\" effort=\"1\" velocity=\"1\"/></joint>"
      "<joint name=\"b\" type=\"revolute\"><parent link=\"l1\"/><child link=\"l2\"/>"
      "<origin xyz=\"0.4 0 0.1\" rpy=\"0.2 0.3 0\"/><axis xyz=\"0 1 0\"/>"
      "<limit lower=\"-3\" upper=\"3\" effort=\"1\" velocity=\"1\"/><mimic joint=\"a\" multiplier=\"-0.5\" offset=\"0.1\"/></joint>"
      "<joint name=\"c\" type=\"prismatic\"><parent link=\"l2\"/><child link=\"l3\"/>"
      "<origin xyz=\"0 0.3 0\"/><axis xyz=\"1 0 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>"
      "<joint name=\"d\" type=\"prismatic\"><parent link=\"l3\"/><child link=\"l4\"/>"
      "<origin xyz=\"0 0 0.2\" rpy=\"0 0 0.7\"/><axis xyz=\"0 1 1\"/>"
      "<limit lower=\"-3\" upper=\"3\" effort=\"1\" velocity=\"1\"/><mimic joint=\"c\" multiplier=\"2\"/></joint>"
      "<joint name=\"e\" type=\"continuous\"><parent link=\"l4\"/><child link=\"l5\"/>"
      "<origin xyz=\"0.1 0 0\"/><axis xyz=\"1 0 0\"/><mimic joint=\"b\" multiplier=\"3\"/></joint></robot>",
      ".");
  ASSERT_EQ(m.variable_count(), 2u);
  expect_finite_differences(m, 13);
}

TEST(PointJacobian, Ur5MatchesFiniteDifferences) {
  expect_finite_differences(load_urdf(robot_test::robots_dir() / "ur5" / "ur5.urdf"), 12);
}

TEST(PointJacobian, PrismaticColumnIsTheAxis) {
  // A slider along a tilted axis: every point of the carriage moves along
  // the axis at unit rate, with no rotation.
  const RobotModel m = parse_urdf(
      "<robot name=\"slider\"><link name=\"base\"/><link name=\"carriage\"/>"
      "<joint name=\"slide\" type=\"prismatic\"><parent link=\"base\"/><child link=\"carriage\"/>"
      "<origin xyz=\"0.1 0.2 0.3\" rpy=\"0.3 0 0\"/><axis xyz=\"0 3 4\"/>"
      "<limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"1\"/></joint></robot>",
      ".");
  const std::vector<double> q{0.25};
  const std::vector<Transform> poses = forward_kinematics(m, q);
  PointJacobian J;
  point_jacobian(m, poses, 1, Vec3(1.0, -2.0, 0.5), J);
  const Mat3 R = Eigen::AngleAxisd(0.3, Vec3::UnitX()).toRotationMatrix();
  const Vec3 axis = R * Vec3(0.0, 0.6, 0.8);
  EXPECT_LE((J.col(0).head<3>() - axis).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_EQ(J.col(0).tail<3>(), Vec3::Zero());
}

TEST(PointJacobian, RefusesBadLinkAndPoseCount) {
  const RobotModel m = parse_urdf(planar_arm(0.5), ".");
  const std::vector<Transform> poses = forward_kinematics(m, std::vector<double>{0.0, 0.0});
  PointJacobian J;
  robot_test::expect_error([&] { point_jacobian(m, poses, 3, Vec3::Zero(), J); }, {"planar", "no link 3"});
  robot_test::expect_error([&] { point_jacobian(m, poses, -1, Vec3::Zero(), J); }, {"no link -1"});
  const std::vector<Transform> short_list(poses.begin(), poses.end() - 1);
  robot_test::expect_error([&] { point_jacobian(m, short_list, 1, Vec3::Zero(), J); },
                           {"2 link poses, expected 3"});
}

}  // namespace
}  // namespace proxima::robot
