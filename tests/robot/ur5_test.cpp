// SPDX-License-Identifier: BSD-3-Clause
// The UR5 with a Robotiq 85 gripper as packaged for MotionBenchMaker
// (tests/data/robots/ur5; the URDF names gripper meshes the packaging lacks,
// see the folder's README): kinematics against Universal Robots' published
// DH parameters, every collision mesh, the SRDF's pairs, and self-collision
// of the SRDF's named pose.
#include <cmath>
#include <fstream>
#include <iterator>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>

#include "robot_test_support.hpp"
#include "support/random.hpp"

namespace proxima::robot {
namespace {

constexpr double kUr5Pi = std::numbers::pi;

std::filesystem::path ur5_dir() { return robot_test::robots_dir() / "ur5"; }

const RobotModel& ur5() {
  static const RobotModel m = load_urdf(ur5_dir() / "ur5.urdf");
  return m;
}

const SceneChecker& ur5_checker(MeshMode mode) {
  static const SceneChecker hull = robot_test::shipped_checker("ur5", MeshMode::convex_hull);
  static const SceneChecker raw = robot_test::shipped_checker("ur5", MeshMode::triangle_mesh);
  return mode == MeshMode::convex_hull ? hull : raw;
}

// Standard DH, as Universal Robots publishes it: T = RotZ(θ) TransZ(d) TransX(a) RotX(α).
Eigen::Matrix4d standard_dh(double a, double d, double alpha, double theta) {
  const double ca = std::cos(alpha), sa = std::sin(alpha), ct = std::cos(theta), st = std::sin(theta);
  Eigen::Matrix4d m;
  m << ct, -st * ca, st * sa, a * ct,  //
      st, ct * ca, -ct * sa, a * st,   //
      0, sa, ca, d,                    //
      0, 0, 0, 1;
  return m;
}

TEST(RobotUr5, ModelHasSixArmJoints) {
  const RobotModel& m = ur5();
  EXPECT_EQ(m.name(), "ur5_robotiq85");
  const char* names[] = {"shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
                         "wrist_1_joint",      "wrist_2_joint",       "wrist_3_joint"};
  ASSERT_EQ(m.variable_count(), 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(m.variable_names()[i], names[i]);
  EXPECT_EQ(m.link(m.root_link()).name, "offset_link");
}

// UR's DH frame 0 is base_link turned by π about z (ROS-Industrial's `base`
// frame); the flange (DH frame 6) is ee_link's origin, its z axis ee_link's x.
TEST(RobotUr5, ForwardKinematicsMatchesPublishedDhParameters) {
  const double a[] = {0, -0.425, -0.39225, 0, 0, 0};
  const double d[] = {0.089159, 0, 0, 0.10915, 0.09465, 0.0823};
  const double alpha[] = {kUr5Pi / 2, 0, 0, kUr5Pi / 2, -kUr5Pi / 2, 0};
  const RobotModel& m = ur5();
  const auto base = static_cast<std::size_t>(m.link_index("base_link"));
  const auto flange = static_cast<std::size_t>(m.link_index("ee_link"));
  Eigen::Matrix4d dh_base = Eigen::Matrix4d::Identity();
  dh_base.topLeftCorner<3, 3>() = Eigen::AngleAxisd(kUr5Pi, Vec3::UnitZ()).toRotationMatrix();
  testing::Rng rng(5);
  for (int k = 0; k < 30; ++k) {
    double q[6];
    for (double& x : q) x = k == 0 ? 0.0 : rng.uniform(-kUr5Pi, kUr5Pi);
    const std::vector<Transform> T = forward_kinematics(m, q);
    const Transform rel = T[base].inverse() * T[flange];
    Eigen::Matrix4d acc = dh_base;
    for (int i = 0; i < 6; ++i) acc = acc * standard_dh(a[i], d[i], alpha[i], q[i]);
    // The URDF writes π/2 as 1.570796325 (1.8e-9 short): good to a few nanometres.
    EXPECT_LT((rel.p - acc.topRightCorner<3, 1>()).norm(), 1e-8) << "k " << k;
    EXPECT_LT((rel.R.col(0) - acc.block<3, 1>(0, 2)).norm(), 1e-8) << "k " << k;
  }
  // q = 0: the arm stretched out, the flange 0.81725 m out, 0.19145 m to the side, 5.5 mm below the shoulder axis.
  const double zero[6] = {};
  const std::vector<Transform> T0 = forward_kinematics(m, zero);
  EXPECT_LT(((T0[base].inverse() * T0[flange]).p - Vec3(0.81725, 0.19145, 0.089159 - 0.09465)).norm(), 1e-8);
}

TEST(RobotUr5, EveryCollisionMeshLoads) {
  const SceneChecker& hull = ur5_checker(MeshMode::convex_hull);
  const SceneChecker& raw = ur5_checker(MeshMode::triangle_mesh);
  const char* arm[] = {"base_link", "shoulder_link", "upper_arm_link", "forearm_link",
                       "wrist_1_link", "wrist_2_link", "wrist_3_link", "robotiq_85_base_link"};
  for (const char* name : arm) {
    const int l = ur5().link_index(name);
    ASSERT_GE(l, 0) << name;
    ASSERT_EQ(hull.geometry().link(l).shapes.size(), 1u) << name;
    EXPECT_GE(hull.geometry().link(l).shapes[0].shape()->as<ConvexPolytope>().vertices().size(), 8u) << name;
    ASSERT_NE(raw.geometry().link(l).shapes[0].bvh(), nullptr) << name;
    EXPECT_GE(raw.geometry().link(l).shapes[0].bvh()->mesh().triangle_count(), 100u) << name;
  }
  int with_geometry = 0;
  for (std::size_t l = 0; l < ur5().links().size(); ++l) with_geometry += hull.geometry().has_geometry(static_cast<int>(l));
  EXPECT_EQ(with_geometry, 18);  // 7 arm links, ee_link, the force sensor, the gripper's base and 8 finger parts
}

TEST(RobotUr5, SrdfPairsAndJointNeighboursAreAllowed) {
  EXPECT_EQ(robot_test::expect_srdf_pairs_allowed(ur5_checker(MeshMode::convex_hull), ur5_dir() / "ur5.srdf"), 88);
}

// The SRDF's "home" pose (upper arm up, forearm level), with both geometries.
TEST(RobotUr5, HomePoseIsFreeOfSelfCollision) {
  const double home[] = {0, -1.57, 0, -1.57, 0, 0};
  for (MeshMode mode : {MeshMode::convex_hull, MeshMode::triangle_mesh}) {
    const SceneChecker& c = ur5_checker(mode);
    const RobotState s = c.state(home);
    const CollisionReport r = c.self_collision(s);
    EXPECT_EQ(r.status, Status::ok);
    EXPECT_FALSE(r.collide()) << r.pairs.size() << " pairs, first "
                              << (r.pairs.empty() ? "" : r.pairs[0].link_name + "–" + r.pairs[0].other_name);
    const DistanceReport d = c.self_distance(s);
    EXPECT_TRUE(d.found);
    EXPECT_GT(d.distance, 0.0);
    EXPECT_TRUE(joint_limit_violations(ur5(), home).empty());
  }
}

// The URDF as the packaging ships it names `*_fine.STL` gripper meshes that
// are not there: the error names the file, the link and the path tried.
TEST(RobotUr5, TheShippedUrdfsMissingMeshesAreNamed) {
  std::ifstream in(ur5_dir() / "ur5.urdf");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (std::size_t at = text.find("_coarse.STL"); at != std::string::npos; at = text.find("_coarse.STL", at))
    text.replace(at, 7, "_fine");
  robot_test::expect_error([&] { parse_urdf(text, ur5_dir(), {}, "ur5 as shipped"); },
                           {"ur5 as shipped", "robotiq_85_base_link", "robotiq_85_base_link_fine.STL", "no such file"});
  UrdfOptions kinematics_only;
  kinematics_only.require_meshes = false;
  EXPECT_EQ(parse_urdf(text, ur5_dir(), kinematics_only).variable_count(), 6u);
}

}  // namespace
}  // namespace proxima::robot
