// SPDX-License-Identifier: BSD-3-Clause
// The Python SceneChecker's state, shared by the robot bindings (robot.cpp)
// and the watchdog built on a checker (watchdog.cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>

#include "convert.hpp"

namespace proxima::python {

// The checker and the environment it checks against (shared with Python,
// which may keep adding objects to it), and that environment prepared for
// queries (robot/prepared_environment.hpp): made again only when it has
// changed. Python can only append objects (Environment.add) or swap the
// environment, so the environment and its object count tell.
struct Scene {
  std::shared_ptr<const robot::SceneChecker> checker;
  std::shared_ptr<robot::Environment> environment;
  mutable std::shared_ptr<const robot::PreparedEnvironment> prepared;
  // Held, not just its address: a swapped-out environment freed and a new
  // one made at the same address would otherwise pass for it.
  mutable std::shared_ptr<const robot::Environment> prepared_from;
  mutable std::size_t prepared_count = 0;

  const robot::RobotModel& model() const { return checker->model(); }

  // With the GIL held (it reads the Python-owned environment); the result
  // stays valid without it.
  std::shared_ptr<const robot::PreparedEnvironment> prepared_environment() const {
    if (!prepared || prepared_from != environment || prepared_count != environment->objects.size()) {
      prepared = std::make_shared<const robot::PreparedEnvironment>(*environment);
      prepared_from = environment;
      prepared_count = environment->objects.size();
    }
    return prepared;
  }
};

/// A joint vector of the model's length (ValueError otherwise); non-finite
/// values go through, for the checker to answer invalid_input.
DoubleArray joints_arg(const robot::RobotModel& model, const pybind11::object& q);
/// A mesh_mode argument: "convex_hull" or "triangle_mesh", else ValueError.
robot::MeshMode mesh_mode_arg(const std::string& s);

}  // namespace proxima::python
