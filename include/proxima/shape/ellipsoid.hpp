// SPDX-License-Identifier: BSD-3-Clause
// Ellipsoid with semi-axes `radii` along local x, y, z.
#pragma once

#include <proxima/core/aabb.hpp>
#include <proxima/core/mass_properties.hpp>
#include <proxima/shape/shape_type.hpp>

namespace proxima {

class Ellipsoid {
 public:
  static constexpr ShapeType kType = ShapeType::ellipsoid;
  /// Throws proxima::Error unless every radius is finite and > 0 and margin finite and ≥ 0.
  explicit Ellipsoid(const Vec3& radii, double margin = 0.0);

  const Vec3& radii() const { return radii_; }
  double margin() const { return margin_; }
  /// s(d) = D² d / |D d| with D = diag(radii).
  Vec3 core_support(const Vec3& d) const {
    const Vec3 dd = radii_.cwiseProduct(d);
    const double n = dd.norm();
    if (n <= 0.0) return {radii_.x(), 0.0, 0.0};
    return radii_.cwiseProduct(dd) / n;
  }
  double core_inflation() const { return margin_; }
  Aabb local_aabb() const;
  MassProperties mass_properties() const;

 private:
  Vec3 radii_;
  double margin_;
};

}  // namespace proxima
