// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>

#include <proxima/core/motion.hpp>

namespace proxima {

RigidMotion RigidMotion::between(const Transform& from, const Transform& to) {
  RigidMotion m;
  m.start = from;
  m.velocity = to.p - from.p;
  Quat turn(to.R * from.R.transpose());
  if (turn.w() < 0.0) turn.coeffs() = -turn.coeffs();  // the shorter way
  const double s = turn.vec().norm();
  if (s > 0.0) m.angular_velocity = turn.vec() * (2.0 * std::atan2(s, turn.w()) / s);
  return m;
}

Transform RigidMotion::at(double t) const {
  Transform x;
  x.p = start.p + t * velocity;
  const double angle = angular_velocity.norm();
  x.R = angle > 0.0 ? Mat3(Eigen::AngleAxisd(t * angle, angular_velocity / angle) * start.R) : start.R;
  return x;
}

}  // namespace proxima
