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
};

struct Environment {
  std::vector<EnvironmentObject> objects;

  /// Appends an object; returns its index.
  std::size_t add(std::string name, Shape shape, const Transform& pose) {
    objects.push_back({std::move(name), std::variant<Shape, Bvh>(std::in_place_type<Shape>, std::move(shape)), pose});
    return objects.size() - 1;
  }
  std::size_t add(std::string name, Bvh mesh, const Transform& pose) {
    objects.push_back({std::move(name), std::variant<Shape, Bvh>(std::in_place_type<Bvh>, std::move(mesh)), pose});
    return objects.size() - 1;
  }
};

}  // namespace proxima::robot
