// SPDX-License-Identifier: BSD-3-Clause
// `proxima watch`: the predictive watchdog on a robot cell. The robot (as
// `proxima robot` loads it) and its surroundings (a JSON file, the
// "environment" array of docs/robot-command.md) are loaded once; then each
// stdin line is a joint sample or a clock tick, answered by the watchdog's
// decision (docs/watch-command.md):
//
//   {"t": 0.032, "q": [0, -0.785, 0, -2.356, 0, 1.571, 0.785]}   a sample
//   {"t": 0.2}                                                    a tick: no sample by then
//   {"t": 0.3, "program": {"to": [...], "speed": 0.5}}           set a program (the automatic mode)
//
//   {"t": 0.032, "status": "ok", "level": "slow", "speed_factor": 0.42, "warning": 0.71,
//    "clearance": 0.061, "predicted_clearance": 0.018, "time_to_stop_distance": 0.31,
//    "approaching": true, "stale": false, "model": "joint", "channel": "table", "reason": "clearance"}
//
// With a deadline (--deadline S), silence is answered too: S seconds after
// the last line, and every S after that, a `stop` with reason "deadline".
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <proxima/robot/scene_watchdog.hpp>
#include <proxima/robot/program_follower.hpp>
#include <proxima/robot/watchdog.hpp>

#include "line_source.hpp"
#include "robot_protocol.hpp"

namespace proxima::apps {

struct WatchCommandOptions {
  RobotCommandOptions robot;
  /// JSON file holding the environment array, or {"environment": [...],
  /// "attached": [...]} with the objects the robot holds; empty: none.
  std::string environment;
  std::string tool;         ///< link whose pose the Cartesian motion model fits; empty: joint model only
  robot::WatchdogOptions watchdog;  ///< its `limits` are filled from the robot (feed)
  robot::FeedLimitOptions feed;      ///< tolerances of the feed check
  /// Seconds of silence after which the command writes a `stop` itself
  /// (and again every as many while silent); none: only lines are answered.
  /// Needs the FdLineSource form of run_watch_command; must be positive.
  std::optional<double> deadline;
  robot::ProgramOptions program;  ///< the automatic mode's tolerances
  /// `--html PAGE`: also write the run's replay page (watch_page.hpp).
  std::optional<std::string> html_path;
};

/// How run_watch_stream names what it reports, and where programs go.
struct WatchStreamOptions {
  std::vector<std::string> channels;  ///< the watchdog's clearance channels
  /// Per joint variable, its name and unit ("rad", "m") for the messages of
  /// a feed stop; empty: "joint i", no unit.
  std::vector<std::string> joints, units;
  /// Seconds (> 0) of silence, counted from the first sample on, answered by
  /// a `stop` (reason "deadline"); none: never.
  std::optional<double> deadline;
  /// A line's "program" goes here (none: such a line is an error).
  robot::ProgramFollower* follower = nullptr;
  /// Called for each answer that is not an error, with the line it answers
  /// (null for a deadline's stop): what the replay page records.
  std::function<void(const nlohmann::json& line, const nlohmann::json& answer)> observer;
};

/// Reads lines until EOF, one answer each (and the deadline's stops);
/// returns the number of error answers. Throws proxima::Error for a
/// deadline that is not positive.
int run_watch_stream(robot::Watchdog& dog, const WatchStreamOptions& options, LineSource& in, std::ostream& out);
/// The same without a deadline; `channels` names the clearance channels, a
/// line's "program" goes to `follower` (none: such a line is an error).
int run_watch_stream(robot::Watchdog& dog, const std::vector<std::string>& channels, std::istream& in,
                     std::ostream& out, robot::ProgramFollower* follower = nullptr);

/// The whole command. Returns the exit code: 1 when the robot, the
/// environment file, the tool link or the options are rejected (the
/// message on `err`, naming the flag for a tolerance or deadline).
int run_watch_command(const WatchCommandOptions& options, LineSource& in, std::ostream& out, std::ostream& err);
/// The same on a stream, which cannot time out: a deadline is rejected.
int run_watch_command(const WatchCommandOptions& options, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace proxima::apps
