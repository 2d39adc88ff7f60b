// SPDX-License-Identifier: BSD-3-Clause
// GJK's finish for an ellipsoid against an ellipsoid, a cylinder or a cone:
// Newton's method on the direction of the nearest point, with the
// support maps' own derivatives.
//
// Why: GJK converges only linearly on a curved part of the Minkowski
// difference C = A ⊖ B, and where both sides are curved no side of the
// simplex settles on vertices for narrow/curved_finish.hpp to use. On random
// separated poses GJK takes 16.5 support calls on average between two
// ellipsoids and 19 between a cylinder and an ellipsoid.
//
// What: the nearest point x of C is the support point of C along −u with
// u = x/|x|; so with w(u) = s_C(−u), the unknown is the unit u at which w(u)
// is parallel to u. Around u0, w(u0 + δ) ≈ w0 − J δ, where J is the derivative
// of C's support map (the sum of A's and B's, both symmetric and positive
// semidefinite: the radii of curvature of their surfaces); asking the part
// of w across u0 to vanish to first order gives (J_t + (w0·u0) I) δ = w0_t in
// the plane across u0, which is positive definite whenever w0·u0 > 0. Each
// step costs one support call and converges quadratically where both support
// points move smoothly with the direction, and each support call proves its
// own answer: |w| is an upper bound of the distance and u·w a lower bound
// (C lies beyond the plane u·y = u·w), the duality gap of van den Bergen's
// stop, so the finish returns only what GJK's own test would accept.
//
// Where a support set is flat (a cylinder's side or cap, a cone's slant or
// base), the support point jumps with the direction and the
// model above does not hold; the finish is not tried when the direction is
// near such a face (support_is_smooth) and gives up when the residual stops
// falling, leaving GJK to go on as if nothing happened.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include <proxima/core/math.hpp>
#include <proxima/narrow/minkowski.hpp>
#include <proxima/shape/cone.hpp>
#include <proxima/shape/cylinder.hpp>
#include <proxima/shape/ellipsoid.hpp>

namespace proxima::detail {

/// Cores whose support point moves smoothly with the direction away from a
/// few faces: the finish's partners of an ellipsoid.
template <class S>
inline constexpr bool kSmoothPartner =
    std::is_same_v<S, Ellipsoid> || std::is_same_v<S, Cylinder> || std::is_same_v<S, Cone>;

/// Pairs that get the finish: an ellipsoid against an ellipsoid, a cylinder
/// or a cone, in either order (against a box, a hull, a mesh triangle or a
/// capsule it has narrow/curved_finish.hpp). Two of cylinders and cones try
/// it where narrow/face_finish.hpp finds no face near (their nearest points
/// lie mostly on a side, a slant or a cap: between two cylinders only 22 % of
/// random separated poses are rim against rim).
template <class A, class B>
inline constexpr bool kSmoothFinish =
    (std::is_same_v<A, Ellipsoid> && kSmoothPartner<B>) || (kSmoothPartner<A> && std::is_same_v<B, Ellipsoid>);

/// Derivative of a rim point r·(d_x, d_y)/ρ with respect to d: the rim's
/// radius over ρ times the projection across (d_x, d_y) in the xy plane.
inline Mat3 rim_jacobian(double radius, const Vec3& d, double rho2) {
  Mat3 J = Mat3::Zero();
  const double k = radius / (rho2 * std::sqrt(rho2));
  J(0, 0) = k * d.y() * d.y();
  J(1, 1) = k * d.x() * d.x();
  J(0, 1) = J(1, 0) = -k * d.x() * d.y();
  return J;
}

/// The derivative of each core's support point with respect to the direction
/// d (the branch core_support takes at d; zero where the point is a vertex).
inline Mat3 support_jacobian(const Cylinder& c, const Vec3& d) {
  const double rho2 = d.x() * d.x() + d.y() * d.y();
  return rho2 > 0.0 ? rim_jacobian(c.radius(), d, rho2) : Mat3::Zero();
}
inline Mat3 support_jacobian(const Cone& c, const Vec3& d) {
  const double h = 0.5 * c.length();
  const double rho2 = d.x() * d.x() + d.y() * d.y();
  const double rho = std::sqrt(rho2);
  if (h * d.z() >= c.radius() * rho - h * d.z() || !(rho2 > 0.0)) return Mat3::Zero();  // the apex
  return rim_jacobian(c.radius(), d, rho2);
}
inline Mat3 support_jacobian(const Ellipsoid& e, const Vec3& d) {
  // s(d) = D² d / |D d| with D = diag(radii): ds/dd = D (I − ĝ ĝᵀ) D / |g|, g = D d.
  const Vec3 g = e.radii().cwiseProduct(d);
  const double n = g.norm();
  if (!(n > 0.0)) return Mat3::Zero();
  const Vec3 gh = g / n;
  const Mat3 P = (Mat3::Identity() - gh * gh.transpose()) / n;
  return e.radii().asDiagonal() * P * e.radii().asDiagonal();
}

/// Whether the support point moves smoothly with a unit direction d: false
/// within about 6° (sin 0.1) of a direction whose support set is a face or an
/// edge (a cylinder's side and caps, a cone's slant and base), where the
/// point jumps.
inline constexpr double kNearFace = 0.1;
inline bool support_is_smooth(const Ellipsoid&, const Vec3&) { return true; }
inline bool support_is_smooth(const Cylinder&, const Vec3& d) {
  return std::abs(d.z()) > kNearFace && std::sqrt(d.x() * d.x() + d.y() * d.y()) > kNearFace;
}
inline bool support_is_smooth(const Cone& c, const Vec3& d) {
  const double h = 0.5 * c.length(), r = c.radius();
  const double rho = std::sqrt(d.x() * d.x() + d.y() * d.y());
  // (2h, −r)·(d_z, ρ) over its length: the sine of d's angle to the slant's normal.
  return rho > kNearFace && std::abs(2.0 * h * d.z() - r * rho) > kNearFace * std::sqrt(4.0 * h * h + r * r);
}

/// The least radius of curvature of a core's surface where its support point
/// moves smoothly everywhere: an ellipsoid's r_min² / r_max. Zero for a
/// cylinder and a cone, whose rims are edges: a point moved across a rim
/// leaves the surface at first order.
inline double least_curvature_radius(const Ellipsoid& e) {
  return e.radii().minCoeff() * e.radii().minCoeff() / e.radii().maxCoeff();
}
inline double least_curvature_radius(const Cylinder&) { return 0.0; }
inline double least_curvature_radius(const Cone&) { return 0.0; }

/// Newton's method from v (A's frame, GJK's current nearest point of A ⊖ B):
/// at most four support calls and at most `budget`, counted in `calls`.
/// Returns true with witnesses `pa`, `pb` (A's frame) when a support call
/// proves its own answer to within tol_abs + tol_rel·L (L² = scale2, kept up
/// to date); every call's lower bound is kept in `lower` either way.
///
/// The witnesses are the call's support points a, b with the part of
/// w = a − b across the probed direction u shared out between them, so that
/// pa − pb = |w| u. Why: the duality gap |w| − u·w ≤ tol leaves w's own
/// direction free to lean off the normal by about sqrt(2·tol / |w|), a degree
/// near touching, and the planes across it then miss the distance by far
/// more than tol; the planes across u are u·w apart, within tol of |w|. The
/// stop asks that the shared-out part keep each point on its surface within
/// about tol: moved along an ellipsoid's smooth surface it leaves it only at
/// second order; across a cylinder's or a cone's rim it must itself be
/// within tol, which Newton's quadratic convergence reaches in about one
/// more support call.
template <class A, class B>
PROXIMA_HOT_INLINE inline bool smooth_finish(MinkowskiDifference<A, B>& md, const Vec3& v, double tol_abs,
                                             double tol_rel, int budget, double& scale2, double& lower, Vec3& pa,
                                             Vec3& pb, int& calls) {
  Vec3 u = v.normalized();
  if (!support_is_smooth(md.sa.shape, Vec3(-u)) || !support_is_smooth(md.sb.shape, Vec3(md.R.transpose() * u)))
    return false;
  const double radius_a = least_curvature_radius(md.sa.shape), radius_b = least_curvature_radius(md.sb.shape);
  double last_residual = std::numeric_limits<double>::infinity();
  for (int k = 0; k < std::min(4, budget); ++k) {
    Vec3 a, b;
    md.support(-u, a, b);
    ++calls;
    const Vec3 w = a - b;
    scale2 = std::max(scale2, w.squaredNorm());
    const double along = w.dot(u);
    if (!(along > 0.0)) return false;  // not yet proven apart: GJK decides
    lower = std::max(lower, along);
    const Vec3 across = w - along * u;
    const double length = w.norm();
    const double tol = tol_abs + tol_rel * std::sqrt(scale2);
    const double across2 = across.squaredNorm();
    if (length - along <= tol && (across2 <= tol * tol || across2 <= 2.0 * (radius_a + radius_b) * tol)) {
      // Shares in proportion to the radii: each point leaves its surface by
      // at most |across|² / (2 (ρ_a + ρ_b)) ≤ tol, or moves by at most tol.
      const double share_a = radius_a + radius_b > 0.0 ? radius_a / (radius_a + radius_b) : 0.5;
      const Vec3 shift = across - (length - along) * u;
      pa = a - share_a * shift;
      pb = b + (1.0 - share_a) * shift;
      return true;
    }
    const double residual = across.norm() / along;
    if (!(residual < last_residual)) return false;  // a face was crossed: the model does not hold
    last_residual = residual;
    const Mat3 J =
        support_jacobian(md.sa.shape, Vec3(-u)) + md.R * support_jacobian(md.sb.shape, Vec3(md.R.transpose() * u)) *
                                                      md.R.transpose();
    const Vec3 e1 = (std::abs(u.x()) < 0.6 ? Vec3::UnitX() : Vec3::UnitY()).cross(u).normalized();
    const Vec3 e2 = u.cross(e1);
    const Vec3 Je1 = J * e1, Je2 = J * e2;
    const double m11 = e1.dot(Je1) + along, m22 = e2.dot(Je2) + along, m12 = e1.dot(Je2);
    const double r1 = e1.dot(across), r2 = e2.dot(across);
    const double det = m11 * m22 - m12 * m12;  // ≥ along² > 0: J is positive semidefinite
    u = (u + ((m22 * r1 - m12 * r2) / det) * e1 + ((m11 * r2 - m12 * r1) / det) * e2).normalized();
  }
  return false;
}

}  // namespace proxima::detail
