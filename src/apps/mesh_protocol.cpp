#include <cmath>
#include <memory>
#include <optional>

#include <proxima/core/error.hpp>
#include <proxima/mesh/mesh_queries.hpp>

#include "json_shapes.hpp"
#include "mesh_protocol.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

struct Operand {
  std::shared_ptr<const Bvh> mesh;
  std::optional<Shape> shape;
};

Operand operand(const json& r, const char* field, MeshFiles& files) {
  const json j = r.contains(field) ? r[field] : json();
  if (is_mesh_json(j)) return {mesh_from_json(j, field, files), std::nullopt};
  return {nullptr, shape_from_json(j, field)};
}

json not_implemented(const json& id, const std::string& what) {
  return {{"id", id}, {"status", "not_implemented"}, {"message", what}};
}

}  // namespace

json answer_mesh_pair(const json& id, const std::string& query, const json& r, MeshFiles& files) {
  if (query == "contacts" || query == "time_of_impact") {
    return not_implemented(id, query + " with a mesh operand is not implemented yet");
  }
  if (r.contains("method") && r["method"] != "auto") throw Error("method: applies to convex pairs only");
  Operand a = operand(r, "a", files), b = operand(r, "b", files);
  Transform ta = pose_from_json(r.contains("pose_a") ? r["pose_a"] : json(), "pose_a");
  Transform tb = pose_from_json(r.contains("pose_b") ? r["pose_b"] : json(), "pose_b");
  // Mesh queries take the mesh first: a shape–mesh pair is answered swapped
  // and turned back (normal negated, points and triangle ids exchanged).
  const bool swapped = !a.mesh;
  if (swapped) {
    std::swap(a, b);
    std::swap(ta, tb);
  }
  const Bvh& mesh = *a.mesh;
  auto ids = [&](json& out, std::int64_t ta_id, std::int64_t tb_id) {
    if (swapped) std::swap(ta_id, tb_id);
    out["triangle_a"] = ta_id;
    out["triangle_b"] = tb_id;
  };
  auto status_only = [&](Status s) {
    return json{{"id", id}, {"status", to_string(s)}, {"message", "invalid input (non-finite pose)"}};
  };

  if (query == "collide") {
    const MeshCollideResult c = b.mesh ? collide(mesh, ta, *b.mesh, tb) : collide(mesh, ta, *b.shape, tb);
    if (c.status != Status::ok) return status_only(c.status);
    json out{{"id", id}, {"status", "ok"}, {"collide", c.collide}};
    if (c.collide) ids(out, c.triangle_a, c.triangle_b);
    return out;
  }
  if (query == "tolerance") {
    if (!r.contains("tolerance") || !r["tolerance"].is_number()) throw Error("tolerance: missing or not a number");
    const double t = r["tolerance"].get<double>();
    if (!std::isfinite(t) || t < 0.0) throw Error("tolerance: must be finite and >= 0");
    const MeshToleranceResult w = b.mesh ? tolerance(mesh, ta, *b.mesh, tb, t) : tolerance(mesh, ta, *b.shape, tb, t);
    if (w.status != Status::ok) return status_only(w.status);
    json out{{"id", id}, {"status", "ok"}, {"within_tolerance", w.within}};
    if (w.within) ids(out, w.triangle_a, w.triangle_b);
    return out;
  }
  const MeshDistanceResult d = b.mesh ? distance(mesh, ta, *b.mesh, tb) : distance(mesh, ta, *b.shape, tb);
  if (d.status != Status::ok) return status_only(d.status);
  if (query == "signed_distance" && d.distance <= 0.0) {
    return not_implemented(id, "penetration depth with a mesh operand is not implemented yet (the meshes touch)");
  }
  Vec3 normal = d.normal, pa = d.point_a, pb = d.point_b;
  if (swapped) {
    normal = -normal;
    std::swap(pa, pb);
  }
  json out{{"id", id}, {"status", "ok"}, {"collide", d.distance <= 0.0}, {"distance", d.distance},
           {"point_a", to_json(pa)}, {"point_b", to_json(pb)}};
  if (d.distance > 0.0) out["normal"] = to_json(normal);
  ids(out, d.triangle_a, d.triangle_b);
  return out;
}

}  // namespace proxima::apps
