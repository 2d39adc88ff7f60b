// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/core/aabb.hpp>

namespace proxima {

Aabb Aabb::transformed(const Transform& T) const {
  if (empty()) return {};
  const Vec3 c = T.apply(center());
  const Vec3 h = half_extents();
  // Unbounded boxes (halfspaces) stay unbounded instead of producing inf·0.
  if (!h.allFinite()) {
    Aabb out;
    out.min = Vec3::Constant(-std::numeric_limits<double>::infinity());
    out.max = Vec3::Constant(std::numeric_limits<double>::infinity());
    return out;
  }
  const Vec3 e = T.R.cwiseAbs() * h;
  return {c - e, c + e};
}

}  // namespace proxima
