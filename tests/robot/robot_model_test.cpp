// SPDX-License-Identifier: BSD-3-Clause
// RobotModel built directly from C++ (not through the URDF reader, which
// rejects most of these earlier): every invalid field is an error naming the
// element, where it came from and the reason; valid mimic chains compose.
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/robot_model.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using robot_test::expect_error;

constexpr double kModelInf = std::numeric_limits<double>::infinity();
constexpr double kModelNaN = std::numeric_limits<double>::quiet_NaN();

Link model_link(const std::string& name, int line) {
  Link l;
  l.name = name;
  l.where = {"arm.urdf", line};
  return l;
}

Joint model_joint(const std::string& name, JointType type, const std::string& parent, const std::string& child) {
  Joint j;
  j.name = name;
  j.type = type;
  j.parent = parent;
  j.child = child;
  j.axis = Vec3::UnitZ();
  j.lower = -1.0;
  j.upper = 1.0;
  j.where = {"arm.urdf", 40};
  return j;
}

// base → a (revolute "shoulder") → b (revolute "elbow") → c (fixed "tool").
struct ModelChain {
  std::vector<Link> links{model_link("base", 2), model_link("a", 3), model_link("b", 4), model_link("c", 5)};
  std::vector<Joint> joints{model_joint("shoulder", JointType::revolute, "base", "a"),
                            model_joint("elbow", JointType::revolute, "a", "b"),
                            model_joint("tool", JointType::fixed, "b", "c")};
  RobotModel build() const { return RobotModel("arm", links, joints, {"arm.urdf", 1}); }
};

TEST(RobotModel, NamesJointTypes) {
  EXPECT_STREQ(to_string(JointType::revolute), "revolute");
  EXPECT_STREQ(to_string(JointType::continuous), "continuous");
  EXPECT_STREQ(to_string(JointType::prismatic), "prismatic");
  EXPECT_STREQ(to_string(JointType::fixed), "fixed");
}

TEST(RobotModel, ValidChainHasItsVariablesInDocumentOrder) {
  const RobotModel m = ModelChain().build();
  EXPECT_EQ(m.variable_names(), (std::vector<std::string>{"shoulder", "elbow"}));
  EXPECT_EQ(m.root_link(), 0);
  EXPECT_EQ(m.joints()[2].variable, -1);
}

TEST(RobotModel, NonFiniteCollisionOriginNamesTheLinkAndItsLine) {
  ModelChain c;
  CollisionElement e;
  e.origin = Transform::from_translation(Vec3(0.0, kModelNaN, 0.0));
  e.where = {"arm.urdf", 17};
  c.links[2].collisions.push_back(e);
  expect_error([&] { c.build(); }, {"robot 'arm'", "link 'b' (arm.urdf:17)", "collision origin is not finite"});
}

TEST(RobotModel, LimitsMustBeFiniteAndOrdered) {
  const std::vector<std::pair<double, double>> bad{{1.0, -1.0}, {-kModelInf, 1.0}, {0.0, kModelNaN}};
  for (const auto& [lower, upper] : bad) {
    ModelChain c;
    c.joints[1].lower = lower;
    c.joints[1].upper = upper;
    expect_error([&] { c.build(); }, {"joint 'elbow' (arm.urdf:40)", "must be finite with lower <= upper"});
  }
  // A continuous joint ignores its limits: it turns without end.
  ModelChain c;
  c.joints[1].type = JointType::continuous;
  c.joints[1].lower = 1.0;
  c.joints[1].upper = -1.0;
  const RobotModel m = c.build();
  EXPECT_EQ(m.joints()[1].lower, -kModelInf);
  EXPECT_EQ(m.joints()[1].upper, kModelInf);
}

TEST(RobotModel, VelocityLimitMustBePositive) {
  for (double v : {0.0, -2.0, kModelNaN}) {
    ModelChain c;
    c.joints[0].velocity = v;
    expect_error([&] { c.build(); }, {"joint 'shoulder'", "velocity limit", "must be positive"});
  }
}

TEST(RobotModel, MimicChainsComposeAndTheirErrorsNameTheJoint) {
  {
    // elbow = 2 shoulder + 0.5, a third joint mimics the elbow: −1 · (2 q + 0.5) + 0.25.
    ModelChain c;
    c.joints[1].mimic = Mimic{"shoulder", 2.0, 0.5};
    c.joints[2].type = JointType::prismatic;
    c.joints[2].mimic = Mimic{"elbow", -1.0, 0.25};
    const RobotModel m = c.build();
    EXPECT_EQ(m.variable_names(), std::vector<std::string>{"shoulder"});
    EXPECT_EQ(m.joints()[2].variable, 0);
    EXPECT_DOUBLE_EQ(m.joints()[2].variable_multiplier, -2.0);
    EXPECT_DOUBLE_EQ(m.joints()[2].variable_offset, -0.25);
  }
  {
    ModelChain c;
    c.joints[1].mimic = Mimic{"shoulder", kModelInf, 0.0};
    expect_error([&] { c.build(); }, {"joint 'elbow'", "mimic multiplier or offset is not finite"});
  }
  {
    ModelChain c;
    c.joints[1].mimic = Mimic{"shoulder", 1.0, kModelNaN};
    expect_error([&] { c.build(); }, {"joint 'elbow'", "mimic multiplier or offset is not finite"});
  }
  {
    ModelChain c;
    c.joints[1].mimic = Mimic{"wrist", 1.0, 0.0};
    expect_error([&] { c.build(); }, {"joint 'elbow'", "mimics joint 'wrist', which does not exist"});
  }
  {
    ModelChain c;
    c.joints[1].mimic = Mimic{"tool", 1.0, 0.0};
    expect_error([&] { c.build(); }, {"joint 'elbow'", "mimics joint 'tool', which is fixed"});
  }
  {
    ModelChain c;
    c.joints[0].mimic = Mimic{"elbow", 1.0, 0.0};
    c.joints[1].mimic = Mimic{"shoulder", 1.0, 0.0};
    expect_error([&] { c.build(); }, {"mimic joints form a cycle"});
  }
}

TEST(RobotModel, TreeErrorsNameTheRobotsSource) {
  {
    ModelChain c;
    c.joints.pop_back();  // link 'c' has no parent: two roots
    expect_error([&] { c.build(); }, {"robot 'arm' (arm.urdf:1)", "2 root links", "'base' and 'c'"});
  }
  {
    ModelChain c;
    c.links.clear();
    c.joints.clear();
    expect_error([&] { c.build(); }, {"robot 'arm' (arm.urdf:1)", "has no link"});
  }
  {
    ModelChain c;
    c.joints[1].axis = Vec3::Zero();
    expect_error([&] { c.build(); }, {"joint 'elbow'", "axis is zero or not finite"});
  }
}

}  // namespace
}  // namespace proxima::robot
