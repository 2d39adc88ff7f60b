// SPDX-License-Identifier: BSD-3-Clause
// What a robot scene of the demo report is judged by (the robot scenes of
// docs/dynamics.md): over its hold window (the run's last quarter, where the shipped
// scenes' scripts hold still), how far the tracked body slips in the frame
// of the link that holds it, how noisy the contact force on the robot's
// links is, and how the step time compares with real time.
#pragma once

#include <vector>

#include <proxima/robot/robot_world.hpp>
#include <proxima/sim/metrics.hpp>

namespace proxima::apps {

class RobotSceneMetrics {
 public:
  /// `body`: the tracked free body (−1: none); the window starts at
  /// `window_start` s.
  RobotSceneMetrics(int body, double window_start) : body_(body), from_(window_start) {}

  /// After every step.
  void observe(const robot::RobotWorld& rw);

  /// slip (mm; when a link touched the body as the window began), force
  /// noise (N; when the links touched a body in the window; self-contacts
  /// are internal and left out) and the real
  /// time factor (dt over the mean wall-clock step), each a MetricResult
  /// with its line of text.
  std::vector<sim::MetricResult> results(double dt, double ms_per_step) const;

 private:
  int body_ = -1;
  double from_ = 0.0;
  bool started_ = false;
  int holder_ = -1;  ///< the link pressing hardest on the body at the window's start
  Vec3 held_at_ = Vec3::Zero(), held_now_ = Vec3::Zero();  ///< the body's centre in the holder's frame
  std::vector<double> force_;  ///< per step of the window: total normal force on the links, N
};

}  // namespace proxima::apps
