// SPDX-License-Identifier: BSD-3-Clause
// Sphere of radius r about the local origin.
#pragma once

#include <proxima/core/aabb.hpp>
#include <proxima/core/mass_properties.hpp>
#include <proxima/shape/shape_type.hpp>

namespace proxima {

/// GJK sees a sphere as its centre point (the core) inflated by radius + margin,
/// which makes sphere pairs exact in one iteration.
class Sphere {
 public:
  static constexpr ShapeType kType = ShapeType::sphere;
  /// Throws proxima::Error unless radius is finite and > 0 and margin finite and ≥ 0.
  explicit Sphere(double radius, double margin = 0.0);

  double radius() const { return radius_; }
  double margin() const { return margin_; }
  Vec3 core_support(const Vec3&) const { return Vec3::Zero(); }
  double core_inflation() const { return radius_ + margin_; }
  Aabb local_aabb() const;
  MassProperties mass_properties() const;

 private:
  double radius_;
  double margin_;
};

}  // namespace proxima
