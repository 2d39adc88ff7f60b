#include "json_program.hpp"

#include <vector>

#include <proxima/core/error.hpp>

namespace proxima::apps {
namespace {

using nlohmann::json;

double number_at(const json& j, const std::string& where) {
  if (!j.is_number()) throw Error(where + ": must be a number (got " + j.dump() + ")");
  return j.get<double>();
}

std::vector<double> numbers_at(const json& j, const std::string& where) {
  if (!j.is_array()) throw Error(where + ": must be an array of numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back(number_at(j[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

void only_keys(const json& j, const std::string& where, std::initializer_list<const char*> keys, const char* expected) {
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* k : keys) known = known || key == k;
    if (!known) throw Error(where + ": unknown key \"" + key + "\" (expected " + expected + ")");
  }
}

}  // namespace

robot::ProgramRequest program_from_json(const json& j, const std::string& where) {
  if (!j.is_object())
    throw Error(where + ": must be an object, {\"waypoints\": [...]} or {\"to\": [...], \"speed\": rad/s}");
  only_keys(j, where, {"waypoints", "to", "speed"}, "\"waypoints\", or \"to\" and \"speed\"");
  robot::ProgramRequest r;
  if (j.contains("waypoints")) {
    if (j.contains("to") || j.contains("speed"))
      throw Error(where + ": \"waypoints\" or \"to\" with \"speed\", not both");
    const json& w = j["waypoints"];
    const std::string at = where + ".waypoints";
    if (!w.is_array() || w.empty()) throw Error(at + ": must be a non-empty array of {\"t\": s, \"q\": [...]}");
    for (std::size_t i = 0; i < w.size(); ++i) {
      const std::string one = at + "[" + std::to_string(i) + "]";
      if (!w[i].is_object()) throw Error(one + ": must be an object {\"t\": s, \"q\": [...]}");
      only_keys(w[i], one, {"t", "q"}, "\"t\" and \"q\"");
      if (!w[i].contains("t")) throw Error(one + ": missing \"t\" (the program time, s)");
      if (!w[i].contains("q")) throw Error(one + ": missing \"q\" (the joints)");
      r.waypoints.push_back({number_at(w[i]["t"], one + ".t"), numbers_at(w[i]["q"], one + ".q")});
    }
    return r;
  }
  if (!j.contains("to")) throw Error(where + ": needs \"waypoints\", or \"to\" and \"speed\"");
  if (!j.contains("speed")) throw Error(where + ": missing \"speed\" (rad/s of the joint moving most)");
  r.to = numbers_at(j["to"], where + ".to");
  if (r.to.empty()) throw Error(where + ".to: must not be empty");
  r.speed = number_at(j["speed"], where + ".speed");
  return r;
}

}  // namespace proxima::apps
