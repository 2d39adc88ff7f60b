// SPDX-License-Identifier: BSD-3-Clause
// `proxima robot`: a URDF (and optionally its SRDF) loaded once, then one
// JSON line per joint vector on stdin answered by one JSON line on stdout:
//
//   {"id": 1, "q": [0, -0.785, 0, -2.356, 0, 1.571, 0.785],
//    "base": {"p": [...], "q": [w, x, y, z]},            (optional)
//    "environment": [{"name": "table", "geometry": {"shape": "box", "size": [1, 1, 0.1]},
//                     "pose": {"p": [0.5, 0, -0.05]}}],   (optional; any query shape or mesh)
//    "attached": [{"name": "part", "link": "panda_hand", "geometry": {...},
//                  "pose": {...}, "touch_links": [...]}],  (optional: objects the robot holds)
//    "tolerance": 0.05,                                    (optional)
//    "q_end": [...], "motion": {"clearance": 0.01}}        (optional: the segment q → q_end)
//
//   {"id": 1, "status": "ok", "self_collision": false, "self_pairs": [],
//    "self_distance": {"distance": 0.07, "link": "panda_link5", "other": "panda_hand",
//                      "point_link": [...], "point_other": [...]},
//    "environment_collision": false, "environment_pairs": [],
//    "environment_distance": {...}, "within_tolerance": false,
//    "limit_violations": [{"joint": "panda_joint4", "value": ..., "lower": ..., "upper": ...}],
//    "motion": {"status": "ok", "collide": true, "s": 0.42, "iterations": 17, "self": false,
//               "link": "panda_hand", "other": "table", "distance": ..., "point_link": [...],
//               "point_other": [...]}}                   (with q_end)
//
// A distance with nothing to measure is null. A bad line answers
// {"id": …, "status": "error", "message": "…"} and the stream goes on.
//
// A line {"id": …, "scene": [objects as in "environment"]} sets the
// stream's scene, prepared once (robot::PreparedEnvironment) and used by
// every later request without an "environment" of its own; it answers
// {"id": …, "status": "ok", "scene_objects": N} (and the query too when the
// line has a "q"). An empty array clears it. `--planning-scene FILE` (a MoveIt
// .scene or PlanningScene YAML) sets the scene before the first line.
#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <proxima/robot/attached_object.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>

#include "json_mesh.hpp"

namespace proxima::apps {

struct RobotCommandOptions {
  std::string urdf;
  /// URDF text instead of the file (ROS's robot_description); relative mesh
  /// paths and unmapped packages resolve against the working directory.
  std::string urdf_xml;
  std::string srdf;                           ///< empty: adjacent pairs only
  std::string srdf_xml;                       ///< SRDF text instead of the file
  /// A MoveIt planning scene file: the stream's scene from the start.
  std::string planning_scene;
  std::map<std::string, std::string> packages;  ///< package name → directory
  std::string mesh_mode = "hull";             ///< "hull" or "mesh"
  double margin = 0.0;                        ///< safety margin of every link, m
  /// `--html PAGE`: also write the replay page of the checked configurations (robot_page.hpp).
  std::optional<std::string> html_path;
};

/// Loads the robot; throws proxima::Error naming the file and the reason.
robot::SceneChecker load_robot_checker(const RobotCommandOptions& options);

/// The objects of a request's "environment" array (any query shape or
/// mesh, with a name and a pose; names unique); throws proxima::Error
/// naming the field, as `key`[i] (a stream's "scene" line passes "scene").
robot::Environment environment_from_json(const nlohmann::json& objects, MeshFiles& files,
                                         const std::string& key = "environment");

/// The objects of an "attached" array ({"name", "link", "geometry", "pose",
/// "touch_links"}: what the robot holds, robot::attach); throws
/// proxima::Error naming the field, as `key`[i].
std::vector<robot::AttachedObject> attached_from_json(const nlohmann::json& objects, MeshFiles& files,
                                                      const std::string& key = "attached");

/// What a stream keeps from line to line: the scene a "scene" line set, and
/// the robot holding what a "hold" line attached (null: as loaded).
struct RobotSession {
  std::shared_ptr<const robot::PreparedEnvironment> scene;
  std::shared_ptr<const robot::SceneChecker> holding;
  /// Called for each answered request with a "q" (not an error answer):
  /// the robot and scene it was checked against, its state and the answer.
  std::function<void(const robot::SceneChecker&, const robot::PreparedEnvironment&, const robot::RobotState&,
                     const nlohmann::json&)>
      observer;
};

/// Answers one parsed request line (a "scene" or "hold" line updates
/// `session`; with none, it is refused). Never throws.
nlohmann::json answer_robot(const robot::SceneChecker& checker, const nlohmann::json& request, MeshFiles& files,
                            RobotSession* session = nullptr);

/// Reads request lines until EOF, one answer line each; returns the number
/// of error answers. `scene`: the stream's scene until a "scene" line.
int run_robot_stream(const robot::SceneChecker& checker, std::istream& in, std::ostream& out,
                     std::shared_ptr<const robot::PreparedEnvironment> scene = nullptr);
/// The same, the stream's session starting as `session` (its observer sees every answer).
int run_robot_stream(const robot::SceneChecker& checker, std::istream& in, std::ostream& out, RobotSession session);

/// `proxima robot --html`: the stream, each answered configuration a frame
/// of the page (at most kDefaultFrameBudget; later ones are counted in the
/// title). Returns the number of error answers; throws proxima::Error when
/// the page cannot be written.
int run_robot_stream_with_page(const robot::SceneChecker& checker, std::istream& in, std::ostream& out,
                               std::shared_ptr<const robot::PreparedEnvironment> scene, const std::string& title,
                               nlohmann::json& page_data);

/// The objects of a MoveIt planning scene file for the stream's scene (null
/// when it has none); throws proxima::Error naming the file, line and field.
std::shared_ptr<const robot::PreparedEnvironment> planning_scene_environment(const std::string& file);

/// The whole command: load, then the stream. Returns the exit code (1 when
/// the robot does not load, the message on `err`).
int run_robot_command(const RobotCommandOptions& options, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace proxima::apps
