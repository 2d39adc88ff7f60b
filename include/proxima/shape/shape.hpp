// SPDX-License-Identifier: BSD-3-Clause
// Shape: any one of the convex shapes, as a value. Copies are cheap (a
// polytope shares its hull data).
#pragma once

#include <variant>

#include <proxima/shape/box.hpp>
#include <proxima/shape/capsule.hpp>
#include <proxima/shape/cone.hpp>
#include <proxima/shape/convex_polytope.hpp>
#include <proxima/shape/cylinder.hpp>
#include <proxima/shape/ellipsoid.hpp>
#include <proxima/shape/halfspace.hpp>
#include <proxima/shape/sphere.hpp>

namespace proxima {

/// Variant order must follow ShapeType.
using ShapeVariant =
    std::variant<Sphere, Capsule, Cylinder, Cone, Box, Ellipsoid, Halfspace, ConvexPolytope>;

class Shape {
 public:
  template <class T>
  Shape(T s) : v_(std::move(s)) {}  // NOLINT(google-explicit-constructor): a shape is a Shape

  ShapeType type() const { return static_cast<ShapeType>(v_.index()); }
  const char* name() const { return to_string(type()); }
  template <class T>
  const T& as() const { return *std::get_if<T>(&v_); }
  const ShapeVariant& variant() const { return v_; }

  double margin() const {
    return std::visit([](const auto& s) { return s.margin(); }, v_);
  }
  Aabb local_aabb() const {
    return std::visit([](const auto& s) { return s.local_aabb(); }, v_);
  }
  Aabb world_aabb(const Transform& pose) const { return local_aabb().transformed(pose); }
  /// Throws proxima::Error for a halfspace (unbounded).
  MassProperties mass_properties() const {
    return std::visit([](const auto& s) { return s.mass_properties(); }, v_);
  }

 private:
  ShapeVariant v_;
};

}  // namespace proxima
