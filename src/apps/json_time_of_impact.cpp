#include <cmath>
#include <string>
#include <utility>

#include <proxima/core/error.hpp>

#include "json_shapes.hpp"
#include "json_time_of_impact.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

double finite_number(const json& r, const char* key, double fallback) {
  if (!r.contains(key)) return fallback;
  if (!r[key].is_number() || !std::isfinite(r[key].get<double>())) {
    throw Error(std::string(key) + ": expected a finite number");
  }
  return r[key].get<double>();
}

}  // namespace

TimeOfImpactRequest time_of_impact_request_from_json(const json& r) {
  for (const char* key : {"method", "warm_start"}) {
    if (r.contains(key)) throw Error(std::string(key) + ": does not apply to time_of_impact");
  }
  TimeOfImpactRequest req;
  req.clearance = finite_number(r, "clearance", req.clearance);
  if (req.clearance < 0.0) throw Error("clearance: must be >= 0");
  req.accuracy = finite_number(r, "accuracy", req.accuracy);
  if (req.accuracy <= 0.0) throw Error("accuracy: must be > 0");
  if (r.contains("max_iterations")) {
    const json& m = r["max_iterations"];
    if (!m.is_number_integer() || m.get<long long>() < 1 || m.get<long long>() > 100000) {
      throw Error("max_iterations: expected an integer from 1 to 100000");
    }
    req.max_iterations = m.get<int>();
  }
  return req;
}

json time_of_impact_json(const json& id, const TimeOfImpactResult& t, bool swapped) {
  Vec3 normal = t.witness.normal, pa = t.witness.point_a, pb = t.witness.point_b;
  if (swapped) {
    normal = -normal;
    std::swap(pa, pb);
  }
  json out{{"id", id},
           {"status", to_string(t.status)},
           {"collide", t.collide},
           {"time", t.time},
           {"witness_time", t.witness_time},
           {"distance", t.witness.distance},
           {"point_a", to_json(pa)},
           {"point_b", to_json(pb)},
           {"iterations", t.iterations}};
  if (t.witness.distance != 0.0) out["normal"] = to_json(normal);
  return out;
}

}  // namespace proxima::apps
