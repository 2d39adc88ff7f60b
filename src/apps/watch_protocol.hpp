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
//    "approaching": true, "stale": false, "model": "joint", "channel": "table"}
#pragma once

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include <proxima/robot/program_follower.hpp>
#include <proxima/robot/watchdog.hpp>

#include "robot_protocol.hpp"

namespace proxima::apps {

struct WatchCommandOptions {
  RobotCommandOptions robot;
  /// JSON file holding the environment array, or {"environment": [...],
  /// "attached": [...]} with the objects the robot holds; empty: none.
  std::string environment;
  std::string tool;         ///< link whose pose the Cartesian motion model fits; empty: joint model only
  robot::WatchdogOptions watchdog;
  robot::ProgramOptions program;  ///< the automatic mode's tolerances
};

/// Reads lines until EOF, one answer each; returns the number of error
/// answers. `channels` names the watchdog's clearance channels; a line's
/// "program" goes to `follower` (none: such a line is an error).
int run_watch_stream(robot::Watchdog& dog, const std::vector<std::string>& channels, std::istream& in,
                     std::ostream& out, robot::ProgramFollower* follower = nullptr);

/// The whole command. Returns the exit code: 1 when the robot, the
/// environment file, the tool link or the options are rejected (the
/// message on `err`).
int run_watch_command(const WatchCommandOptions& options, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace proxima::apps
