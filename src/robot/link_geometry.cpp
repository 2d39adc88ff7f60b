// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/robot/link_geometry.hpp>

#include <cmath>
#include <unordered_map>

#include <proxima/core/error.hpp>
#include <proxima/io/mesh_io.hpp>

#include "pair_query.hpp"

namespace proxima::robot {

Aabb LinkShape::local_aabb() const { return detail::local_box(geometry); }

namespace {

// Meshes read once per (path, scale): grippers reuse one finger mesh.
class MeshCache {
 public:
  const TriangleMesh& get(const GeometrySpec& g) {
    const std::string key = g.path.string() + '|' + std::to_string(g.scale.x()) + ' ' +
                            std::to_string(g.scale.y()) + ' ' + std::to_string(g.scale.z());
    auto it = meshes_.find(key);
    if (it != meshes_.end()) return it->second;
    TriangleMesh m = read_mesh(g.path);
    // The reader scales uniformly only; URDF allows a scale per axis.
    if (g.scale != Vec3::Ones()) {
      std::vector<Vec3> v = m.vertices();
      for (Vec3& x : v) x = x.cwiseProduct(g.scale);
      m = TriangleMesh(std::move(v), m.triangles(), 0.0, m.name());
    }
    return meshes_.emplace(key, std::move(m)).first->second;
  }

 private:
  std::unordered_map<std::string, TriangleMesh> meshes_;
};

LinkShape build_shape(const Link& link, const CollisionElement& c, double margin, const GeometryOptions& options,
                      MeshCache& cache) {
  const GeometrySpec& g = c.geometry;
  const std::string at = c.where.str().empty() ? std::string() : " (" + c.where.str() + ")";
  const std::string what = "link '" + link.name + "'" + at;
  try {
    switch (g.kind) {
      case GeometrySpec::Kind::box: return {Shape(Box(g.size, margin)), c.origin, "box"};
      case GeometrySpec::Kind::cylinder: return {Shape(Cylinder(g.radius, g.length, margin)), c.origin, "cylinder"};
      case GeometrySpec::Kind::sphere: return {Shape(Sphere(g.radius, margin)), c.origin, "sphere"};
      case GeometrySpec::Kind::mesh: break;
    }
  } catch (const Error& e) {
    throw Error(what + ": " + e.what());
  }
  try {
    const TriangleMesh& mesh = cache.get(g);
    if (options.mesh_mode == MeshMode::convex_hull)
      return {Shape(ConvexPolytope(mesh.vertices(), margin)), c.origin, g.uri};
    return {std::variant<Shape, Bvh>(std::in_place_type<Bvh>, mesh.with_margin(margin), options.bvh), c.origin, g.uri};
  } catch (const Error& e) {
    throw Error(what + ": mesh '" + g.uri + "' (" + g.path.string() + "): " + e.what());
  }
}

}  // namespace

RobotGeometry::RobotGeometry(RobotModel model, const GeometryOptions& options)
    : model_(std::move(model)), mode_(options.mesh_mode) {
  auto check_margin = [&](double m, const std::string& what) {
    if (!std::isfinite(m) || m < 0.0 || m > kMaxLength)
      throw Error("robot '" + model_.name() + "': " + what + ": margin " + std::to_string(m) +
                  " must be finite and >= 0");
  };
  check_margin(options.margin, "default");
  for (const auto& [name, m] : options.link_margins) {
    if (model_.link_index(name) < 0)
      throw Error("robot '" + model_.name() + "': link_margins names link '" + name + "', which does not exist");
    check_margin(m, "link '" + name + "'");
  }
  MeshCache cache;
  links_.resize(model_.links().size());
  for (std::size_t i = 0; i < links_.size(); ++i) {
    const Link& link = model_.links()[i];
    const auto it = options.link_margins.find(link.name);
    links_[i].margin = it == options.link_margins.end() ? options.margin : it->second;
    for (const CollisionElement& c : link.collisions)
      links_[i].shapes.push_back(build_shape(link, c, links_[i].margin, options, cache));
  }
}

RobotGeometry::RobotGeometry(RobotModel model, std::vector<LinkGeometry> links, MeshMode mode)
    : model_(std::move(model)), links_(std::move(links)), mode_(mode) {
  if (links_.size() != model_.links().size())
    throw Error("robot '" + model_.name() + "': geometry for " + std::to_string(links_.size()) + " links, the model has " +
                std::to_string(model_.links().size()));
}

}  // namespace proxima::robot
