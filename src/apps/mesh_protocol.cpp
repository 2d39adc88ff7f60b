#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>

#include <proxima/core/error.hpp>
#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/mesh/mesh_time_of_impact.hpp>

#include "json_shapes.hpp"
#include "json_time_of_impact.hpp"
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

// r[key] as a finite number >= 0, or fallback when absent; errors name `name`.
double number_option(const json& r, const char* key, const std::string& name, double fallback) {
  if (!r.contains(key)) return fallback;
  const json& v = r[key];
  if (!v.is_number() || !std::isfinite(v.get<double>())) throw Error(name + ": expected a finite number");
  const double x = v.get<double>();
  if (x < 0.0) throw Error(name + ": must be >= 0");
  return x;
}

int int_option(const json& r, const char* key, int fallback, int min) {
  if (!r.contains(key)) return fallback;
  const json& v = r[key];
  if (!v.is_number_integer() || v.get<long long>() < min ||
      v.get<long long>() > std::numeric_limits<int>::max()) {
    throw Error(std::string(key) + ": expected an integer >= " + std::to_string(min) + " (got " + v.dump() + ")");
  }
  return v.get<int>();
}

// Convex-pair options that do not apply to mesh contacts: say so rather than
// ignore them silently.
void reject_convex_contact_options(const json& r) {
  for (const char* key : {"max_points", "feature_tolerance", "disc_points"}) {
    if (r.contains(key)) {
      throw Error(std::string(key) + ": applies to convex pairs only" +
                  (std::string(key) == "max_points" ? " (with a mesh: max_contacts and cluster)" : ""));
    }
  }
}

// Results of mesh_contacts for the pair as requested (A first): a convex A
// against a mesh B is answered with the mesh first and turned back (normals
// negated, triangle ids exchanged; points and depths are symmetric).
json contacts_answer(const json& id, const ContactSet& c, const MeshContactStats& stats, bool swapped) {
  json points = json::array();
  for (const Contact& k : c.points) {
    const Vec3 n = swapped ? Vec3(-k.normal) : k.normal;
    points.push_back({{"point", to_json(k.point)},
                      {"normal", to_json(n)},
                      {"depth", k.depth},
                      {"feature_a", swapped ? k.feature_b : k.feature_a},
                      {"feature_b", swapped ? k.feature_a : k.feature_b},
                      {"intersecting", k.intersecting}});
  }
  json out{{"id", id}, {"status", to_string(c.status)}, {"contacts", points},
           {"stats", {{"raw_contacts", stats.raw_contacts},
                      {"pairs_within", stats.pairs_within},
                      {"intersecting", stats.intersecting},
                      {"triangle_tests", stats.triangle_tests},
                      {"node_pairs", stats.node_pairs}}}};
  if (!c.points.empty() && std::isfinite(c.distance)) {
    out["distance"] = c.distance;
    out["normal"] = to_json(swapped ? Vec3(-c.normal) : c.normal);
  }
  return out;
}

}  // namespace

const std::vector<std::string>& mesh_contact_option_names() {
  static const std::vector<std::string> names = {"max_contacts", "cluster",      "patch_angle",  "cluster_weights",
                                                 "hierarchical_limit", "drop_shadowed", "patch_hulls"};
  return names;
}

MeshContactOptions mesh_contact_options_from_json(const json& r) {
  reject_convex_contact_options(r);
  MeshContactOptions o;
  o.margin = number_option(r, "margin", "margin", o.margin);
  o.patch_angle = number_option(r, "patch_angle", "patch_angle", o.patch_angle);
  if (o.patch_angle >= std::numbers::pi / 2) throw Error("patch_angle: must be in [0, pi/2) radians");
  auto flag = [&](const char* key, bool& value) {
    if (!r.contains(key)) return;
    if (!r[key].is_boolean()) throw Error(std::string(key) + ": expected true or false");
    value = r[key].get<bool>();
  };
  flag("cluster", o.cluster);
  flag("drop_shadowed", o.drop_shadowed);
  flag("patch_hulls", o.patch_hulls);
  o.clustering.max_contacts = int_option(r, "max_contacts", o.clustering.max_contacts, 1);
  o.clustering.hierarchical_limit = int_option(r, "hierarchical_limit", o.clustering.hierarchical_limit, 0);
  if (r.contains("cluster_weights")) {
    const json& w = r["cluster_weights"];
    if (!w.is_object()) throw Error("cluster_weights: expected an object {\"point\", \"normal\", \"depth\"}");
    for (const auto& [key, value] : w.items()) {
      if (key != "point" && key != "normal" && key != "depth") {
        throw Error("cluster_weights." + key + ": unknown weight (expected point, normal or depth)");
      }
    }
    o.clustering.point_weight = number_option(w, "point", "cluster_weights.point", o.clustering.point_weight);
    o.clustering.normal_weight = number_option(w, "normal", "cluster_weights.normal", o.clustering.normal_weight);
    o.clustering.depth_weight = number_option(w, "depth", "cluster_weights.depth", o.clustering.depth_weight);
  }
  return o;
}

json answer_mesh_pair(const json& id, const std::string& query, const json& r, MeshFiles& files) {
  if (r.contains("method") && r["method"] != "auto") throw Error("method: applies to convex pairs only");
  // Options first: a bad option is an error even when the operands are bad too.
  std::optional<MeshContactOptions> contact_options;
  if (query == "contacts") contact_options = mesh_contact_options_from_json(r);
  Operand a = operand(r, "a", files), b = operand(r, "b", files);
  Transform ta = pose_from_json(r.contains("pose_a") ? r["pose_a"] : json(), "pose_a");
  Transform tb = pose_from_json(r.contains("pose_b") ? r["pose_b"] : json(), "pose_b");
  std::optional<TimeOfImpactRequest> toi;
  Transform ta_end = ta, tb_end = tb;
  if (query == "time_of_impact") {
    toi = time_of_impact_request_from_json(r);
    if (r.contains("pose_a_end")) ta_end = pose_from_json(r["pose_a_end"], "pose_a_end");
    if (r.contains("pose_b_end")) tb_end = pose_from_json(r["pose_b_end"], "pose_b_end");
  }
  // Mesh queries take the mesh first: a shape–mesh pair is answered swapped
  // and turned back (normal negated, points and triangle ids exchanged).
  const bool swapped = !a.mesh;
  if (swapped) {
    std::swap(a, b);
    std::swap(ta, tb);
    std::swap(ta_end, tb_end);
  }
  const Bvh& mesh = *a.mesh;
  auto ids = [&](json& out, std::int64_t ta_id, std::int64_t tb_id) {
    if (swapped) std::swap(ta_id, tb_id);
    out["triangle_a"] = ta_id;
    out["triangle_b"] = tb_id;
  };
  static_assert(kMaxLength == 1e15);  // the message spells it out
  auto status_only = [&](Status s) {
    return json{{"id", id}, {"status", to_string(s)}, {"message", "invalid input (a pose is non-finite or beyond ±1e15 m, or an option is out of range)"}};
  };

  if (query == "contacts") {
    ContactSet c;
    MeshContactStats stats;
    if (b.mesh) {
      mesh_contacts(mesh, ta, *b.mesh, tb, *contact_options, c, &stats);
    } else {
      mesh_contacts(mesh, ta, *b.shape, tb, *contact_options, c, &stats);
    }
    if (c.status != Status::ok && c.status != Status::not_converged) return status_only(c.status);
    return contacts_answer(id, c, stats, swapped);
  }
  if (toi) {
    const MeshTimeOfImpactResult t = b.mesh ? time_of_impact(mesh, ta, ta_end, *b.mesh, tb, tb_end, *toi)
                                            : time_of_impact(mesh, ta, ta_end, *b.shape, tb, tb_end, *toi);
    if (t.status != Status::ok && t.status != Status::not_converged) return status_only(t.status);
    json out = time_of_impact_json(id, t, swapped);
    ids(out, t.triangle_a, t.triangle_b);
    return out;
  }
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
