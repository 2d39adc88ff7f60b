// SPDX-License-Identifier: BSD-3-Clause
// Rigid motion over a unit time interval, the motion model of time_of_impact.
#pragma once

#include <proxima/core/transform.hpp>

namespace proxima {

/// Pose(t), t in [0, 1]: the origin moves at constant velocity and the body
/// turns about its origin at a constant world angular velocity, the shorter
/// way (at most π) from `from`'s rotation to `to`'s. Every point x of the
/// body then moves at v + ω × (x − origin), so a point at most r from the
/// origin moves at most |v| + |ω| r per unit of t: the bound conservative
/// advancement needs.
struct RigidMotion {
  Transform start;
  Vec3 velocity = Vec3::Zero();          ///< of the origin, per unit t
  Vec3 angular_velocity = Vec3::Zero();  ///< world frame, rad per unit t

  /// Both poses must be valid (Transform::is_valid); the caller checks.
  static RigidMotion between(const Transform& from, const Transform& to);
  Transform at(double t) const;
  bool rotates() const { return angular_velocity.squaredNorm() > 0.0; }
};

}  // namespace proxima
