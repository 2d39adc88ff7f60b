// SPDX-License-Identifier: BSD-3-Clause
// Two pieces of the world's step that other steppers share (the robot
// layer's RobotWorld): the friction directions of a contact normal and the
// orientation update of a free rigid body.
#pragma once

#include <proxima/core/math.hpp>

namespace proxima::sim {

/// t1, t2 with (t1, t2, n) right-handed and orthonormal. Depends on n only
/// (t1 lies in the plane of n and the world axis least aligned with it), so
/// a persistent contact keeps its friction directions from step to step.
inline void tangent_basis(const Vec3& n, Vec3& t1, Vec3& t2) {
  const Vec3 a = n.cwiseAbs();
  const Vec3 axis = a.x() <= a.y() && a.x() <= a.z() ? Vec3::UnitX()
                    : a.y() <= a.z()                 ? Vec3::UnitY()
                                                     : Vec3::UnitZ();
  t1 = axis.cross(n).normalized();
  t2 = n.cross(t1);
}

/// Orientation after Δt = h of a body with unit quaternion q (body → world),
/// world angular momentum L and body-frame inverse inertia `inv_inertia`.
///
/// Implicit midpoint rule for Euler's equations in the body frame with the
/// Cayley map as the rotation (Lie–Poisson integrators, e.g. Hairer,
/// Lubich & Wanner, Geometric Numerical Integration, §VII.5; here written
/// out from the invariants): with Π₀ = R₀ᵀ L, find Π₁ with
///   Π₁ = Π₀ − h Ω × Π_m,  Π_m = ½(Π₀ + Π₁),  Ω = I⁻¹ Π_m,
/// and set R₁ = R₀ cay(h Ω). Then Π₁ = cay(hΩ)ᵀ Π₀, so L = R₁ Π₁ is kept
/// exactly, and (Π₁ − Π₀)·I⁻¹Π_m = −h (Ω × Π_m)·Ω = 0, so the energy
/// ½ Πᵀ I⁻¹ Π is kept exactly too; the rotation is second-order accurate.
/// cay(hΩ) is the unit quaternion along (1, hΩ/2). The fixed point is
/// contracting with ratio ~h|ω| and is iterated to rounding; a step where
/// that ratio could pass 1/4 is split into sub-steps at the same L.
Quat rotation_step(const Quat& q, const Vec3& L, const Mat3& inv_inertia, double h);

}  // namespace proxima::sim
