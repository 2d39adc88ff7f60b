// SPDX-License-Identifier: BSD-3-Clause
// Conversions between Python values (numpy arrays, sequences, proxima.Pose)
// and the library's types, shared by the binding files. Argument errors are
// raised as ValueError (wrong shape or value) or TypeError (not numbers),
// their messages naming the argument.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
// In every binding file: pybind11 requires one view of the STL casters per
// program (mixing files with and without them breaks the one-definition rule).
#include <pybind11/stl.h>

#include <proxima/core/aabb.hpp>
#include <proxima/core/error.hpp>
#include <proxima/core/transform.hpp>
#include <proxima/query.hpp>

namespace proxima::python {

namespace py = pybind11;

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

[[noreturn]] void value_error(const std::string& message);
[[noreturn]] void type_error(const std::string& message);

/// The name of `value`'s Python type ("list", "Sphere"), for messages.
std::string type_name(const py::handle& value);

/// "(3, 4)": an array's shape as Python prints it, for messages.
std::string shape_string(const py::array& a);

/// `value` as a C-contiguous double array (TypeError naming `name` when it
/// cannot be read as numbers).
DoubleArray double_array(const py::handle& value, const std::string& name);

Vec3 vec3_arg(const py::handle& value, const std::string& name);
/// An (N, 3) array of points.
std::vector<Vec3> points_arg(const py::handle& value, const std::string& name);

py::array_t<double> to_array(const Vec3& v);
/// A joint-space vector (any length) as a 1-D array.
py::array_t<double> vector_array(const Eigen::VectorXd& v);
py::array_t<double> to_array(const Mat3& m);
py::array_t<double> to_array(const std::vector<Vec3>& points);  ///< (N, 3)
/// (2, 3): the box's min and max corners.
py::array_t<double> to_array(const Aabb& box);

/// Reads the row-major 4×4 matrix `m` into `out`. Non-finite entries are
/// kept (a query then answers invalid_input, as the C++ queries do); a
/// finite matrix must be rigid: last row (0, 0, 0, 1), rotation block
/// orthonormal to 1e-6 with determinant +1. Returns the reason otherwise.
/// No Python calls: the batched queries use it without the GIL.
std::optional<std::string> matrix_pose(const double* m, Transform& out);

/// How strictly a pose argument is read.
enum class PoseCheck {
  /// Query poses: non-finite numbers pass through, so the query answers
  /// status "invalid_input" instead of raising.
  lenient,
  /// Poses that build something (Pose, environment objects): non-finite
  /// numbers raise ValueError.
  strict,
};

/// A pose argument: proxima.Pose, a 4×4 matrix, a (p, q) pair with
/// q = (w, x, y, z), or None for the identity.
Transform pose_arg(const py::handle& value, const std::string& name, PoseCheck check = PoseCheck::lenient);

/// Rotation from a quaternion (w, x, y, z), normalized; translation p. The
/// C++ factory's errors are raised with `name` in place of "pose".
Transform pose_from_pq(const Vec3& p, const Eigen::Vector4d& q, const std::string& name, PoseCheck check);

Method method_arg(const std::string& name);

/// The shortest text that reads back as `x` (Python's repr of a float).
std::string repr(double x);
/// "[x, y, z]" with repr's numbers.
std::string repr(const Vec3& v);

/// Names of Status values, indexed by the enum (the batched results store
/// the index).
const std::vector<std::string>& status_names();

}  // namespace proxima::python
