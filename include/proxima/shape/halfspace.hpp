// SPDX-License-Identifier: BSD-3-Clause
// Halfspace {x : normal·x ≤ offset} in the local frame (unbounded).
#pragma once

#include <proxima/core/aabb.hpp>
#include <proxima/core/mass_properties.hpp>
#include <proxima/core/transform.hpp>
#include <proxima/shape/shape_type.hpp>

namespace proxima {

/// Unbounded, so never fed to GJK: every pair with a halfspace is closed form
/// through the other shape's support point along −normal.
class Halfspace {
 public:
  static constexpr ShapeType kType = ShapeType::halfspace;
  /// `normal` is normalized here. Throws proxima::Error for a zero or
  /// non-finite normal, a non-finite offset or a negative margin.
  Halfspace(const Vec3& normal, double offset, double margin = 0.0);

  const Vec3& normal() const { return normal_; }
  /// 0, 1 or 2 when the normal is exactly ±(that unit axis), as a floor's or
  /// a wall's is, else −1; axis_sign() is then its sign.
  int axis() const { return axis_; }
  double axis_sign() const { return axis_sign_; }
  /// The normal turned by `pose`. An axis normal is a column of the
  /// rotation, taken instead of multiplied (R·(±e_k) has no rounding either
  /// way): on the closed forms' critical path.
  Vec3 world_normal(const Transform& pose) const {
    return axis_ >= 0 ? Vec3(axis_sign_ * pose.R.col(axis_)) : Vec3(pose.rotate(normal_));
  }
  double offset() const { return offset_; }
  double margin() const { return margin_; }
  double core_inflation() const { return margin_; }
  /// Infinite on the axes the halfspace is unbounded along.
  Aabb local_aabb() const;
  /// Throws proxima::Error: a halfspace has no finite mass.
  MassProperties mass_properties() const;

 private:
  Vec3 normal_;
  double offset_;
  double margin_;
  int axis_ = -1;
  double axis_sign_ = 1.0;
};

}  // namespace proxima
