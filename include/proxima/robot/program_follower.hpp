// SPDX-License-Identifier: BSD-3-Clause
// The watchdog's automatic mode (Dumitrache et al., §III-B): the robot runs
// a known program (program.hpp), so the path ahead is the program's, not a
// prediction from the feed. A ProgramFollower is the Watchdog's path
// provider: at each sample it
//  1. locates the sample on the program: the program time whose point is
//     closest to the sample (Euclidean in joint space) among the times the
//     program can have reached since the last sample — from the last
//     location to twice the elapsed time on (progress never runs backwards;
//     a controller runs it at speed factor ≤ 1, doubled for slack), the
//     whole program for the first sample; points as close (a dwell) go to
//     the one nearest the expected progress, the last location plus the
//     last speed factor times the elapsed time;
//  2. reports the sample's deviation from that point: beyond `tolerance`
//     the sample is off the program (the watchdog answers at least `warn`),
//     beyond `fallback` the program no longer says where the robot goes and
//     the watchdog checks its prediction instead (the next sample is then
//     searched for on the rest of the program, from the last location on);
//  3. gives the path ahead: the program's points over the horizon at the
//     program's rate, the faster of the measured progress and twice the last
//     speed factor (capped at 1; 1 at the first sample), since the next answer
//     may double a held factor: the stretch the robot may cover before the
//     next answers slow it. A continuous check of the same stretch (from the
//     sample, through the program's waypoints: SceneChecker::check_motion
//     through scene_segment_check) finds where a channel first comes within
//     stop_distance, however thin the obstacle between the path points.
// The watchdog's decision rules are unchanged: the program can only bring a
// slow-down or stop sooner, and the present clearance still rules.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include <proxima/core/error.hpp>
#include <proxima/robot/program.hpp>
#include <proxima/robot/watchdog.hpp>

namespace proxima::robot {

struct ProgramOptions {
  /// A sample farther than this from the program (joint space, rad or m)
  /// is off the program: at least `warn`.
  double tolerance = 0.05;
  /// Farther than this, the watchdog checks its prediction from the feed
  /// instead of the program (≥ tolerance).
  double fallback = 0.2;
};

/// Where a continuous check of the joint-space segment q0 → q1 found some
/// channel within `clearance`.
struct SegmentCrossing {
  Status status = Status::ok;  ///< invalid_input: the check could not answer (the watchdog stops)
  std::string message;
  bool found = false;
  double s = 1.0;           ///< found: the fraction of the segment (a proven lower bound)
  std::size_t channel = 0;  ///< found: the channel
  double distance = 0.0;    ///< found: its distance there
};
using SegmentCheckFn =
    std::function<SegmentCrossing(std::span<const double> q0, std::span<const double> q1, double clearance)>;

class ProgramFollower {
 public:
  /// `channels` as the watchdog's; `check` may be empty (the path points
  /// only). Throws proxima::Error for options out of range.
  ProgramFollower(std::size_t channels, JointLimits limits, WatchdogOptions watch, ProgramOptions options = {},
                  SegmentCheckFn check = {});

  /// Sets or replaces the program, from the next sample on (a segment
  /// starts at that sample). Throws proxima::Error naming the field.
  void set(const ProgramRequest& request);
  /// Back to the manual mode (the prediction) from the next sample on.
  void clear();
  /// A program is set (or waits for the next sample).
  bool active() const { return pending_.has_value() || program_.has_value(); }
  const std::optional<JointProgram>& program() const { return program_; }
  const ProgramOptions& options() const { return options_; }

  PathReport operator()(const MotionSample& sample, const WatchdogState& previous);

 private:
  std::size_t channels_;
  JointLimits limits_;
  WatchdogOptions watch_;
  ProgramOptions options_;
  SegmentCheckFn check_;
  /// The continuous check's clearance: the largest stop distance of any
  /// channel, so that no channel's crossing is found late.
  double check_clearance_ = 0.0;
  std::optional<ProgramRequest> pending_;
  std::optional<JointProgram> program_;
  bool located_ = false;    ///< a sample was located on the program
  bool reacquire_ = false;  ///< the last sample was beyond fallback: search the rest of the program
  double tau_ = 0.0;        ///< the last location (program time)
  double last_time_ = 0.0;  ///< its sample's time
};

/// Makes a follower and sets it as `dog`'s path provider (the dog holds it
/// too); the follower starts without a program (the manual mode).
std::shared_ptr<ProgramFollower> follow_programs(Watchdog& dog, JointLimits limits, ProgramOptions options = {},
                                                 SegmentCheckFn check = {});

}  // namespace proxima::robot
