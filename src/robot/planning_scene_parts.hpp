// SPDX-License-Identifier: BSD-3-Clause
// What the YAML and the .scene readers of planning scenes share: the shape a
// MoveIt primitive stands for, the quaternion check and the naming of an
// object's shapes in the Environment.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <proxima/robot/planning_scene.hpp>

namespace proxima::robot::scene_parts {

/// MoveIt's primitive kinds (shape_msgs/SolidPrimitive, geometric_shapes).
enum class Primitive { box, sphere, cylinder, cone };

/// How many dimensions a primitive takes in the message (box 3, sphere 1,
/// cylinder and cone 2).
std::size_t dimension_count(Primitive p);

/// The primitive named `name` ("box", "sphere", "cylinder", "cone"); false
/// for anything else.
bool primitive_from_name(const std::string& name, Primitive& out);

const char* primitive_name(Primitive p);

/// The shape of a primitive from its message dimensions: box [x, y, z],
/// sphere [radius], cylinder and cone [height, radius] (shape_msgs order;
/// the .scene text writes radius first and swaps before calling). Returns an
/// empty string and sets `out`, or the reason the numbers are rejected.
std::string make_primitive(Primitive p, const std::vector<double>& dims, Shape& out);

/// Empty when |q| is 1 within 1e-4, else the reason (naming the norm).
std::string quaternion_problem(double x, double y, double z, double w);

/// Position and unit quaternion (x, y, z, w, MoveIt's order) as a pose; the
/// quaternion must have passed quaternion_problem.
Transform pose_of(const Vec3& p, double x, double y, double z, double w);

/// One shape of an object, placed relative to the object's pose.
struct PlacedShape {
  std::variant<Shape, Bvh> geometry;
  Transform pose;
};

/// Appends an object's shapes to `env`: named `id` when it has one, else
/// `id/k` sharing group `id`. World pose = object_pose × shape pose.
void add_object(Environment& env, const std::string& id, const Transform& object_pose,
                std::vector<PlacedShape> shapes);

}  // namespace proxima::robot::scene_parts

namespace proxima::robot::scene_parts {

/// The YAML reader (planning_scene_yaml.cpp).
PlanningScene parse_scene_yaml(std::string_view text, const std::string& source);
/// The start state of a MotionPlanRequest in YAML (planning_scene_yaml.cpp).
std::map<std::string, double> parse_request_start_state(std::string_view text, const std::string& source);
/// The .scene text reader (planning_scene_text.cpp).
PlanningScene parse_scene_text(std::string_view text, const std::string& source);

}  // namespace proxima::robot::scene_parts
