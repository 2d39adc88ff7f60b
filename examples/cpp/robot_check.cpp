// SPDX-License-Identifier: BSD-3-Clause
// Robots: load a URDF and its SRDF once, then check joint vectors against the
// robot itself and its surroundings.
// Run from the repository root: build-examples/robot_check [tests/data/robots/panda]
#include <cstdio>
#include <string>
#include <vector>

#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>

int main(int argc, char** argv) {
  using namespace proxima;
  using namespace proxima::robot;
  const std::string dir = argc > 1 ? argv[1] : "tests/data/robots/panda";

  const RobotModel panda = load_urdf(dir + "/panda.urdf");  // package://… meshes beside it
  AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(panda);
  apply_srdf(panda, dir + "/panda.srdf", acm);
  const SceneChecker checker(RobotGeometry(panda), acm);  // link meshes as convex hulls

  // A table in front of the robot, its top 0.2 m above the floor, and a post
  // through the robot's base.
  Environment cell;
  cell.add("table", Box(Vec3(0.6, 1.0, 0.1)), Transform::from_translation(Vec3(0.65, 0.0, 0.15)));
  Environment post;
  post.add("post", Box(Vec3(0.05, 0.05, 0.05)), Transform::from_translation(Vec3(0.0, 0.0, 0.05)));

  const std::vector<double> ready{0, -0.785, 0, -2.356, 0, 1.571, 0.785};  // URDF joint order
  const RobotState s = checker.state(ready);
  std::printf("ready pose self collision %s\n", checker.self_collision(s).collide() ? "yes" : "no");
  std::printf("ready pose table collision %s\n", checker.environment_collision(s, cell).collide() ? "yes" : "no");
  const CollisionReport hit = checker.environment_collision(s, post);
  std::printf("post collision %s link %s\n", hit.collide() ? "yes" : "no",
              hit.collide() ? hit.pairs.front().link_name.c_str() : "-");
  return 0;
}
