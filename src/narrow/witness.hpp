// SPDX-License-Identifier: BSD-3-Clause
// Witness points of a depth answer on both shapes. A depth method knows the
// normal and the depth (the point p = distance · normal of C = A ⊖ B), but
// the point it names on one shape, dropped along the normal onto the other
// shape's face plane, need not lie on that face: a corner of a large box
// above a small box's face lands beside it. Here both support features are
// intersected on the contact plane instead (the construction of the contact
// manifold), so that point_a lies on A, point_b on B and point_a − point_b = p
// exactly, for every method and pair.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <type_traits>

#include <proxima/query.hpp>

#include "contact_frame.hpp"
#include "plane_geometry.hpp"
#include "support_feature.hpp"

namespace proxima::narrow::detail {

/// How far below a body's extreme plane a feature vertex may lie, relative
/// to the larger core: a depth method's normal is accurate to about 1e-10 of
/// the size, and a face must still count as the face.
inline constexpr double kWitnessFeatureTolerance = 1e-8;
/// Rim points of a cylinder's or a cone's flat cap: the inscribed polygon, so
/// a point inside it lies inside the true disc.
inline constexpr int kWitnessDiscPoints = 12;

template <class S>
double core_extent_of(const S& s) {
  const Aabb box = s.local_aabb();
  return (box.max - box.min).maxCoeff();
}

// The closest point to x of a counter-clockwise hull (a point, a segment or a
// polygon) in the plane, x assumed outside it.
template <std::size_t N>
Vec2 closest_on_hull(const HullOf<N>& h, const Vec2& x) {
  Vec2 best = h[0].uv;
  double best_d2 = (x - best).squaredNorm();
  // A point has no edge, a segment one, a polygon one per vertex.
  const std::size_t edges = h.size() < 2 ? 0 : (h.size() == 2 ? 1 : h.size());
  for (std::size_t i = 0; i < edges; ++i) {
    const Vec2& p = h[i].uv;
    const Vec2& q = h[i + 1 == h.size() ? 0 : i + 1].uv;
    const Vec2 e = q - p;
    const double len2 = e.squaredNorm();
    const double t = len2 > 0.0 ? std::clamp((x - p).dot(e) / len2, 0.0, 1.0) : 0.0;
    const Vec2 y = p + t * e;
    const double d2 = (x - y).squaredNorm();
    if (d2 < best_d2) {
      best_d2 = d2;
      best = y;
    }
  }
  return best;
}

// Closest points of two hulls that do not meet (within rounding): each
// vertex of one against the other's edges, both ways. Only the rounding
// fallback takes this path, so its quadratic cost does not matter.
template <std::size_t N>
void closest_hull_points(const HullOf<N>& p, const HullOf<N>& q, Vec2& on_p, Vec2& on_q) {
  double best = std::numeric_limits<double>::infinity();
  for (const PlanePoint& v : p) {
    const Vec2 y = closest_on_hull(q, v.uv);
    const double d2 = (y - v.uv).squaredNorm();
    if (d2 < best) {
      best = d2;
      on_p = v.uv;
      on_q = y;
    }
  }
  for (const PlanePoint& v : q) {
    const Vec2 y = closest_on_hull(p, v.uv);
    const double d2 = (y - v.uv).squaredNorm();
    if (d2 < best) {
      best = d2;
      on_p = y;
      on_q = v.uv;
    }
  }
}

// A flat cap of a cylinder or a cone is the support feature's polygon of
// kWitnessDiscPoints rim points, inscribed in the true disc: a point of the
// other feature between the polygon and the rim would miss it. The cap is
// clipped as the circumscribed polygon instead, and the witness drawn back
// into the true disc afterwards (`clamp`).
struct Disc {
  bool cap = false;
  Vec2 centre = Vec2::Zero();
  double radius = 0.0;
  void clamp(Vec2& uv) const {
    if (!cap) return;
    const Vec2 r = uv - centre;
    const double n = r.norm();
    if (n > radius) uv = centre + (radius / n) * r;
  }
};

template <class S>
Disc widen_cap(const S& s, const Transform& t, const PlaneFrame& f, FeaturePoints& pts) {
  Disc d;
  if constexpr (std::is_same_v<S, Cylinder> || std::is_same_v<S, Cone>) {
    if (pts.size() < 3) return d;
    const double widen = 1.0 / std::cos(std::numbers::pi / kWitnessDiscPoints);
    for (Vec3& p : pts) p.head<2>() *= widen;
    d.cap = true;
    d.centre = f.project(t.apply(Vec3(0.0, 0.0, pts[0].z())), 0.0).uv;
    d.radius = s.radius();
  }
  return d;
}

/// Points a on A and b on B (world frame, inflation included) with
/// a − b = p, where p is a point of the boundary of C = A ⊖ B and m the unit
/// outward normal of C there (world). For a depth d < 0 along a normal n
/// (B→A): p = d·n and m = −n; touching: p = 0. A's support feature along m
/// and B's along −m, shifted by p, are projected onto the plane ⟂ m; the
/// witness is the centroid of the vertices of their intersection (a face on
/// a face: the middle of the overlap patch; a vertex or an edge: on it).
/// When rounding leaves the features apart, their closest points stand in,
/// half the gap on each side. Allocation-free.
template <class A, class B>
void place_witnesses(const A& a, const Transform& ta, const B& b, const Transform& tb, const Vec3& m,
                     const Vec3& p, Vec3& point_a, Vec3& point_b) {
  constexpr bool kLarge = std::is_same_v<A, ConvexPolytope> || std::is_same_v<B, ConvexPolytope> ||
                          std::is_same_v<A, Cylinder> || std::is_same_v<B, Cylinder> ||
                          std::is_same_v<A, Cone> || std::is_same_v<B, Cone>;
  constexpr std::size_t N = kLarge ? kMaxHull : kBoxHull;
  const double size = std::max(core_extent_of(a), core_extent_of(b));
  const FeatureParams params{kWitnessFeatureTolerance * size, kWitnessDiscPoints};
  const double eps = std::max(params.tol, 1e-12 * size);
  FeaturePoints fa, fb;
  support_feature(a, ta.rotate_inverse(m), params, fa);
  support_feature(b, tb.rotate_inverse(-m), params, fb);
  const PlaneFrame f(m, ta.apply(fa[0]));
  const Disc cap_a = widen_cap(a, ta, f, fa);
  Transform tb_shifted = tb;
  tb_shifted.p += p;
  const Disc cap_b = widen_cap(b, tb_shifted, f, fb);
  PlanePoint pts[2 * N];
  const std::size_t na = std::min(fa.size(), 2 * N), nb = std::min(fb.size(), 2 * N);
  for (std::size_t i = 0; i < na; ++i) pts[i] = f.project(ta.apply(fa[i]), a.core_inflation());
  HullOf<N> ha;
  convex_hull(pts, na, eps, ha);
  for (std::size_t i = 0; i < nb; ++i) pts[i] = f.project(tb.apply(fb[i]) + p, -b.core_inflation());
  HullOf<N> hb;
  convex_hull(pts, nb, eps, hb);
  Vec2 uv_a = ha[0].uv, uv_b = hb[0].uv;
  ClipOf<N> clip;
  intersect(ha, hb, eps, clip);
  if (!clip.empty()) {
    Vec2 sum = Vec2::Zero();
    for (const Vec2& v : clip) sum += v;
    uv_a = uv_b = sum / static_cast<double>(clip.size());
  } else {
    closest_hull_points(ha, hb, uv_a, uv_b);
  }
  cap_a.clamp(uv_a);
  cap_b.clamp(uv_b);
  const HeightModel za(ha), zb(hb);
  // x_a on A's surface; x_b on B's surface shifted by p: they coincide for an
  // exact p, and the midpoint splits any rounding between the two shapes.
  const Vec3 xa = f.lift(uv_a, za.at(uv_a)), xb = f.lift(uv_b, zb.at(uv_b));
  point_a = 0.5 * (xa + xb);
  point_b = point_a - p;
}

/// Whether the world point x lies on the posed shape's surface within tol,
/// for the shapes a SAT answers (box, polytope without margin, capsule,
/// sphere); false for the others, which have no test this cheap.
template <class S>
bool on_surface(const S& s, const Transform& t, const Vec3& x, double tol) {
  const Vec3 q = t.apply_inverse(x);
  double sd = std::numeric_limits<double>::infinity();
  if constexpr (std::is_same_v<S, Box>) {
    const Vec3 o = q.cwiseAbs() - s.half_extents();
    sd = o.cwiseMax(0.0).norm() + std::min(o.maxCoeff(), 0.0) - s.margin();
  } else if constexpr (std::is_same_v<S, Capsule>) {
    const double h = s.half_length();
    sd = (q - Vec3(0.0, 0.0, std::clamp(q.z(), -h, h))).norm() - s.core_inflation();
  } else if constexpr (std::is_same_v<S, Sphere>) {
    sd = q.norm() - s.core_inflation();
  } else if constexpr (std::is_same_v<S, ConvexPolytope>) {
    // The largest face-plane value is the signed distance on and inside the
    // hull; a margin rounds the edges, where it is not.
    if (s.margin() > 0.0) return false;
    // A value above tol is outside, the answer whatever the other faces
    // say. (A scan of every face was most of a polytope–capsule depth
    // query on a 2000-vertex hull.)
    sd = s.largest_plane_value(q, tol);
  }
  return std::abs(sd) <= tol;
}

/// Whether the world point x lies on a polytope's support feature along the
/// world direction m, within tol of its surface: a sufficient test, a few
/// support and neighbour steps where on_surface searches every face plane
/// (most of a certified warm-started depth query on a 200-vertex hull). The
/// feature's vertices lie within tol/4 of the support plane, x within tol/4
/// of that plane and within tol/4 of their hull seen along m, so x is within
/// tol of a point of the hull (inside P) and not deeper than tol/4 below
/// the plane. False with a margin (a rounded surface) and whenever x is not
/// shown on the feature; the caller's full test decides then.
inline bool on_support_feature(const ConvexPolytope& s, const Transform& t, const Vec3& x, const Vec3& m,
                               double tol) {
  if (s.margin() > 0.0) return false;
  const double quarter = 0.25 * tol;
  const Vec3 d = t.rotate_inverse(m);
  const Vec3 q = t.apply_inverse(x);
  FeaturePoints f;
  support_feature(s, d, FeatureParams{quarter, kWitnessDiscPoints}, f);
  if (!(std::abs(d.dot(q - f[0])) <= quarter)) return false;
  const PlaneFrame frame(d, f[0]);
  const Vec2 uv = frame.project(q, 0.0).uv;
  // Inside a counter-clockwise polygon: left of every edge, by at most tol/4 outside.
  const auto inside = [&](const auto& corner, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      const Vec2 e = corner(i + 1 == n ? 0 : i + 1) - corner(i);
      const Vec2 r = uv - corner(i);
      if (!(e.x() * r.y() - e.y() * r.x() >= -quarter * e.norm())) return false;
    }
    return true;
  };
  if (f.size() == 3) {
    // A triangle (the usual face of a hull of scattered points): no hull to build.
    Vec2 c[3];
    for (int i = 0; i < 3; ++i) c[i] = frame.project(f[static_cast<std::size_t>(i)], 0.0).uv;
    const Vec2 e1 = c[1] - c[0], e2 = c[2] - c[0];
    const double area2 = e1.x() * e2.y() - e1.y() * e2.x();
    if (area2 < 0.0) std::swap(c[1], c[2]);
    if (area2 != 0.0) return inside([&](std::size_t i) { return c[i]; }, 3);
  }
  PlanePoint pts[2 * kMaxHull];
  const std::size_t n = std::min(f.size(), 2 * kMaxHull);
  for (std::size_t i = 0; i < n; ++i) pts[i] = frame.project(f[i], 0.0);
  Hull hull;
  convex_hull(pts, n, 0.0, hull);
  if (hull.size() >= 3) return inside([&](std::size_t i) { return hull[i].uv; }, hull.size());
  return (closest_on_hull(hull, uv) - uv).norm() <= quarter;
}

/// The witnesses of a depth answer r (distance ≤ 0 along r.normal), in place.
template <class A, class B>
void place_depth_witnesses(const A& a, const Transform& ta, const B& b, const Transform& tb, DistanceResult& r) {
  place_witnesses(a, ta, b, tb, Vec3(-r.normal), Vec3(r.distance * r.normal), r.point_a, r.point_b);
}

}  // namespace proxima::narrow::detail

namespace proxima::narrow::detail {

/// As place_depth_witnesses, unless the answer's own points already lie on
/// both surfaces (they satisfy point_a − point_b = distance · normal by
/// construction): the SAT's usual case, a vertex of one body on the other's
/// face, then costs a few nanoseconds instead of the placement's hundreds.
/// The SAT's point is then the deepest vertex, inside the overlap region.
/// `polytope_known`: the polytope's witness (A's or B's, whichever is the
/// polytope) is known to lie on its surface (sat_polytope_capsule_depth
/// says so), and only the other one is checked.
template <class A, class B>
void ensure_depth_witnesses(const A& a, const Transform& ta, const B& b, const Transform& tb, DistanceResult& r,
                            bool polytope_known = false) {
  const double tol = 1e-10 * std::max(core_extent_of(a), core_extent_of(b));
  const bool known_a = polytope_known && std::is_same_v<A, ConvexPolytope>;
  const bool known_b = polytope_known && std::is_same_v<B, ConvexPolytope>;
  // On a polytope, the answer's witness is expected on its support feature
  // along the normal (A's along −normal, B's along +normal): that test first.
  const auto on = [tol](const auto& s, const Transform& t, const Vec3& x, const Vec3& m) {
    if constexpr (std::is_same_v<std::decay_t<decltype(s)>, ConvexPolytope>) {
      if (on_support_feature(s, t, x, m, tol)) return true;
    }
    return on_surface(s, t, x, tol);
  };
  if ((known_a || on(a, ta, r.point_a, Vec3(-r.normal))) && (known_b || on(b, tb, r.point_b, r.normal))) return;
  place_depth_witnesses(a, ta, b, tb, r);
}

}  // namespace proxima::narrow::detail
