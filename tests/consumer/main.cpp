// SPDX-License-Identifier: BSD-3-Clause
// Links against the installed proxima package and checks one known distance.
#include <cmath>
#include <cstdio>
#include <span>
#include <string_view>

#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/query.hpp>
#include <proxima/robot/attached_object.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/point_cloud.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/urdf.hpp>
#include <proxima/version.hpp>

int main() {
  using namespace proxima;
  const Box box(2.0, 2.0, 2.0);
  const Capsule capsule(0.25, 0.5);
  const DistanceResult r = distance(box, Transform::identity(), capsule,
                                    Transform::from_translation(Vec3(0.0, 0.0, 2.0)));
  // Capsule bottom at 2 − 0.25 − 0.25 = 1.5, box top at 1: 0.5 apart.
  std::printf("consumer: distance %.12f (expect 0.5), status %s\n", r.distance, to_string(r.status));
  // A unit box resting 1 cm deep on the 2 m box: its four bottom corners.
  const ContactSet m = contacts(Box(1.0, 1.0, 1.0), Transform::from_translation(Vec3(0.0, 0.0, 1.49)),
                                box, Transform::identity());
  std::printf("consumer: %zu contact points (expect 4)\n", m.size());
  // One triangle 0.25 m above the box top.
  const Bvh tri(TriangleMesh({Vec3(0, 0, 1.25), Vec3(1, 0, 1.25), Vec3(0, 1, 1.25)}, {TriangleIndices{0, 1, 2}}));
  const MeshDistanceResult t = distance(tri, Transform::identity(), box, Transform::identity());
  std::printf("consumer: mesh distance %.12f (expect 0.25)\n", t.distance);
  // A one-joint URDF (the robot layer links tinyxml2 privately; the package
  // must find it again): the child 0.5 m up, turned a quarter about z.
  const robot::RobotModel arm = robot::parse_urdf(
      R"(<robot name="a"><link name="base"/><link name="tip"/>
         <joint name="j" type="continuous"><parent link="base"/><child link="tip"/>
         <origin xyz="0 0 0.5"/><axis xyz="0 0 1"/></joint></robot>)",
      ".");
  const double q[] = {1.5707963267948966};
  const Transform tip = robot::forward_kinematics(arm, q)[1];
  std::printf("consumer: URDF tip at z %.12f (expect 0.5)\n", tip.p.z());
  // A ball held 0.2 m out along the tip's x axis: a quarter turn puts it at y = 0.2.
  const robot::SceneChecker checker(robot::RobotGeometry(arm), robot::AllowedCollisionMatrix::adjacent(arm));
  const robot::AttachedObject ball{"ball", "tip", Shape(Sphere(0.05)), Transform::from_translation(Vec3(0.2, 0, 0))};
  const robot::SceneChecker holding = robot::attach(checker, std::span(&ball, 1));
  const robot::RobotState held = holding.state(q);
  const Vec3 at = held.shape_poses[0].p;
  std::printf("consumer: held ball at (%.6f, %.6f, %.6f) (expect 0, 0.2, 0.5)\n", at.x(), at.y(), at.z());
  // Three points in two 10 cm voxels, prepared: one cube holds the origin.
  robot::Environment cloud;
  const Vec3 pts[] = {Vec3(0.01, 0.01, 0.01), Vec3(0.02, 0.02, 0.02), Vec3(0.5, 0.5, 0.5)};
  const std::size_t cubes = robot::add_point_cloud(cloud, "cloud", pts, 0.1);
  const robot::PreparedEnvironment prepared(cloud);
  std::size_t at_origin = 0;
  prepared.index().near(Aabb{Vec3::Zero(), Vec3::Zero()}, 0.0, [&](std::size_t) { ++at_origin; });
  std::printf("consumer: %zu cubes, %zu at the origin (expect 2, 1)\n", cubes, at_origin);
  // A ball crossing from x = −3 to 3 past one at the origin touches at t = 1/3.
  const TimeOfImpactResult hit =
      time_of_impact(Sphere(0.5), Transform::from_translation(Vec3(-3, 0, 0)), Transform::from_translation(Vec3(3, 0, 0)),
                     Sphere(0.5), Transform::identity(), Transform::identity());
  std::printf("consumer: time of impact %.9f (expect 0.333333)\n", hit.time);
  // A MoveIt planning scene in YAML (the library links yaml-cpp privately; the
  // package must find it again): one ball 1 m up.
  const robot::PlanningScene scene = robot::parse_planning_scene(
      "world:\n  collision_objects:\n    - id: ball\n      primitives: [{type: sphere, dimensions: [0.1]}]\n"
      "      primitive_poses: [{position: [0, 0, 1], orientation: [0, 0, 0, 1]}]\n",
      robot::PlanningSceneFormat::yaml);
  const bool scene_ok = scene.environment.objects.size() == 1 && scene.environment.objects[0].name == "ball" &&
                        std::abs(scene.environment.objects[0].pose.p.z() - 1.0) < 1e-15;
  std::printf("consumer: planning scene with %zu object(s) (expect 1: ball at z 1)\n", scene.environment.objects.size());
  // The installed header and the installed library are one version.
  std::printf("consumer: proxima %s (headers %s)\n", version(), PROXIMA_VERSION_STRING);
  const bool same_version = std::string_view(version()) == PROXIMA_VERSION_STRING;
  return same_version && r.status == Status::ok && std::abs(r.distance - 0.5) < 1e-12 && m.size() == 4 &&
                 hit.collide && std::abs(hit.time - 1.0 / 3.0) < 1e-6 && cubes == 2 && at_origin == 1 &&
                 std::abs(t.distance - 0.25) < 1e-9 && std::abs(tip.p.z() - 0.5) < 1e-15 &&
                 std::abs(tip.R(1, 0) - 1.0) < 1e-15 && held.status == Status::ok &&
                 (at - Vec3(0, 0.2, 0.5)).norm() < 1e-12 && scene_ok
             ? 0
             : 1;
}
