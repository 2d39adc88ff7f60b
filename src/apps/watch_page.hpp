// SPDX-License-Identifier: BSD-3-Clause
// `proxima watch --html PAGE`: the run through the watchdog as a robot page
// (robot_page.hpp): the robot at each answered line's last sample, its
// links coloured by clearance on the scale from the stop to the warn
// distance, and a strip under the 3-D view plotting the clearance, the
// watchdog's level and the speed factor against time, its cursor on the
// frame shown.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "robot_page.hpp"

namespace proxima::apps {

class WatchRecorder {
 public:
  /// `checker` and `env` are held by reference and must outlive the recorder.
  WatchRecorder(const robot::SceneChecker& checker, const robot::Environment& env, ClearanceScale scale);

  /// One answered line (not an error): `line` is the line read (null for an
  /// answer the command wrote itself, a deadline's stop), `answer` what was
  /// written. Lines before the first sample have no robot to draw.
  void observe(const nlohmann::json& line, const nlohmann::json& answer);

  int answers() const { return static_cast<int>(records_.size()); }
  /// The page's data: at most `frame_budget` (≥ 2) frames, evenly spread
  /// over the answers with the first and last kept; each kept frame's
  /// timeline values are the worst since the frame before (the smallest
  /// clearance and speed factor, the highest level), so that a short stop
  /// between two kept frames still shows. Throws proxima::Error for a
  /// budget below 2.
  nlohmann::json data(const std::string& title, int frame_budget) const;

  /// The watchdog's levels, in the order of the strip's level values 0 to 3.
  static const std::vector<std::string>& levels();

 private:
  struct Record {
    double t = 0.0;
    std::vector<double> q;
    int level = 0;
    double speed_factor = 1.0;
    double clearance = 0.0;  // NaN: not measured
    std::string text;        // the frame's line on the page
  };
  const robot::SceneChecker& checker_;
  const robot::Environment& env_;
  ClearanceScale scale_;
  std::vector<Record> records_;
  std::vector<double> last_q_;
};

}  // namespace proxima::apps
