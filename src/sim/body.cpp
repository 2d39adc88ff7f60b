// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>

#include <proxima/query.hpp>
#include <proxima/sim/body.hpp>

namespace proxima::sim {

void ConvexGeometry::contacts(const Transform& pose, const Geometry& other, const Transform& other_pose,
                              const ContactOptions& options, ContactSet& out) const {
  const Shape* o = other.convex();
  if (!o) {
    // Non-convex partners implement the pair themselves (phase 2): ask them
    // with the roles swapped and flip the normals back to other → this.
    other.contacts(other_pose, *this, pose, options, out);
    out.normal = -out.normal;
    for (Contact& c : out.points) {
      c.normal = -c.normal;
      std::swap(c.feature_a, c.feature_b);
    }
    return;
  }
  proxima::contacts(shape_, pose, *o, other_pose, options, out);
}

MassSpec mass_from_density(const Geometry& g, double density) {
  if (!std::isfinite(density) || density <= 0.0) throw Error("density: must be finite and > 0");
  const MassProperties p = g.mass_properties();
  if (!(p.volume > 0.0)) throw Error("density: the geometry has no volume, give \"mass\" and \"inertia\"");
  return {density * p.volume, p.centroid, density * p.inertia};
}

Mat3 Body::inverse_inertia_world() const {
  if (infinite_mass()) return Mat3::Zero();
  return pose.R * mass.inertia.inverse() * pose.R.transpose();
}

double Body::kinetic_energy() const {
  if (infinite_mass()) return 0.0;
  return 0.5 * mass.mass * linear_velocity.squaredNorm() +
         0.5 * angular_velocity.dot(inertia_world() * angular_velocity);
}

Body make_body(std::string name, Shape shape, double density, const Transform& pose, bool is_static) {
  Body b;
  b.name = std::move(name);
  b.geometry = std::make_shared<ConvexGeometry>(std::move(shape));
  b.is_static = is_static;
  b.pose = pose;
  if (!is_static) {
    try {
      b.mass = mass_from_density(*b.geometry, density);
    } catch (const Error& e) {
      throw Error("body \"" + b.name + "\": " + e.what());
    }
  }
  return b;
}

}  // namespace proxima::sim
