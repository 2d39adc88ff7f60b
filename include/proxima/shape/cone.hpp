// SPDX-License-Identifier: BSD-3-Clause
// Solid cone about local z: base disc of `radius` at z = -length/2, apex at
// z = +length/2 (the local origin is the middle of the height, as in FCL;
// the centroid is at z = -length/4).
#pragma once

#include <cmath>

#include <proxima/core/aabb.hpp>
#include <proxima/core/mass_properties.hpp>
#include <proxima/shape/shape_type.hpp>

namespace proxima {

class Cone {
 public:
  static constexpr ShapeType kType = ShapeType::cone;
  /// Throws proxima::Error unless radius > 0, length > 0, margin ≥ 0, all finite.
  Cone(double radius, double length, double margin = 0.0);

  double radius() const { return radius_; }
  double length() const { return length_; }
  double margin() const { return margin_; }
  /// The apex or the base-rim point farthest along d, whichever is farther.
  Vec3 core_support(const Vec3& d) const {
    const double h = 0.5 * length_;
    const double rho = std::sqrt(d.x() * d.x() + d.y() * d.y());
    const double rim = radius_ * rho - h * d.z();
    if (h * d.z() >= rim) return {0.0, 0.0, h};
    if (rho <= 0.0) return {0.0, 0.0, -h};
    const double s = radius_ / rho;
    return {s * d.x(), s * d.y(), -h};
  }
  double core_inflation() const { return margin_; }
  Aabb local_aabb() const;
  MassProperties mass_properties() const;

 private:
  double radius_;
  double length_;
  double margin_;
};

}  // namespace proxima
