#include <cmath>
#include <sstream>

#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/core/transform.hpp>

namespace proxima {

Transform Transform::from_quaternion(double w, double x, double y, double z, const Vec3& p) {
  const Quat q(w, x, y, z);
  const double n = q.norm();
  if (!std::isfinite(n) || !p.allFinite()) {
    throw Error("pose: non-finite quaternion or translation");
  }
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
  return {Eigen::AngleAxisd(angle, axis / n).toRotationMatrix(), p};
}

}  // namespace proxima
