// SPDX-License-Identifier: BSD-3-Clause
// Shapes and poses from the JSON of the `proxima query` protocol (docs/design.md).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <proxima/core/transform.hpp>
#include <proxima/shape/shape.hpp>

namespace proxima::apps {

/// Builds a shape from e.g. {"shape": "box", "size": [2, 2, 2], "margin": 0}.
/// Throws proxima::Error naming `field` (e.g. "a") and the reason; an
/// unknown key (a misspelt "margn") is an error too.
Shape shape_from_json(const nlohmann::json& j, const std::string& field);

class ObjectReader;
/// The same from a reader over the shape object (which the caller finishes):
/// for formats that add keys of their own to a shape.
Shape shape_from_reader(ObjectReader& r);

/// Builds a pose from {"p": [x, y, z], "q": [w, x, y, z]}; both keys are
/// optional (identity), no other key is. Quaternions are normalized (Transform::from_quaternion).
Transform pose_from_json(const nlohmann::json& j, const std::string& field);

/// [x, y, z] as a Vec3; throws proxima::Error naming `field` unless it is an
/// array of three finite numbers within ±1e15.
Vec3 vec3_from_json(const nlohmann::json& j, const std::string& field);

nlohmann::json to_json(const Vec3& v);

}  // namespace proxima::apps
