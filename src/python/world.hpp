// SPDX-License-Identifier: BSD-3-Clause
// The Python World's state, shared by the simulator bindings (simulation.cpp)
// and the replay recorder (viz.cpp).
#pragma once

#include <mutex>
#include <string>

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

}  // namespace proxima::python
