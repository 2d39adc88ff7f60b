#include <cmath>
#include <istream>
#include <ostream>

#include <proxima/query.hpp>

#include "json_lines.hpp"
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

Method method_from_json(const json& r) {
  if (!r.contains("method")) return Method::automatic;
  const json& m = r["method"];
  if (!m.is_string()) throw Error("method: expected a string");
  const std::string s = m.get<std::string>();
  if (s == "auto") return Method::automatic;
  if (s == "analytic") return Method::analytic;
  if (s == "gjk" || s == "gjk_epa" || s == "epa") return Method::gjk;
  if (s == "sat") return Method::sat;
  if (s == "incremental") return Method::incremental;
  if (s == "mpr") return Method::mpr;
  throw Error("method: unknown \"" + s + "\" (expected auto, analytic, gjk_epa, sat, incremental or mpr)");
}

double number_field(const json& r, const char* key, double fallback) {
  if (!r.contains(key)) return fallback;
  if (!r[key].is_number()) throw Error(std::string(key) + ": expected a number");
  const double v = r[key].get<double>();
  if (!std::isfinite(v)) throw Error(std::string(key) + ": must be finite");
  return v;
}

int count_field(const json& r, const char* key, int fallback, int min) {
  if (!r.contains(key)) return fallback;
  if (!r[key].is_number_integer() || r[key].get<long long>() < min || r[key].get<long long>() > 100000) {
    throw Error(std::string(key) + ": expected an integer from " + std::to_string(min) + " to 100000");
  }
  return r[key].get<int>();
}

// "margin" at the top level of a contacts request is the contact margin (a
// shape's own margin sits inside its shape object).
ContactOptions contact_options_from_json(const json& r) {
  for (const std::string& key : mesh_contact_option_names()) {
    if (r.contains(key)) {
      throw Error(key + ": applies to pairs with a mesh operand only" +
                  (key == "max_contacts" ? std::string(" (convex pairs: max_points)") : std::string()));
    }
  }
  ContactOptions o;
  o.margin = number_field(r, "margin", o.margin);
  if (o.margin < 0.0) throw Error("margin: must be >= 0");
  o.feature_tolerance = number_field(r, "feature_tolerance", o.feature_tolerance);
  if (o.feature_tolerance < 0.0) throw Error("feature_tolerance: must be >= 0");
  o.disc_points = count_field(r, "disc_points", o.disc_points, 3);
  o.max_points = count_field(r, "max_points", o.max_points, 0);
  return o;
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
json time_of_impact_answer(const json& id, const json& r, const Shape& a, const Transform& ta, const Shape& b,
                           const Transform& tb) {
  const TimeOfImpactRequest req = time_of_impact_request_from_json(r);
  const Transform ta_end = r.contains("pose_a_end") ? pose_from_json(r["pose_a_end"], "pose_a_end") : ta;
  const Transform tb_end = r.contains("pose_b_end") ? pose_from_json(r["pose_b_end"], "pose_b_end") : tb;
  const TimeOfImpactResult t = time_of_impact(a, ta, ta_end, b, tb, tb_end, req);
  if (t.status != Status::ok && t.status != Status::not_converged) {
    return status_answer(id, t.status, "time_of_impact");
  }
  return time_of_impact_json(id, t, false);
}

}  // namespace

json answer(const json& r) {
  MeshFiles files;
  return answer(r, files);
}

json answer(const json& r, MeshFiles& files) {
  const json id = r.is_object() && r.contains("id") ? r["id"] : json();
  try {
    if (!r.is_object()) throw Error("request: expected a JSON object");
    if (!r.contains("query") || !r["query"].is_string()) throw Error("query: missing or not a string");
    const std::string query = r["query"].get<std::string>();
    if (query != "time_of_impact" && query != "collide" && query != "distance" && query != "signed_distance" &&
        query != "tolerance" && query != "contacts") {
      throw Error("query: unknown \"" + query +
                  "\" (expected collide, distance, signed_distance, tolerance, contacts or "
                  "time_of_impact)");
    }
    if (is_mesh_json(r.value("a", json())) || is_mesh_json(r.value("b", json()))) {
      return answer_mesh_pair(id, query, r, files);
    }
    const Shape a = shape_from_json(r.contains("a") ? r["a"] : json(), "a");
    const Shape b = shape_from_json(r.contains("b") ? r["b"] : json(), "b");
    const Transform ta = pose_from_json(r.contains("pose_a") ? r["pose_a"] : json(), "pose_a");
    const Transform tb = pose_from_json(r.contains("pose_b") ? r["pose_b"] : json(), "pose_b");
    if (query == "time_of_impact") return time_of_impact_answer(id, r, a, ta, b, tb);
    DistanceRequest req;
    req.method = method_from_json(r);
    GjkCache cache;
    if (r.contains("warm_start")) {
      cache.direction = vec3_from_json(r["warm_start"], "warm_start");
      req.cache = &cache;
    }

    if (query == "contacts") {
      const ContactSet c = contacts(a, ta, b, tb, contact_options_from_json(r));
      if (c.status != Status::ok && c.status != Status::not_converged) {
        return status_answer(id, c.status, query);
      }
      json points = json::array();
      for (const Contact& k : c.points) {
        points.push_back({{"point", to_json(k.point)}, {"normal", to_json(k.normal)}, {"depth", k.depth}});
      }
      return {{"id", id},          {"status", to_string(c.status)}, {"distance", c.distance},
              {"normal", to_json(c.normal)}, {"contacts", points}};
    }
    if (query == "collide") {
      CollideRequest creq;
      creq.method = req.method;
      creq.cache = req.cache;
      const CollideResult c = collide(a, ta, b, tb, creq);
      if (c.status != Status::ok) return status_answer(id, c.status, query);
      return {{"id", id}, {"status", "ok"}, {"collide", c.collide}, {"iterations", c.iterations}};
    }
    if (query == "tolerance") {
      if (!r.contains("tolerance") || !r["tolerance"].is_number()) throw Error("tolerance: missing or not a number");
      const double t = r["tolerance"].get<double>();
      if (!std::isfinite(t) || t < 0.0) throw Error("tolerance: must be finite and >= 0");
      const ToleranceResult w = tolerance(a, ta, b, tb, t, req);
      if (w.status != Status::ok) return status_answer(id, w.status, query);
      return {{"id", id},
              {"status", "ok"},
              {"within_tolerance", w.within},
              {"distance", w.distance},
              {"iterations", w.iterations}};
    }
    if (r.contains("bound")) {
      if (!r["bound"].is_number()) throw Error("bound: expected a number");
      req.bound = r["bound"].get<double>();
    }
    const DistanceResult d = query == "distance" ? distance(a, ta, b, tb, req)
                                                 : signed_distance(a, ta, b, tb, req);
    if (d.status != Status::ok && d.status != Status::not_converged && d.status != Status::upper_bound) {
      return status_answer(id, d.status, query);
    }
    json out{{"id", id}, {"status", to_string(d.status)}, {"collide", d.distance <= 0.0}};
    put_distance(out, d);
    return out;
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
    r = json::parse(line);
  } catch (const json::exception& e) {
    return error_answer(json(), std::string("not valid JSON: ") + e.what());
  }
  return answer(r, files);
}

int run_query_stream(std::istream& in, std::ostream& out) {
  MeshFiles files;
  return run_json_lines(in, out, [&](const std::string& line) { return answer_line(line, files); });
}

}  // namespace proxima::apps
