// SPDX-License-Identifier: BSD-3-Clause
// The Python World's state, shared by the simulator bindings (simulation.cpp)
// and the replay recorder (viz.cpp).
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <proxima/sim/world.hpp>

namespace proxima::python {

// The world and the lock that keeps a step (run without the GIL) and any
// other call on the same world from overlapping.
struct PyWorld {
  sim::World world;
  std::string name = "world";
  double duration = 1.0;  // the scene file's "time", s
  std::mutex mutex;
};

// Scene-file JSON text as the scene files' parser reads it (a repeated key
// is an error); text that is not JSON raises naming "scene".
nlohmann::json scene_json(const std::string& text);

// The bodies' names, in index order.
inline std::vector<std::string> body_names(const sim::World& w) {
  std::vector<std::string> out;
  out.reserve(w.bodies().size());
  for (const sim::Body& b : w.bodies()) out.push_back(b.name);
  return out;
}

}  // namespace proxima::python
