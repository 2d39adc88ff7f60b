// SPDX-License-Identifier: BSD-3-Clause
// MoveIt planning-scene YAML as MotionBenchMaker writes it, for the robot
// benchmark: block mappings and sequences, one-line flow collections
// ([a, b], {k: v}), plain and quoted scalars, comments. Anchors, tags,
// multi-line scalars and multi-line flow collections are not YAML this data
// uses, so they are rejected rather than half-read. Our own reader keeps the
// benchmark free of a yaml-cpp dependency.
//
// Every error is a std::runtime_error "file:line: reason".
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace proxima::bench {

struct YamlNode {
  enum class Kind { scalar, map, seq };
  Kind kind = Kind::scalar;
  std::string value;  ///< scalar (quotes removed); empty for a null
  std::vector<std::pair<std::string, YamlNode>> entries;  ///< map, in file order
  std::vector<YamlNode> items;                            ///< seq
  int line = 0;

  /// The entry named `key`, or nullptr (maps only).
  const YamlNode* find(const std::string& key) const;
};

/// Parses YAML text of the subset above; `source` names it in messages.
YamlNode parse_yaml(const std::string& text, const std::string& source);

/// One MoveIt primitive placed in the world.
struct ScenePrimitive {
  std::string id;    ///< the collision object's id, "/k" appended for its k-th primitive when it has several
  std::string type;  ///< "box", "cylinder" or "sphere"
  /// box: full sizes x, y, z; cylinder: height, radius; sphere: radius.
  std::vector<double> dimensions;
  std::array<double, 3> position{};
  std::array<double, 4> orientation_xyzw{0, 0, 0, 1};
};

struct PlanningScene {
  std::string name;  ///< file stem
  std::vector<ScenePrimitive> primitives;
  /// The start state of the request file beside the scene, by joint name;
  /// empty when there is none.
  std::map<std::string, double> start_state;
};

/// Reads `world: collision_objects:` of a MoveIt scene file. Throws
/// std::runtime_error naming the file, line and reason for malformed YAML,
/// a missing key, a primitive type other than box / cylinder / sphere, the
/// wrong number of dimensions, non-positive or non-finite numbers, a
/// zero quaternion, or primitive and pose counts that differ. Objects with
/// meshes or planes are rejected (the benchmark has no use for half a scene).
PlanningScene load_planning_scene(const std::filesystem::path& file);

/// Reads `start_state: joint_state: {name, position}` of a MoveIt motion
/// plan request file (same errors).
std::map<std::string, double> load_request_start_state(const std::filesystem::path& file);

}  // namespace proxima::bench
