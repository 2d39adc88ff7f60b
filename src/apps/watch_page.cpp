// SPDX-License-Identifier: BSD-3-Clause
#include "watch_page.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <proxima/core/error.hpp>

namespace proxima::apps {

using nlohmann::json;
using namespace proxima::robot;

const std::vector<std::string>& WatchRecorder::levels() {
  static const std::vector<std::string> names{"clear", "warn", "slow", "stop"};
  return names;
}

WatchRecorder::WatchRecorder(const SceneChecker& checker, const Environment& env, ClearanceScale scale)
    : checker_(checker), env_(env), scale_(scale) {}

void WatchRecorder::observe(const json& line, const json& answer) {
  if (line.is_object() && line.contains("q")) last_q_ = line["q"].get<std::vector<double>>();
  if (last_q_.empty()) return;
  Record r;
  r.t = answer.at("t").get<double>();
  r.q = last_q_;
  const std::string level = answer.at("level").get<std::string>();
  const auto it = std::find(levels().begin(), levels().end(), level);
  r.level = static_cast<int>(it - levels().begin());
  r.speed_factor = answer.at("speed_factor").get<double>();
  const json& c = answer.at("clearance");
  r.clearance = c.is_number() ? c.get<double>() : std::numeric_limits<double>::quiet_NaN();
  char text[160];
  std::snprintf(text, sizeof text, "t = %.3f s  %s  speed factor %.2f  channel ", r.t, level.c_str(), r.speed_factor);
  r.text = std::string(text).append(answer.value("channel", std::string()));
  if (answer.contains("reason") && answer["reason"] != "none")
    r.text.append("  (").append(answer["reason"].get<std::string>()).append(")");
  records_.push_back(std::move(r));
}

json WatchRecorder::data(const std::string& title, int frame_budget) const {
  if (frame_budget < 2) throw Error("watch page frame budget: " + std::to_string(frame_budget) + " must be at least 2");
  const int n = answers();
  // Records 0, s, 2s, … and the last.
  const int stride = std::max(1, (n + frame_budget - 3) / (frame_budget - 1));
  std::vector<int> kept;
  for (int i = 0; i < n; i += stride) kept.push_back(i);
  if (n > 0 && kept.back() != n - 1) kept.push_back(n - 1);

  RobotReplay replay(title, scale_);
  const LinkClearance clearance(checker_);
  std::vector<double> time, level, speed, clear;
  int from = 0;
  for (const int i : kept) {
    const Record& r = records_[static_cast<std::size_t>(i)];
    // The worst of the records this frame stands for.
    int worst_level = 0;
    double slowest = 1.0, nearest = std::numeric_limits<double>::infinity();
    bool measured = false;
    for (int k = from; k <= i; ++k) {
      const Record& x = records_[static_cast<std::size_t>(k)];
      worst_level = std::max(worst_level, x.level);
      slowest = std::min(slowest, x.speed_factor);
      if (!std::isnan(x.clearance)) {
        nearest = std::min(nearest, x.clearance);
        measured = true;
      }
    }
    from = i + 1;
    const RobotState s = checker_.state(r.q);
    if (s.status != Status::ok) continue;  // the watchdog answered it: only a feed stop's bad sample
    replay.add(clearance, s, env_, {{"step", i}, {"time", round_significant(r.t, 9)}, {"label", r.text}});
    time.push_back(r.t);
    level.push_back(worst_level);
    speed.push_back(round_significant(slowest, 4));
    clear.push_back(measured ? round_significant(nearest, 6, 1e-7) : std::numeric_limits<double>::quiet_NaN());
  }
  json timelines = json::array();
  json clearance_values = json::array();
  for (double c : clear) clearance_values.push_back(std::isnan(c) ? json(nullptr) : json(c));
  timelines.push_back({{"name", "clearance"}, {"unit", "m"}, {"values", clearance_values}});
  timelines.push_back({{"name", "level"}, {"unit", ""}, {"values", level}, {"labels", levels()}});
  timelines.push_back({{"name", "speed factor"}, {"unit", ""}, {"values", speed}});
  replay.set_timelines(std::move(timelines));
  replay.set_strip(true);
  json d = replay.data();
  d["title"] = title + ", " + std::to_string(n) + " answers, " + std::to_string(replay.frames()) + " frames";
  return d;
}

}  // namespace proxima::apps
