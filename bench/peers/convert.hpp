// SPDX-License-Identifier: BSD-3-Clause
// Pose and shape helpers shared by the adapters; each library then takes
// what it needs from here in its own conventions.
#pragma once

#include <array>
#include <cmath>

#include "workload.hpp"

namespace proxima::bench::detail {

using Mat3 = std::array<std::array<double, 3>, 3>;

/// Workload quaternions are (w, x, y, z). Renormalised because peers differ in
/// whether they tolerate slightly non-unit input.
inline std::array<double, 4> unit_wxyz(const Pose& pose) {
  const auto& q = pose.q;
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  return {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
}

/// Row-major rotation matrix of the pose's quaternion.
inline Mat3 rotation(const Pose& pose) {
  const auto [w, x, y, z] = unit_wxyz(pose);
  return {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
           {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
           {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}

inline const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::sphere: return "sphere";
    case Kind::capsule: return "capsule";
    case Kind::cylinder: return "cylinder";
    case Kind::box: return "box";
    case Kind::ellipsoid: return "ellipsoid";
    case Kind::convex: return "convex";
    case Kind::halfspace: return "halfspace";
  }
  return "?";
}

}  // namespace proxima::bench::detail
