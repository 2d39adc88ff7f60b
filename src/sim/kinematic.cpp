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

void LoadSchedule::validate(const std::string& name) const {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string at = name + "[" + std::to_string(i) + "]";
    if (!std::isfinite(keys[i].t)) throw Error(at + ".t: must be finite");
    if (i > 0 && !(keys[i].t > keys[i - 1].t)) {
      std::ostringstream m;
      m << at << ".t: time " << keys[i].t << " s is not after the previous key's " << keys[i - 1].t << " s";
      throw Error(m.str());
    }
    if (!keys[i].value.allFinite()) throw Error(at + ": value must be finite");
  }
}

Vec3 LoadSchedule::at(double t) const {
  if (!(t > keys.front().t)) return keys.front().value;
  if (t >= keys.back().t) return keys.back().value;
  const auto b = std::upper_bound(keys.begin(), keys.end(), t, [](double x, const LoadKey& k) { return x < k.t; });
  const LoadKey& a = *(b - 1);
  const double s = (t - a.t) / (b->t - a.t);
  return a.value + s * (b->value - a.value);
}

namespace {

// ∫ from the first key's time to t of the schedule (negative before it).
// Linear in the number of keys, without allocating: schedules are short.
Vec3 integral_to(const std::vector<LoadKey>& keys, double t) {
  const LoadKey& first = keys.front();
  if (!(t > first.t)) return (t - first.t) * first.value;
  Vec3 sum = Vec3::Zero();
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    const LoadKey& a = keys[i];
    const LoadKey& b = keys[i + 1];
    if (t >= b.t) {
      sum += 0.5 * (b.t - a.t) * (a.value + b.value);  // the whole trapezoid
      continue;
    }
    const Vec3 ft = a.value + ((t - a.t) / (b.t - a.t)) * (b.value - a.value);
    return sum + 0.5 * (t - a.t) * (a.value + ft);
  }
  return sum + (t - keys.back().t) * keys.back().value;
}

}  // namespace

Vec3 LoadSchedule::mean(double t0, double t1) const {
  return (integral_to(keys, t1) - integral_to(keys, t0)) / (t1 - t0);
}

}  // namespace proxima::sim
