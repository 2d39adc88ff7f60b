// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>
#include <sstream>

#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/core/transform.hpp>

namespace proxima {
namespace {

void check_translation(const Vec3& p) {
  if (in_range(p)) return;
  std::ostringstream m;
  m << "pose: translation (" << p.x() << ", " << p.y() << ", " << p.z() << ") is beyond ±" << kMaxLength
    << " m, the range of lengths Proxima accepts";
  throw Error(m.str());
}

}  // namespace

Transform Transform::from_quaternion(double w, double x, double y, double z, const Vec3& p) {
  const Quat q(w, x, y, z);
  const double n = q.norm();
  if (!std::isfinite(n) || !p.allFinite()) {
    throw Error("pose: non-finite quaternion or translation");
  }
  check_translation(p);
  if (n < tol::kQuaternionNorm) {
    std::ostringstream m;
    m << "pose: quaternion norm " << n << " is too small to normalize";
    throw Error(m.str());
  }
  return {Quat(w / n, x / n, y / n, z / n).toRotationMatrix(), p};
}

Transform Transform::from_axis_angle(const Vec3& axis, double angle, const Vec3& p) {
  const double n = axis.norm();
  if (!std::isfinite(n) || n <= 0.0 || !std::isfinite(angle) || !p.allFinite()) {
    throw Error("pose: axis-angle needs a finite non-zero axis and a finite angle");
  }
  check_translation(p);
  return {Eigen::AngleAxisd(angle, axis / n).toRotationMatrix(), p};
}

}  // namespace proxima
