// SPDX-License-Identifier: BSD-3-Clause
// Result arrays shared by the batched pair queries and the robot's batched
// check.
#pragma once

#include <cstdint>

#include <pybind11/numpy.h>

namespace proxima::python {

struct CollideBatch {
  pybind11::array_t<bool> collide;
  pybind11::array_t<std::int8_t> status_code;  ///< Status values
};

}  // namespace proxima::python
