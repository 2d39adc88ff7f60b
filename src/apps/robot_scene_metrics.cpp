// SPDX-License-Identifier: BSD-3-Clause
#include "robot_scene_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace proxima::apps {

void RobotSceneMetrics::observe(const robot::RobotWorld& rw) {
  // Within half a step of the window's start counts as in it.
  if (rw.time() < from_ - 0.5 * rw.world().options.dt) return;
  const double dt = rw.world().options.dt;
  double total = 0.0;
  // The body's holder: the link with the largest normal impulse on it.
  double hardest = 0.0;
  int hardest_link = -1;
  for (const robot::RobotContact& c : rw.last_contacts()) {
    // Links on bodies only: a self-contact's force is internal to the robot.
    if (c.link < 0 || c.link_b >= 0) continue;
    total += c.normal_impulse / dt;
    if (body_ >= 0 && c.body_b == body_ && c.normal_impulse > hardest) {
      hardest = c.normal_impulse;
      hardest_link = c.link;
    }
  }
  force_.push_back(total);
  const auto in_holder = [&] {
    const Vec3 com = rw.world().bodies()[static_cast<std::size_t>(body_)].com_position();
    return rw.link_poses()[static_cast<std::size_t>(holder_)].apply_inverse(com);
  };
  if (!started_) {
    started_ = true;
    holder_ = hardest_link;
    if (holder_ >= 0) held_at_ = in_holder();
  }
  if (holder_ >= 0) held_now_ = in_holder();
}

std::vector<sim::MetricResult> RobotSceneMetrics::results(double dt, double ms_per_step) const {
  std::vector<sim::MetricResult> out;
  char text[200];
  if (holder_ >= 0) {
    const double slip = 1e3 * (held_now_ - held_at_).norm();
    std::snprintf(text, sizeof text, "slip %.3f mm (the held body in the holding link's frame, over the last quarter)",
                  slip);
    out.push_back({"slip", slip, text});
  }
  if (!force_.empty()) {
    double mean = 0.0, largest_jump = 0.0;
    for (std::size_t i = 0; i < force_.size(); ++i) {
      mean += force_[i];
      if (i > 0) largest_jump = std::max(largest_jump, std::abs(force_[i] - force_[i - 1]));
    }
    mean /= static_cast<double>(force_.size());
    double var = 0.0;
    for (const double f : force_) var += (f - mean) * (f - mean);
    const double sd = std::sqrt(var / static_cast<double>(force_.size()));
    if (mean > 0.0) {
      std::snprintf(text, sizeof text,
                    "contact force on the links %.3f N, noise %.3g N (sd), largest step change %.3g N (last quarter)",
                    mean, sd, largest_jump);
      out.push_back({"force_noise", sd, text});
    }
  }
  if (ms_per_step > 0.0) {
    const double factor = 1e3 * dt / ms_per_step;
    std::snprintf(text, sizeof text, "%.3g x real time (%.3g ms a step of %.3g ms)", factor, ms_per_step, 1e3 * dt);
    out.push_back({"real_time", factor, text});
  }
  return out;
}

}  // namespace proxima::apps
