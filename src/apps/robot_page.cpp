// SPDX-License-Identifier: BSD-3-Clause
#include "robot_page.hpp"

#include <cmath>
#include <cstdio>

#include <proxima/core/error.hpp>

namespace proxima::apps {

using nlohmann::json;
using namespace proxima::robot;

namespace {

json geometry_description(const std::variant<Shape, Bvh>& g) {
  if (const Shape* s = std::get_if<Shape>(&g)) return shape_json(*s);
  return mesh_json(std::get<Bvh>(g).mesh());
}

std::string millimetres(double d) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f mm", d * 1000.0);
  return text;
}

}  // namespace

RobotReplay::RobotReplay(std::string title, ClearanceScale scale) : title_(std::move(title)), scale_(scale) {
  if (!(std::isfinite(scale.near) && std::isfinite(scale.far) && scale.near < scale.far))
    throw Error("robot page: the clearance scale needs finite ends with near < far");
}

int RobotReplay::link_index(const std::string& name) {
  const auto [it, added] = link_of_.try_emplace(name, static_cast<int>(links_.size()));
  if (added) links_.push_back(name);
  return it->second;
}

std::size_t RobotReplay::body(const std::string& key, const std::string& name, int shape, int link) {
  const auto [it, added] = body_of_.try_emplace(key + "#" + std::to_string(shape), bodies_.size());
  if (added) bodies_.push_back({name, shape, link});
  return it->second;
}

LinkClearances RobotReplay::add(const LinkClearance& clearance, const RobotState& s, const Environment& env,
                                json frame) {
  const SceneChecker& checker = clearance.checker();
  const std::vector<Link>& links = checker.model().links();
  std::map<std::size_t, json> poses;
  std::map<int, json> per_link;
  const LinkClearances c = clearance.at(s, env);
  for (std::size_t l = 0; l < links.size(); ++l) {
    const std::vector<LinkShape>& shapes = checker.geometry().links()[l].shapes;
    if (shapes.empty()) continue;
    const int li = link_index(links[l].name);
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      const int shape = shapes_.add(geometry_description(shapes[k].geometry));
      const std::size_t b = body("link:" + links[l].name + "/" + std::to_string(k), links[l].name, shape, li);
      poses[b] = pose_array(s.shape_poses[s.shape_begin[l] + k]);
    }
    per_link[li] =
        std::isfinite(c.per_link[l]) ? json(round_significant(c.per_link[l], 6, 1e-7)) : json(nullptr);
  }
  for (const EnvironmentObject& o : env.objects) {
    const int shape = shapes_.add(geometry_description(o.geometry));
    poses[body("object:" + o.name, o.name, shape, -1)] = pose_array(o.pose);
  }
  json segments = json::array();
  if (c.closest.found) {
    segments.push_back(segment_row(c.closest.point_link, c.closest.point_other));
    std::string text = frame.value("label", std::string());
    if (!text.empty()) text.append(", ");
    text.append("closest ").append(c.closest.pair.link_name).append(" to ").append(c.closest.pair.other_name);
    text.append(" ").append(millimetres(c.closest.distance));
    frame["label"] = text;
  }
  frame["segments"] = segments;
  frame["contacts"] = json::array();
  frames_.push_back(std::move(frame));
  poses_.push_back(std::move(poses));
  clearances_.push_back(std::move(per_link));
  return c;
}

json RobotReplay::data() const {
  // Static: in every frame, at one pose.
  std::vector<bool> fixed(bodies_.size(), !frames_.empty());
  std::vector<json> first(bodies_.size());
  for (const auto& poses : poses_) {
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const auto it = poses.find(b);
      if (it == poses.end()) fixed[b] = false;
      else if (first[b].is_null()) first[b] = it->second;
      else if (first[b] != it->second) fixed[b] = false;
    }
  }
  json bodies = json::array();
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    json j{{"name", bodies_[b].name}, {"shape", bodies_[b].shape}, {"static", static_cast<bool>(fixed[b])}};
    j["pose"] = first[b].is_null() ? pose_array(Transform::identity()) : first[b];
    if (bodies_[b].link >= 0) j["link"] = bodies_[b].link;
    bodies.push_back(std::move(j));
  }
  json frames = json::array();
  for (std::size_t f = 0; f < frames_.size(); ++f) {
    json frame = frames_[f];
    json poses = json::array();
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      if (fixed[b]) continue;
      const auto it = poses_[f].find(b);
      poses.push_back(it == poses_[f].end() ? json(nullptr) : it->second);
    }
    frame["poses"] = poses;
    // One per link of the page; a link this frame's robot does not have (a held object) is null.
    json clearances = json::array();
    for (int l = 0; l < static_cast<int>(links_.size()); ++l) {
      const auto it = clearances_[f].find(l);
      clearances.push_back(it == clearances_[f].end() ? json(nullptr) : it->second);
    }
    frame["clearances"] = clearances;
    frames.push_back(std::move(frame));
  }
  json shapes = shapes_.shapes();
  if (shapes.empty()) shapes.push_back(shape_json(Sphere(1.0)));  // the format needs one
  json d{{"format", "proxima-replay"}, {"version", 1}, {"title", title_}, {"shapes", shapes}, {"bodies", bodies},
         {"links", links_}, {"frames", frames}, {"timelines", timelines_}};
  d["colour_scale"] = {{"quantity", "clearance"}, {"unit", "m"}, {"near", scale_.near}, {"far", scale_.far}};
  if (strip_) d["strip"] = true;
  return d;
}

}  // namespace proxima::apps
