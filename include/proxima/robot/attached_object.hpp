// SPDX-License-Identifier: BSD-3-Clause
// Objects the robot holds (MoveIt's attached collision objects: a grasped
// part, a tool in the gripper): they move with a link and are checked like
// a link of their own.
#pragma once

#include <span>
#include <string>
#include <variant>
#include <vector>

#include <proxima/robot/scene_checker.hpp>

namespace proxima::robot {

struct AttachedObject {
  std::string name;  ///< becomes a link name: unique among the robot's links
  std::string link;  ///< the link it moves with
  std::variant<Shape, Bvh> geometry;
  Transform pose = Transform::identity();  ///< in `link`'s frame
  /// Links it may touch besides `link` itself (the fingers around it).
  std::vector<std::string> touch_links = {};
};

/// The checker for `checker`'s robot holding `objects`. Each object becomes
/// a link named object.name, fixed to object.link at object.pose: states,
/// every query and check_motion carry it along and check it against the
/// environment, the robot's other links and the other attached objects,
/// except the link it is attached to and its touch links. The joint vector
/// is unchanged; `checker` itself is left as it was (to let go, keep using
/// it). Throws proxima::Error naming the object for an empty name or one the
/// robot already has, a link or touch link it does not have, a pose that is
/// not finite or not a rotation, or an unbounded shape (a halfspace).
SceneChecker attach(const SceneChecker& checker, std::span<const AttachedObject> objects);

}  // namespace proxima::robot
