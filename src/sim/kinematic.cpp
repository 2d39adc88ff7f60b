// SPDX-License-Identifier: BSD-3-Clause
// Scripted paths of kinematic bodies (body.hpp KinematicPath).
#include <algorithm>
#include <cmath>
#include <sstream>

#include <Eigen/Geometry>

#include <proxima/core/error.hpp>
#include <proxima/sim/body.hpp>

namespace proxima::sim {

namespace {

// A keyframe quaternion is taken as written: a norm off 1 by more than
// rounding is a typo, not something to normalize silently.
constexpr double kUnitTolerance = 1e-6;

[[noreturn]] void fail(const std::string& field, const std::string& reason) {
  throw Error("kinematic." + field + ": " + reason);
}

}  // namespace

void KinematicPath::validate() const {
  if (!velocity.allFinite()) fail("velocity", "must be finite");
  if (!angular_velocity.allFinite()) fail("angular_velocity", "must be finite");
  if (keyframes.empty()) return;
  if (!velocity.isZero(0.0) || !angular_velocity.isZero(0.0))
    fail("keyframes", "a keyframed path has no constant twist: give \"keyframes\" or \"velocity\"/\"angular_velocity\"");
  for (std::size_t i = 0; i < keyframes.size(); ++i) {
    const Keyframe& k = keyframes[i];
    const std::string at = "keyframes[" + std::to_string(i) + "]";
    if (!std::isfinite(k.t)) fail(at + ".t", "must be finite");
    if (i > 0 && !(k.t > keyframes[i - 1].t)) {
      std::ostringstream m;
      m << "time " << k.t << " s is not after the previous keyframe's " << keyframes[i - 1].t << " s";
      fail(at + ".t", m.str());
    }
    if (!k.p.allFinite() || !(k.p.cwiseAbs().maxCoeff() <= kMaxLength)) fail(at + ".p", "must be finite, within ±1e15 m");
    const double n = k.q.coeffs().norm();
    if (!std::isfinite(n) || std::abs(n - 1.0) > kUnitTolerance) {
      std::ostringstream m;
      m << "quaternion norm " << n << " is not 1 (within 1e-6)";
      fail(at + ".q", m.str());
    }
  }
}

Transform KinematicPath::keyframe_pose(double t) const {
  const Keyframe& first = keyframes.front();
  const Keyframe& last = keyframes.back();
  if (!(t > first.t)) return {first.q.toRotationMatrix(), first.p};
  if (t >= last.t) return {last.q.toRotationMatrix(), last.p};
  // The segment [a, b] with a.t <= t < b.t.
  const auto b = std::upper_bound(keyframes.begin(), keyframes.end(), t,
                                  [](double x, const Keyframe& k) { return x < k.t; });
  const Keyframe& kb = *b;
  const Keyframe& ka = *(b - 1);
  const double s = (t - ka.t) / (kb.t - ka.t);
  // Eigen's slerp takes the shorter arc (q and −q are the same rotation).
  return {ka.q.slerp(s, kb.q).normalized().toRotationMatrix(), ka.p + s * (kb.p - ka.p)};
}

Transform KinematicPath::advance(const Transform& pose, double t, double dt) const {
  if (!keyframes.empty()) return keyframe_pose(t + dt);
  Transform next = pose;
  next.p += dt * velocity;
  const double w = angular_velocity.norm();
  if (w > 0.0) {
    next.R = Eigen::AngleAxisd(w * dt, angular_velocity / w).toRotationMatrix() * pose.R;
    // Re-orthonormalize: a long constant spin multiplies many rotations.
    next.R = Quat(next.R).normalized().toRotationMatrix();
  }
  return next;
}

}  // namespace proxima::sim
