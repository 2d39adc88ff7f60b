// SPDX-License-Identifier: BSD-3-Clause
#include <string>
#include <utility>

#include <proxima/core/error.hpp>

#include "json_reader.hpp"
#include "json_shapes.hpp"
#include "json_time_of_impact.hpp"

namespace proxima::apps {

using nlohmann::json;

TimeOfImpactRequest time_of_impact_request_from_json(ObjectReader& r) {
  for (const char* key : {"method", "warm_start"}) r.refuse(key, "does not apply to time_of_impact");
  TimeOfImpactRequest req;
  req.clearance = r.number_or("clearance", req.clearance, kLengthRange);
  req.accuracy = r.number_or("accuracy", req.accuracy, Range{0.0, kMaxLength, true, false, " m"});
  req.max_iterations = static_cast<int>(r.integer_or("max_iterations", req.max_iterations, 1, 100000));
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
