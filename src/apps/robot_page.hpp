// SPDX-License-Identifier: BSD-3-Clause
// The replay page of a robot (docs/viewer.md): `proxima robot --html` (one
// frame per checked configuration) and `proxima watch --html` (the run
// through the watchdog). Each frame draws the robot's links from their
// collision geometry as the robot layer loaded it and the environment
// objects, colours each link by its clearance (link_clearance.hpp) on the
// page's colour scale, and draws the closest pair's witness segment. The
// data object is the replay page's (replay_page.hpp) plus
//   "links": [link names], bodies' "link": i (a link's shapes are bodies of their own),
//   frames' "clearances": [per link, m, null: nothing measured],
//   "colour_scale": {"quantity", "unit", "near", "far"}  (red at near, green from far on),
//   "strip": true  (the timelines drawn under the 3-D view, with a cursor).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "link_clearance.hpp"
#include "replay_page.hpp"

namespace proxima::apps {

/// The clearance colours: red at `near` and below, through yellow, to
/// green at `far` and beyond (m).
struct ClearanceScale {
  double near = 0.0;
  double far = 0.2;
};

class RobotReplay {
 public:
  /// Throws proxima::Error for a scale whose ends are not finite with near < far.
  RobotReplay(std::string title, ClearanceScale scale);

  /// A frame: the links of `clearance.checker()` at `s` (status ok), the
  /// objects of `env`, each link's clearance and the closest pair's
  /// segment. `frame` holds its "step", "time" and optional "label".
  /// Returns the clearances it drew.
  LinkClearances add(const LinkClearance& clearance, const robot::RobotState& s, const robot::Environment& env,
                     nlohmann::json frame);

  int frames() const { return static_cast<int>(frames_.size()); }
  /// Per-frame timelines ({"name", "unit", "values"}, one value per frame).
  void set_timelines(nlohmann::json timelines) { timelines_ = std::move(timelines); }
  /// Draw the timelines as a strip under the 3-D view.
  void set_strip(bool strip) { strip_ = strip; }
  void set_title(std::string title) { title_ = std::move(title); }
  /// The page's data object. Bodies in the same place in every frame are static.
  nlohmann::json data() const;

 private:
  struct Body {
    std::string name;
    int shape = 0;
    int link = -1;  // index into links_, −1 for an object
  };
  // A body for this name and shape (and link), adding it if it is new.
  std::size_t body(const std::string& key, const std::string& name, int shape, int link);
  int link_index(const std::string& name);

  std::string title_;
  ClearanceScale scale_;
  ShapeTable shapes_;
  std::vector<Body> bodies_;
  std::map<std::string, std::size_t> body_of_;
  std::vector<std::string> links_;
  std::map<std::string, int> link_of_;
  // Per frame: the frame's fields, each present body's pose, each present link's clearance.
  std::vector<nlohmann::json> frames_;
  std::vector<std::map<std::size_t, nlohmann::json>> poses_;
  std::vector<std::map<int, nlohmann::json>> clearances_;
  nlohmann::json timelines_ = nlohmann::json::array();
  bool strip_ = false;
};

}  // namespace proxima::apps
