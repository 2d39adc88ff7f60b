#include <cmath>

#include "rotation_step.hpp"

namespace proxima::sim::detail {

Quat rotation_step(const Quat& q, const Vec3& L, const Mat3& inv_inertia, double h) {
  const Vec3 pi0 = q.conjugate() * L;
  const double scale = pi0.norm();
  if (!(scale > 0.0)) return q;
  // Fixed-point iteration for Π₁ (a handful of passes at h|ω| ~ 1e-2).
  Vec3 pi1 = pi0, omega = inv_inertia * pi0;
  for (int it = 0; it < 50; ++it) {
    const Vec3 mid = 0.5 * (pi0 + pi1);
    omega = inv_inertia * mid;
    const Vec3 next = pi0 - h * omega.cross(mid);
    const double change = (next - pi1).norm();
    pi1 = next;
    if (change <= 1e-15 * scale) break;
  }
  omega = inv_inertia * (0.5 * (pi0 + pi1));
  const Vec3 half = 0.5 * h * omega;
  Quat dq(1.0, half.x(), half.y(), half.z());
  dq.normalize();
  Quat out = q * dq;
  out.normalize();
  return out;
}

}  // namespace proxima::sim::detail
