// SPDX-License-Identifier: BSD-3-Clause
// Capsule: the segment from (0,0,-length/2) to (0,0,length/2) swept by a ball.
#pragma once

#include <cmath>

#include <proxima/core/aabb.hpp>
#include <proxima/core/mass_properties.hpp>
#include <proxima/shape/shape_type.hpp>

namespace proxima {

/// GJK sees a capsule as its segment (the core) inflated by radius + margin.
class Capsule {
 public:
  static constexpr ShapeType kType = ShapeType::capsule;
  /// Throws proxima::Error unless radius > 0, length > 0, margin ≥ 0, all finite.
  Capsule(double radius, double length, double margin = 0.0);

  double radius() const { return radius_; }
  double length() const { return length_; }
  double half_length() const { return 0.5 * length_; }
  double margin() const { return margin_; }
  Vec3 core_support(const Vec3& d) const {
    return {0.0, 0.0, std::copysign(0.5 * length_, d.z())};
  }
  double core_inflation() const { return radius_ + margin_; }
  Aabb local_aabb() const;
  MassProperties mass_properties() const;

 private:
  double radius_;
  double length_;
  double margin_;
};

}  // namespace proxima
