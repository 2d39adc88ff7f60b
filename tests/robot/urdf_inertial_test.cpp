// SPDX-License-Identifier: BSD-3-Clause
// URDF mass data: <inertial> on links, <limit effort> and <dynamics> on
// joints; what is read, and every refusal naming the element, the field and
// the reason.
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include <proxima/robot/urdf.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using robot_test::expect_error;

// Links a (root) and b (line 3) joined by a revolute joint (line 4) whose <limit> attributes
// and extra elements are `joint_extra`; b's body is `b_inside`.
std::string arm(const std::string& b_inside, const std::string& joint_extra = "<limit lower=\"-1\" upper=\"1\"/>") {
  std::string s = "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\">";
  s.append(b_inside).append("</link>\n<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>");
  s.append("<axis xyz=\"0 0 1\"/>").append(joint_extra).append("</joint>\n</robot>\n");
  return s;
}

std::string inertia_xml(const std::string& attributes, const std::string& mass = "<mass value=\"2\"/>") {
  return "<inertial><origin xyz=\"0.1 0 0\"/>" + mass + "<inertia " + attributes + "/></inertial>";
}

const char* kBox = "ixx=\"0.2\" iyy=\"0.3\" izz=\"0.4\" ixy=\"0.01\" ixz=\"-0.02\" iyz=\"0.03\"";

TEST(RobotUrdfInertial, ReadsMassCentreAndInertia) {
  const std::string text = arm(
      "<inertial><origin xyz=\"0.1 0.2 -0.3\" rpy=\"0 0 1.5707963267948966\"/><mass value=\"2.5\"/>"
      "<inertia ixx=\"0.2\" iyy=\"0.3\" izz=\"0.4\" ixy=\"0.01\" ixz=\"-0.02\" iyz=\"0.03\"/></inertial>");
  const RobotModel m = parse_urdf(text, ".");
  const Inertial& in = m.link(m.link_index("b")).inertial;
  EXPECT_EQ(in.mass, 2.5);
  EXPECT_EQ(in.origin.p, Vec3(0.1, 0.2, -0.3));
  EXPECT_NEAR((in.origin.R * Vec3::UnitX() - Vec3::UnitY()).norm(), 0.0, 1e-15);
  Mat3 expected;
  expected << 0.2, 0.01, -0.02, 0.01, 0.3, 0.03, -0.02, 0.03, 0.4;
  EXPECT_EQ(in.inertia, expected);
  EXPECT_EQ(in.where.line, 3);
  // The root has none: massless.
  EXPECT_EQ(m.link(m.link_index("a")).inertial.mass, 0.0);
  EXPECT_EQ(m.link(m.link_index("a")).inertial.inertia, Mat3::Zero());
}

TEST(RobotUrdfInertial, AcceptsTheLowerTriangleWhenItAgreesAndBodiesOnTheTriangleEdge) {
  // A thin rod (ixx = iyy, izz = 0) meets the triangle inequality with
  // equality; a written iyx equal to ixy is the same tensor.
  const RobotModel rod = parse_urdf(arm(inertia_xml("ixx=\"0.5\" iyy=\"0.5\" izz=\"0\" ixy=\"0\" ixz=\"0\" iyz=\"0\"")), ".");
  EXPECT_EQ(rod.link(1).inertial.inertia(0, 0), 0.5);
  const RobotModel both = parse_urdf(
      arm(inertia_xml(std::string(kBox) + " iyx=\"0.01\" izx=\"-0.02\" izy=\"0.03\"")), ".");
  EXPECT_EQ(both.link(1).inertial.inertia(2, 1), 0.03);
}

TEST(RobotUrdfInertial, RefusesBadMassAndInertia) {
  expect_error([] { parse_urdf(arm(inertia_xml(kBox, "<mass value=\"-1\"/>")), "."); },
               {"line 3", "link 'b'", "mass", "negative"});
  expect_error([] { parse_urdf(arm(inertia_xml(kBox, "<mass value=\"nan\"/>")), "."); },
               {"line 3", "link 'b'", "<mass>", "value", "not finite"});
  expect_error([] { parse_urdf(arm(inertia_xml(kBox, "<mass value=\"inf\"/>")), "."); },
               {"link 'b'", "value", "not finite"});
  expect_error([] { parse_urdf(arm(inertia_xml(kBox, "<mass/>")), "."); }, {"link 'b'", "<mass>", "'value'"});
  expect_error([] { parse_urdf(arm(inertia_xml(kBox, "")), "."); }, {"link 'b'", "no <mass>"});
  expect_error([] { parse_urdf(arm("<inertial><mass value=\"1\"/></inertial>"), "."); }, {"link 'b'", "no <inertia>"});
  expect_error([] { parse_urdf(arm(inertia_xml(kBox) + inertia_xml(kBox)), "."); }, {"link 'b'", "two <inertial>"});
  expect_error([] { parse_urdf(arm(inertia_xml("ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\"")), "."); },
               {"link 'b'", "<inertia>", "'iyz'"});
  expect_error([] { parse_urdf(arm(inertia_xml(std::string(kBox) + " ixyy=\"0\"")), "."); },
               {"link 'b'", "unknown attribute 'ixyy'"});
  expect_error([] { parse_urdf(arm(inertia_xml(kBox, "<mass value=\"1\" unit=\"kg\"/>")), "."); },
               {"link 'b'", "unknown attribute 'unit'"});
  // Not positive semi-definite: a negative moment, and positive moments
  // with a product of inertia too large (eigenvalue 0.1 − 0.5 < 0).
  expect_error([] { parse_urdf(arm(inertia_xml("ixx=\"-0.1\" iyy=\"0.3\" izz=\"0.3\" ixy=\"0\" ixz=\"0\" iyz=\"0\"")), "."); },
               {"line 3", "link 'b'", "inertia", "not positive semi-definite"});
  expect_error([] { parse_urdf(arm(inertia_xml("ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0.5\" ixz=\"0\" iyz=\"0\"")), "."); },
               {"link 'b'", "inertia", "not positive semi-definite"});
  // Triangle inequality: izz > ixx + iyy (by 1e-6 relative: beyond 1e-9).
  expect_error([] { parse_urdf(arm(inertia_xml("ixx=\"1\" iyy=\"1\" izz=\"2.000002\" ixy=\"0\" ixz=\"0\" iyz=\"0\"")), "."); },
               {"link 'b'", "inertia", "triangle inequality"});
  // Not symmetric: a written lower triangle that disagrees.
  expect_error([] { parse_urdf(arm(inertia_xml(std::string(kBox) + " izy=\"0.04\"")), "."); },
               {"link 'b'", "inertia", "not symmetric", "iyz", "izy"});
  expect_error([] { parse_urdf(arm(inertia_xml(kBox).replace(0, 10, "<inertial><origin xyz=\"nan 0 0\"/>")), "."); },
               {"link 'b'", "xyz", "not finite"});
}

TEST(RobotUrdfInertial, ModelsBuiltInCodeAreCheckedToo) {
  auto build = [](const Inertial& in) {
    std::vector<Link> links(2);
    links[0].name = "a";
    links[1].name = "b";
    links[1].inertial = in;
    Joint j;
    j.name = "j";
    j.parent = "a";
    j.child = "b";
    return RobotModel("coded", links, {j});
  };
  Inertial in;
  in.mass = 1.0;
  in.inertia = Mat3::Identity();
  EXPECT_EQ(build(in).link(1).inertial.mass, 1.0);
  Inertial neg = in;
  neg.mass = -0.5;
  expect_error([&] { build(neg); }, {"coded", "link 'b'", "mass", "negative"});
  Inertial nan_mass = in;
  nan_mass.mass = std::numeric_limits<double>::quiet_NaN();
  expect_error([&] { build(nan_mass); }, {"link 'b'", "mass", "not finite"});
  Inertial skew = in;
  skew.inertia(0, 1) = 0.2;
  expect_error([&] { build(skew); }, {"link 'b'", "not symmetric", "ixy"});
  Inertial inf = in;
  inf.inertia(2, 2) = std::numeric_limits<double>::infinity();
  expect_error([&] { build(inf); }, {"link 'b'", "inertia", "not finite"});
}

TEST(RobotUrdfInertial, ReadsAndRefusesEffortDampingFriction) {
  const RobotModel m =
      parse_urdf(arm("", "<limit lower=\"-1\" upper=\"1\" effort=\"40\" velocity=\"2\"/>"
                         "<dynamics damping=\"0.7\" friction=\"0.25\"/>"),
                 ".");
  const Joint& j = m.joint(0);
  EXPECT_EQ(j.effort, 40.0);
  EXPECT_EQ(j.damping, 0.7);
  EXPECT_EQ(j.friction, 0.25);
  // Absent: no effort limit, no damping, no friction; effort 0 means "not given".
  const RobotModel plain = parse_urdf(arm("", "<limit lower=\"-1\" upper=\"1\" effort=\"0\"/>"), ".");
  EXPECT_EQ(plain.joint(0).effort, std::numeric_limits<double>::infinity());
  EXPECT_EQ(plain.joint(0).damping, 0.0);
  EXPECT_EQ(plain.joint(0).friction, 0.0);

  expect_error([] { parse_urdf(arm("", "<limit lower=\"-1\" upper=\"1\" effort=\"-3\"/>"), "."); },
               {"line 4", "joint 'j'", "effort", "negative"});
  expect_error([] { parse_urdf(arm("", "<limit lower=\"-1\" upper=\"1\"/><dynamics damping=\"-0.1\"/>"), "."); },
               {"line 4", "joint 'j'", "damping", "negative"});
  expect_error([] { parse_urdf(arm("", "<limit lower=\"-1\" upper=\"1\"/><dynamics friction=\"-2\"/>"), "."); },
               {"joint 'j'", "friction", "negative"});
  expect_error([] { parse_urdf(arm("", "<limit lower=\"-1\" upper=\"1\"/><dynamics damping=\"inf\"/>"), "."); },
               {"joint 'j'", "damping", "not finite"});
  expect_error([] { parse_urdf(arm("", "<limit lower=\"-1\" upper=\"1\"/><dynamics dampng=\"1\"/>"), "."); },
               {"joint 'j'", "unknown attribute 'dampng'"});
  // Built in code.
  std::vector<Link> links(2);
  links[0].name = "a";
  links[1].name = "b";
  Joint jt;
  jt.name = "j";
  jt.type = JointType::continuous;
  jt.parent = "a";
  jt.child = "b";
  Joint bad = jt;
  bad.friction = -1.0;
  expect_error([&] { RobotModel("coded", links, {bad}); }, {"joint 'j'", "friction", ">= 0"});
  bad = jt;
  bad.damping = std::numeric_limits<double>::quiet_NaN();
  expect_error([&] { RobotModel("coded", links, {bad}); }, {"joint 'j'", "damping", "finite"});
  bad = jt;
  bad.effort = 0.0;
  expect_error([&] { RobotModel("coded", links, {bad}); }, {"joint 'j'", "effort", "positive"});
}

TEST(RobotUrdfInertial, ShippedRobotsLoadWithTheirMasses) {
  const RobotModel panda = load_urdf(robot_test::robots_dir() / "panda" / "panda.urdf");
  const Inertial& l1 = panda.link(panda.link_index("panda_link1")).inertial;
  EXPECT_EQ(l1.mass, 2.7);
  EXPECT_EQ(l1.origin.p, Vec3(0, -0.04, -0.05));
  EXPECT_EQ(l1.inertia, 0.1 * Mat3::Identity());
  EXPECT_EQ(panda.joint(panda.joint_index("panda_joint1")).effort, 87.0);
  EXPECT_EQ(panda.joint(panda.joint_index("panda_joint7")).effort, 12.0);
  // The UR5's gripper writes iyx, izx, izy too (equal to their mirrors).
  const RobotModel ur5 = load_urdf(robot_test::robots_dir() / "ur5" / "ur5.urdf");
  const Inertial& knuckle = ur5.link(ur5.link_index("robotiq_85_left_knuckle_link")).inertial;
  EXPECT_EQ(knuckle.mass, 0.018491);
  EXPECT_EQ(knuckle.inertia(0, 1), -0.000001);
  EXPECT_EQ(knuckle.inertia(1, 0), -0.000001);
  EXPECT_EQ(ur5.joint(ur5.joint_index("shoulder_pan_joint")).effort, 150.0);
  EXPECT_EQ(ur5.joint(ur5.joint_index("shoulder_pan_joint")).damping, 0.0);
  double total = 0.0;
  for (const Link& l : ur5.links()) total += l.inertial.mass;
  // Arm 21.4 kg, sensor and gripper about 1.4 kg: summed from the file by hand.
  EXPECT_NEAR(total, 4.0 + 3.7 + 8.393 + 2.275 + 1.219 + 1.219 + 0.1879 + 0.65 + 0.636951 + 2 * 0.018491 +
                         2 * 0.027309 + 2 * 0.029951 + 2 * 0.019555,
              1e-12);
}

}  // namespace
}  // namespace proxima::robot
