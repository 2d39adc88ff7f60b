// SPDX-License-Identifier: BSD-3-Clause
// A robot program for the watchdog's automatic mode (Dumitrache et al.,
// §III-B: the watchdog task "knows in advance the robot trajectory"): joint
// waypoints with times, the motion piecewise linear in joint space between
// them, or one segment from the present configuration to a target at a
// given speed. Program time is the program's own clock: a controller that
// runs the program at speed factor f advances it by f per second.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <proxima/robot/robot_model.hpp>

namespace proxima::robot {

/// One point of a program: where the joints are at program time `t`.
struct ProgramWaypoint {
  double t = 0.0;         ///< program time, s
  std::vector<double> q;  ///< joint positions (rad or m), the model's joint order
};

/// Per joint (the model's joint order): the position limits a program
/// must keep within (±inf for a continuous joint).
struct JointLimits {
  std::vector<double> lower, upper;
  std::vector<std::string> names;  ///< for messages (may be empty)
};
JointLimits joint_limits(const RobotModel& model);

/// A program as given, before it is tied to the robot's present
/// configuration: waypoints, or a segment to `to` at `speed` (rad/s, or
/// m/s, of the joint that moves the most: the others are scaled so that
/// all arrive together). Exactly one of the two forms.
struct ProgramRequest {
  std::vector<ProgramWaypoint> waypoints;
  std::vector<double> to;
  double speed = 0.0;
};

/// Why `request` is not a program for a robot with these limits (the field
/// and the reason: "waypoints[2].t: ..."), or nullopt. A segment's start is
/// the present configuration and is checked when the program is made.
std::optional<std::string> program_error(const ProgramRequest& request, const JointLimits& limits);

/// A validated program: piecewise linear in joint space between waypoints
/// at strictly increasing times.
class JointProgram {
 public:
  /// Throws proxima::Error naming the field (program_error's message).
  /// `present`: the robot's configuration, the start of a segment request
  /// (ignored for waypoints); a segment already at its target is a program
  /// of one waypoint (standing still).
  JointProgram(const ProgramRequest& request, std::span<const double> present, const JointLimits& limits);

  const std::vector<ProgramWaypoint>& waypoints() const { return points_; }
  double start_time() const { return points_.front().t; }
  double end_time() const { return points_.back().t; }
  std::size_t dof() const { return points_.front().q.size(); }

  /// The joints at program time t (the first or last waypoint outside the
  /// program's times).
  std::vector<double> at(double t) const;

  /// Where on the program a sample is.
  struct Location {
    double t = 0.0;          ///< program time
    double deviation = 0.0;  ///< Euclidean joint-space distance from the program there
  };
  /// The point of the program closest to q (Euclidean in joint space)
  /// among program times [from, to]; among points as close (within 1e-12),
  /// the one nearest to `expected` (a dwell: the robot stands still while
  /// program time goes on).
  Location locate(std::span<const double> q, double from, double to, double expected) const;

 private:
  std::vector<ProgramWaypoint> points_;
};

}  // namespace proxima::robot
