// SPDX-License-Identifier: BSD-3-Clause
// The URDF and SRDF readers on arbitrary text (URDF, then after the first
// NUL byte an SRDF for the same robot). The promise (robot/urdf.hpp): a
// model, or a proxima::Error naming the source; never another exception, a
// crash or a hang. A model that loads (meshes not required: the fuzzer has
// no files) must give finite link poses at its zero vector, and its
// primitive geometry a self-distance that is not NaN.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/robot/collision_matrix.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/link_geometry.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace proxima;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = text.find('\0');
  const std::string_view urdf = text.substr(0, nul);
  const std::string_view srdf = nul == std::string_view::npos ? std::string_view() : text.substr(nul + 1);
  robot::UrdfOptions options;
  options.require_meshes = false;
  std::optional<robot::RobotModel> model;
  try {
    model.emplace(robot::parse_urdf(urdf, "/nonexistent-fuzz-dir", options, "fuzz.urdf"));
  } catch (const Error& e) {
    if (std::string(e.what()).find("fuzz.urdf") == std::string::npos)
      fuzz::broken("URDF error does not name the source:", e.what());
    return 0;
  }
  const std::vector<double> q(model->variable_count(), 0.0);
  // The zero vector can lie outside the limits (accepted, then reported);
  // only a malformed q throws, and this one is well formed.
  for (const Transform& t : robot::forward_kinematics(*model, q))
    if (!t.is_valid()) fuzz::broken("non-finite link pose at q = 0");
  robot::AllowedCollisionMatrix acm(model->links().size());
  if (!srdf.empty()) {
    try {
      robot::apply_srdf_text(*model, srdf, acm, "fuzz.srdf");
    } catch (const Error& e) {
      if (std::string(e.what()).find("fuzz.srdf") == std::string::npos)
        fuzz::broken("SRDF error does not name the source:", e.what());
      return 0;
    }
  }
  std::optional<robot::RobotGeometry> geometry;
  try {
    geometry.emplace(*model);
  } catch (const Error&) {
    return 0;  // a mesh the fuzzer cannot supply
  }
  const robot::SceneChecker checker(std::move(*geometry), acm);
  const robot::DistanceReport d = checker.self_distance(checker.state(q));
  if (d.status == Status::ok && d.found && !(d.distance >= 0.0 && std::isfinite(d.distance)))
    fuzz::broken("self distance", std::to_string(d.distance));
  return 0;
}
