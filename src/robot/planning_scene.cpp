// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/robot/planning_scene.hpp>

#include <proxima/core/error.hpp>
#include <proxima/io/file.hpp>

#include "planning_scene_parts.hpp"

namespace proxima::robot {

PlanningScene parse_planning_scene(std::string_view text, PlanningSceneFormat format, const std::string& source_name) {
  if (format == PlanningSceneFormat::scene) return scene_parts::parse_scene_text(text, source_name);
  return scene_parts::parse_scene_yaml(text, source_name);
}

PlanningScene read_planning_scene(const std::filesystem::path& file) {
  const std::string ext = file.extension().string();
  PlanningSceneFormat format = PlanningSceneFormat::yaml;
  if (ext == ".scene") {
    format = PlanningSceneFormat::scene;
  } else if (ext != ".yaml" && ext != ".yml") {
    throw Error("planning scene '" + file.string() + "': the extension '" + ext +
                "' is neither .scene (MoveIt's text) nor .yaml / .yml (a moveit_msgs/PlanningScene)");
  }
  return parse_planning_scene(read_whole_file(file, "planning scene"), format, file.string());
}

std::map<std::string, double> read_request_start_state(const std::filesystem::path& file) {
  return scene_parts::parse_request_start_state(read_whole_file(file, "motion plan request"), file.string());
}

}  // namespace proxima::robot
