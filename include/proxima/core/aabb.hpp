// SPDX-License-Identifier: BSD-3-Clause
// Axis-aligned bounding box.
#pragma once

#include <limits>

#include <proxima/core/transform.hpp>

namespace proxima {

/// Closed box [min, max]; empty when min > max on some axis (the default).
struct Aabb {
  Vec3 min = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 max = Vec3::Constant(-std::numeric_limits<double>::infinity());

  static Aabb from_center_half_extents(const Vec3& c, const Vec3& h) { return {c - h, c + h}; }
  bool empty() const { return (min.array() > max.array()).any(); }
  void extend(const Vec3& x) { min = min.cwiseMin(x); max = max.cwiseMax(x); }
  void extend(const Aabb& b) { min = min.cwiseMin(b.min); max = max.cwiseMax(b.max); }
  Aabb inflated(double r) const { return {min.array() - r, max.array() + r}; }
  bool overlaps(const Aabb& b) const {
    return (min.array() <= b.max.array()).all() && (b.min.array() <= max.array()).all();
  }
  bool contains(const Vec3& x) const {
    return (min.array() <= x.array()).all() && (x.array() <= max.array()).all();
  }
  Vec3 center() const { return 0.5 * (min + max); }
  Vec3 half_extents() const { return 0.5 * (max - min); }
  /// The tightest AABB of this box after the rigid transform T (|R| h rule).
  Aabb transformed(const Transform& T) const;
};

}  // namespace proxima
