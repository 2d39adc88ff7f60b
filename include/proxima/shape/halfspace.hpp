// Halfspace {x : normal·x ≤ offset} in the local frame (unbounded).
#pragma once

#include <proxima/core/aabb.hpp>
#include <proxima/core/mass_properties.hpp>
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
};

}  // namespace proxima
