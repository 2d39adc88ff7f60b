// SPDX-License-Identifier: BSD-3-Clause

#include <proxima/core/error.hpp>

#include "json_reader.hpp"
#include "json_shapes.hpp"

namespace proxima::apps {

using nlohmann::json;

// Adding 0.0 turns −0.0 into 0.0, which reads better in answers.
json to_json(const Vec3& v) { return json::array({v.x() + 0.0, v.y() + 0.0, v.z() + 0.0}); }

Vec3 vec3_from_json(const json& j, const std::string& field) { return vec3_at(j, field); }

Transform pose_from_json(const json& j, const std::string& field) {
  if (j.is_null()) return Transform::identity();
  require_object(j, field, "an object {\"p\": [x, y, z], \"q\": [w, x, y, z]}");
  return read_object(j, field, [&](ObjectReader& r) {
    const Vec3 p = r.vec3_or("p", Vec3::Zero());
    const json* q = r.get("q");
    if (q == nullptr) return Transform::from_translation(p);
    if (!q->is_array() || q->size() != 4) fail(r.field("q"), "expected an array of 4 numbers [w, x, y, z]");
    double c[4];
    for (std::size_t i = 0; i < 4; ++i) c[i] = number_at((*q)[i], index_path(r.field("q"), i));
    try {
      return Transform::from_quaternion(c[0], c[1], c[2], c[3], p);
    } catch (const Error& e) {
      fail(field, e.what());
    }
  });
}

Shape shape_from_json(const json& j, const std::string& field) {
  require_object(j, field, "a shape object such as {\"shape\": \"sphere\", \"radius\": 1}");
  return read_object(j, field, [&](ObjectReader& r) { return shape_from_reader(r); });
}

Shape shape_from_reader(ObjectReader& r) {
  const std::string& field = r.path();
  const std::string kind = r.string("shape");
  const double margin = r.number_or("margin", 0.0, kLengthRange);
  try {
    if (kind == "sphere") return Shape(Sphere(r.number("radius"), margin));
    if (kind == "capsule") return Shape(Capsule(r.number("radius"), r.number("length"), margin));
    if (kind == "cylinder") return Shape(Cylinder(r.number("radius"), r.number("length"), margin));
    if (kind == "cone") return Shape(Cone(r.number("radius"), r.number("length"), margin));
    if (kind == "box") return Shape(Box(r.vec3("size"), margin));
    if (kind == "ellipsoid") return Shape(Ellipsoid(r.vec3("radii"), margin));
    if (kind == "halfspace") return Shape(Halfspace(r.vec3("normal"), r.number("offset"), margin));
    if (kind == "convex") {
      const json& pts = array_at(r.required("points"), r.field("points"), "[x, y, z] points");
      std::vector<Vec3> v;
      v.reserve(pts.size());
      for (std::size_t i = 0; i < pts.size(); ++i) v.push_back(vec3_at(pts[i], index_path(r.field("points"), i)));
      return Shape(ConvexPolytope(v, margin));
    }
  } catch (const Error& e) {
    const std::string what = e.what();
    // Shape constructors name the shape; add which operand it was.
    if (what.rfind(field, 0) == 0) throw;
    fail(field, what);
  }
  fail(r.field("shape"), "unknown shape \"" + kind +
                             "\" (expected sphere, capsule, cylinder, cone, box, ellipsoid, "
                             "halfspace, convex or mesh)");
}

}  // namespace proxima::apps
