// SPDX-License-Identifier: BSD-3-Clause
// GJK's finish for a cylinder, a cone or an ellipsoid against a shape whose
// support points are vertices (a box, a hull, a mesh triangle, a capsule's
// segment).
//
// Why: GJK converges only linearly where the nearest point of the Minkowski
// difference lies on a curved part of its boundary. Against a cylinder that
// is most poses: its rim against a box edge or vertex, its side against an
// edge. On random separated cylinder–box poses GJK takes 14 iterations on
// average to reach the 1e-10 stop, up to 29.
//
// What: once the vertex side of GJK's simplex has settled on the same one or
// two points for two iterations, the nearest points between the curved
// solid and that point or segment are found directly: the distance to a
// convex set is convex along a segment, so its derivative along the segment
// is monotone and a bracketed root search (regula falsi, Illinois) finds the
// minimum; a point's own projection on the solid is closed form (in the
// meridian half-plane through it, a rectangle for the cylinder and a
// triangle for the cone) or, on an ellipsoid, a one-dimensional root found by
// Newton's method in about three steps. The candidate is accepted only if one
// support call of A ⊖ B along it proves it to GJK's own tolerance (the
// duality gap of van den Bergen's stop: the candidate's length less the lower
// bound v·w/|v| from the new support point w). So a wrong guess of the feature costs one
// search and one support call, never a wrong answer: GJK goes on as if
// nothing happened.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include <proxima/core/math.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/capsule.hpp>
#include <proxima/shape/cone.hpp>
#include <proxima/shape/convex_polytope.hpp>
#include <proxima/shape/cylinder.hpp>
#include <proxima/shape/ellipsoid.hpp>

namespace proxima::detail {

/// Shapes whose core's support points are finitely many points (vertices):
/// GJK's simplex on them settles on the nearest feature. A sphere's core is
/// one point too, but GJK from a point to a cone takes 1.5 support calls on
/// average and the bookkeeping would cost it a fifth of its time (a cylinder
/// and a sphere have their own closed form).
template <class S>
inline constexpr bool kVertexCore =
    std::is_same_v<S, Box> || std::is_same_v<S, ConvexPolytope> || std::is_same_v<S, Capsule>;

/// Curved solids whose nearest point to a point is cheap: the finish's other side.
template <class S>
inline constexpr bool kCurvedCore =
    std::is_same_v<S, Cylinder> || std::is_same_v<S, Cone> || std::is_same_v<S, Ellipsoid>;

/// Pairs that get the finish: a curved core and a vertex core, in either order.
template <class A, class B>
inline constexpr bool kCurvedFinish = (kCurvedCore<A> && kVertexCore<B>) || (kVertexCore<A> && kCurvedCore<B>);

/// The point of the solid cylinder nearest to p (both in the cylinder's frame).
PROXIMA_HOT_INLINE inline Vec3 curved_nearest(const Cylinder& c, const Vec3& p) {
  const double r = c.radius();
  const double h = 0.5 * c.length();
  const double rho2 = p.x() * p.x() + p.y() * p.y();
  const double s = rho2 > r * r ? r / std::sqrt(rho2) : 1.0;
  return {s * p.x(), s * p.y(), std::clamp(p.z(), -h, h)};
}

/// The point of the solid cone nearest to p (both in the cone's frame). In
/// the meridian half-plane through p, with ρ the distance from the axis, the
/// cone is the triangle apex (0, h), rim (r, −h), base centre (0, −h); a
/// point outside it is nearest to the base edge or to the slant edge (the
/// axis edge is never nearer for ρ ≥ 0), and the nearer of the two
/// projections is the answer.
PROXIMA_HOT_INLINE inline Vec3 curved_nearest(const Cone& c, const Vec3& p) {
  const double r = c.radius();
  const double h = 0.5 * c.length();
  const double rho = std::sqrt(p.x() * p.x() + p.y() * p.y());
  const double z = p.z();
  // Slant edge from the apex (0, h) along (r, −2h).
  const double ex = r, ez = -2.0 * h;
  const double wx = rho, wz = z - h;
  // Outside the slant's side: its outward normal is (2h, r).
  const bool beyond_slant = 2.0 * h * wx + r * wz > 0.0;
  double qr = rho, qz = z;
  if (beyond_slant || z < -h) {
    const double t = std::clamp((wx * ex + wz * ez) / (ex * ex + ez * ez), 0.0, 1.0);
    const double sr = t * ex, sz = h + t * ez;
    const double br = std::min(rho, r), bz = -h;
    const double ds = (rho - sr) * (rho - sr) + (z - sz) * (z - sz);
    const double db = (rho - br) * (rho - br) + (z - bz) * (z - bz);
    if (!beyond_slant || db < ds) {
      qr = br;
      qz = bz;
    } else {
      qr = sr;
      qz = sz;
    }
  }
  const double s = rho > 0.0 ? qr / rho : 0.0;
  return {s * p.x(), s * p.y(), qz};
}

/// The point of the solid ellipsoid nearest to p (both in its frame). Outside
/// it, q_i = a_i² p_i / (t + a_i²) with t > 0 the root of
/// F(t) = Σ (a_i p_i / (t + a_i²))² = 1 (the Lagrange condition of the
/// projection); F falls from F(0) > 1 to F(a_max |p|) ≤ 1. Newton's method
/// runs on 1/√F, which is affine in t for a sphere and nearly so otherwise,
/// kept inside the bracket by bisection; it stops at rounding. `root` is the
/// first guess when it is not negative (the last point's, along a search) and
/// returns this point's.
PROXIMA_HOT_INLINE inline Vec3 curved_nearest(const Ellipsoid& e, const Vec3& p, double& root) {
  const double a0 = e.radii().x() * e.radii().x(), a1 = e.radii().y() * e.radii().y(),
               a2 = e.radii().z() * e.radii().z();
  const double x = p.x(), y = p.y(), z = p.z();
  const double s2 = x * x / a0 + y * y / a1 + z * z / a2;  // |p ⊘ radii|²
  if (s2 <= 1.0) return p;
  const double c0 = a0 * x * x, c1 = a1 * y * y, c2 = a2 * z * z;  // a_i² p_i²
  const double pn = std::sqrt(x * x + y * y + z * z);
  double lo = 0.0, hi = std::sqrt(std::max({a0, a1, a2})) * pn;
  // Without a guess: the sphere through the surface point on the ray to p,
  // of radius r = |p| / |p ⊘ radii|, whose root is r (|p| − r).
  const double r = pn / std::sqrt(s2);
  double t = std::clamp(root >= 0.0 ? root : r * (pn - r), lo, hi);
  const double amin = std::min({a0, a1, a2});
  for (int k = 0; k < 64; ++k) {
    const double i0 = 1.0 / (a0 + t), i1 = 1.0 / (a1 + t), i2 = 1.0 / (a2 + t);
    const double f0 = c0 * i0 * i0, f1 = c1 * i1 * i1, f2 = c2 * i2 * i2;
    const double f = f0 + f1 + f2;
    const double sf = std::sqrt(f);
    // ψ = 1/√F − 1 rises through zero at the answer; ψ' = −F'/(2 F^{3/2}) with
    // F' = −2 Σ f_i/(a_i² + t).
    const double step = (1.0 - sf) * f / (f0 * i0 + f1 * i1 + f2 * i2);
    const double next = t - step;
    // Quadratic convergence, on a nearly affine ψ: after a step of 1e-7 of the
    // scale, t is off by about the square of it, near rounding.
    if (std::abs(step) <= 1e-7 * (t + amin)) {
      t = next;
      break;
    }
    if (sf > 1.0) lo = t;
    else hi = t;
    t = next > lo && next < hi ? next : 0.5 * (lo + hi);
  }
  root = t;
  return {a0 * x / (a0 + t), a1 * y / (a1 + t), a2 * z / (a2 + t)};
}
PROXIMA_HOT_INLINE inline Vec3 curved_nearest(const Ellipsoid& e, const Vec3& p) {
  double root = -1.0;
  return curved_nearest(e, p, root);
}

/// A curved solid's nearest-point map along one search; the ellipsoid's keeps
/// its last root as the next point's first guess.
template <class C>
struct Projector {
  const C& c;
  Vec3 operator()(const Vec3& p) { return curved_nearest(c, p); }
};
template <>
struct Projector<Ellipsoid> {
  const Ellipsoid& c;
  double root = -1.0;
  Vec3 operator()(const Vec3& p) { return curved_nearest(c, p, root); }
};

/// Nearest points between a curved solid C and the segment [p0, p1] (C's
/// frame): `on_curved` and `on_segment`. f(t) = distance from p0 + t (p1 − p0)
/// to C is convex, and where it is positive its derivative is e·(p − q)/|p − q|
/// (q the nearest point), non-decreasing in t. The root of e·(p − q) is
/// bracketed in [0, 1] and closed in by regula falsi with the Illinois
/// halving; the search stops when the bracket is below 1e-9 of the segment,
/// far inside what the caller's proof needs (the distance is quadratic in t at
/// the minimum). Where the segment meets C the answer is some point of the
/// meeting, at distance 0.
///
///
/// kTapered: the segment carries a radius growing from 0 at p0 to `growth` at
/// p1 (a tapered capsule), and the search minimises the distance less that
/// radius: still convex, its derivative's sign is that of
/// e·(p − q) − growth·|p − q|.
template <bool kTapered = false, class C>
PROXIMA_HOT_INLINE inline void curved_segment_nearest(const C& c, const Vec3& p0, const Vec3& p1, Vec3& on_curved,
                                                      Vec3& on_segment, double growth = 0.0) {
  Projector<C> nearest{c};
  const Vec3 e = p1 - p0;
  const auto slope = [&](const Vec3& p, const Vec3& q) PROXIMA_HOT_INLINE {
    if constexpr (kTapered) return e.dot(p - q) - growth * (p - q).norm();
    else return e.dot(p - q);
  };
  Vec3 p = p0;
  Vec3 q = nearest(p);
  double g0 = slope(p, q);
  if (g0 >= 0.0) {
    on_curved = q;
    on_segment = p;
    return;
  }
  p = p1;
  q = nearest(p);
  double g1 = slope(p, q);
  if (g1 <= 0.0) {
    on_curved = q;
    on_segment = p;
    return;
  }
  double t0 = 0.0, t1 = 1.0;
  int last = 0;  // which end moved last: −1 the low end, +1 the high end
  for (int k = 0; k < 60 && t1 - t0 > 1e-9; ++k) {
    const double t = std::clamp((t0 * g1 - t1 * g0) / (g1 - g0), t0, t1);
    p = p0 + t * e;
    q = nearest(p);
    const double g = slope(p, q);
    if (g == 0.0) break;
    if (g < 0.0) {
      t0 = t;
      g0 = g;
      if (last == -1) g1 *= 0.5;
      last = -1;
    } else {
      t1 = t;
      g1 = g;
      if (last == 1) g0 *= 0.5;
      last = 1;
    }
  }
  on_curved = q;
  on_segment = p;
}

/// The vertex side's distinct points in GJK's simplex (at most two kept),
/// compared with those of the iteration before: the finish runs when they
/// are the same one or two points twice running.
struct SettledFeature {
  Vec3 p[2];
  int n = -1;  ///< −1: nothing seen yet; 3: three or more distinct points

  /// Records the points `pts[0..count)`; true when they are the same one or
  /// two points as the last call's.
  bool settle(const Vec3* pts, int count) {
    Vec3 q[2];
    int m = 0;
    for (int i = 0; i < count; ++i) {
      bool seen = false;
      for (int j = 0; j < m; ++j) seen |= q[j] == pts[i];
      if (seen) continue;
      if (m == 2) {
        m = 3;
        break;
      }
      q[m++] = pts[i];
    }
    bool same = m <= 2 && m == n;
    for (int j = 0; same && j < m; ++j) same = q[j] == p[0] || (n == 2 && q[j] == p[1]);
    n = m;
    for (int j = 0; j < std::min(m, 2); ++j) p[j] = q[j];
    return same;
  }
};

}  // namespace proxima::detail
