// SPDX-License-Identifier: BSD-3-Clause
// Construction, bounds and closed-form mass properties of the primitive shapes.
#include <cmath>
#include <limits>
#include <numbers>

#include <proxima/shape/box.hpp>
#include <proxima/shape/capsule.hpp>
#include <proxima/shape/cone.hpp>
#include <proxima/shape/cylinder.hpp>
#include <proxima/shape/ellipsoid.hpp>
#include <proxima/shape/halfspace.hpp>
#include <proxima/shape/sphere.hpp>

#include "validate.hpp"

namespace proxima {

using std::numbers::pi;

const char* to_string(ShapeType t) {
  switch (t) {
    case ShapeType::sphere: return "sphere";
    case ShapeType::capsule: return "capsule";
    case ShapeType::cylinder: return "cylinder";
    case ShapeType::cone: return "cone";
    case ShapeType::box: return "box";
    case ShapeType::ellipsoid: return "ellipsoid";
    case ShapeType::halfspace: return "halfspace";
    case ShapeType::convex: return "convex";
    case ShapeType::count: break;
  }
  return "unknown";
}

namespace {
Mat3 diag(double x, double y, double z) { return Vec3(x, y, z).asDiagonal(); }
}  // namespace

Sphere::Sphere(double radius, double margin) : radius_(radius), margin_(margin) {
  detail::require_positive("sphere", "radius", radius);
  detail::require_margin("sphere", margin);
}
Aabb Sphere::local_aabb() const {
  return Aabb::from_center_half_extents(Vec3::Zero(), Vec3::Constant(radius_ + margin_));
}
MassProperties Sphere::mass_properties() const {
  const double r = radius_;
  const double v = 4.0 / 3.0 * pi * r * r * r;
  const double i = 0.4 * v * r * r;
  return {v, Vec3::Zero(), diag(i, i, i)};
}

Capsule::Capsule(double radius, double length, double margin)
    : radius_(radius), length_(length), margin_(margin) {
  detail::require_positive("capsule", "radius", radius);
  detail::require_positive("capsule", "length", length);
  detail::require_margin("capsule", margin);
}
Aabb Capsule::local_aabb() const {
  const double r = radius_ + margin_;
  return Aabb::from_center_half_extents(Vec3::Zero(), Vec3(r, r, 0.5 * length_ + r));
}
MassProperties Capsule::mass_properties() const {
  // Cylinder of the segment plus two hemispheres whose centroids sit 3r/8
  // beyond the segment ends (parallel-axis theorem).
  const double r = radius_, l = length_;
  const double vc = pi * r * r * l;
  const double vs = 4.0 / 3.0 * pi * r * r * r;
  const double izz = vc * r * r / 2.0 + 0.4 * vs * r * r;
  const double ixx = vc * (3.0 * r * r + l * l) / 12.0 + vs * (0.4 * r * r + l * l / 4.0 + 3.0 * l * r / 8.0);
  return {vc + vs, Vec3::Zero(), diag(ixx, ixx, izz)};
}

Cylinder::Cylinder(double radius, double length, double margin)
    : radius_(radius), length_(length), margin_(margin) {
  detail::require_positive("cylinder", "radius", radius);
  detail::require_positive("cylinder", "length", length);
  detail::require_margin("cylinder", margin);
}
Aabb Cylinder::local_aabb() const {
  return Aabb::from_center_half_extents(Vec3::Zero(), Vec3(radius_, radius_, 0.5 * length_))
      .inflated(margin_);
}
MassProperties Cylinder::mass_properties() const {
  const double r = radius_, h = length_;
  const double v = pi * r * r * h;
  const double ixx = v * (3.0 * r * r + h * h) / 12.0;
  return {v, Vec3::Zero(), diag(ixx, ixx, v * r * r / 2.0)};
}

Cone::Cone(double radius, double length, double margin)
    : radius_(radius), length_(length), margin_(margin) {
  detail::require_positive("cone", "radius", radius);
  detail::require_positive("cone", "length", length);
  detail::require_margin("cone", margin);
}
Aabb Cone::local_aabb() const {
  return Aabb::from_center_half_extents(Vec3::Zero(), Vec3(radius_, radius_, 0.5 * length_))
      .inflated(margin_);
}
MassProperties Cone::mass_properties() const {
  const double r = radius_, h = length_;
  const double v = pi * r * r * h / 3.0;
  const double ixx = v * (3.0 * r * r / 20.0 + 3.0 * h * h / 80.0);
  return {v, Vec3(0.0, 0.0, -h / 4.0), diag(ixx, ixx, 0.3 * v * r * r)};
}

Box::Box(const Vec3& size, double margin) : half_(0.5 * size), margin_(margin) {
  detail::require_positive("box", "size", size);
  detail::require_margin("box", margin);
}
Aabb Box::local_aabb() const {
  return Aabb::from_center_half_extents(Vec3::Zero(), half_).inflated(margin_);
}
MassProperties Box::mass_properties() const {
  const Vec3 s = size();
  const double v = s.prod();
  const Vec3 q = s.cwiseProduct(s);
  return {v, Vec3::Zero(), diag(v * (q.y() + q.z()) / 12.0, v * (q.x() + q.z()) / 12.0,
                                v * (q.x() + q.y()) / 12.0)};
}

Ellipsoid::Ellipsoid(const Vec3& radii, double margin) : radii_(radii), margin_(margin) {
  detail::require_positive("ellipsoid", "radii", radii);
  detail::require_margin("ellipsoid", margin);
}
Aabb Ellipsoid::local_aabb() const {
  return Aabb::from_center_half_extents(Vec3::Zero(), radii_).inflated(margin_);
}
MassProperties Ellipsoid::mass_properties() const {
  const Vec3 q = radii_.cwiseProduct(radii_);
  const double v = 4.0 / 3.0 * pi * radii_.prod();
  return {v, Vec3::Zero(),
          diag(v * (q.y() + q.z()) / 5.0, v * (q.x() + q.z()) / 5.0, v * (q.x() + q.y()) / 5.0)};
}

Halfspace::Halfspace(const Vec3& normal, double offset, double margin)
    : normal_(normal), offset_(offset), margin_(margin) {
  const double n = normal.norm();
  if (!std::isfinite(n) || n <= 0.0) detail::reject("halfspace", "normal must be finite and non-zero");
  if (!std::isfinite(offset)) detail::reject("halfspace", "offset must be finite");
  if (std::abs(offset) > kMaxLength) detail::reject("halfspace", detail::beyond_range("offset", offset));
  detail::require_margin("halfspace", margin);
  // A normal already unit to rounding is kept as given: dividing it by a norm
  // computed as 1 ± 2 eps moves it by an ulp about a third of the time, and a
  // halfspace rebuilt from its own normal (a copy, an unpickled one) would
  // then differ from the original.
  if (std::abs(n - 1.0) > 4.0 * std::numeric_limits<double>::epsilon()) normal_ /= n;
  for (int k = 0; k < 3; ++k) {
    if (std::abs(normal_[k]) == 1.0 && normal_[(k + 1) % 3] == 0.0 && normal_[(k + 2) % 3] == 0.0) {
      axis_ = k;
      axis_sign_ = normal_[k];
    }
  }
}
Aabb Halfspace::local_aabb() const {
  // Bounded only along an axis-aligned normal's own axis, on one side.
  constexpr double inf = std::numeric_limits<double>::infinity();
  Aabb b{Vec3::Constant(-inf), Vec3::Constant(inf)};
  for (int i = 0; i < 3; ++i) {
    if (normal_[i] == 1.0) b.max[i] = offset_ + margin_;
    if (normal_[i] == -1.0) b.min[i] = -offset_ - margin_;
  }
  return b;
}
MassProperties Halfspace::mass_properties() const {
  detail::reject("halfspace", "unbounded, it has no mass properties");
}

}  // namespace proxima
