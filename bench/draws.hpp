// SPDX-License-Identifier: BSD-3-Clause
// Random vectors and quaternions drawn one number per statement. The
// arguments of one call are evaluated in an unspecified order (gcc right to
// left, clang left to right), so `Vec3(n(g), n(g), n(g))` is a different
// sample under each compiler; these keep the workloads the same under both.
#pragma once

#include <proxima/core/math.hpp>

namespace proxima::bench {

template <class Dist, class Gen>
Vec3 draw_vec3(Dist& d, Gen& g) {
  const double x = d(g);
  const double y = d(g);
  const double z = d(g);
  return Vec3(x, y, z);
}

/// (w, x, y, z) drawn in that order; not normalized.
template <class Dist, class Gen>
Quat draw_quat(Dist& d, Gen& g) {
  const double w = d(g);
  const Vec3 v = draw_vec3(d, g);
  return Quat(w, v.x(), v.y(), v.z());
}

}  // namespace proxima::bench
