// SPDX-License-Identifier: BSD-3-Clause
#include "viz_page.hpp"

#include <cmath>
#include <sstream>

#include <proxima/core/error.hpp>

namespace proxima::python {

using nlohmann::json;

namespace {

std::string number(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

void finite_vec(const Vec3& v, const std::string& name) {
  if (!v.allFinite()) throw Error(name + ": must be finite");
}

}  // namespace

VizPage::VizPage(std::string title) : title_(std::move(title)) {}

int VizPage::body_index(const std::string& name) const {
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return static_cast<int>(i);
  return -1;
}

int VizPage::add_body(const std::string& name, json shape, const Transform& pose, bool is_static) {
  if (!frames_.empty())
    throw Error("add_body: '" + name + "' comes after a frame; add every body before the first frame");
  if (name.empty()) throw Error("add_body: name: must not be empty");
  if (body_index(name) >= 0) throw Error("add_body: name: a body named '" + name + "' exists");
  if (!pose.is_finite()) throw Error("add_body: pose: must be finite");
  names_.push_back(name);
  body_shapes_.push_back(shapes_.add(std::move(shape)));
  static_.push_back(is_static);
  first_poses_.push_back(apps::pose_array(pose));
  last_poses_.push_back(first_poses_.back());
  return static_cast<int>(names_.size()) - 1;
}

void VizPage::add_frame(const VizFrame& f) {
  if (names_.empty()) throw Error("add_frame: the page has no body; add the bodies first");
  if (!std::isfinite(f.time)) throw Error("add_frame: time: must be finite");
  if (!frames_.empty() && f.time < last_time_)
    throw Error("add_frame: time: " + number(f.time) + " is before the frame before's " + number(last_time_) +
                " (frames go in time order)");
  const long long step = f.step.value_or(last_step_ + 1);
  if (step < 0) throw Error("add_frame: step: must be >= 0 (got " + std::to_string(step) + ")");
  if (step <= last_step_)
    throw Error("add_frame: step: " + std::to_string(step) + " is not after the frame before's " +
                std::to_string(last_step_));
  if (f.poses.size() != names_.size()) throw Error("add_frame: poses: one entry per body expected");
  if (!f.shapes.empty() && f.shapes.size() != names_.size())
    throw Error("add_frame: shapes: " + std::to_string(f.shapes.size()) + " entries for " +
                std::to_string(names_.size()) + " bodies");
  json poses = json::array();
  std::vector<json> now = last_poses_;
  for (std::size_t i = 0; i < names_.size(); ++i) {
    const VizPose& p = f.poses[i];
    if (static_[i]) {
      if (p.given) throw Error("add_frame: poses: body '" + names_[i] + "' is static and keeps its pose");
      continue;
    }
    if (p.given) {
      if (p.hidden) {
        now[i] = nullptr;
      } else {
        if (!p.pose.is_finite()) throw Error("add_frame: poses: body '" + names_[i] + "': must be finite");
        now[i] = apps::pose_array(p.pose);
      }
    }
    poses.push_back(now[i]);
  }
  json contacts = json::array();
  for (std::size_t k = 0; k < f.contacts.size(); ++k) {
    const VizContact& c = f.contacts[k];
    const std::string at = "add_frame: contacts[" + std::to_string(k) + "]";
    finite_vec(c.point, at + ".point");
    finite_vec(c.normal, at + ".normal");
    if (!std::isfinite(c.depth)) throw Error(at + ".depth: must be finite");
    // Drawn as an arrow of the normal's direction; 1e-3 leaves room for
    // normals read back from text.
    if (std::abs(c.normal.norm() - 1.0) > 1e-3)
      throw Error(at + ".normal: must be a unit vector (length " + number(c.normal.norm()) + ")");
    contacts.push_back(apps::contact_row(c.point, c.normal, c.depth));
  }
  json segments = json::array();
  for (std::size_t k = 0; k < f.segments.size(); ++k) {
    const std::string at = "add_frame: segments[" + std::to_string(k) + "]";
    finite_vec(f.segments[k].a, at + " (first point)");
    finite_vec(f.segments[k].b, at + " (second point)");
    segments.push_back(apps::segment_row(f.segments[k].a, f.segments[k].b));
  }
  json frame{{"step", step}, {"time", apps::round_significant(f.time, 9)}, {"poses", poses},
             {"contacts", contacts}, {"segments", segments}};
  if (f.label) frame["label"] = *f.label;
  // Every check passed: the frame's shapes join the page's list now.
  if (!f.shapes.empty()) {
    json indices = json::array();
    for (const json& shape : f.shapes) indices.push_back(shapes_.add(shape));
    frame["shapes"] = std::move(indices);
  }
  frames_.push_back(std::move(frame));
  last_poses_ = std::move(now);
  last_time_ = f.time;
  last_step_ = step;
}

void VizPage::add_timeline(const std::string& name, const std::string& unit, std::vector<double> values,
                           std::optional<std::vector<std::string>> labels) {
  if (name.empty()) throw Error("add_timeline: name: must not be empty");
  for (const json& t : timelines_)
    if (t["name"] == name) throw Error("add_timeline: name: a timeline named '" + name + "' exists");
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]))
      throw Error("add_timeline '" + name + "': values[" + std::to_string(i) + "]: must be finite");
    if (labels && !(values[i] >= 0.0 && values[i] < static_cast<double>(labels->size()) &&
                    values[i] == std::floor(values[i])))
      throw Error("add_timeline '" + name + "': values[" + std::to_string(i) + "]: " + number(values[i]) +
                  " is not an index into labels (" + std::to_string(labels->size()) + " labels)");
  }
  json t{{"name", name}, {"unit", unit}, {"values", values}};
  if (labels) t["labels"] = *labels;
  timelines_.push_back(std::move(t));
}

json VizPage::data() const {
  if (names_.empty()) throw Error("page: has no body (add_body first)");
  for (const json& t : timelines_) {
    if (t["values"].size() != frames_.size())
      throw Error("timeline '" + t["name"].get<std::string>() + "': " + std::to_string(t["values"].size()) +
                  " values for " + std::to_string(frames_.size()) + " frames (one value per frame)");
  }
  json bodies = json::array();
  for (std::size_t i = 0; i < names_.size(); ++i)
    bodies.push_back(
        {{"name", names_[i]}, {"shape", body_shapes_[i]}, {"static", static_[i]}, {"pose", first_poses_[i]}});
  return {{"format", "proxima-replay"}, {"version", 1},      {"title", title_},       {"shapes", shapes_.shapes()},
          {"bodies", bodies},           {"frames", frames_}, {"timelines", timelines_}};
}

}  // namespace proxima::python
