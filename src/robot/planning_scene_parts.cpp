// SPDX-License-Identifier: BSD-3-Clause
#include "planning_scene_parts.hpp"

#include <cmath>
#include <sstream>

#include <proxima/shape/box.hpp>
#include <proxima/shape/cone.hpp>
#include <proxima/shape/cylinder.hpp>
#include <proxima/shape/sphere.hpp>

namespace proxima::robot::scene_parts {

std::size_t dimension_count(Primitive p) {
  switch (p) {
    case Primitive::box: return 3;
    case Primitive::sphere: return 1;
    case Primitive::cylinder:
    case Primitive::cone: return 2;
  }
  return 0;
}

bool primitive_from_name(const std::string& name, Primitive& out) {
  for (Primitive p : {Primitive::box, Primitive::sphere, Primitive::cylinder, Primitive::cone}) {
    if (name == primitive_name(p)) {
      out = p;
      return true;
    }
  }
  return false;
}

const char* primitive_name(Primitive p) {
  switch (p) {
    case Primitive::box: return "box";
    case Primitive::sphere: return "sphere";
    case Primitive::cylinder: return "cylinder";
    case Primitive::cone: return "cone";
  }
  return "?";
}

std::string make_primitive(Primitive p, const std::vector<double>& d, Shape& out) {
  if (d.size() != dimension_count(p)) {
    return std::string("a ").append(primitive_name(p)).append(" takes ").append(std::to_string(dimension_count(p)))
        .append(dimension_count(p) == 1 ? " dimension" : " dimensions").append(", found ")
        .append(std::to_string(d.size()));
  }
  for (double v : d) {
    // The numbers were checked finite where they were read; sizes must also be positive.
    if (!(v > 0.0)) {
      std::ostringstream m;
      m << "dimensions must be positive, found " << v;
      return m.str();
    }
  }
  switch (p) {
    case Primitive::box: out = Box(d[0], d[1], d[2]); break;
    case Primitive::sphere: out = Sphere(d[0]); break;
    case Primitive::cylinder: out = Cylinder(d[1], d[0]); break;  // message order: height, radius
    case Primitive::cone: out = Cone(d[1], d[0]); break;
  }
  return {};
}

std::string quaternion_problem(double x, double y, double z, double w) {
  const double n = std::sqrt(x * x + y * y + z * z + w * w);
  // 1e-4: a .scene file prints 6 significant digits per component.
  if (std::abs(n - 1.0) <= 1e-4) return {};
  std::ostringstream m;
  m << "the quaternion's norm is " << n << ", not 1 (within 1e-4)";
  return m.str();
}

Transform pose_of(const Vec3& p, double x, double y, double z, double w) {
  return Transform::from_quaternion(w, x, y, z, p);
}

void add_object(Environment& env, const std::string& id, const Transform& object_pose,
                std::vector<PlacedShape> shapes) {
  const bool several = shapes.size() > 1;
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    EnvironmentObject o{several ? std::string(id).append("/").append(std::to_string(k)) : id,
                        std::move(shapes[k].geometry), object_pose * shapes[k].pose, {}, several ? id : std::string()};
    env.objects.push_back(std::move(o));
  }
}

}  // namespace proxima::robot::scene_parts
