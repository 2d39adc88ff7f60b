// SPDX-License-Identifier: BSD-3-Clause
// Link geometry: the collision elements of a RobotModel turned into shapes
// the queries take, each link optionally inflated by a safety margin (the
// protective hull of the watchdog paper).
#pragma once

#include <map>
#include <string>
#include <variant>
#include <vector>

#include <proxima/mesh/bvh.hpp>
#include <proxima/robot/robot_model.hpp>
#include <proxima/shape/shape.hpp>

namespace proxima::robot {

/// What a mesh collision element becomes.
enum class MeshMode {
  /// Its convex hull (a ConvexPolytope): GJK on a few dozen vertices, what
  /// planners use, and conservative (the hull contains the mesh). The default.
  convex_hull,
  /// The triangle mesh itself in a BVH: exact, slower, and a surface rather
  /// than a solid (mesh_queries.hpp): a link wholly inside another is not
  /// reported as colliding.
  triangle_mesh,
};

struct GeometryOptions {
  MeshMode mesh_mode = MeshMode::convex_hull;
  /// Safety margin (m, ≥ 0) of every link: each of its shapes is inflated by
  /// it, so queries see the link ⊕ ball(margin).
  double margin = 0.0;
  /// Per-link margins overriding `margin`, by link name.
  std::map<std::string, double> link_margins;
  /// How raw meshes' BVHs are built (MeshMode::triangle_mesh).
  BvhOptions bvh;
};

/// One collision element: a convex shape or a triangle mesh, at `origin` in
/// the link frame.
struct LinkShape {
  std::variant<Shape, Bvh> geometry;
  Transform origin;
  /// "box", "cylinder", "sphere" or the mesh URI, for reports.
  std::string source;

  const Shape* shape() const { return std::get_if<Shape>(&geometry); }
  const Bvh* bvh() const { return std::get_if<Bvh>(&geometry); }
  /// Bounds (margin included) in the element's own frame.
  Aabb local_aabb() const;
};

struct LinkGeometry {
  std::vector<LinkShape> shapes;
  double margin = 0.0;
};

/// A model with its geometry built. Immutable; copies share the shapes.
class RobotGeometry {
 public:
  /// Builds every link's shapes, reading each mesh file once. Throws
  /// proxima::Error naming the link, the URI and the path for a mesh that
  /// cannot be read or whose hull is degenerate (flat without margin), and
  /// naming the link for a negative or non-finite margin or a link_margins
  /// entry naming no link.
  explicit RobotGeometry(RobotModel model, const GeometryOptions& options = {});
  /// From shapes already built, one LinkGeometry per link of `model` (a
  /// model extended in code, as attach() does); `mode` records how the
  /// meshes among them were built. Throws proxima::Error when the counts
  /// differ.
  RobotGeometry(RobotModel model, std::vector<LinkGeometry> links, MeshMode mode);

  const RobotModel& model() const { return model_; }
  const std::vector<LinkGeometry>& links() const { return links_; }
  const LinkGeometry& link(int i) const { return links_[static_cast<std::size_t>(i)]; }
  bool has_geometry(int i) const { return !link(i).shapes.empty(); }
  MeshMode mesh_mode() const { return mode_; }

 private:
  RobotModel model_;
  std::vector<LinkGeometry> links_;
  MeshMode mode_;
};

}  // namespace proxima::robot
