// SPDX-License-Identifier: BSD-3-Clause
// MoveIt planning scenes (YAML messages and .scene text) written here by hand,
// whose objects, sizes and poses are known: a quaternion's rotation is checked
// by where it sends the x axis, worked out by hand; every error class names
// its field or line; the shipped MotionBenchMaker scenes still read, with
// numbers copied from the files.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <proxima/robot/planning_scene.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/cone.hpp>
#include <proxima/shape/cylinder.hpp>
#include <proxima/shape/sphere.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using robot_test::expect_error;

constexpr double kHalfSqrt2 = 0.70710678118654752;

const EnvironmentObject& object_named(const Environment& env, const std::string& name) {
  for (const EnvironmentObject& o : env.objects)
    if (o.name == name) return o;
  ADD_FAILURE() << "no object " << name;
  return env.objects.front();
}

const Shape& shape_of(const EnvironmentObject& o) { return std::get<Shape>(o.geometry); }

void expect_vec(const Vec3& got, const Vec3& want, const std::string& what) {
  EXPECT_NEAR((got - want).norm(), 0.0, 1e-9) << what << ": " << got.transpose() << " vs " << want.transpose();
}

PlanningScene yaml(const std::string& text) { return parse_planning_scene(text, PlanningSceneFormat::yaml, "t.yaml"); }
PlanningScene text(const std::string& t) { return parse_planning_scene(t, PlanningSceneFormat::scene, "t.scene"); }

// A box turned 90° about z (x → y), a cylinder with map-form pose and a
// SolidPrimitive constant for its type, a cone, and an object whose pose
// composes with its shapes' poses.
const char* const kYamlScene = R"(name: kitchen
robot_model_name: panda
world:
  collision_objects:
    - id: shelf
      primitives:
        - type: box
          dimensions: [0.4, 0.6, 0.02]
      primitive_poses:
        - position: [1, 2, 3]
          orientation: [0, 0, 0.70710678118654752, 0.70710678118654752]
    - id: can
      primitives:
        - {type: 3, dimensions: [0.12, 0.03]}
      primitive_poses:
        - position: {x: -1, y: 0.5, z: 0}
          orientation: {x: 0, y: 0, z: 0, w: 1}
    - id: tray
      pose:
        position: [1, 0, 0]
        orientation: [0, 0, 0.70710678118654752, 0.70710678118654752]
      primitives:
        - type: cone
          dimensions: [0.2, 0.05]
        - type: sphere
          dimensions: [0.1]
      primitive_poses:
        - position: [1, 0, 0]
          orientation: [0, 0, 0, 1]
        - position: [0, 0, 2]
          orientation: [0, 0, 0, 1]
)";

TEST(PlanningSceneYaml, PrimitivesSizesAndPoses) {
  const PlanningScene s = yaml(kYamlScene);
  EXPECT_EQ(s.name, "kitchen");
  ASSERT_EQ(s.environment.objects.size(), 4u);

  const EnvironmentObject& shelf = object_named(s.environment, "shelf");
  expect_vec(shape_of(shelf).as<Box>().size(), Vec3(0.4, 0.6, 0.02), "shelf size");
  expect_vec(shelf.pose.p, Vec3(1, 2, 3), "shelf position");
  expect_vec(shelf.pose.R * Vec3::UnitX(), Vec3::UnitY(), "shelf x axis");
  EXPECT_EQ(shelf.group, "");

  const EnvironmentObject& can = object_named(s.environment, "can");
  const auto& cyl = shape_of(can).as<Cylinder>();
  EXPECT_DOUBLE_EQ(cyl.length(), 0.12);  // MoveIt: [height, radius]
  EXPECT_DOUBLE_EQ(cyl.radius(), 0.03);
  expect_vec(can.pose.p, Vec3(-1, 0.5, 0), "can position");
  expect_vec(can.pose.R * Vec3::UnitX(), Vec3::UnitX(), "can x axis");

  // Two shapes: named tray/0, tray/1, one group; world = object pose × shape pose.
  const EnvironmentObject& cone = object_named(s.environment, "tray/0");
  EXPECT_EQ(cone.group, "tray");
  EXPECT_DOUBLE_EQ(shape_of(cone).as<Cone>().length(), 0.2);
  EXPECT_DOUBLE_EQ(shape_of(cone).as<Cone>().radius(), 0.05);
  expect_vec(cone.pose.p, Vec3(1, 1, 0), "cone position");
  expect_vec(cone.pose.R * Vec3::UnitX(), Vec3::UnitY(), "cone x axis");
  const EnvironmentObject& ball = object_named(s.environment, "tray/1");
  EXPECT_EQ(ball.group, "tray");
  EXPECT_DOUBLE_EQ(shape_of(ball).as<Sphere>().radius(), 0.1);
  expect_vec(ball.pose.p, Vec3(1, 0, 2), "ball position");
}

TEST(PlanningSceneYaml, MeshesBecomeBvhs) {
  // A unit right tetrahedron, vertices both as mappings and as sequences,
  // triangles both as MeshTriangle messages and as plain index lists.
  const PlanningScene s = yaml(R"(world:
  collision_objects:
    - id: wedge
      meshes:
        - vertices: [{x: 0, y: 0, z: 0}, [1, 0, 0], [0, 1, 0], {x: 0, y: 0, z: 1}]
          triangles:
            - vertex_indices: [0, 2, 1]
            - [0, 1, 3]
            - [0, 3, 2]
            - [1, 2, 3]
      mesh_poses:
        - position: [0, 0, 5]
          orientation: [0, 0, 0, 1]
)");
  ASSERT_EQ(s.environment.objects.size(), 1u);
  const EnvironmentObject& w = s.environment.objects[0];
  EXPECT_EQ(w.name, "wedge");
  const Bvh& bvh = std::get<Bvh>(w.geometry);
  ASSERT_EQ(bvh.mesh().triangle_count(), 4u);
  EXPECT_EQ(bvh.mesh().triangles()[0], (TriangleIndices{0, 2, 1}));
  expect_vec(bvh.mesh().vertices()[3], Vec3(0, 0, 1), "vertex 3");
  EXPECT_TRUE(bvh.mesh().is_closed());
  expect_vec(w.pose.p, Vec3(0, 0, 5), "mesh position");
}

TEST(PlanningSceneYaml, RosTwoEchoForm) {
  // As `ros2 topic echo` prints a CollisionObject: every field present, maps
  // for points and quaternions, an empty prism polygon, operation ADD.
  const PlanningScene s = yaml(R"(world:
  collision_objects:
  - header: {stamp: {sec: 0, nanosec: 0}, frame_id: world}
    pose: {position: {x: 0.0, y: 0.0, z: 1.0}, orientation: {x: 0.0, y: 0.0, z: 0.0, w: 1.0}}
    id: crate
    type: {key: '', db: ''}
    primitives:
    - type: 1
      dimensions: [0.5, 0.4, 0.3]
      polygon: {points: []}
    primitive_poses:
    - position: {x: 0.5, y: 0.0, z: 0.0}
      orientation: {x: 0.0, y: 0.0, z: 0.0, w: 1.0}
    meshes: []
    mesh_poses: []
    planes: []
    plane_poses: []
    subframe_names: []
    subframe_poses: []
    operation: 0
)");
  ASSERT_EQ(s.environment.objects.size(), 1u);
  const EnvironmentObject& crate = s.environment.objects[0];
  EXPECT_EQ(crate.name, "crate");
  expect_vec(shape_of(crate).as<Box>().size(), Vec3(0.5, 0.4, 0.3), "crate size");
  expect_vec(crate.pose.p, Vec3(0.5, 0, 1), "crate position");
}

TEST(PlanningSceneYaml, OtherMessageFieldsAreAcceptedAndEmptyWorldIsEmpty) {
  const PlanningScene s = yaml(R"(name: ""
robot_state: {joint_state: {name: [a], position: [0]}}
allowed_collision_matrix: {entry_names: [], entry_values: []}
fixed_frame_transforms: []
link_padding: []
link_scale: []
object_colors: []
is_diff: false
world:
  collision_objects: []
  octomap: {header: {frame_id: world}, octomap: {id: OcTree, data: []}}
)");
  EXPECT_EQ(s.name, "");
  EXPECT_TRUE(s.environment.objects.empty());
}

TEST(PlanningSceneYaml, ErrorsNameTheFieldAndTheReason) {
  const auto err = [](const std::string& t, std::initializer_list<std::string> parts) {
    expect_error([&] { yaml(t); }, parts);
  };
  const std::string head = "world:\n  collision_objects:\n    - id: a\n";
  const std::string pose = "      primitive_poses:\n        - position: [0, 0, 0]\n          orientation: [0, 0, 0, 1]\n";
  const auto with_prim = [&](const std::string& prim) { return head + "      primitives:\n        - " + prim + "\n" + pose; };
  int cases = 0;
  const auto check = [&](const std::string& t, std::initializer_list<std::string> parts) {
    err(t, parts);
    ++cases;
  };
  check("world: [\n", {"t.yaml:", "malformed YAML"});
  check("", {"t.yaml", "empty"});
  check("wrold: {}\n", {"t.yaml:1", "wrold", "unknown field"});
  check("world: {collision_objects: [], octomap: {}, octomap: {}}\n", {"world.octomap", "twice"});
  check("world: 3\n", {"world", "expected a mapping"});
  check("world: {collision_objects: {a: 1}}\n", {"world.collision_objects", "expected a sequence"});
  check(head + "      primitves: []\n", {"t.yaml:4", "world.collision_objects[0].primitves", "unknown field"});
  check("world:\n  collision_objects:\n    - primitives: []\n", {"world.collision_objects[0].id", "missing"});
  check(with_prim("{type: box, dimensions: [1, 2]}"),
        {"t.yaml:5", "world.collision_objects[0].primitives[0].dimensions", "a box takes 3 dimensions, found 2"});
  check(with_prim("{type: cylinder, dimensions: [1, 2, 3]}"), {"cylinder takes 2 dimensions, found 3"});
  check(with_prim("{type: sphere, dimensions: [-1]}"), {"primitives[0].dimensions", "positive"});
  check(with_prim("{type: sphere, dimensions: [.nan]}"), {"primitives[0].dimensions[0]", "not a number"});
  check(with_prim("{type: sphere, dimensions: [1e999]}"), {"primitives[0].dimensions[0]", "not"});
  check(with_prim("{type: sphere, dimensions: [one]}"), {"'one' is not a number"});
  check(with_prim("{type: torus, dimensions: [1]}"), {"primitives[0].type", "'torus' is not box, sphere"});
  check(with_prim("{type: 5, dimensions: [1]}"), {"primitives[0].type", "'5' is not BOX (1)"});
  check(with_prim("{type: box, dimensions: [1, 1, 1], colour: red}"), {"primitives[0].colour", "unknown field"});
  check(with_prim("{type: box, dimensions: [1, 1, 1], polygon: {points: [{x: 0, y: 0, z: 0}]}}"),
        {"primitives[0].polygon", "prisms"});
  check(with_prim("{type: box, dimensions: [1, 1, 1], polygon: {pts: []}}"), {"primitives[0].polygon.pts", "unknown"});
  check(head + "      primitives:\n        - {type: sphere, dimensions: [1]}\n      primitive_poses:\n"
               "        - position: [0, 0, 0]\n          orientation: [0, 0, 0, 2]\n",
        {"t.yaml:8", "primitive_poses[0].orientation", "norm is 2, not 1"});
  check(head + "      primitives:\n        - {type: sphere, dimensions: [1]}\n      primitive_poses:\n"
               "        - position: [0, 0]\n          orientation: [0, 0, 0, 1]\n",
        {"primitive_poses[0].position", "expected 3 numbers, found 2"});
  check(head + "      primitives:\n        - {type: sphere, dimensions: [1]}\n      primitive_poses:\n"
               "        - position: {x: 0, y: 0, q: 0}\n          orientation: [0, 0, 0, 1]\n",
        {"primitive_poses[0].position.q", "unknown field"});
  check(head + "      primitives:\n        - {type: sphere, dimensions: [1]}\n      primitive_poses: []\n",
        {"world.collision_objects[0]", "1 primitives but 0 primitive_poses"});
  check(head + "      primitives: []\n", {"object 'a' has no primitives or meshes"});
  check(with_prim("{type: sphere, dimensions: [1]}") + "    - id: a\n      primitives:\n        - {type: sphere, "
                                                        "dimensions: [1]}\n" + pose,
        {"world.collision_objects[1].id", "'a' names an earlier object"});
  check(with_prim("{type: sphere, dimensions: [1]}") + "      operation: 1\n", {"operation", "only ADD (0)"});
  check(with_prim("{type: sphere, dimensions: [1]}") + "      planes: [{coef: [0, 0, 1, 0]}]\n", {"planes", "not read"});
  check(head + "      meshes:\n        - vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0]]\n          triangles: [[0, 1, 3]]\n"
               "      mesh_poses:\n        - position: [0, 0, 0]\n          orientation: [0, 0, 0, 1]\n",
        {"meshes[0].triangles[0][2]", "vertex index 3 is not below the vertex count 3"});
  check(head + "      meshes:\n        - vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0]]\n          triangles: [[0, 1]]\n"
               "      mesh_poses:\n        - position: [0, 0, 0]\n          orientation: [0, 0, 0, 1]\n",
        {"meshes[0].triangles[0]", "expected 3 vertex indices, found 2"});
  check("world:\n  octomap: {octomap: {id: OcTree, data: [1, 2]}}\n", {"world.octomap.octomap.data", "octomaps"});
  EXPECT_EQ(cases, 30);
}

// New format (object pose, subframes): a box and a cylinder in one object, a
// sphere in another.
const char* const kTextScene = R"(my scene
* table
1 2 3
0 0 0 1
2
box
1 2 0.5
0 0 0.25
0 0 0 1
0 0 0 0
cylinder
0.1 0.4
0.5 0 0
0 0 0.707107 0.707107
1 0 0 1
1
grasp
0 0 1
0 0 0 1
* ball
0 0 0
0 0 0 1
1
sphere
0.2
0 0 0
0 0 0 1
0 0 0 0
0
.
)";

TEST(PlanningSceneText, NewFormat) {
  const PlanningScene s = text(kTextScene);
  EXPECT_EQ(s.name, "my scene");
  ASSERT_EQ(s.environment.objects.size(), 3u);
  const EnvironmentObject& top = object_named(s.environment, "table/0");
  EXPECT_EQ(top.group, "table");
  expect_vec(shape_of(top).as<Box>().size(), Vec3(1, 2, 0.5), "box size");
  expect_vec(top.pose.p, Vec3(1, 2, 3.25), "box position");
  const EnvironmentObject& leg = object_named(s.environment, "table/1");
  const auto& cyl = shape_of(leg).as<Cylinder>();
  EXPECT_DOUBLE_EQ(cyl.radius(), 0.1);  // the text: radius, then length
  EXPECT_DOUBLE_EQ(cyl.length(), 0.4);
  expect_vec(leg.pose.p, Vec3(1.5, 2, 3), "cylinder position");
  EXPECT_NEAR((leg.pose.R * Vec3::UnitX() - Vec3::UnitY()).norm(), 0.0, 1e-6);
  const EnvironmentObject& ball = object_named(s.environment, "ball");
  EXPECT_EQ(ball.group, "");
  EXPECT_DOUBLE_EQ(shape_of(ball).as<Sphere>().radius(), 0.2);
}

TEST(PlanningSceneText, OldFormatConeAndMesh) {
  // No object pose, no subframes; a cone and a one-triangle mesh.
  const PlanningScene s = text(R"(old
* funnel
2
cone
0.3 0.6
0 0 1
0 0 0 1
0 0 0 0
mesh
3 1
0 0 0
1 0 0
0 1 0
0 1 2
2 0 0
0 0 0 1
0 0 0 0
.
)");
  ASSERT_EQ(s.environment.objects.size(), 2u);
  const EnvironmentObject& cone = object_named(s.environment, "funnel/0");
  EXPECT_DOUBLE_EQ(shape_of(cone).as<Cone>().radius(), 0.3);
  EXPECT_DOUBLE_EQ(shape_of(cone).as<Cone>().length(), 0.6);
  expect_vec(cone.pose.p, Vec3(0, 0, 1), "cone position");
  const EnvironmentObject& tri = object_named(s.environment, "funnel/1");
  const Bvh& bvh = std::get<Bvh>(tri.geometry);
  ASSERT_EQ(bvh.mesh().triangle_count(), 1u);
  expect_vec(bvh.mesh().vertices()[1], Vec3(1, 0, 0), "mesh vertex 1");
  expect_vec(tri.pose.p, Vec3(2, 0, 0), "mesh position");
}

TEST(PlanningSceneText, ErrorsNameTheLineAndTheReason) {
  const std::string obj = "s\n* a\n0 0 0\n0 0 0 1\n1\n";
  const std::string tail = "0 0 0\n0 0 0 1\n0 0 0 0\n0\n.\n";
  int cases = 0;
  const auto check = [&](const std::string& t, std::initializer_list<std::string> parts) {
    expect_error([&] { text(t); }, parts);
    ++cases;
  };
  check("s\n", {"t.scene:1", "ends where an object"});
  check(obj + "box\n1 1 1\n" + tail + "extra\n", {"t.scene:13", "text after the closing '.'"});
  check(obj + "box\n1 1\n" + tail, {"t.scene:7", "box dimensions", "expected 3 numbers"});
  check(obj + "sphere\n-1\n" + tail, {"t.scene:7", "positive"});
  check(obj + "sphere\nnan\n" + tail, {"t.scene:7", "'nan' is not"});
  check(obj + "sphere\n1x\n" + tail, {"t.scene:7", "'1x' is not a number"});
  check(obj + "torus\n1\n" + tail, {"t.scene:6", "shape type 'torus'"});
  check(obj + "plane\n0 0 1 0\n" + tail, {"t.scene:6", "planes are not read"});
  check(obj + "sphere\n1\n0 0 0\n0 0 0 0.5\n0 0 0 0\n0\n.\n", {"t.scene:9", "norm is 0.5"});
  check(obj + "sphere\n1\n0 0 0\n0 0 0 1\n0 0 0\n0\n.\n", {"t.scene:10", "colour", "expected 4 numbers"});
  check("s\n* a\n0 0 0\n0 0 0 1\ntwo\n", {"t.scene:5", "shape count", "expected a count"});
  check("s\n* a\n0 0 0\n0 0 0 1\n0\n0\n.\n", {"t.scene:2", "object 'a' has no shapes"});
  check("s\nobject\n.\n", {"t.scene:2", "expected an object"});
  check("s\n*\n1\nsphere\n1\n0 0 0\n0 0 0 1\n0 0 0 0\n.\n", {"t.scene:2", "without an id"});
  check(obj + "mesh\n3 1\n0 0 0\n1 0 0\n0 1 0\n0 1 3\n" + tail, {"t.scene:11", "vertex index 3"});
  check(obj + "sphere\n1\n" + tail.substr(0, tail.size() - 2), {"ends where", "a .scene file ends with a line '.'"});
  check("s\n* a\n1\nsphere\n1\n0 0 0\n0 0 0 1\n0 0 0 0\n* a\n1\nsphere\n1\n0 0 0\n0 0 0 1\n0 0 0 0\n.\n",
        {"t.scene:9", "object 'a' appears twice"});
  EXPECT_EQ(cases, 17);
}

TEST(PlanningSceneFile, ReadsByExtensionAndRejectsOthers) {
  const robot_test::TempDir dir;
  EXPECT_EQ(read_planning_scene(dir.write("k.yaml", kYamlScene)).environment.objects.size(), 4u);
  EXPECT_EQ(read_planning_scene(dir.write("k.yml", kYamlScene)).environment.objects.size(), 4u);
  EXPECT_EQ(read_planning_scene(dir.write("k.scene", kTextScene)).environment.objects.size(), 3u);
  expect_error([&] { read_planning_scene(dir.write("k.json", "{}")); }, {"k.json", "extension '.json'"});
  expect_error([&] { read_planning_scene(dir.path() / "missing.scene"); }, {"missing.scene", "no such file"});
  // Errors in a file name the file.
  expect_error([&] { read_planning_scene(dir.write("bad.yaml", "wrold: {}\n")); }, {"bad.yaml:1", "wrold"});
}

TEST(PlanningSceneFile, ShippedMotionBenchMakerScenesRead) {
  int scenes = 0;
  for (const std::string robot : {"panda", "ur5"}) {
    const auto dir = robot_test::robots_dir() / robot / "scenes";
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      const std::string stem = e.path().stem().string();
      if (stem.find("_scene") == std::string::npos) continue;
      const PlanningScene s = read_planning_scene(e.path());
      EXPECT_FALSE(s.environment.objects.empty()) << e.path();
      ++scenes;
    }
  }
  EXPECT_GE(scenes, 8);
  // Numbers copied from panda/scenes/box_scene0001.yaml: a cylinder [height, radius].
  const PlanningScene box = read_planning_scene(robot_test::robots_dir() / "panda" / "scenes" / "box_scene0001.yaml");
  const EnvironmentObject& can = object_named(box.environment, "Can1");
  EXPECT_DOUBLE_EQ(shape_of(can).as<Cylinder>().length(), 0.14);
  EXPECT_DOUBLE_EQ(shape_of(can).as<Cylinder>().radius(), 0.03);
  expect_vec(can.pose.p, Vec3(0.5408380884576693, 0.3580155146897772, -0.3762264457751537), "Can1 position");
  // Its quaternion turns about z by 2 asin(0.07406844364750122).
  const double angle = 2.0 * std::asin(0.07406844364750122);
  EXPECT_NEAR((can.pose.R * Vec3::UnitX() - Vec3(std::cos(angle), std::sin(angle), 0)).norm(), 0.0, 1e-12);
  const auto start =
      read_request_start_state(robot_test::robots_dir() / "panda" / "scenes" / "box_request0001.yaml");
  EXPECT_EQ(start.size(), 9u);
  EXPECT_DOUBLE_EQ(start.at("panda_joint4"), -2.356);
  EXPECT_DOUBLE_EQ(start.at("panda_finger_joint2"), 0.065);
}

TEST(PlanningSceneFile, RequestStartStateErrors) {
  const robot_test::TempDir dir;
  expect_error([&] { read_request_start_state(dir.write("r.yaml", "start_state: {joint_state: {name: [a, b], "
                                                                   "position: [1]}}\n")); },
               {"r.yaml:1", "start_state.joint_state", "2 names but 1 positions"});
  expect_error([&] { read_request_start_state(dir.write("r.yaml", "start_state: {joint_state: {name: [a, a], "
                                                                   "position: [1, 2]}}\n")); },
               {"start_state.joint_state.name[1]", "appears twice"});
  expect_error([&] { read_request_start_state(dir.write("r.yaml", "goal: 1\nstart_state: {}\n")); },
               {"r.yaml:1", "goal", "unknown field"});
  expect_error([&] { read_request_start_state(dir.write("r.yaml", "planner_id: x\n")); }, {"start_state", "missing"});
}

}  // namespace
}  // namespace proxima::robot
