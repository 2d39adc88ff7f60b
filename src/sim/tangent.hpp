// SPDX-License-Identifier: BSD-3-Clause
// Tangent basis of a contact normal, shared by the LCP build and warm starts.
#pragma once

#include <cmath>

#include <proxima/core/math.hpp>

namespace proxima::sim::detail {

/// t1, t2 with (t1, t2, n) right-handed and orthonormal. Depends on n only
/// (t1 lies in the plane of n and the world axis least aligned with it), so
/// a persistent contact keeps its friction directions from step to step.
inline void tangent_basis(const Vec3& n, Vec3& t1, Vec3& t2) {
  const Vec3 a = n.cwiseAbs();
  const Vec3 axis = a.x() <= a.y() && a.x() <= a.z() ? Vec3::UnitX()
                    : a.y() <= a.z()                 ? Vec3::UnitY()
                                                     : Vec3::UnitZ();
  t1 = axis.cross(n).normalized();
  t2 = n.cross(t1);
}

inline std::uint64_t pair_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

}  // namespace proxima::sim::detail
