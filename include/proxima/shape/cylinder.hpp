// SPDX-License-Identifier: BSD-3-Clause
// Solid cylinder about local z, of full height `length`.
#pragma once

#include <cmath>

#include <proxima/core/aabb.hpp>
#include <proxima/core/mass_properties.hpp>
#include <proxima/shape/shape_type.hpp>

namespace proxima {

class Cylinder {
 public:
  static constexpr ShapeType kType = ShapeType::cylinder;
  /// Throws proxima::Error unless radius > 0, length > 0, margin ≥ 0, all finite.
  Cylinder(double radius, double length, double margin = 0.0);

  double radius() const { return radius_; }
  double length() const { return length_; }
  double margin() const { return margin_; }
  /// Rim point in the radial direction of d (the cap centre when d is axial).
  Vec3 core_support(const Vec3& d) const {
    const double rho = std::sqrt(d.x() * d.x() + d.y() * d.y());
    const double z = std::copysign(0.5 * length_, d.z());
    if (rho <= 0.0) return {0.0, 0.0, z};
    const double s = radius_ / rho;
    return {s * d.x(), s * d.y(), z};
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
