// SPDX-License-Identifier: BSD-3-Clause
// Minkowski Portal Refinement (Snethen, "XenoCollide", Game Programming Gems 7)
// as the ray cast of Incremental penetration depth between convex geometries, Alg. 1:
// for overlapping A and B and a direction d, find where the ray from the origin
// along d leaves C = A ⊖ B = {a − b}.
//
// C is taken with the shapes' inflation: a shape is its core ⊕ ball(r) with
// r = core_inflation() (sphere/capsule radius plus margin), so
//   s_C(u) = core_A(u) − core_B(−u) + (r_A + r_B) u      (u unit).
// Like gjk(), everything is worked in A's local frame (x_A = R x_B + t), so a
// support call costs one rotation each way; no heap allocation, no dispatch.
//
// Names used below: ρ(d) is the exit distance of the ray (the radial function
// of C about the origin), h(u) = max_{x∈C} u·x the support value (u unit).
// Two facts carry every bound in this file:
//   * a portal triangle has its vertices in C, so if the ray crosses it at
//     distance λ_p then λ_p ≤ ρ(d)                              (lower bound);
//   * for every support plane (u, h(u)) with u·d > 0 the exit point ρ d ∈ C
//     satisfies ρ (u·d) ≤ h(u), so ρ(d) ≤ h(u)/(u·d)             (upper bound).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <proxima/core/error.hpp>
#include <proxima/core/transform.hpp>
#include <proxima/narrow/gjk.hpp>

namespace proxima {

struct MprOptions {
  /// The ray cast stops when the portal is within eps of the supporting
  /// plane at its normal (the paper's test) or the bounds on ρ(d) are within
  /// eps, eps = tol_abs + tol_rel · L, L the largest support point of C seen.
  double tol_abs = 0.0;
  double tol_rel = 1e-10;
  /// Cap on support calls (portal discovery plus refinement).
  int max_iterations = 128;
};

/// Where the ray from the origin along `direction` leaves C = A ⊖ B (with
/// inflation), world frame.
struct MprRayResult {
  /// ok: `point` lies in C and within eps of its boundary, and `normal` is
  /// the normal of a supporting plane of C within eps of `point` (or the
  /// bounds on the exit distance are within eps). not_converged: iteration
  /// cap, a degenerate portal, or the origin within eps of ∂C with a wide
  /// bracket; the bounds are still valid. invalid_input: non-finite pose or
  /// direction, a zero direction, or the origin outside C (`separated`).
  Status status = Status::ok;
  double distance = 0.0;     ///< = lower_bound: the ray's crossing of the last portal
  double lower_bound = 0.0;  ///< proven: exit distance ≥ this
  double upper_bound = std::numeric_limits<double>::infinity();  ///< proven: exit distance ≤ this
  Vec3 point = Vec3::Zero();        ///< distance · unit direction, a point of C = A ⊖ B
  Vec3 normal = Vec3::UnitX();      ///< unit outward normal of the last supporting plane of C
  double support_value = 0.0;       ///< h_C(normal)
  /// When `has_witnesses` (status ok from a converged portal or a support
  /// point on the ray): a point of A and a point of B, each within eps of its
  /// surface, whose difference is the portal's crossing (within rounding of
  /// `point`): the exit point split between the shapes.
  bool has_witnesses = false;
  Vec3 point_a = Vec3::Zero(), point_b = Vec3::Zero();
  int iterations = 0;               ///< support calls
  bool separated = false;           ///< a support value < −eps: the origin is outside C
};

namespace detail {

/// Support of C = A ⊖ B with inflation, in A's frame. Remembers the parts
/// (a on A, b on B, both with inflation) of the last call and the largest
/// |s_C| seen (the problem's length scale).
template <class A, class B>
struct DifferenceSupport {
  MinkowskiDifference<A, B> md;  ///< the cores' difference in A's frame (R, t)
  double ra, rb;
  Vec3 a = Vec3::Zero(), b = Vec3::Zero();
  double scale2 = 0.0;

  DifferenceSupport(const A& sha, const Transform& pose_a, const B& shb, const Transform& pose_b,
                    int hint_a, int hint_b)
      : md(sha, pose_a, shb, pose_b, hint_a, hint_b),
        ra(sha.core_inflation()),
        rb(shb.core_inflation()) {}

  double scale() const { return std::sqrt(scale2); }

  /// s_C(u) for unit u: the cores' support points pushed out by the radii.
  PROXIMA_HOT_INLINE Vec3 operator()(const Vec3& u) {
    Vec3 pa, pb;
    md.support(u, pa, pb);
    a = pa + ra * u;
    b = pb - rb * u;
    const Vec3 w = a - b;
    scale2 = std::max(scale2, w.squaredNorm());
    return w;
  }
};

/// Why the inner MPR run stopped.
enum class MprStop : unsigned char {
  converged,      ///< portal within eps of the support plane, or bounds within eps
  on_ray,         ///< the support point along d lies on the ray: exact exit point
  near_boundary,  ///< support values ≤ eps on both sides: origin within eps of ∂C
  outside,        ///< a support value < −eps: the origin is outside C
  visitor,        ///< the visitor asked to stop
  degenerate,     ///< the portal collapsed (zero area or not facing the ray)
  iteration_cap,
};

struct MprRaw {
  MprStop stop = MprStop::iteration_cap;
  double lower = 0.0;  ///< ρ(d) ≥ lower
  double upper = std::numeric_limits<double>::infinity();  ///< ρ(d) ≤ upper
  Vec3 normal = Vec3::UnitX();  ///< unit normal of the last support plane
  double support = std::numeric_limits<double>::infinity();  ///< h(normal)
  int calls = 0;
  /// converged or on_ray with a portal: the crossing point lower·d split into
  /// a on A and b on B (a − b = lower·d), the portal's barycentric
  /// combination of its vertices' parts. Both lie in their shapes and, the
  /// crossing being within eps of a supporting plane of C, within eps of
  /// their supporting planes, so within eps of their surfaces.
  bool has_witnesses = false;
  Vec3 witness_a = Vec3::Zero(), witness_b = Vec3::Zero();
};

/// A visitor that never stops the ray cast early.
struct MprNoVisitor {
  bool support(const Vec3&, double, double) { return false; }
  bool lower(double) { return false; }
};

/// Normal of the plane through the origin, p and q (p × q), oriented to the
/// side of d. When p and q are collinear with the origin, the component of d
/// orthogonal to their common line (any plane through that line is then a
/// valid separating plane of the two half cones).
inline Vec3 pair_normal(const Vec3& p, const Vec3& q, const Vec3& d) {
  Vec3 m = p.cross(q);
  if (m.squaredNorm() <= 1e-24 * p.squaredNorm() * q.squaredNorm()) {
    const Vec3 l = (p.squaredNorm() >= q.squaredNorm() ? p : q).normalized();
    m = d - d.dot(l) * l;
  }
  return m.dot(d) < 0.0 ? Vec3(-m) : m;
}

/// The MPR ray cast of Alg. 1 along unit d (A's frame). After every support
/// call the visitor sees (u, h(u), current lower bound) and after every
/// portal update the new lower bound; either may return true to stop (the
/// hooks that Alg. 5's shortcut needs). eps = tol_abs + tol_rel · scale.
template <class Support, class Visitor>
MprRaw mpr_ray_core(Support& sup, const Vec3& d, double tol_abs, double tol_rel, int max_calls,
                    Visitor& vis) {
  MprRaw out;
  out.normal = d;
  double L = 0.0;
  auto eps = [&] { return tol_abs + tol_rel * sup.scale(); };
  // The support plane (u, h) behind the upper bound: it holds the point
  // upper·d, so when the bounds meet it is the plane at the exit point. Any
  // call can give it, portal discovery's included, so a cast that converges
  // on the bounds before its first refinement call still reports a real
  // plane (it used to report d with h = +inf: a fuzz finding).
  Vec3 upper_n = d;
  double upper_h = std::numeric_limits<double>::infinity();
  // One support call: updates the upper bound ρ(d) ≤ h/(u·d) and asks the visitor.
  auto call = [&](const Vec3& u, Vec3& w, double& h) PROXIMA_HOT_INLINE {
    w = sup(u);
    h = u.dot(w);
    ++out.calls;
    const double ud = u.dot(d);
    if (ud > 1e-12 && h / ud < out.upper) {
      out.upper = h / ud;
      upper_n = u;
      upper_h = h;
    }
    return vis.support(u, h, L);
  };
  auto finish = [&](MprStop s, const Vec3& n, double h) {
    out.stop = s;
    // A stop before any refinement call (cap, degenerate portal) has no
    // plane of its own yet: the upper bound's is still a real one.
    const bool own = std::isfinite(h);
    out.normal = own ? n : upper_n;
    out.support = own ? h : upper_h;
    out.lower = L;
    return out;
  };

  // Portal discovery (XenoCollide's find_portal with the origin as interior
  // point): v1 = s(d), then a support point on each side until the cone of
  // the triangle (v1, v2, v3) seen from the origin contains d.
  Vec3 w1, w2, w3;
  Vec3 a1, a2, a3;  // A's parts of w1, w2, w3 (B's: a_i − w_i)
  double h1, h2, h3;
  // The crossing L·d of the portal (w1, w2, w3) with unit normal pn, split
  // into its parts on A and B by barycentric coordinates.
  auto split_crossing = [&](const Vec3& pn, double crossing) {
    const Vec3 p = crossing * d;
    const double area = (w2 - w1).cross(w3 - w1).dot(pn);
    double l1 = std::max(0.0, (w2 - p).cross(w3 - p).dot(pn) / area);
    double l2 = std::max(0.0, (w3 - p).cross(w1 - p).dot(pn) / area);
    double l3 = std::max(0.0, (w1 - p).cross(w2 - p).dot(pn) / area);
    const double sum = l1 + l2 + l3;
    l1 /= sum, l2 /= sum, l3 /= sum;
    out.witness_a = l1 * a1 + l2 * a2 + l3 * a3;
    out.witness_b = out.witness_a - (l1 * w1 + l2 * w2 + l3 * w3);
    out.has_witnesses = true;
  };
  if (call(d, w1, h1)) return finish(MprStop::visitor, d, h1);
  a1 = sup.a;
  if (h1 < -eps()) return finish(MprStop::outside, d, h1);
  if (h1 <= eps()) return finish(MprStop::near_boundary, d, h1);
  Vec3 m = w1.cross(d);
  if (m.squaredNorm() <= 1e-26 * sup.scale2) {
    // s(d) on the ray: it is the exit point, and d the normal of a support plane there.
    L = h1;
    out.upper = h1;
    out.witness_a = a1;
    out.witness_b = a1 - w1;
    out.has_witnesses = true;
    return finish(MprStop::on_ray, d, h1);
  }
  Vec3 n = m.normalized();
  if (call(n, w2, h2)) return finish(MprStop::visitor, n, h2);
  a2 = sup.a;
  if (h2 < -eps()) return finish(MprStop::outside, n, h2);
  if (h2 <= eps()) {
    // The origin is (nearly) on the support plane with normal n ⟂ d; the
    // other side gives a usable second vertex.
    n = -n;
    if (call(n, w2, h2)) return finish(MprStop::visitor, n, h2);
    a2 = sup.a;
    if (h2 < -eps()) return finish(MprStop::outside, n, h2);
    if (h2 <= eps()) return finish(MprStop::near_boundary, n, h2);
  }
  // Orient (w1, w2) so that d lies on the positive side of plane (0, w1, w2).
  m = w1.cross(w2);
  if (m.dot(d) < 0.0) {
    std::swap(w1, w2);
    std::swap(a1, a2);
  }
  m = pair_normal(w1, w2, d);
  for (;;) {
    if (out.calls >= max_calls) return finish(MprStop::iteration_cap, out.normal, out.support);
    if (!(m.squaredNorm() > 1e-60 * sup.scale2)) return finish(MprStop::degenerate, out.normal, out.support);
    n = m.normalized();
    if (call(n, w3, h3)) return finish(MprStop::visitor, n, h3);
    a3 = sup.a;
    if (h3 < -eps()) return finish(MprStop::outside, n, h3);
    if (h3 <= eps()) return finish(MprStop::near_boundary, n, h3);
    // det(w1, w2, w3) = m·w3 > 0. d is in the cone iff it is on the inner
    // side of the planes (0, w2, w3) and (0, w3, w1) as well.
    if (w3.cross(w1).dot(d) < 0.0) {
      w2 = w3;  // d beyond plane (0, w3, w1): keep (w1, w3)
      a2 = a3;
      m = pair_normal(w1, w2, d);
      continue;
    }
    if (w2.cross(w3).dot(d) < 0.0) {
      w1 = w3;  // d beyond plane (0, w2, w3): keep (w3, w2)
      a1 = a3;
      m = pair_normal(w1, w2, d);
      continue;
    }
    break;
  }

  // Portal refinement (Alg. 1's loop).
  for (;;) {
    Vec3 pn = (w2 - w1).cross(w3 - w1);
    const double len = pn.norm();
    if (!(len > 1e-30 * sup.scale2)) return finish(MprStop::degenerate, out.normal, out.support);
    pn /= len;
    const double nd = pn.dot(d), c = pn.dot(w1);
    if (!(nd > 1e-15) || !(c >= 0.0)) return finish(MprStop::degenerate, out.normal, out.support);
    // The ray crosses the portal at c / nd: a lower bound on ρ(d).
    L = std::max(L, c / nd);
    out.lower = L;
    if (vis.lower(L)) return finish(MprStop::visitor, out.normal, out.support);
    if (out.upper - L <= eps()) {
      split_crossing(pn, c / nd);
      return finish(MprStop::converged, upper_n, upper_h);
    }
    if (out.calls >= max_calls) return finish(MprStop::iteration_cap, out.normal, out.support);
    Vec3 w4;
    double h4;
    if (call(pn, w4, h4)) return finish(MprStop::visitor, pn, h4);
    const Vec3 a4 = sup.a;
    if (h4 < -eps()) return finish(MprStop::outside, pn, h4);
    out.normal = pn;
    out.support = h4;
    // Paper's test: the support plane is within eps of the portal.
    if (h4 - c <= eps() || out.upper - L <= eps()) {
      split_crossing(pn, c / nd);
      return h4 - c <= eps() ? finish(MprStop::converged, pn, h4) : finish(MprStop::converged, upper_n, upper_h);
    }
    // Keep the one of the three triangles (w4 with an edge of the portal)
    // that the ray still crosses. With t = d × w4 and t_i = w_i·t, the triangle
    // replacing w1 holds d iff t2 ≥ 0 ≥ t3, replacing w2 iff t3 ≥ 0 ≥ t1,
    // replacing w3 iff t1 ≥ 0 ≥ t2.
    const Vec3 tt = d.cross(w4);
    const double t1 = w1.dot(tt), t2 = w2.dot(tt), t3 = w3.dot(tt);
    if (t1 >= 0.0) {
      if (t2 <= 0.0) w3 = w4, a3 = a4; else w1 = w4, a1 = a4;
    } else {
      if (t3 >= 0.0) w2 = w4, a2 = a4; else w1 = w4, a1 = a4;
    }
  }
}

}  // namespace detail

/// MPR ray cast (paper Alg. 1): where the ray from the origin along
/// `direction` (world frame, any length > 0) leaves C = A ⊖ B. The pair must
/// overlap (origin inside C); a pair found separated reports invalid_input
/// with `separated` set, but a separated pair is not always found so: when a
/// supporting plane of C passes within eps of the origin the cast stops with
/// bounds near 0 and no witnesses. Check overlap first (signed_distance runs
/// GJK before it). Never throws, never NaN.
template <class A, class B>
MprRayResult mpr_ray(const A& a, const Transform& pose_a, const B& b, const Transform& pose_b,
                     const Vec3& direction, const MprOptions& opt = {}) {
  MprRayResult out;
  const double dn = direction.norm();
  if (!both_valid(pose_a, pose_b) || !std::isfinite(dn) || !(dn > 0.0)) {
    out.status = Status::invalid_input;
    return out;
  }
  detail::DifferenceSupport<A, B> sup(a, pose_a, b, pose_b, -1, -1);
  const Vec3 d = pose_a.R.transpose() * (direction / dn);
  detail::MprNoVisitor vis;
  const detail::MprRaw raw = detail::mpr_ray_core(sup, d, opt.tol_abs, opt.tol_rel, opt.max_iterations, vis);
  const double eps = opt.tol_abs + opt.tol_rel * sup.scale();
  out.iterations = raw.calls;
  out.lower_bound = std::max(0.0, raw.lower);
  out.upper_bound = std::max(out.lower_bound, raw.upper);
  out.distance = out.lower_bound;
  out.point = pose_a.rotate(out.distance * d);
  out.normal = pose_a.rotate(raw.normal);
  out.support_value = raw.support;
  if (raw.has_witnesses) {
    out.has_witnesses = true;
    out.point_a = pose_a.apply(raw.witness_a);
    out.point_b = pose_a.apply(raw.witness_b);
  }
  switch (raw.stop) {
    case detail::MprStop::converged:
    case detail::MprStop::on_ray:
      out.status = Status::ok;
      break;
    case detail::MprStop::outside:
      out.status = Status::invalid_input;
      out.separated = true;
      out.lower_bound = out.upper_bound = out.distance = 0.0;
      out.point = Vec3::Zero();
      out.has_witnesses = false;
      break;
    default:
      out.status = out.upper_bound - out.lower_bound <= eps ? Status::ok : Status::not_converged;
      break;
  }
  return out;
}

}  // namespace proxima
