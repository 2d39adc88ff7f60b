// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>

#include "rotation_step.hpp"

namespace proxima::sim {

namespace {

// One implicit-midpoint step, for h small enough that the fixed point
// contracts (rotation_step splits the others). A pass that leaves the
// finite numbers, or a body spinning so fast that no split keeps the ratio
// below 1, ends the iteration at what it has: the rotation stays a unit
// quaternion and L stays as given.
Quat midpoint_step(const Quat& q, const Vec3& L, const Mat3& inv_inertia, double h) {
  const Vec3 pi0 = q.conjugate() * L;
  const double scale = pi0.norm();
  if (!(scale > 0.0) || !std::isfinite(scale)) return q;
  // Fixed-point iteration for Π₁ (a handful of passes at h|ω| ~ 1e-2).
  Vec3 pi1 = pi0, omega = inv_inertia * pi0;
  for (int it = 0; it < 50; ++it) {
    const Vec3 mid = 0.5 * (pi0 + pi1);
    omega = inv_inertia * mid;
    const Vec3 next = pi0 - h * omega.cross(mid);
    if (!next.allFinite()) break;
    const double change = (next - pi1).norm();
    pi1 = next;
    if (change <= 1e-15 * scale) break;
  }
  omega = inv_inertia * (0.5 * (pi0 + pi1));
  const Vec3 half = 0.5 * h * omega;
  if (!half.allFinite()) return q;
  Quat dq(1.0, half.x(), half.y(), half.z());
  dq.normalize();
  Quat out = q * dq;
  out.normalize();
  return out;
}

}  // namespace

Quat rotation_step(const Quat& q, const Vec3& L, const Mat3& inv_inertia, double h) {
  // The fixed point's map has Lipschitz constant at most h‖I⁻¹‖|Π| with
  // |Π| = |L| (‖·‖ bounded by the largest absolute row sum). A step whose
  // constant would pass 1/4 is split into equal sub-steps at the same L:
  // the same torque-free rotation, and each sub-step keeps L and the energy
  // exactly. Unsplit, a 1 s step at 10 rad/s made the iteration diverge and
  // the body's state NaN (a fuzz finding, fuzz/corpus/scene).
  constexpr double kRatio = 0.25;
  constexpr double kMaxSplit = 65536.0;
  const double ratio = h * inv_inertia.cwiseAbs().rowwise().sum().maxCoeff() * L.norm();
  if (!std::isfinite(ratio)) return q;  // no finite L to turn with
  if (!(ratio > kRatio)) return midpoint_step(q, L, inv_inertia, h);
  const int n = static_cast<int>(std::min(std::ceil(ratio / kRatio), kMaxSplit));
  Quat out = q;
  for (int i = 0; i < n; ++i) out = midpoint_step(out, L, inv_inertia, h / n);
  return out;
}

}  // namespace proxima::sim
