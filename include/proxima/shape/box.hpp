// SPDX-License-Identifier: BSD-3-Clause
// Box of full extents `size`, centred at the local origin.
#pragma once

#include <cmath>

#include <proxima/core/aabb.hpp>
#include <proxima/core/mass_properties.hpp>
#include <proxima/shape/shape_type.hpp>

namespace proxima {

class Box {
 public:
  static constexpr ShapeType kType = ShapeType::box;
  /// Throws proxima::Error unless every extent is finite and > 0 and margin finite and ≥ 0.
  explicit Box(const Vec3& size, double margin = 0.0);
  Box(double x, double y, double z, double margin = 0.0) : Box(Vec3(x, y, z), margin) {}

  Vec3 size() const { return 2.0 * half_; }
  const Vec3& half_extents() const { return half_; }
  double margin() const { return margin_; }
  /// The corner in the octant of d (branch-free: the sign of each component
  /// picks the face; a zero component picks either, both are extreme).
  Vec3 core_support(const Vec3& d) const {
    return {std::copysign(half_.x(), d.x()), std::copysign(half_.y(), d.y()),
            std::copysign(half_.z(), d.z())};
  }
  double core_inflation() const { return margin_; }
  Aabb local_aabb() const;
  MassProperties mass_properties() const;

 private:
  Vec3 half_;
  double margin_;
};

}  // namespace proxima
