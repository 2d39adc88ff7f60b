// SPDX-License-Identifier: BSD-3-Clause
// Narrow-phase questions about two robot or environment geometries, each a
// convex Shape or a mesh Bvh: one place that picks query.hpp or
// mesh_queries.hpp for the pair and swaps the arguments when only the
// mesh-first overload exists.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/mesh/bvh.hpp>
#include <proxima/narrow/gjk.hpp>
#include <proxima/robot/environment.hpp>
#include <proxima/shape/shape.hpp>

namespace proxima::robot::detail {

using Geometry = std::variant<Shape, Bvh>;

struct PairCollide {
  Status status = Status::ok;
  bool collide = false;
};

struct PairDistance {
  Status status = Status::ok;
  /// Infinity when the pair was proven farther than the bound asked for.
  double distance = std::numeric_limits<double>::infinity();
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();
};

PairCollide collide_pair(const Geometry& a, const Transform& pa, const Geometry& b, const Transform& pb);
/// Distance when it is below `bound` (convex pairs stop early beyond it).
/// `cache`: a warm start for a convex pair asked again at nearby poses.
PairDistance distance_pair(const Geometry& a, const Transform& pa, const Geometry& b, const Transform& pb,
                           double bound, GjkCache* cache = nullptr);
/// Is the distance ≤ t? `status` receives the query's status.
bool within_pair(const Geometry& a, const Transform& pa, const Geometry& b, const Transform& pb, double t,
                 Status& status);

/// Why the environment cannot be queried (an object pose that is not
/// finite), or nullopt.
std::optional<std::string> environment_error(const Environment& env);

/// The geometry's bounds in its own frame (margin included).
Aabb local_box(const Geometry& g);
/// Non-empty and finite: not a halfspace's.
inline bool bounded(const Aabb& box) { return !box.empty() && box.min.allFinite() && box.max.allFinite(); }

/// The largest u·x over the points x of a bounded convex geometry placed at
/// `pose` (margin included), u unit; nullopt for a mesh or a halfspace.
/// −h(−n) − h'(n) is the gap along n between two such geometries, a lower
/// bound on their distance whatever n is. `hint`: a polytope's hill-climb
/// start, updated (−1: none), for a geometry asked again along nearby u.
std::optional<double> support_value(const Geometry& g, const Transform& pose, const Vec3& u, int& hint);

/// The objects' world AABBs, once per query (the robot's are in its state).
std::vector<Aabb> object_boxes(const Environment& env);

}  // namespace proxima::robot::detail
