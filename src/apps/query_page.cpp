// SPDX-License-Identifier: BSD-3-Clause
#include "query_page.hpp"

#include <cstdio>
#include <istream>
#include <ostream>

#include <proxima/core/error.hpp>

#include "json_lines.hpp"
#include "json_reader.hpp"
#include "json_shapes.hpp"
#include "query_protocol.hpp"
#include "replay_page.hpp"

namespace proxima::apps {

using nlohmann::json;

QueryReplay::QueryReplay(int frame_budget) : budget_(frame_budget) {
  if (frame_budget < 1) throw Error("replay frame budget: " + std::to_string(frame_budget) + " must be at least 1");
}

namespace {

// The request was answered, so its shapes and poses are valid: they are
// built again here only to describe them.
json operand_json(const json& request, const char* key, MeshFiles& files) {
  const json& j = request.at(key);
  if (is_mesh_json(j)) return mesh_json(mesh_from_json(j, key, files)->mesh());
  return shape_json(shape_from_json(j, key));
}

json pose_of(const json& request, const char* key) {
  return pose_array(request.contains(key) ? pose_from_json(request.at(key), key) : Transform());
}

}  // namespace

bool QueryReplay::add(const json& request, const json& answer, MeshFiles& files, const std::string& label_text) {
  if (!answer.is_object() || !request.is_object()) return false;
  if (!drawn_status(answer.value("status", ""))) return false;
  const std::string query = request.value("query", "");
  if (query != "collide" && query != "distance" && query != "signed_distance" && query != "contacts") return false;
  if (frames() >= budget_) {
    ++skipped_;
    return false;
  }
  const int a = shapes_.add(operand_json(request, "a", files));
  const int b = shapes_.add(operand_json(request, "b", files));
  std::string text = query;
  if (!label_text.empty()) text = label_text + ": " + query;
  else if (request.contains("id")) text = "id " + request["id"].dump() + ": " + query;
  if (answer.contains("collide")) text.append(answer["collide"].get<bool>() ? ", colliding" : ", apart");
  if (answer.contains("distance") && answer["distance"].is_number()) {
    char number[32];
    std::snprintf(number, sizeof number, "%.6g", answer["distance"].get<double>());
    text.append(", distance ").append(number).append(" m");
  }
  json frame{{"step", frames()}, {"time", 0}, {"label", text}, {"shapes", {a, b}},
             {"poses", {pose_of(request, "pose_a"), pose_of(request, "pose_b")}}};
  json segments = json::array();
  if (answer.contains("point_a") && answer.contains("point_b")) {
    segments.push_back(segment_row(vec3_from_json(answer.at("point_a"), "point_a"),
                                   vec3_from_json(answer.at("point_b"), "point_b")));
  }
  frame["segments"] = segments;
  json contacts = json::array();
  for (const json& c : answer.value("contacts", json::array())) {
    contacts.push_back(contact_row(vec3_from_json(c.at("point"), "point"), vec3_from_json(c.at("normal"), "normal"),
                                   c.at("depth").get<double>()));
  }
  frame["contacts"] = contacts;
  frames_.push_back(std::move(frame));
  return true;
}

json QueryReplay::data() const {
  // Two bodies whose shapes each frame names; their poses are the request's.
  json bodies = json::array();
  for (const char* name : {"a", "b"}) {
    bodies.push_back({{"name", name}, {"shape", 0}, {"static", false}, {"pose", pose_array(Transform())}});
  }
  std::string title = "proxima query: " + std::to_string(frames()) + " requests";
  if (skipped_ > 0) title.append(" (" + std::to_string(skipped_) + " more not drawn)");
  json shapes = shapes_.shapes();
  // A page without frames still needs a shape for its bodies to name.
  if (shapes.empty()) shapes.push_back(shape_json(Sphere(1.0)));
  return {{"format", "proxima-replay"}, {"version", 1},      {"title", title}, {"shapes", shapes},
          {"bodies", bodies},           {"frames", frames_}, {"timelines", json::array()}};
}

int run_query_stream(std::istream& in, std::ostream& out, QueryReplay& page) {
  MeshFiles files;
  return run_json_lines(in, out, [&](const std::string& line) {
    json answer = answer_line(line, files);
    if (answer.value("status", "") != "error") page.add(parse_json(line), answer, files);
    return answer;
  });
}

}  // namespace proxima::apps
