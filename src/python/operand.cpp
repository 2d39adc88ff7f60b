// SPDX-License-Identifier: BSD-3-Clause
#include "operand.hpp"

#include "convert.hpp"

namespace proxima::python {
namespace {

template <class T>
bool take(const py::handle& value, std::optional<Shape>& out) {
  if (!py::isinstance<T>(value)) return false;
  out.emplace(value.cast<const T&>());
  return true;
}

}  // namespace

std::optional<Shape> convex_shape(const py::handle& value) {
  std::optional<Shape> s;
  if (py::isinstance<Shape>(value)) {
    s.emplace(value.cast<const Shape&>());
    return s;
  }
  take<Sphere>(value, s) || take<Box>(value, s) || take<Capsule>(value, s) || take<Cylinder>(value, s) ||
      take<ConvexPolytope>(value, s) || take<Cone>(value, s) || take<Ellipsoid>(value, s) ||
      take<Halfspace>(value, s);
  return s;
}

Operand operand_arg(const py::handle& value, const std::string& name) {
  Operand op;
  if (py::isinstance<Bvh>(value)) {
    op.mesh = &value.cast<const Bvh&>();
    return op;
  }
  op.shape = convex_shape(value);
  if (op.shape) return op;
  const std::string type = type_name(value);
  if (py::isinstance<TriangleMesh>(value)) {
    type_error(name + ": a TriangleMesh must be wrapped in its BVH once, proxima.Bvh(mesh), and the Bvh passed");
  }
  type_error(name + ": expected a convex shape (Sphere, Capsule, Cylinder, Cone, Box, Ellipsoid, Halfspace, "
                    "ConvexPolytope, Shape) or a Bvh, got " + type);
}

void check_penetration_cache(const Operand& a, const Operand& b, Method method, const std::string& name) {
  if (!(a.shape && b.shape)) value_error("cache: applies to convex pairs only");
  if (method != Method::automatic && method != Method::incremental)
    value_error("cache: applies with method 'auto' or 'incremental' only, got method '" + name + "'");
}

}  // namespace proxima::python
