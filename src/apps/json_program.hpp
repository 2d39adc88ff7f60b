// SPDX-License-Identifier: BSD-3-Clause
// The watchdog's program (robot/program.hpp) from JSON, for `proxima watch`
// (docs/watch-command.md): {"waypoints": [{"t": 0, "q": [...]}, ...]} or
// {"to": [...], "speed": 0.5}. Strict: an unknown, missing or ill-typed key
// is an error naming it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <proxima/robot/program.hpp>

namespace proxima::apps {

/// Throws proxima::Error naming the key under `where` (e.g. "program"):
/// `program.waypoints[2].t: ...`. Values are checked against the robot
/// (sizes, limits, times) when the program is set (robot::program_error).
robot::ProgramRequest program_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace proxima::apps
