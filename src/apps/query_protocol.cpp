// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>
#include <string_view>
#include <istream>
#include <ostream>

#include <proxima/query.hpp>

#include "json_lines.hpp"
#include "json_reader.hpp"
#include "json_shapes.hpp"
#include "json_time_of_impact.hpp"
#include "mesh_protocol.hpp"
#include "query_protocol.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

json error_answer(const json& id, const std::string& message) {
  return {{"id", id}, {"status", "error"}, {"message", message}};
}

Method method_from_json(ObjectReader& r) {
  const json* m = r.get("method");
  if (m == nullptr) return Method::automatic;
  const std::string s = string_at(*m, "method");
  if (s == "auto") return Method::automatic;
  if (s == "analytic") return Method::analytic;
  if (s == "gjk" || s == "gjk_epa" || s == "epa") return Method::gjk;
  if (s == "sat") return Method::sat;
  if (s == "incremental") return Method::incremental;
  if (s == "mpr") return Method::mpr;
  throw Error("method: unknown \"" + s + "\" (expected auto, analytic, gjk_epa, sat, incremental or mpr)");
}

// "margin" at the top level of a contacts request is the contact margin (a
// shape's own margin sits inside its shape object).
ContactOptions contact_options_from_json(ObjectReader& r) {
  for (const std::string& key : mesh_contact_option_names()) {
    r.refuse(key, "applies to pairs with a mesh operand only" +
                      (key == "max_contacts" ? std::string(" (convex pairs: max_points)") : std::string()));
  }
  ContactOptions o;
  o.margin = r.number_or("margin", o.margin, kLengthRange);
  o.feature_tolerance = r.number_or("feature_tolerance", o.feature_tolerance, Range{0.0, 1.0});
  o.disc_points = static_cast<int>(r.integer_or("disc_points", o.disc_points, 3, 100000));
  o.max_points = static_cast<int>(r.integer_or("max_points", o.max_points, 0, 100000));
  return o;
}

// A warm start is a search direction: finite and not zero.
Vec3 warm_start_from_json(const json& j) {
  const Vec3 d = vec3_at(j, "warm_start");
  if (d.isZero(0.0)) fail("warm_start", "must be a non-zero direction");
  return d;
}

void put_distance(json& out, const DistanceResult& r) {
  out["distance"] = r.distance;
  out["point_a"] = to_json(r.point_a);
  out["point_b"] = to_json(r.point_b);
  out["normal"] = to_json(r.normal);  // touching pairs too: the supporting plane's
  out["iterations"] = r.iterations;
  if (r.bound_exceeded) out["bound_exceeded"] = true;
}

// The messages below spell out kMaxLength.
static_assert(kMaxLength == 1e15);

json status_answer(const json& id, Status s, const std::string& query) {
  json out{{"id", id}, {"status", to_string(s)}};
  if (s == Status::not_implemented) {
    out["message"] = query + " is not implemented for this pair or case yet";
  } else if (s == Status::invalid_input) {
    out["message"] = "invalid input (a pose is non-finite or beyond ±1e15 m, or an option is out of range)";
  }
  return out;
}

// The end poses default to the start poses (a body that stays put).
json time_of_impact_answer(const json& id, ObjectReader& r, const Shape& a, const Transform& ta, const Shape& b,
                           const Transform& tb) {
  const TimeOfImpactRequest req = time_of_impact_request_from_json(r);
  const json* ea = r.get("pose_a_end");
  const json* eb = r.get("pose_b_end");
  const Transform ta_end = ea ? pose_from_json(*ea, "pose_a_end") : ta;
  const Transform tb_end = eb ? pose_from_json(*eb, "pose_b_end") : tb;
  r.finish();
  const TimeOfImpactResult t = time_of_impact(a, ta, ta_end, b, tb, tb_end, req);
  if (t.status != Status::ok && t.status != Status::not_converged) {
    return status_answer(id, t.status, "time_of_impact");
  }
  return time_of_impact_json(id, t, false);
}

const char* const kQueries = "collide, distance, signed_distance, tolerance, contacts or time_of_impact";

// One request, every key read through `r` (which its caller finishes too: a
// key no branch reads is refused). Keys of other queries are refused by name.
json answer_request(const json& id, ObjectReader& r, MeshFiles& files) {
  (void)r.get("id");  // echoed as it is
  const std::string query = r.string("query");
  if (query != "time_of_impact" && query != "collide" && query != "distance" && query != "signed_distance" &&
      query != "tolerance" && query != "contacts") {
    throw Error("query: unknown \"" + query + "\" (expected " + kQueries + ")");
  }
  if (query != "tolerance") r.refuse("tolerance", "applies to tolerance queries only");
  if (query != "distance" && query != "signed_distance")
    r.refuse("bound", "applies to distance and signed_distance queries only");
  if (query != "time_of_impact") {
    for (const char* key : {"pose_a_end", "pose_b_end", "clearance", "accuracy", "max_iterations"})
      r.refuse(key, "applies to time_of_impact queries only");
  }
  if (query != "contacts") {
    for (const char* key : {"margin", "feature_tolerance", "disc_points", "max_points"})
      r.refuse(key, std::string("applies to contacts queries only") +
                        (std::string_view(key) == "margin" ? " (a shape's own margin goes inside its object)" : ""));
    for (const std::string& key : mesh_contact_option_names())
      r.refuse(key, "applies to contacts queries with a mesh operand only");
  }
  if (query == "contacts" || query == "time_of_impact") {
    for (const char* key : {"method", "warm_start"}) r.refuse(key, "does not apply to " + query);
  }
  const json null;
  const json* ja = r.get("a");
  const json* jb = r.get("b");
  if (is_mesh_json(ja ? *ja : null) || is_mesh_json(jb ? *jb : null)) return answer_mesh_pair(id, query, r, files);
  const Shape a = shape_from_json(ja ? *ja : null, "a");
  const Shape b = shape_from_json(jb ? *jb : null, "b");
  const json* jpa = r.get("pose_a");
  const json* jpb = r.get("pose_b");
  const Transform ta = pose_from_json(jpa ? *jpa : null, "pose_a");
  const Transform tb = pose_from_json(jpb ? *jpb : null, "pose_b");
  if (query == "time_of_impact") return time_of_impact_answer(id, r, a, ta, b, tb);
  if (query == "contacts") {
    const ContactOptions options = contact_options_from_json(r);
    r.finish();
    const ContactSet c = contacts(a, ta, b, tb, options);
    if (c.status != Status::ok && c.status != Status::not_converged) return status_answer(id, c.status, query);
    json points = json::array();
    for (const Contact& k : c.points) {
      points.push_back({{"point", to_json(k.point)}, {"normal", to_json(k.normal)}, {"depth", k.depth}});
    }
    json out = {{"id", id},          {"status", to_string(c.status)}, {"distance", c.distance},
                {"normal", to_json(c.normal)}, {"contacts", points}};
    // Beyond the margin: the distance is a proven lower bound, as with a
    // distance query's `bound`.
    if (c.bound_exceeded) out["bound_exceeded"] = true;
    return out;
  }
  DistanceRequest req;
  req.method = method_from_json(r);
  GjkCache cache;
  if (const json* w = r.get("warm_start")) {
    cache.direction = warm_start_from_json(*w);
    req.cache = &cache;
  }
  if (query == "collide") {
    r.finish();
    CollideRequest creq;
    creq.method = req.method;
    creq.cache = req.cache;
    const CollideResult c = collide(a, ta, b, tb, creq);
    if (c.status != Status::ok) return status_answer(id, c.status, query);
    return {{"id", id}, {"status", "ok"}, {"collide", c.collide}, {"iterations", c.iterations}};
  }
  if (query == "tolerance") {
    const double t = r.number("tolerance", kLengthRange);
    r.finish();
    const ToleranceResult w = tolerance(a, ta, b, tb, t, req);
    if (w.status != Status::ok) return status_answer(id, w.status, query);
    return {{"id", id},
            {"status", "ok"},
            {"within_tolerance", w.within},
            {"distance", w.distance},
            {"iterations", w.iterations}};
  }
  req.bound = r.number_or("bound", req.bound, kLengthRange);
  r.finish();
  const DistanceResult d = query == "distance" ? distance(a, ta, b, tb, req) : signed_distance(a, ta, b, tb, req);
  if (d.status != Status::ok && d.status != Status::not_converged && d.status != Status::upper_bound) {
    return status_answer(id, d.status, query);
  }
  json out{{"id", id}, {"status", to_string(d.status)}, {"collide", d.distance <= 0.0}};
  put_distance(out, d);
  return out;
}

}  // namespace

json answer(const json& r) {
  MeshFiles files;
  return answer(r, files);
}

json answer(const json& r, MeshFiles& files) {
  const json id = r.is_object() && r.contains("id") ? r["id"] : json();
  try {
    require_object(r, "request");
    return read_object(r, "", [&](ObjectReader& rd) { return answer_request(id, rd, files); });
  } catch (const std::exception& e) {
    return error_answer(id, e.what());
  }
}

json answer_line(const std::string& line) {
  MeshFiles files;
  return answer_line(line, files);
}

json answer_line(const std::string& line, MeshFiles& files) {
  json r;
  try {
    r = parse_json(line);
  } catch (const json::exception& e) {
    return error_answer(json(), std::string("not valid JSON: ") + e.what());
  } catch (const Error& e) {
    return error_answer(json(), e.what());  // a duplicate key
  }
  return answer(r, files);
}

int run_query_stream(std::istream& in, std::ostream& out) {
  MeshFiles files;
  return run_json_lines(in, out, [&](const std::string& line) { return answer_line(line, files); });
}

}  // namespace proxima::apps
