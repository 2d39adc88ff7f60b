// SPDX-License-Identifier: BSD-3-Clause
// The GJK cell of the dispatch table: GJK on the cores, then the requested
// penetration method when the cores overlap. Instantiated once per pair of
// bounded shape types in gjk_pairs_*.cpp (one file per first shape), so that
// no translation unit has to build all 49 pairs at once.
#pragma once

#include <limits>
#include <type_traits>
#include <utility>

#include <proxima/narrow/dispatch.hpp>
#include <proxima/narrow/epa.hpp>
#include <proxima/narrow/incremental_depth.hpp>
#include <proxima/narrow/mpr.hpp>
#include <proxima/narrow/sat.hpp>

#include "witness.hpp"

namespace proxima::narrow::detail {

template <class S>
inline constexpr bool kPolyhedral = std::is_same_v<S, Box> || std::is_same_v<S, ConvexPolytope>;

// Whether a depth answer carries a depth and a normal (a bound, at worst).
inline bool has_depth(Status s) {
  return s == Status::ok || s == Status::not_converged || s == Status::upper_bound;
}

// A depth answer with its witnesses on both shapes (EPA's need nothing:
// they are combinations of support points on the two support features).
// `polytope_known`: the SAT put the polytope's witness on it by
// construction, and only the other one is checked.
template <class A, class B>
DistanceResult witnessed(const A& a, const Transform& ta, const B& b, const Transform& tb, DistanceResult r,
                         bool polytope_known = false) {
  if (has_depth(r.status)) ensure_depth_witnesses(a, ta, b, tb, r, polytope_known);
  return r;
}

// Exact SAT for a pair of boxes and polytopes (Contact data for convex polyhedra, Alg. 1–2).
template <class A, class B>
DistanceResult sat_pair(const A& a, const Transform& ta, const B& b, const Transform& tb) {
  if constexpr (std::is_same_v<A, Box> && std::is_same_v<B, Box>) return sat_box_box(a, ta, b, tb);
  else if constexpr (std::is_same_v<A, Box>) return sat_box_polytope(a, ta, b, tb);
  else if constexpr (std::is_same_v<B, Box>) return sat_polytope_box(a, ta, b, tb);
  else return sat_polytope_polytope(a, ta, b, tb);
}

// A polytope and a box, in either order.
template <class A, class B>
inline constexpr bool kPolytopeBox = (std::is_same_v<A, ConvexPolytope> && std::is_same_v<B, Box>) ||
                                     (std::is_same_v<A, Box> && std::is_same_v<B, ConvexPolytope>);

// A polytope and a shape whose core is a segment (a capsule) or a point (a
// sphere), in either order: the SAT on P ⊖ S answers their depth.
template <class S>
inline constexpr bool kSegmentCore = std::is_same_v<S, Capsule> || std::is_same_v<S, Sphere>;
// Pairs whose depth is a SAT on P ⊖ S, P a polytope or box and S a
// segment (capsule) or point (sphere, against polytopes only: sphere–box is
// a closed form).
template <class A, class B>
inline constexpr bool kPolytopeCapsule = (std::is_same_v<A, ConvexPolytope> && kSegmentCore<B>) ||
                                         (kSegmentCore<A> && std::is_same_v<B, ConvexPolytope>) ||
                                         (std::is_same_v<A, Box> && std::is_same_v<B, Capsule>) ||
                                         (std::is_same_v<A, Capsule> && std::is_same_v<B, Box>);

// Exact SAT for a polytope (or box) and a capsule or sphere, in either
// order; `sat(polytope, its pose, other, its pose)` is one of sat.hpp's
// polytope–segment forms.
template <class A, class B, class Sat>
DistanceResult sat_segment_pair(const A& a, const Transform& ta, const B& b, const Transform& tb, Sat&& sat) {
  if constexpr (kPolyhedral<A>) {
    return sat(a, ta, b, tb);
  } else {
    DistanceResult r = sat(b, tb, a, ta);
    r.normal = -r.normal;
    std::swap(r.point_a, r.point_b);
    return r;
  }
}

// Polytope–capsule depth for the dispatcher, in either order, warm-started
// from a B→A normal guess (zero: the centre line); see sat.hpp.
template <class A, class B>
DistanceResult polytope_capsule_depth(const A& a, const Transform& ta, const B& b, const Transform& tb,
                                      const Vec3& guess, int* guess_vertex = nullptr,
                                      bool* witness_on_polytope = nullptr) {
  const Vec3 g = kPolyhedral<A> ? guess : Vec3(-guess);  // B→A in the polytope-first order
  return sat_segment_pair(a, ta, b, tb, [&](const auto& p, const Transform& tp, const auto& c,
                                            const Transform& tc) {
    // A box's twelve axes are cheaper to test than a guess is to use.
    if constexpr (std::is_same_v<std::decay_t<decltype(p)>, Box>) {
      return sat_box_segment_depth(p, tp, SegmentCore::of(c), tc);
    } else {
      return sat_polytope_capsule_depth(p, tp, SegmentCore::of(c), tc, g, guess_vertex, witness_on_polytope);
    }
  });
}

// EPA on the cores (GJK's final simplex), plus the radii around them.
template <class A, class B>
DistanceResult epa_depth(const A& a, const Transform& ta, const B& b, const Transform& tb,
                         const proxima::detail::Simplex& simplex) {
  const double ra = a.core_inflation(), rb = b.core_inflation();
  const EpaResult e = epa(a, ta, b, tb, simplex);
  DistanceResult r;
  r.status = e.status;
  r.iterations = e.iterations;
  r.normal = e.normal;
  r.distance = -(e.depth + ra + rb);
  r.point_a = e.point_a - ra * e.normal;
  r.point_b = e.point_b + rb * e.normal;
  return r;
}

// Method::incremental on overlapping cores. The SQP (Incremental penetration depth between convex geometries) certifies
// only through the inflation model's global bound, which for overlapping
// cores of a polytope pair (or a polytope and a capsule) cannot meet its
// answer: a facet's stationary point and the minimum look alike (so:
// detect a non-optimal stop and fall back to an exact method). There an
// exact method answers at once: the SAT for two boxes, EPA (the SAT behind
// it) for other polyhedral pairs, and for a polytope and a capsule the SAT
// whose cone walk the warm start prunes as an upper bound. Elsewhere the
// SQP runs, and an answer it cannot certify falls back to EPA.
template <class A, class B>
DistanceResult incremental_depth(const A& a, const Transform& ta, const B& b, const Transform& tb,
                                 const proxima::detail::Simplex& simplex, const DistanceRequest& req) {
  const Vec3 guess = req.cache ? req.cache->direction : Vec3(Vec3::Zero());
  DistanceResult r;
  r.status = Status::not_implemented;
  if constexpr (std::is_same_v<A, Box> && std::is_same_v<B, Box>) {
    r = sat_box_box(a, ta, b, tb);
  } else if constexpr (kPolyhedral<A> && kPolyhedral<B>) {
    // EPA is as exact here and 6–12× faster than the SAT on 200-vertex
    // hulls against a box or each other; the SAT answers when it stalls.
    // EPA places its witnesses on both shapes (the automatic path returns
    // them as they are); the SAT's are placed below.
    r = epa_depth(a, ta, b, tb, simplex);
    if (r.status == Status::ok) return r;
    r = sat_pair(a, ta, b, tb);
  }
  if constexpr (kPolytopeCapsule<A, B>) r = polytope_capsule_depth(a, ta, b, tb, guess);
  if (r.status == Status::ok) return witnessed(a, ta, b, tb, r);
  const DistanceResult inc = incremental_penetration(a, ta, b, tb, guess);
  if (inc.status == Status::ok || inc.status == Status::invalid_input) return witnessed(a, ta, b, tb, inc);
  r = epa_depth(a, ta, b, tb, simplex);
  r.iterations += inc.iterations;
  // Neither certified: a depth attained on a whole circle of directions (a
  // sphere on a cylinder's or a cone's axis) leaves EPA short of any
  // tolerance, while the SQP lands on the circle. Both depths are support
  // values, proven upper bounds: report the tighter, still not_converged.
  if (r.status == Status::not_converged && inc.status == Status::not_converged && inc.distance <= 0.0 &&
      inc.distance > r.distance) {
    const int calls = r.iterations;
    r = witnessed(a, ta, b, tb, inc);
    r.iterations = calls;
  }
  return r;
}

// Method::mpr: the depth along the centre line, as libccd's MPR penetration.
// The ray from the origin of C = A ⊖ B along B's centre minus A's leaves C
// at ρ·d; moving A by ρ along −d (away from B) makes the pair touch, so ρ
// is a proven upper bound on the depth, not the minimum: status upper_bound.
// The answer is that translation, normal −d and distance −ρ, with witnesses
// on both shapes whose difference is the exit point. A pair touching within
// MPR's tolerance has depth 0 and the supporting plane's normal: the bound is
// then the minimum, status ok.
template <class A, class B>
DistanceResult mpr_depth(const A& a, const Transform& ta, const B& b, const Transform& tb,
                         const proxima::detail::Simplex& simplex) {
  Vec3 dir = tb.p - ta.p;
  if (!(dir.squaredNorm() > 0.0)) dir = Vec3::UnitZ();
  dir.normalize();
  const MprRayResult m = mpr_ray(a, ta, b, tb, dir);
  DistanceResult r;
  r.iterations = m.iterations;
  const double touch = kWitnessFeatureTolerance * std::max(core_extent_of(a), core_extent_of(b));
  if (m.separated || (m.status != Status::invalid_input && m.upper_bound <= touch)) {
    // GJK found the cores overlapping, so "outside" is within rounding of
    // touching, and m.normal is a supporting plane's outward normal.
    r.status = Status::ok;
    r.distance = 0.0;
    r.normal = -m.normal;
    place_witnesses(a, ta, b, tb, m.normal, Vec3::Zero(), r.point_a, r.point_b);
    return r;
  }
  if (m.status != Status::ok || !std::isfinite(m.upper_bound)) {
    // No converged exit point (a degenerate portal, the call cap): its last
    // plane need not hold the exit point, so no witness on both shapes
    // comes of it. EPA answers instead.
    r = epa_depth(a, ta, b, tb, simplex);
    r.iterations += m.iterations;
    return r;
  }
  r.status = Status::upper_bound;
  r.distance = -m.upper_bound;
  r.normal = -dir;
  if (m.has_witnesses) {
    // The portal's split of its crossing, moved apart along the ray by the
    // bracket (≤ eps) so that point_a − point_b is the answer's translation.
    const Vec3 gap = m.upper_bound * dir - (m.point_a - m.point_b);
    r.point_a = m.point_a + 0.5 * gap;
    r.point_b = m.point_b - 0.5 * gap;
  } else {
    place_witnesses(a, ta, b, tb, m.normal, Vec3(m.upper_bound * dir), r.point_a, r.point_b);
  }
  return r;
}

// Penetration of two shapes whose cores overlap (GJK's final simplex given),
// by the method the request names.
template <class A, class B>
DistanceResult overlap_depth(const A& a, const Transform& ta, const B& b, const Transform& tb,
                             const proxima::detail::Simplex& simplex, const DistanceRequest& req) {
  switch (req.method) {
    case Method::sat:
      if constexpr (kPolytopeBox<A, B>) {
        // The SAT on P ⊖ Q's facets pruned on P's cone hierarchy: the
        // generic Gauss-map SAT's answer at a seventh of its cost on large
        // hulls (polytope(200)–box request: 1.9 µs against 12.9). A flat hull (no
        // hierarchy) or cores found only touching take the generic SAT.
        const DistanceResult r = proxima::detail::cone_walk_below(a, ta, b, tb, Vec3::Zero(),
                                                                  std::numeric_limits<double>::infinity());
        if (sat_cores_overlap(r, a.core_inflation() + b.core_inflation())) return witnessed(a, ta, b, tb, r);
      }
      if constexpr (kPolyhedral<A> && kPolyhedral<B>) return witnessed(a, ta, b, tb, sat_pair(a, ta, b, tb));
      if constexpr (kPolytopeCapsule<A, B>) {
        bool on_polytope = false;
        const DistanceResult r = polytope_capsule_depth(a, ta, b, tb, Vec3::Zero(), nullptr, &on_polytope);
        if (r.status != Status::not_implemented) return witnessed(a, ta, b, tb, r, on_polytope);
      }
      break;
    case Method::incremental:
      return incremental_depth(a, ta, b, tb, simplex, req);
    case Method::mpr:
      return mpr_depth(a, ta, b, tb, simplex);
    case Method::automatic:
      if constexpr (std::is_same_v<A, Box> && std::is_same_v<B, Box>) {
        return witnessed(a, ta, b, tb, sat_box_box(a, ta, b, tb));
      }
      [[fallthrough]];
    case Method::gjk:
      return epa_depth(a, ta, b, tb, simplex);
    case Method::analytic:
      break;
  }
  DistanceResult r;
  r.status = Status::not_implemented;
  return r;
}

template <class A, class B>
DistanceResult gjk_pair(const Shape& sa, const Transform& ta, const Shape& sb, const Transform& tb,
                        const DistanceRequest& req, Mode mode);

// signed_distance with the caller's PenetrationCache (DistanceRequest::
// penetration), on the pairs the coherence certificate covers. While the
// last answer was a contact (the cache holds its normal), the cache answers
// first where it can certify its answer (incremental_depth.hpp's
// cached_answer: the cores' distance, the certificate, the collecting
// walk), each exact within the request's tolerances and none assuming the
// pair still overlaps. Anything else (the pair apart, a motion beyond the
// certificate's reach) is the answer without the cache; a contact then
// refills the cache (its normal, and the certificate while the cores
// overlap or GJK's warm start between them while they are apart), and an
// answer apart empties its direction, so that a pair apart pays nothing.
template <class A, class B>
DistanceResult tracked_signed_distance(const Shape& sa, const Transform& ta, const Shape& sb, const Transform& tb,
                                       const DistanceRequest& req) {
  const A& a = sa.as<A>();
  const B& b = sb.as<B>();
  PenetrationCache& cache = *req.penetration;
  if (cache.direction.squaredNorm() > 0.0) {
    PenetrationOptions opt;
    opt.tol_abs = req.tol_abs;
    opt.tol_rel = req.tol_rel;
    DistanceResult out;
    bool on_polytope = false;
    if (proxima::detail::cached_answer(a, ta, b, tb, cache.direction, cache.hint_a, cache.hint_b, opt, cache, out,
                                       &on_polytope)) {
      return witnessed(a, ta, b, tb, out, on_polytope);
    }
  }
  DistanceRequest plain = req;
  plain.penetration = nullptr;
  const DistanceResult r = gjk_pair<A, B>(sa, ta, sb, tb, plain, Mode::signed_distance);
  cache.cores = GjkCache{};
  if (r.status == Status::ok && r.distance < 0.0) {
    cache.direction = r.normal;
    const double core_depth = -r.distance - (a.core_inflation() + b.core_inflation());
    if (core_depth > 0.0) {
      proxima::detail::ConeCoherenceAccess::collect(a, ta, b, tb, core_depth, cache.coherence);
    } else {
      cache.cores.direction = r.normal;  // the cores apart: the next query measures their distance first
    }
  } else {
    cache.direction = Vec3::Zero();
  }
  return r;
}

template <class A, class B>
DistanceResult gjk_pair(const Shape& sa, const Transform& ta, const Shape& sb, const Transform& tb,
                        const DistanceRequest& req, Mode mode) {
  if constexpr (proxima::detail::kConeCertified<A, B>) {
    if (req.penetration != nullptr && mode == Mode::signed_distance) {
      return tracked_signed_distance<A, B>(sa, ta, sb, tb, req);
    }
  }
  const A& a = sa.as<A>();
  const B& b = sb.as<B>();
  const double ra = a.core_inflation(), rb = b.core_inflation(), radii = ra + rb;
  // Box–box depth: SAT's 15 axes answer an overlap of the cores exactly
  // without GJK. Cores apart, their best axis is only a lower bound on the
  // cores' distance, which margins can turn negative: GJK answers those (a
  // fuzz finding: 33 m boxes with 49 m margins got −8.9 m, truly +2.5 m).
  // Method::sat and Method::incremental answer overlapping boxes by the
  // same SAT after GJK: they take this path too.
  if constexpr (std::is_same_v<A, Box> && std::is_same_v<B, Box>) {
    if (mode == Mode::signed_distance && (req.method == Method::automatic || req.method == Method::sat ||
                                          req.method == Method::incremental)) {
      DistanceResult s = sat_box_box(a, ta, b, tb);
      if (sat_cores_overlap(s, radii)) {
        ensure_depth_witnesses(a, ta, b, tb, s);
        return s;
      }
    }
  }
  // Polytope–capsule depth: the SAT on P ⊖ S (sat_segment.cpp) answers
  // overlapping cores exactly without GJK or EPA, warm-started from the
  // cache's normal (the incremental request's warm start, or the last
  // answer: a caller's cache is given this one). Its h ≤ 0 means the cores
  // are apart (or touch), and GJK then measures their distance, starting
  // from the SAT's axis (a facet plane of P ⊖ S that the origin is outside
  // of, so close to the direction GJK converges to) unless the caller's
  // cache holds a simplex.
  GjkCache* cache = req.cache;
  [[maybe_unused]] GjkCache sat_start;
  if constexpr (kPolytopeCapsule<A, B>) {
    if (mode == Mode::signed_distance && (req.method == Method::automatic || req.method == Method::incremental)) {
      int vertex = -1;
      bool on_polytope = false;
      DistanceResult s = polytope_capsule_depth(a, ta, b, tb, cache ? cache->direction : Vec3(Vec3::Zero()),
                                                &vertex, &on_polytope);
      if (s.status == Status::ok && s.distance + radii < 0.0) {
        if (cache) cache->direction = s.normal;
        ensure_depth_witnesses(a, ta, b, tb, s, on_polytope);
        return s;
      }
      if (s.status == Status::ok) {
        // The SAT's separating axis is a better first direction than a
        // guess; a caller's cached simplex, when it has one, still comes first.
        if (cache == nullptr) cache = &sat_start;
        cache->direction = s.normal;
        int& hint = kPolyhedral<A> ? cache->hint_a : cache->hint_b;
        if (hint < 0) hint = vertex;
      }
    }
  }
  GjkOptions opt;
  opt.tol_abs = req.tol_abs;
  opt.tol_rel = req.tol_rel;
  opt.max_iterations = req.max_iterations;
  opt.stop_above = (mode == Mode::collide ? 0.0 : req.bound) + radii;
  // distance runs GJK on as signed_distance does: its answer on an overlap
  // carries the normal of least penetration, which with margins is the
  // converged direction between the cores while they are apart (stopping once
  // the margins were proven to overlap left a direction up to 180° off it).
  opt.stop_below = mode == Mode::signed_distance || mode == Mode::distance
                       ? -1.0
                       : (mode == Mode::tolerance ? req.bound : 0.0) + radii;
  proxima::detail::Simplex simplex;
  const bool depth_on_overlap = mode == Mode::signed_distance || mode == Mode::distance;
  const GjkResult g = gjk(a, ta, b, tb, opt, cache, depth_on_overlap ? &simplex : nullptr);

  DistanceResult r;
  r.status = g.status;
  r.iterations = g.iterations;
  if (g.status == Status::invalid_input) return r;
  if (g.overlap) {
    r.point_a = r.point_b = g.point_a;
    if (depth_on_overlap) {
      DistanceResult d = overlap_depth(a, ta, b, tb, simplex, req);
      d.iterations += r.iterations;
      // Each depth method has put its witnesses on both shapes.
      if (mode == Mode::signed_distance) return d;
      // distance: 0 at GJK's common point, with the depth method's normal:
      // for a touching pair the supporting plane's, else the direction of
      // least penetration (a direction is asked of every answer). A method
      // that gives no depth for the pair (sat on curved shapes) answers
      // not_implemented, as signed_distance does: it has no such direction.
      if (has_depth(d.status)) r.normal = d.normal;
      else r.status = d.status;
      r.iterations = d.iterations;
    }
    return r;
  }
  const Vec3 n = g.direction;
  r.normal = n;
  r.point_a = g.point_a - ra * n;
  r.point_b = g.point_b + rb * n;
  if (g.stopped_above) {
    r.distance = g.lower_bound - radii;
    r.bound_exceeded = true;
    return r;
  }
  r.distance = g.distance - radii;
  if (mode != Mode::signed_distance && (r.distance <= 0.0 || (g.stopped_below && mode != Mode::tolerance))) {
    // The cores' points are at most ra + rb apart (GJK may have stopped
    // before their closest points): the point within ra of A's and rb of
    // B's lies in both bodies.
    r.distance = 0.0;
    r.point_a = r.point_b = g.point_a - (radii > 0.0 ? ra / radii : 0.5) * (g.point_a - g.point_b);
  }
  return r;
}


/// Every bounded shape type as the second of a pair with `A`.
#define PROXIMA_FOR_EACH_GJK_PAIR(X, A) \
  X(A, Sphere) X(A, Capsule) X(A, Cylinder) X(A, Cone) X(A, Box) X(A, Ellipsoid) X(A, ConvexPolytope)
#define PROXIMA_GJK_PAIR_SIGNATURE(A, B)                                                       \
  DistanceResult gjk_pair<A, B>(const Shape&, const Transform&, const Shape&, const Transform&, \
                                const DistanceRequest&, Mode)
#define PROXIMA_EXTERN_GJK_PAIR(A, B) extern template PROXIMA_GJK_PAIR_SIGNATURE(A, B);
#define PROXIMA_INSTANTIATE_GJK_PAIR(A, B) template PROXIMA_GJK_PAIR_SIGNATURE(A, B);

PROXIMA_FOR_EACH_GJK_PAIR(PROXIMA_EXTERN_GJK_PAIR, Sphere)
PROXIMA_FOR_EACH_GJK_PAIR(PROXIMA_EXTERN_GJK_PAIR, Capsule)
PROXIMA_FOR_EACH_GJK_PAIR(PROXIMA_EXTERN_GJK_PAIR, Cylinder)
PROXIMA_FOR_EACH_GJK_PAIR(PROXIMA_EXTERN_GJK_PAIR, Cone)
PROXIMA_FOR_EACH_GJK_PAIR(PROXIMA_EXTERN_GJK_PAIR, Box)
PROXIMA_FOR_EACH_GJK_PAIR(PROXIMA_EXTERN_GJK_PAIR, Ellipsoid)
PROXIMA_FOR_EACH_GJK_PAIR(PROXIMA_EXTERN_GJK_PAIR, ConvexPolytope)

}  // namespace proxima::narrow::detail
