// SPDX-License-Identifier: BSD-3-Clause
// The error message of loading a scene, or "" when it loads: for the tests
// of bad scene input, which expect the message to name the field.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <proxima/core/error.hpp>

#include "scene.hpp"

namespace proxima::testing {

inline std::string scene_error(const nlohmann::json& j) {
  try {
    apps::scene_from_json(j);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace proxima::testing
