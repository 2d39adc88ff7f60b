// SPDX-License-Identifier: BSD-3-Clause
// One function per binding file, each adding its part of the module.
#pragma once

#include <pybind11/pybind11.h>

namespace proxima::python {

void bind_pose(pybind11::module_& m);
void bind_shapes(pybind11::module_& m);
void bind_meshes(pybind11::module_& m);
void bind_results(pybind11::module_& m);
void bind_queries(pybind11::module_& m);
void bind_batch(pybind11::module_& m);
void bind_robot(pybind11::module_& m);
void bind_dynamics(pybind11::module_& m);
void bind_watchdog(pybind11::module_& m);
void bind_simulation(pybind11::module_& m);
void bind_robot_world(pybind11::module_& m);
void bind_viz(pybind11::module_& m);

}  // namespace proxima::python
