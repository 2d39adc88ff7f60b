// SPDX-License-Identifier: BSD-3-Clause
// The robot's surroundings for the scene checker: named convex shapes and
// triangle meshes at fixed world poses.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include <proxima/mesh/bvh.hpp>
#include <proxima/shape/shape.hpp>

namespace proxima::robot {

struct EnvironmentObject {
  std::string name;
  std::variant<Shape, Bvh> geometry;
  Transform pose;  ///< world pose
  /// Links allowed to touch this object (MoveIt's touch links: the gripper
  /// around an object it is about to grasp, a tool resting in its holder):
  /// their pairs with it are not checked. Each must name a link of the
  /// checker's robot (a query says invalid_input otherwise).
  std::vector<std::string> touch_links = {};
  /// Objects with the same non-empty group are one clearance channel of the
  /// watchdog (scene_clearances): the cubes of a point cloud, the top and
  /// legs of a table. Empty: the object is a channel of its own.
  std::string group = {};
};

struct Environment {
  std::vector<EnvironmentObject> objects;

  /// Appends an object; returns its index.
  std::size_t add(std::string name, Shape shape, const Transform& pose, std::vector<std::string> touch_links = {}) {
    objects.push_back({std::move(name), std::variant<Shape, Bvh>(std::in_place_type<Shape>, std::move(shape)), pose,
                       std::move(touch_links), {}});
    return objects.size() - 1;
  }
  std::size_t add(std::string name, Bvh mesh, const Transform& pose, std::vector<std::string> touch_links = {}) {
    objects.push_back({std::move(name), std::variant<Shape, Bvh>(std::in_place_type<Bvh>, std::move(mesh)), pose,
                       std::move(touch_links), {}});
    return objects.size() - 1;
  }
};

}  // namespace proxima::robot
