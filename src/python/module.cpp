// SPDX-License-Identifier: BSD-3-Clause
// The `proxima` Python module: shapes, meshes, poses, the queries (single
// and batched) and the robot scene checker. docs/python.md is its reference.
#include <pybind11/pybind11.h>

#include <proxima/core/error.hpp>
#include <proxima/version.hpp>

#include "bindings.hpp"

PYBIND11_MODULE(proxima, m) {
  namespace py = pybind11;
  using namespace proxima::python;
  m.doc() =
      "Proxima: collision, distance, contacts and time of impact between convex shapes and triangle meshes, "
      "and a robot scene checker. Metres; poses are proxima.Pose, 4x4 matrices or (p, q) pairs with "
      "q = (w, x, y, z); normals point from B to A. Queries never raise for a bad pose: their result's "
      "`status` says 'invalid_input'. Bad shapes, files and arguments raise proxima.Error (a ValueError) "
      "naming the input and the reason.";
  // A subclass of ValueError, so `except ValueError` catches rejected input
  // whether the binding or the library rejected it.
  py::register_exception<proxima::Error>(m, "Error", PyExc_ValueError);
  bind_pose(m);
  bind_shapes(m);
  bind_meshes(m);
  bind_results(m);
  bind_queries(m);
  bind_batch(m);
  bind_robot(m);
  bind_dynamics(m);
  bind_watchdog(m);
  bind_simulation(m);
  bind_robot_world(m);
  bind_viz(m);
  m.attr("__version__") = proxima::version();
}
