// SPDX-License-Identifier: BSD-3-Clause
// `proxima sim` scene files on arbitrary text, then five steps of the
// scene. The promise (apps/scene.hpp, docs/scene-format.md): a scene, or a
// proxima::Error naming the field; never another exception, a crash or a
// hang. A scene that loads steps without a NaN or infinite pose or velocity.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <proxima/core/error.hpp>

#include "fuzz_input.hpp"
#include "json_reader.hpp"
#include "scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace proxima;
  // The scene files' own parser (a repeated key is an error), as `proxima sim` reads them.
  nlohmann::json j;
  try {
    j = apps::parse_json(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const nlohmann::json::exception&) {
    return 0;
  } catch (const Error&) {
    return 0;
  }
  std::optional<apps::Scene> scene;
  try {
    scene.emplace(apps::scene_from_json(j, "/nonexistent-fuzz-dir"));
  } catch (const Error&) {
    return 0;
  }
  for (int k = 0; k < 5; ++k) {
    scene->world.step();
    for (const sim::Body& b : scene->world.bodies())
      if (!b.pose.R.allFinite() || !b.pose.p.allFinite() || !b.linear_velocity.allFinite() ||
          !b.angular_velocity.allFinite())
        fuzz::broken("non-finite body state after step", std::to_string(k));
  }
  return 0;
}
