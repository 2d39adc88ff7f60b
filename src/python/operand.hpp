// SPDX-License-Identifier: BSD-3-Clause
// A query operand from Python: a convex shape (any shape class or
// proxima.Shape) or a triangle mesh's Bvh.
#pragma once

#include <optional>
#include <string>

#include <pybind11/pybind11.h>

#include "pair_queries.hpp"

namespace proxima::python {

/// `value` as a Shape when it is one of the convex shape classes or a
/// proxima.Shape; nullopt otherwise.
std::optional<Shape> convex_shape(const pybind11::handle& value);

/// A shape or a Bvh; TypeError naming `name` otherwise (a TriangleMesh is
/// refused with the hint to build its Bvh once: a query must not rebuild it
/// on every call). A Bvh operand points into `value`, which the caller keeps
/// alive for the operand's lifetime.
Operand operand_arg(const pybind11::handle& value, const std::string& name);

/// Refuses a PenetrationCache where the C++ request would answer
/// invalid_input or ignore it (ValueError naming `cache`): a pair with a
/// mesh, or a `method` (its name as given) other than auto or incremental.
void check_penetration_cache(const Operand& a, const Operand& b, Method method, const std::string& name);

}  // namespace proxima::python
