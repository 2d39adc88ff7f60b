// SPDX-License-Identifier: BSD-3-Clause
// The scene keys that drive a body (docs/scene-format.md): a kinematic path,
// loads that vary in time.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <proxima/sim/body.hpp>

namespace proxima::apps {

/// `"kinematic": {"velocity": [..], "angular_velocity": [..]}` (constant
/// twist) or `{"keyframes": [{"t": s, "p": [..], "q": [w, x, y, z]}, ..]}`.
/// Throws proxima::Error naming the field: unknown keys, a twist beside
/// keyframes, no keyframe, times not strictly increasing, a quaternion whose
/// norm is not 1 within 1e-6, speeds above `max_rate`.
sim::KinematicPath kinematic_from_json(const nlohmann::json& j, const std::string& field, double max_rate);

/// True when `j` is a load schedule (an array whose first entry is an
/// object) rather than a constant [x, y, z].
bool is_load_schedule(const nlohmann::json& j);

/// `[{"t": s, "<value_key>": [x, y, z]}, ..]`: at least one key, times
/// strictly increasing, magnitudes at most `limit` (in `unit`).
sim::LoadSchedule load_schedule_from_json(const nlohmann::json& j, const std::string& field, const char* value_key,
                                          const char* unit, double limit);

}  // namespace proxima::apps
