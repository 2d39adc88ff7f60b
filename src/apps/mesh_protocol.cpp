// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>

#include <proxima/core/error.hpp>
#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/mesh/mesh_time_of_impact.hpp>

#include "json_reader.hpp"
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

Operand operand(ObjectReader& r, const char* field, MeshFiles& files) {
  const json* p = r.get(field);
  const json j = p ? *p : json();
  if (is_mesh_json(j)) return {mesh_from_json(j, field, files), std::nullopt};
  return {nullptr, shape_from_json(j, field)};
}

Transform pose_or_identity(ObjectReader& r, const char* field) {
  const json* p = r.get(field);
  return p ? pose_from_json(*p, field) : Transform::identity();
}

json not_implemented(const json& id, const std::string& what) {
  return {{"id", id}, {"status", "not_implemented"}, {"message", what}};
}

// Convex-pair options that do not apply to mesh contacts: say so rather than
// ignore them silently.
void reject_convex_contact_options(ObjectReader& r) {
  for (const char* key : {"max_points", "feature_tolerance", "disc_points"}) {
    r.refuse(key, std::string("applies to convex pairs only") +
                      (std::string(key) == "max_points" ? " (with a mesh: max_contacts and cluster)" : ""));
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
  if (c.bound_exceeded) out["bound_exceeded"] = true;  // nothing within the layers and the margin
  return out;
}

}  // namespace

const std::vector<std::string>& mesh_contact_option_names() {
  static const std::vector<std::string> names = {"max_contacts", "cluster",      "patch_angle",  "cluster_weights",
                                                 "hierarchical_limit", "drop_shadowed", "feature_pairs", "patch_hulls"};
  return names;
}

MeshContactOptions mesh_contact_options_from_json(ObjectReader& r) {
  reject_convex_contact_options(r);
  MeshContactOptions o;
  o.margin = r.number_or("margin", o.margin, kLengthRange);
  o.patch_angle = r.number_or("patch_angle", o.patch_angle, Range{0.0, std::numbers::pi / 2, false, true, " rad"});
  o.cluster = r.boolean_or("cluster", o.cluster);
  o.drop_shadowed = r.boolean_or("drop_shadowed", o.drop_shadowed);
  o.feature_pairs = r.boolean_or("feature_pairs", o.feature_pairs);
  o.patch_hulls = r.boolean_or("patch_hulls", o.patch_hulls);
  const long long int_max = std::numeric_limits<int>::max();
  o.clustering.max_contacts = static_cast<int>(r.integer_or("max_contacts", o.clustering.max_contacts, 1, int_max));
  o.clustering.hierarchical_limit =
      static_cast<int>(r.integer_or("hierarchical_limit", o.clustering.hierarchical_limit, 0, int_max));
  if (const json* w = r.get("cluster_weights")) {
    read_object(*w, "cluster_weights", [&](ObjectReader& wr) {
      const Range weight{0.0, 1e15};
      o.clustering.point_weight = wr.number_or("point", o.clustering.point_weight, weight);
      o.clustering.normal_weight = wr.number_or("normal", o.clustering.normal_weight, weight);
      o.clustering.depth_weight = wr.number_or("depth", o.clustering.depth_weight, weight);
    });
  }
  return o;
}

json answer_mesh_pair(const json& id, const std::string& query, ObjectReader& r, MeshFiles& files) {
  if (const json* m = r.get("method"); m && *m != "auto") fail("method", "applies to convex pairs only");
  r.refuse("warm_start", "applies to convex pairs only");
  // Options first: a bad option is an error even when the operands are bad too.
  std::optional<MeshContactOptions> contact_options;
  if (query == "contacts") contact_options = mesh_contact_options_from_json(r);
  Operand a = operand(r, "a", files), b = operand(r, "b", files);
  Transform ta = pose_or_identity(r, "pose_a");
  Transform tb = pose_or_identity(r, "pose_b");
  std::optional<TimeOfImpactRequest> toi;
  Transform ta_end = ta, tb_end = tb;
  if (query == "time_of_impact") {
    toi = time_of_impact_request_from_json(r);
    if (r.has("pose_a_end")) ta_end = pose_or_identity(r, "pose_a_end");
    if (r.has("pose_b_end")) tb_end = pose_or_identity(r, "pose_b_end");
  }
  double tolerance_value = 0.0;
  if (query == "tolerance") tolerance_value = r.number("tolerance", kLengthRange);
  r.finish();
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
    const double t = tolerance_value;
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
