// SPDX-License-Identifier: BSD-3-Clause
#include "json_program.hpp"

#include <vector>

#include <proxima/core/error.hpp>

#include "json_reader.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

// Joint values and times are checked against the robot when the program is
// set (robot::program_error); here: finite numbers within ±1e15.
std::vector<double> numbers_at(const json& j, const std::string& where) {
  array_at(j, where, "numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back(number_at(j[i], index_path(where, i)));
  return out;
}

}  // namespace

robot::ProgramRequest program_from_json(const json& j, const std::string& where) {
  require_object(j, where, "an object, {\"waypoints\": [...]} or {\"to\": [...], \"speed\": rad/s}");
  return read_object(j, where, [&](ObjectReader& r) {
    robot::ProgramRequest out;
    if (const json* w = r.get("waypoints")) {
      r.refuse("to", "\"waypoints\" or \"to\" with \"speed\", not both");
      r.refuse("speed", "\"waypoints\" or \"to\" with \"speed\", not both");
      const std::string at = r.field("waypoints");
      array_at(*w, at, "{\"t\": s, \"q\": [...]}", true);
      for (std::size_t i = 0; i < w->size(); ++i) {
        read_object((*w)[i], index_path(at, i), [&](ObjectReader& p) {
          const double t = number_at(p.required("t", "the program time, s"), p.field("t"));
          out.waypoints.push_back({t, numbers_at(p.required("q", "the joints"), p.field("q"))});
        });
      }
      return out;
    }
    if (!r.has("to")) fail(where, "needs \"waypoints\", or \"to\" and \"speed\"");
    out.to = numbers_at(r.required("to"), r.field("to"));
    if (out.to.empty()) fail(r.field("to"), "must not be empty");
    out.speed = number_at(r.required("speed", "rad/s of the joint moving most"), r.field("speed"),
                          Range{0.0, kMaxLength, true, false, " rad/s"});
    return out;
  });
}

}  // namespace proxima::apps
