#include <cmath>
#include <sstream>

#include <proxima/core/error.hpp>

#include "json_shapes.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& field, const std::string& reason) {
  throw Error(field + ": " + reason);
}

const json& member(const json& j, const std::string& field, const char* key) {
  if (!j.contains(key)) fail(field, std::string("missing \"") + key + "\"");
  return j.at(key);
}

double number(const json& j, const std::string& field) {
  if (!j.is_number()) fail(field, "expected a number");
  const double v = j.get<double>();
  if (!std::isfinite(v)) fail(field, "not a finite number");
  return v;
}

double number_member(const json& j, const std::string& field, const char* key) {
  return number(member(j, field, key), field + "." + key);
}

}  // namespace

// Adding 0.0 turns −0.0 into 0.0, which reads better in answers.
json to_json(const Vec3& v) { return json::array({v.x() + 0.0, v.y() + 0.0, v.z() + 0.0}); }

Vec3 vec3_from_json(const json& j, const std::string& field) {
  if (!j.is_array() || j.size() != 3) fail(field, "expected an array of 3 numbers");
  return {number(j[0], field + "[0]"), number(j[1], field + "[1]"), number(j[2], field + "[2]")};
}

Transform pose_from_json(const json& j, const std::string& field) {
  if (j.is_null()) return Transform::identity();
  if (!j.is_object()) fail(field, "expected an object {\"p\": [x, y, z], \"q\": [w, x, y, z]}");
  const Vec3 p = j.contains("p") ? vec3_from_json(j["p"], field + ".p") : Vec3::Zero();
  if (!in_range(p)) {
    std::ostringstream m;
    m << "translation beyond ±" << kMaxLength << " m, the range of lengths Proxima accepts";
    fail(field + ".p", m.str());
  }
  if (!j.contains("q")) return Transform::from_translation(p);
  const json& q = j["q"];
  if (!q.is_array() || q.size() != 4) fail(field + ".q", "expected an array of 4 numbers [w, x, y, z]");
  double c[4];
  for (std::size_t i = 0; i < 4; ++i) c[i] = number(q[i], field + ".q[" + std::to_string(i) + "]");
  try {
    return Transform::from_quaternion(c[0], c[1], c[2], c[3], p);
  } catch (const Error& e) {
    fail(field, e.what());
  }
}

Shape shape_from_json(const json& j, const std::string& field) {
  if (!j.is_object()) fail(field, "expected a shape object such as {\"shape\": \"sphere\", \"radius\": 1}");
  const json& kind_j = member(j, field, "shape");
  if (!kind_j.is_string()) fail(field + ".shape", "expected a string");
  const std::string kind = kind_j.get<std::string>();
  const double margin = j.contains("margin") ? number(j["margin"], field + ".margin") : 0.0;
  try {
    if (kind == "sphere") return Sphere(number_member(j, field, "radius"), margin);
    if (kind == "capsule")
      return Capsule(number_member(j, field, "radius"), number_member(j, field, "length"), margin);
    if (kind == "cylinder")
      return Cylinder(number_member(j, field, "radius"), number_member(j, field, "length"), margin);
    if (kind == "cone")
      return Cone(number_member(j, field, "radius"), number_member(j, field, "length"), margin);
    if (kind == "box") return Box(vec3_from_json(member(j, field, "size"), field + ".size"), margin);
    if (kind == "ellipsoid")
      return Ellipsoid(vec3_from_json(member(j, field, "radii"), field + ".radii"), margin);
    if (kind == "halfspace")
      return Halfspace(vec3_from_json(member(j, field, "normal"), field + ".normal"),
                       number_member(j, field, "offset"), margin);
    if (kind == "convex") {
      const json& pts = member(j, field, "points");
      if (!pts.is_array()) fail(field + ".points", "expected an array of [x, y, z] points");
      std::vector<Vec3> v;
      v.reserve(pts.size());
      for (std::size_t i = 0; i < pts.size(); ++i) {
        v.push_back(vec3_from_json(pts[i], field + ".points[" + std::to_string(i) + "]"));
      }
      return ConvexPolytope(v, margin);
    }
  } catch (const Error& e) {
    const std::string what = e.what();
    // Shape constructors name the shape; add which operand it was.
    if (what.rfind(field, 0) == 0) throw;
    fail(field, what);
  }
  fail(field + ".shape", "unknown shape \"" + kind +
                             "\" (expected sphere, capsule, cylinder, cone, box, ellipsoid, "
                             "halfspace, convex or mesh)");
}

}  // namespace proxima::apps
