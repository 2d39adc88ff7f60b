// SPDX-License-Identifier: BSD-3-Clause
// The scene keys that drive a body (docs/scene-format.md): a kinematic path.
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

}  // namespace proxima::apps
