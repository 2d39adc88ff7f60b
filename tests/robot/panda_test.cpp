// SPDX-License-Identifier: BSD-3-Clause
// The Franka Panda as packaged for MotionBenchMaker (tests/data/robots/panda,
// unchanged): kinematics against Franka's published (modified) DH
// parameters, every collision mesh, and self-collision of named poses with
// the SRDF's allowed pairs.
#include <cmath>
#include <fstream>
#include <numbers>
#include <set>

#include <gtest/gtest.h>

#include <proxima/io/mesh_io.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>

#include "robot_test_support.hpp"
#include "support/random.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

constexpr double kPi = std::numbers::pi;

std::filesystem::path panda_dir() { return robot_test::robots_dir() / "panda"; }

// Loaded once: the meshes take a moment and every test reads the same model.
const RobotModel& panda() {
  static const RobotModel m = load_urdf(panda_dir() / "panda.urdf");
  return m;
}

const SceneChecker& panda_checker(MeshMode mode) {
  static const SceneChecker hull = robot_test::panda_checker(MeshMode::convex_hull);
  static const SceneChecker raw = robot_test::panda_checker(MeshMode::triangle_mesh);
  return mode == MeshMode::convex_hull ? hull : raw;
}

// Craig's convention, as Franka publishes it: T = RotX(α) TransX(a) RotZ(θ) TransZ(d).
Eigen::Matrix4d dh(double a, double d, double alpha, double theta) {
  const double ca = std::cos(alpha), sa = std::sin(alpha), ct = std::cos(theta), st = std::sin(theta);
  Eigen::Matrix4d m;
  m << ct, -st, 0, a,  //
      st * ca, ct * ca, -sa, -d * sa,  //
      st * sa, ct * sa, ca, d * ca,  //
      0, 0, 0, 1;
  return m;
}

TEST(RobotPanda, ModelHasSevenArmJointsAndTheSrdfPairs) {
  const RobotModel& m = panda();
  EXPECT_EQ(m.name(), "panda");
  ASSERT_EQ(m.variable_count(), 7u);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(m.variable_names()[static_cast<std::size_t>(i)], "panda_joint" + std::to_string(i + 1));
  EXPECT_EQ(m.link(m.root_link()).name, "panda_link0");
  const Joint& j4 = m.joint(m.joint_index("panda_joint4"));
  EXPECT_DOUBLE_EQ(j4.lower, -3.1416);  // the <limit>, not the soft limits
  EXPECT_DOUBLE_EQ(j4.upper, 0.0873);
}

TEST(RobotPanda, ForwardKinematicsMatchesPublishedDhParameters) {
  const double a[] = {0, 0, 0, 0.0825, -0.0825, 0, 0.088};
  const double d[] = {0.333, 0, 0.316, 0, 0.384, 0, 0};
  const double alpha[] = {0, -kPi / 2, kPi / 2, kPi / 2, -kPi / 2, kPi / 2, kPi / 2};
  const RobotModel& m = panda();
  testing::Rng rng(81);
  for (int k = 0; k < 20; ++k) {
    double q[7];
    for (double& x : q) x = k == 0 ? 0.0 : rng.uniform(-2.9, 2.9);
    const std::vector<Transform> T = forward_kinematics(m, q);
    Eigen::Matrix4d acc = Eigen::Matrix4d::Identity();
    for (int i = 0; i < 8; ++i) {
      // Link 8 is the flange, 0.107 m along link 7's z.
      acc = acc * (i < 7 ? dh(a[i], d[i], alpha[i], q[i]) : dh(0, 0.107, 0, 0));
      const Transform& t = T[static_cast<std::size_t>(m.link_index("panda_link" + std::to_string(i + 1)))];
      // The URDF writes π/2 as 1.57079632679 (5e-12 short), hence 1e-10.
      EXPECT_LT((t.R - acc.topLeftCorner<3, 3>()).cwiseAbs().maxCoeff(), 1e-10) << "link " << i + 1 << " k " << k;
      EXPECT_LT((t.p - acc.topRightCorner<3, 1>()).cwiseAbs().maxCoeff(), 1e-10) << "link " << i + 1 << " k " << k;
    }
  }
  // q = 0: the flange at x = 0.088, z = 0.333 + 0.316 + 0.384 − 0.107 = 0.926, pointing down.
  const double zero[7] = {};
  const Transform f = forward_kinematics(m, zero)[static_cast<std::size_t>(m.link_index("panda_link8"))];
  EXPECT_NEAR((f.p - Vec3(0.088, 0, 0.926)).norm(), 0.0, 1e-10);
  EXPECT_NEAR((f.R * Vec3::UnitZ() - Vec3(0, 0, -1)).norm(), 0.0, 1e-10);
}

TEST(RobotPanda, EveryCollisionMeshLoads) {
  const SceneChecker& hull = panda_checker(MeshMode::convex_hull);
  const SceneChecker& raw = panda_checker(MeshMode::triangle_mesh);
  const char* with_geometry[] = {"panda_link0", "panda_link1", "panda_link2", "panda_link3", "panda_link4", "panda_link5",
                                 "panda_link6", "panda_link7", "panda_hand", "panda_leftfinger", "panda_rightfinger"};
  for (const char* name : with_geometry) {
    const int l = panda().link_index(name);
    ASSERT_GE(l, 0) << name;
    ASSERT_EQ(hull.geometry().link(l).shapes.size(), 1u) << name;
    const ConvexPolytope& p = hull.geometry().link(l).shapes[0].shape()->as<ConvexPolytope>();
    EXPECT_GE(p.vertices().size(), 4u) << name;
    const Bvh* b = raw.geometry().link(l).shapes[0].bvh();
    ASSERT_NE(b, nullptr) << name;
    EXPECT_GE(b->mesh().triangle_count(), 32u) << name;  // the fingers have the fewest
  }
  EXPECT_FALSE(hull.geometry().has_geometry(panda().link_index("panda_link8")));
  // 11 links with geometry, 55 pairs; the SRDF and adjacency allow most.
  EXPECT_LT(hull.self_pairs().size(), 55u);
  EXPECT_GT(hull.self_pairs().size(), 5u);
}

// Every disable_collisions line of the SRDF, found in its text with a plain
// string search, is an allowed pair, and the links of each joint are too.
TEST(RobotPanda, SrdfPairsAndJointNeighboursAreAllowed) {
  const SceneChecker& c = panda_checker(MeshMode::convex_hull);
  EXPECT_EQ(robot_test::expect_srdf_pairs_allowed(c, panda_dir() / "panda.srdf"), 34);
  for (const auto& [a, b] : c.self_pairs()) EXPECT_FALSE(c.allowed().allowed(a, b));
}

TEST(RobotPanda, ReadyPoseIsFreeOfSelfCollision) {
  const double ready[] = {0, -kPi / 4, 0, -3 * kPi / 4, 0, kPi / 2, kPi / 4};
  for (MeshMode mode : {MeshMode::convex_hull, MeshMode::triangle_mesh}) {
    const SceneChecker& c = panda_checker(mode);
    const RobotState s = c.state(ready);
    const CollisionReport r = c.self_collision(s);
    EXPECT_EQ(r.status, Status::ok);
    EXPECT_FALSE(r.collide()) << r.pairs.size() << " pairs, first " << (r.pairs.empty() ? "" : r.pairs[0].link_name + "–" + r.pairs[0].other_name);
    const DistanceReport d = c.self_distance(s);
    EXPECT_TRUE(d.found);
    EXPECT_GT(d.distance, 0.0);
    EXPECT_TRUE(joint_limit_violations(panda(), ready).empty());
  }
}

}  // namespace
}  // namespace proxima::robot

namespace proxima::robot {
namespace {

std::set<std::pair<std::string, std::string>> pair_names(const CollisionReport& r) {
  std::set<std::pair<std::string, std::string>> s;
  for (const PairId& p : r.pairs) s.insert({p.link_name, p.other_name});
  return s;
}

// Folded poses found by a scan over joints 2, 4 and 6 (the rest at 0); both
// the hulls and the raw meshes must report exactly the pairs that touch.
TEST(RobotPanda, FoldedPosesCollideWithTheRightPairs) {
  struct Case {
    double q[7];
    std::set<std::pair<std::string, std::string>> pairs;
  };
  const Case cases[] = {
      // Elbow bent to −2.5 and the wrist folded flat (joint 6 at 0): the
      // hand and flange fold back onto the forearm.
      {{0, 0, 0, -2.5, 0, 0, 0},
       {{"panda_link5", "panda_link7"}, {"panda_link5", "panda_hand"}, {"panda_link5", "panda_rightfinger"}}},
      // Shoulder forward, elbow fully bent, wrist at 2.5: the hand comes
      // down onto the base.
      {{0, 0.5, 0, -3.0, 0, 2.5, 0}, {{"panda_link0", "panda_hand"}, {"panda_link0", "panda_rightfinger"}}},
  };
  for (const Case& k : cases) {
    EXPECT_TRUE(joint_limit_violations(panda(), k.q).empty());
    for (MeshMode mode : {MeshMode::convex_hull, MeshMode::triangle_mesh}) {
      const SceneChecker& c = panda_checker(mode);
      const RobotState s = c.state(k.q);
      const CollisionReport r = c.self_collision(s);
      EXPECT_EQ(r.status, Status::ok);
      EXPECT_EQ(pair_names(r), k.pairs) << "mode " << static_cast<int>(mode) << " q4 " << k.q[3];
      const DistanceReport d = c.self_distance(s);
      EXPECT_TRUE(d.found);
      EXPECT_EQ(d.distance, 0.0);
      EXPECT_EQ(k.pairs.count({d.pair.link_name, d.pair.other_name}), 1u);
      const ToleranceReport t = c.tolerance(s, Environment{}, 0.0);
      EXPECT_TRUE(t.within && t.self);
    }
  }
}

}  // namespace
}  // namespace proxima::robot
