// SPDX-License-Identifier: BSD-3-Clause
// URDF and SRDF reading: what is read, how mesh URIs resolve, and every
// rejection naming the element and the reason.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include <proxima/robot/collision_matrix.hpp>
#include <proxima/robot/link_geometry.hpp>
#include <proxima/robot/urdf.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using robot_test::expect_error;
using robot_test::TempDir;

// A robot of two links joined by `joint` (the text of a <joint>), the
// second link carrying `geometry` (the inside of <geometry>) when given.
std::string two_links(const std::string& joint, const std::string& geometry = "",
                      const std::string& collision_origin = "") {
  std::string s = "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\">";
  if (!geometry.empty())
    s += "<collision>" + collision_origin + "<geometry>" + geometry + "</geometry></collision>";
  return s + "</link>\n" + joint + "\n</robot>\n";
}
const char* kFixedAB = R"(<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>)";

TEST(RobotUrdf, ReadsCollisionElementsLimitsAndOrigins) {
  const RobotModel m = parse_urdf(robot_test::small_arm_urdf(), ".");
  EXPECT_EQ(m.name(), "arm");
  const Link& l2 = m.link(m.link_index("l2"));
  ASSERT_EQ(l2.collisions.size(), 1u);
  EXPECT_EQ(l2.collisions[0].geometry.kind, GeometrySpec::Kind::cylinder);
  EXPECT_DOUBLE_EQ(l2.collisions[0].geometry.radius, 0.04);
  EXPECT_DOUBLE_EQ(l2.collisions[0].geometry.length, 0.4);
  EXPECT_NEAR((l2.collisions[0].origin.p - Vec3(0.2, 0, 0)).norm(), 0.0, 1e-15);
  // rpy (0, π/2, 0) turns local z onto world x.
  EXPECT_NEAR((l2.collisions[0].origin.R * Vec3::UnitZ() - Vec3::UnitX()).norm(), 0.0, 1e-15);
  const Joint& j3 = m.joint(m.joint_index("j3"));
  EXPECT_EQ(j3.type, JointType::prismatic);
  EXPECT_DOUBLE_EQ(j3.lower, 0.0);
  EXPECT_DOUBLE_EQ(j3.upper, 0.3);
  // Its line, counted in the text.
  const std::string text = robot_test::small_arm_urdf();
  const auto at = text.find("<joint name=\"j3\"");
  EXPECT_EQ(j3.where.line, 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  const Link& l3 = m.link(m.link_index("l3"));
  EXPECT_EQ(l3.collisions[0].geometry.size, Vec3(0.1, 0.06, 0.04));
}

TEST(RobotUrdf, MultipleCollisionElementsPerLinkAndContinuousJoints) {
  const std::string urdf = R"(<robot name="r">
  <link name="a"/>
  <link name="b">
    <collision name="c1"><geometry><sphere radius="0.1"/></geometry></collision>
    <collision name="c2"><origin xyz="0 0 1"/><geometry><box size="1 2 3"/></geometry></collision>
  </link>
  <joint name="wheel" type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 1 0"/></joint>
</robot>)";
  const RobotModel m = parse_urdf(urdf, ".");
  const Link& b = m.link(1);
  ASSERT_EQ(b.collisions.size(), 2u);
  EXPECT_EQ(b.collisions[1].name, "c2");
  const Joint& w = m.joint(0);
  EXPECT_EQ(w.type, JointType::continuous);
  EXPECT_TRUE(std::isinf(w.lower) && std::isinf(w.upper));
  const RobotGeometry g(m, robot_test::options(MeshMode::convex_hull, 0.01));
  ASSERT_EQ(g.link(1).shapes.size(), 2u);
  EXPECT_EQ(g.link(1).shapes[0].shape()->type(), ShapeType::sphere);
  EXPECT_DOUBLE_EQ(g.link(1).shapes[1].shape()->margin(), 0.01);
  EXPECT_FALSE(g.has_geometry(0));
}

TEST(RobotUrdf, MeshUrisResolveAgainstPackagesTheUrdfFolderOrAbsolutePaths) {
  const std::filesystem::path base = "/robots/r";
  EXPECT_EQ(resolve_mesh_uri("package://meshes/x/y.obj", base), base / "meshes/x/y.obj");
  UrdfOptions o;
  o.packages["desc"] = "/opt/desc";
  EXPECT_EQ(resolve_mesh_uri("package://desc/m/y.stl", base, o), std::filesystem::path("/opt/desc/m/y.stl"));
  EXPECT_EQ(resolve_mesh_uri("package://other/y.stl", base, o), base / "other/y.stl");
  EXPECT_EQ(resolve_mesh_uri("file:///abs/y.ply", base), std::filesystem::path("/abs/y.ply"));
  EXPECT_EQ(resolve_mesh_uri("meshes/y.obj", base), base / "meshes/y.obj");
  EXPECT_EQ(resolve_mesh_uri("/abs/y.obj", base), std::filesystem::path("/abs/y.obj"));
  expect_error([&] { resolve_mesh_uri("package:///y.obj", base); }, {"empty package name"});
}

// Sets an environment variable for one scope, restoring it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// package:// through ROS 1's ROS_PACKAGE_PATH (folders holding packages, or
// a package itself) and ROS 2's AMENT_PREFIX_PATH (share/<pkg> of each
// prefix), after the explicit map and before the URDF's folder.
TEST(RobotUrdf, PackageUrisResolveThroughTheRosEnvironment) {
  TempDir dir;
  dir.write("ws1/src/arm_description/meshes/link.stl", "solid x\nendsolid x\n");
  dir.write("ws2/gripper/meshes/finger.stl", "solid x\nendsolid x\n");
  dir.write("install/share/camera/meshes/body.stl", "solid x\nendsolid x\n");
  const std::filesystem::path base = dir.path() / "robot";
  const std::string ros_package_path = (dir.path() / "nowhere").string() + "::" + (dir.path() / "ws1/src").string() +
                                       ":" + (dir.path() / "ws2/gripper/").string();
  const ScopedEnv ros1("ROS_PACKAGE_PATH", ros_package_path);
  const ScopedEnv ros2("AMENT_PREFIX_PATH", (dir.path() / "install").string());
  EXPECT_EQ(resolve_mesh_uri("package://arm_description/meshes/link.stl", base),
            dir.path() / "ws1/src/arm_description/meshes/link.stl");
  EXPECT_EQ(resolve_mesh_uri("package://gripper/meshes/finger.stl", base),
            dir.path() / "ws2/gripper/" / "meshes/finger.stl");
  EXPECT_EQ(resolve_mesh_uri("package://camera/meshes/body.stl", base),
            dir.path() / "install/share/camera/meshes/body.stl");
  // Not found anywhere: the URDF's folder, as before.
  EXPECT_EQ(resolve_mesh_uri("package://absent/m.stl", base), base / "absent/m.stl");
  // The explicit map wins; the environment can be switched off.
  UrdfOptions o;
  o.packages["camera"] = "/opt/camera";
  EXPECT_EQ(resolve_mesh_uri("package://camera/meshes/body.stl", base, o),
            std::filesystem::path("/opt/camera/meshes/body.stl"));
  UrdfOptions off;
  off.ros_environment = false;
  EXPECT_EQ(resolve_mesh_uri("package://arm_description/meshes/link.stl", base, off),
            base / "arm_description/meshes/link.stl");
}

TEST(RobotUrdf, MeshesLoadWithScaleAsHullOrTriangleMesh) {
  TempDir dir;
  // A unit tetrahedron at the origin.
  dir.write("pkg/tet.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
  const std::string geometry = R"(<mesh filename="package://mine/tet.obj" scale="2 3 4"/>)";
  UrdfOptions o;
  o.packages["mine"] = dir.path() / "pkg";
  const std::filesystem::path urdf = dir.write("r.urdf", two_links(kFixedAB, geometry));
  const RobotModel m = load_urdf(urdf, o);
  EXPECT_EQ(m.link(1).collisions[0].geometry.path, dir.path() / "pkg/tet.obj");
  const RobotGeometry hull(m);
  const ConvexPolytope& p = hull.link(1).shapes[0].shape()->as<ConvexPolytope>();
  EXPECT_EQ(p.vertices().size(), 4u);
  EXPECT_EQ(p.data().bounds.max, Vec3(2, 3, 4));
  EXPECT_EQ(hull.link(1).shapes[0].source, "package://mine/tet.obj");
  const RobotGeometry raw(m, robot_test::options(MeshMode::triangle_mesh, 0.5));
  const Bvh* b = raw.link(1).shapes[0].bvh();
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->mesh().triangle_count(), 4u);
  EXPECT_DOUBLE_EQ(b->mesh().margin(), 0.5);
  EXPECT_EQ(b->mesh().local_aabb().max, Vec3(2.5, 3.5, 4.5));
}

TEST(RobotUrdf, MalformedXmlNamesTheLine) {
  expect_error([] { parse_urdf("<robot name=\"r\">\n<link name=\"a\">\n</robot>", ".", {}, "bad.urdf"); },
               {"bad.urdf", "malformed XML"});
}

TEST(RobotUrdf, MissingRobotElement) {
  expect_error([] { parse_urdf("<?xml version=\"1.0\"?>\n<model name=\"x\"/>", ".", {}, "m.urdf"); },
               {"m.urdf", "no <robot>"});
  // The whole tree's errors name the <robot> element's source too (a fuzz
  // finding: they named only the robot).
  expect_error([] { parse_urdf("<robot name=\"r\"/>", "."); }, {"robot 'r' (line 1)", "has no link"});
  expect_error([] { parse_urdf("\n<robot name=\"r\"/>", ".", {}, "m.urdf"); }, {"robot 'r' (m.urdf:2)", "has no link"});
}

TEST(RobotUrdf, JointReferringToMissingLink) {
  const std::string j = R"(<joint name="elbow" type="fixed"><parent link="a"/><child link="nowhere"/></joint>)";
  expect_error([&] { parse_urdf(two_links(j), ".", {}, "r.urdf"); },
               {"joint 'elbow'", "r.urdf:4", "child link 'nowhere' does not exist"});
}

TEST(RobotUrdf, TwoParentsAndCyclesAreRejected) {
  const std::string two_parents = R"(<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
  <joint name="j1" type="fixed"><parent link="a"/><child link="c"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="c"/></joint></robot>)";
  expect_error([&] { parse_urdf(two_parents, "."); }, {"joint 'j2'", "link 'c'", "two parents"});
  const std::string loop = R"(<robot name="r"><link name="a"/><link name="b"/>
  <joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint></robot>)";
  expect_error([&] { parse_urdf(loop, "."); }, {"cycle"});
  const std::string island = R"(<robot name="r"><link name="root"/><link name="b"/><link name="c"/>
  <joint name="j1" type="fixed"><parent link="c"/><child link="b"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="c"/></joint></robot>)";
  expect_error([&] { parse_urdf(island, "."); }, {"link 'b'", "cycle"});
  const std::string forest = R"(<robot name="r"><link name="a"/><link name="b"/></robot>)";
  expect_error([&] { parse_urdf(forest, ".", {}, "f.urdf"); }, {"f.urdf:1", "2 root links", "'a'", "'b'"});
  const std::string dup = R"(<robot name="r"><link name="a"/><link name="a"/></robot>)";
  expect_error([&] { parse_urdf(dup, "."); }, {"link 'a'", "duplicate"});
}

TEST(RobotUrdf, MissingMeshNamesLinkUriAndPath) {
  TempDir dir;
  const std::filesystem::path urdf =
      dir.write("r.urdf", two_links(kFixedAB, R"(<mesh filename="package://meshes/gone.stl"/>)"));
  expect_error([&] { load_urdf(urdf); },
               {"link 'b'", "package://meshes/gone.stl", (dir.path() / "meshes/gone.stl").string(), "no such file"});
  // A directory where the mesh should be is named as such, not as missing.
  std::filesystem::create_directories(dir.path() / "meshes/gone.stl");
  expect_error([&] { load_urdf(urdf); }, {"link 'b'", "gone.stl': a directory, not a regular file"});
  std::filesystem::remove(dir.path() / "meshes/gone.stl");
  // Kinematics without the meshes; the geometry then names the mesh.
  UrdfOptions lenient;
  lenient.require_meshes = false;
  const RobotModel m = load_urdf(urdf, lenient);
  EXPECT_EQ(m.link(1).collisions[0].geometry.path, dir.path() / "meshes/gone.stl");
  expect_error([&] { RobotGeometry g(m); },
               {"link 'b'", "package://meshes/gone.stl", (dir.path() / "meshes/gone.stl").string()});
}

TEST(RobotUrdf, EmptyMeshFileNamesLinkUriPathAndReason) {
  TempDir dir;
  dir.write("meshes/empty.obj", "");
  const std::filesystem::path urdf = dir.write("r.urdf", two_links(kFixedAB, R"(<mesh filename="meshes/empty.obj"/>)"));
  const RobotModel m = load_urdf(urdf);
  expect_error([&] { RobotGeometry g(m); },
               {"link 'b'", "meshes/empty.obj", (dir.path() / "meshes/empty.obj").string(), "empty"});
}

// COLLADA links load through assimp (the geometry itself is checked in
// tests/io/dae_reader_test.cpp); a broken one names the link, the URI and
// the path when the geometry is read.
TEST(RobotUrdf, ColladaMeshesLoadAndBrokenOnesNameTheLink) {
  TempDir dir;
  dir.write("m.dae", R"(<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit meter="0.001"/></asset>
  <library_geometries><geometry id="g"><mesh>
    <source id="p"><float_array id="pa" count="12">0 0 0 100 0 0 0 100 0 0 0 100</float_array>
      <technique_common><accessor source="#pa" count="4" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
      </accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles count="4"><input semantic="VERTEX" source="#v" offset="0"/><p>0 2 1 0 1 3 0 3 2 1 2 3</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>)");
  const RobotModel good = load_urdf(dir.write("r.urdf", two_links(kFixedAB, R"(<mesh filename="m.dae"/>)")));
  EXPECT_NO_THROW(RobotGeometry g(good));
  dir.write("broken.dae", "<COLLADA/>");
  const RobotModel bad = load_urdf(dir.write("s.urdf", two_links(kFixedAB, R"(<mesh filename="broken.dae"/>)")));
  expect_error([&] { RobotGeometry g(bad); }, {"link 'b'", "broken.dae", (dir.path() / "broken.dae").string()});
}

TEST(RobotUrdf, NonPositiveSizesAreRejected) {
  expect_error([] { parse_urdf(two_links(kFixedAB, R"(<box size="1 0 1"/>)"), ".", {}, "r.urdf"); },
               {"r.urdf:3", "link 'b'", "box size must be > 0"});
  expect_error([] { parse_urdf(two_links(kFixedAB, R"(<box size="1 -2 1"/>)"), "."); }, {"link 'b'", "box size"});
  expect_error([] { parse_urdf(two_links(kFixedAB, R"(<sphere radius="-0.1"/>)"), "."); },
               {"link 'b'", "radius must be > 0"});
  expect_error([] { parse_urdf(two_links(kFixedAB, R"(<cylinder radius="0" length="1"/>)"), "."); },
               {"link 'b'", "radius must be > 0"});
  expect_error([] { parse_urdf(two_links(kFixedAB, R"(<cylinder radius="1"/>)"), "."); },
               {"link 'b'", "no 'length' attribute"});
  expect_error([] { parse_urdf(two_links(kFixedAB, R"(<capsule radius="1" length="1"/>)"), "."); },
               {"link 'b'", "unsupported geometry <capsule>"});
}

TEST(RobotUrdf, NonFiniteAndMalformedNumbersAreRejected) {
  const std::string nan_joint =
      R"(<joint name="j" type="fixed"><origin xyz="0 nan 0"/><parent link="a"/><child link="b"/></joint>)";
  expect_error([&] { parse_urdf(two_links(nan_joint), "."); }, {"joint 'j'", "xyz", "not finite"});
  const std::string inf_rpy =
      R"(<joint name="j" type="fixed"><origin rpy="inf 0 0"/><parent link="a"/><child link="b"/></joint>)";
  expect_error([&] { parse_urdf(two_links(inf_rpy), "."); }, {"joint 'j'", "rpy", "not finite"});
  expect_error([] { parse_urdf(two_links(kFixedAB, R"(<sphere radius="1"/>)", R"(<origin xyz="0 0 1e999"/>)"), "."); },
               {"link 'b'", "xyz"});
  expect_error([] { parse_urdf(two_links(kFixedAB, R"(<sphere radius="1"/>)", R"(<origin xyz="0 0"/>)"), "."); },
               {"link 'b'", "expected 3 number(s), found 2"});
  expect_error([] { parse_urdf(two_links(kFixedAB, R"(<sphere radius="0.1m"/>)"), "."); },
               {"link 'b'", "radius", "not a number"});
}

TEST(RobotUrdf, JointTypeLimitAxisAndMimicErrors) {
  const auto joint = [](const std::string& type, const std::string& inner) {
    return "<joint name=\"j\" type=\"" + type + "\"><parent link=\"a\"/><child link=\"b\"/>" + inner + "</joint>";
  };
  expect_error([&] { parse_urdf(two_links(joint("floating", "")), "."); }, {"joint 'j'", "'floating' is not supported"});
  expect_error([&] { parse_urdf(two_links(joint("planar", "")), "."); }, {"joint 'j'", "'planar' is not supported"});
  expect_error([&] { parse_urdf(two_links(joint("hinge", "")), "."); }, {"joint 'j'", "unknown joint type 'hinge'"});
  expect_error([&] { parse_urdf(two_links(joint("revolute", "")), "."); }, {"joint 'j'", "has no <limit>"});
  expect_error([&] { parse_urdf(two_links(joint("revolute", R"(<limit lower="1" upper="-1"/>)")), "."); },
               {"joint 'j'", "lower > upper"});
  expect_error([&] { parse_urdf(two_links(joint("continuous", R"(<axis xyz="0 0 0"/>)")), "."); },
               {"joint 'j'", "axis is zero"});
  expect_error([&] { parse_urdf(two_links(joint("continuous", R"(<mimic joint="ghost"/>)")), "."); },
               {"joint 'j'", "mimics joint 'ghost'", "does not exist"});
  expect_error([&] { parse_urdf(two_links(joint("continuous", R"(<mimic joint="j"/>)")), "."); },
               {"joint 'j'", "cycle"});
  const std::string no_parent = R"(<joint name="j" type="fixed"><child link="b"/></joint>)";
  expect_error([&] { parse_urdf(two_links(no_parent), "."); }, {"joint 'j'", "no <parent>"});
}

TEST(RobotUrdf, MissingFileIsAnError) {
  expect_error([] { load_urdf("/nonexistent/robot.urdf"); }, {"URDF file '/nonexistent/robot.urdf'", "no such file"});
  expect_error([] { load_urdf("/tmp"); }, {"URDF file '/tmp'", "a directory, not a regular file"});
  expect_error([] { load_urdf("/dev/zero"); }, {"URDF file '/dev/zero'", "not a regular file"});
}

TEST(RobotSrdf, DisabledPairsAreAllowedAndUnknownLinksRejected) {
  const RobotModel m = parse_urdf(robot_test::small_arm_urdf(), ".");
  AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(m);
  EXPECT_EQ(acm.allowed_pair_count(), 5u);  // one per joint
  const int l1 = m.link_index("l1"), l3 = m.link_index("l3"), tool = m.link_index("tool");
  EXPECT_TRUE(acm.allowed(l1, m.link_index("l2")));
  EXPECT_FALSE(acm.allowed(l1, l3));
  apply_srdf_text(m, R"(<robot name="arm"><group name="g"/>
    <disable_collisions link1="l1" link2="l3" reason="Never"/></robot>)", acm);
  EXPECT_TRUE(acm.allowed(l3, l1));
  EXPECT_FALSE(acm.allowed(l1, tool));
  expect_error([&] {
    apply_srdf_text(m, "<robot name=\"arm\">\n<disable_collisions link1=\"l1\" link2=\"elbow\"/></robot>", acm,
                    "arm.srdf");
  }, {"arm.srdf:2", "link2 'elbow'", "not a link"});
  expect_error([&] { apply_srdf_text(m, "<robot><disable_collisions link1=\"l1\"/></robot>", acm); },
               {"no 'link2' attribute"});
  expect_error([&] { apply_srdf_text(m, "<srdf/>", acm, "x.srdf"); }, {"x.srdf", "no <robot>"});
  expect_error([&] { apply_srdf_text(m, "<robot", acm, "x.srdf"); }, {"x.srdf", "malformed XML"});
  expect_error([&] { apply_srdf(m, "/nonexistent/x.srdf", acm); }, {"/nonexistent/x.srdf", "no such file"});
}

TEST(RobotGeometryOptions, BadMarginsAreRejected) {
  const RobotModel m = parse_urdf(robot_test::small_arm_urdf(), ".");
  expect_error([&] { RobotGeometry g(m, robot_test::options(MeshMode::convex_hull, -0.1)); }, {"margin", ">= 0"});
  GeometryOptions o;
  o.link_margins["l9"] = 0.1;
  expect_error([&] { RobotGeometry g(m, o); }, {"link 'l9'", "does not exist"});
  o.link_margins.clear();
  o.link_margins["l2"] = std::numeric_limits<double>::quiet_NaN();
  expect_error([&] { RobotGeometry g(m, o); }, {"link 'l2'", "margin"});
  o.link_margins["l2"] = 0.02;
  const RobotGeometry g(m, o);
  EXPECT_DOUBLE_EQ(g.link(m.link_index("l2")).margin, 0.02);
  EXPECT_DOUBLE_EQ(g.link(m.link_index("l2")).shapes[0].shape()->margin(), 0.02);
  EXPECT_DOUBLE_EQ(g.link(m.link_index("l3")).margin, 0.0);
}

}  // namespace
}  // namespace proxima::robot
