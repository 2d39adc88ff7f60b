// SPDX-License-Identifier: BSD-3-Clause
// MoveIt planning scenes as an Environment, in the two forms ROS tools write:
//
//   * YAML: a moveit_msgs/PlanningScene message (what MotionBenchMaker ships,
//     `ros2 topic echo` prints and MoveIt's warehouse exports). Only the world
//     becomes geometry: world.collision_objects with their primitives (box,
//     sphere, cylinder, cone) and meshes, placed at object pose × shape pose.
//     Points and quaternions are mappings ({x, y, z, w}) or sequences
//     ([x, y, z], [x, y, z, w], MotionBenchMaker's compact form). The other
//     fields of the message (robot_state, allowed_collision_matrix, …) must be
//     fields of the message but are not read: the robot comes from its URDF.
//   * `.scene`: MoveIt's geometry text (PlanningScene::saveGeometryToStream,
//     the RViz "Export" button): the scene name, then per object `* id`, its
//     pose (newer files), the shape count, per shape its type and dimensions,
//     pose and colour, the subframes (newer files), and a closing `.`.
//
// Every object shape becomes one EnvironmentObject named after the object's
// id, or `id/k` (k from 0) when the object has several shapes, which then
// share the group `id` (one clearance channel for the watchdog). Meshes become
// BVHs. Poses are taken in the planning frame: header.frame_id and the scene's
// fixed_frame_transforms are not applied.
//
// Strict: malformed YAML or text, unknown or duplicate keys, wrong types,
// wrong dimension counts, non-positive sizes, non-finite numbers, quaternions
// whose norm is not 1 within 1e-4 (text files print 6 digits), planes,
// octomaps, prisms and operations other than ADD throw proxima::Error naming
// the source, the line, the field (YAML path such as
// `world.collision_objects[2].primitives[0].dimensions`, or the .scene line)
// and the reason.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include <proxima/robot/environment.hpp>

namespace proxima::robot {

/// How a planning scene is written.
enum class PlanningSceneFormat {
  yaml,   ///< moveit_msgs/PlanningScene as YAML
  scene,  ///< MoveIt's `.scene` geometry text
};

/// A planning scene's world.
struct PlanningScene {
  /// The message's `name` (YAML) or the first line (`.scene`); may be empty.
  std::string name = {};
  Environment environment = {};
};

/// Reads a planning-scene file: `.scene` files as MoveIt's text, `.yaml` and
/// `.yml` as YAML; any other extension throws (say the format with
/// parse_planning_scene). Throws proxima::Error as described above, and for
/// a file that cannot be read.
PlanningScene read_planning_scene(const std::filesystem::path& file);

/// Reads planning-scene text in `format`; `source_name` names it in messages.
PlanningScene parse_planning_scene(std::string_view text, PlanningSceneFormat format,
                                   const std::string& source_name = "<string>");

/// The start state of a moveit_msgs/MotionPlanRequest YAML file
/// (start_state.joint_state: name and position), joint name → position, as
/// MotionBenchMaker ships beside its scenes. The request's other fields must
/// be fields of the message but are not read. Throws proxima::Error naming
/// the file, line and field for the errors above and for name and position
/// lists of different lengths or a repeated joint name.
std::map<std::string, double> read_request_start_state(const std::filesystem::path& file);

}  // namespace proxima::robot
