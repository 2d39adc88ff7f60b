// SPDX-License-Identifier: BSD-3-Clause
// GJK distance between two convex cores (Gilbert, Johnson, Keerthi 1988;
// termination after van den Bergen 1999): support points of the Minkowski
// difference A − B, worked in A's local frame so each support call costs one
// rotation. Margins and sphere/capsule radii are added by the caller.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include <proxima/core/error.hpp>
#include <proxima/core/transform.hpp>
#include <proxima/narrow/curved_finish.hpp>
#include <proxima/narrow/face_finish.hpp>
#include <proxima/narrow/minkowski.hpp>
#include <proxima/narrow/simplex.hpp>
#include <proxima/narrow/smooth_finish.hpp>
#include <proxima/shape/convex_polytope.hpp>

namespace proxima {

/// Caller-owned warm start for repeated queries of one pair. GJK fills it on
/// exit; the next query rebuilds its first simplex from the stored support
/// directions (world frame) and starts hill climbing from the stored
/// vertices. A caller with only a guess sets `direction` (B→A) and leaves
/// `simplex_size` at 0.
struct GjkCache {
  Vec3 direction = Vec3::Zero();
  // Zero until a query fills them, so that a cache set by hand is safe to validate.
  Vec3 support_directions[4] = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  int simplex_size = 0;
  int hint_a = -1;
  int hint_b = -1;

  /// A cache the queries take: directions (the support directions up to
  /// simplex_size) whose squared length is a finite number, so any length
  /// from 0 to about 1e154 (the library writes unit ones); simplex_size in
  /// [0, 4]; hints ≥ −1 (a hint past a shape's last vertex is not used). A
  /// query given any other gives Status::invalid_input: a warm start is a
  /// hint, but one that is not a number is a caller's bug, not a cold start.
  bool valid() const {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    if (!(simplex_size >= 0 && simplex_size <= 4 && hint_a >= -1 && hint_b >= -1 && direction.squaredNorm() < kInf))
      return false;
    for (int k = 0; k < simplex_size; ++k)
      if (!(support_directions[k].squaredNorm() < kInf)) return false;
    return true;
  }
};

struct GjkOptions {
  /// Stop when upper − lower bound ≤ tol_abs + tol_rel · L, where L is the
  /// largest support point of A − B seen (the problem's length scale), so the
  /// accuracy is relative to the shapes' size at every scale.
  double tol_abs = 0.0;
  double tol_rel = 1e-10;
  int max_iterations = 128;
  /// Stop as soon as the distance is proven larger than this (lower bound > it).
  double stop_above = std::numeric_limits<double>::infinity();
  /// Stop as soon as the distance is proven at most this (upper bound ≤ it).
  double stop_below = -1.0;
};

/// Core distance and witness points, world frame.
struct GjkResult {
  Status status = Status::ok;
  bool overlap = false;       ///< the cores intersect (distance 0)
  double distance = 0.0;      ///< upper bound |v|: the distance between the witness points
  double lower_bound = 0.0;   ///< proven lower bound on the distance
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();
  Vec3 direction = Vec3::UnitX();  ///< unit, B→A (meaningful when not overlapping)
  int iterations = 0;
  bool stopped_above = false;  ///< exited early: distance > stop_above
  bool stopped_below = false;  ///< exited early: distance ≤ stop_below
};

namespace detail {

/// One support call of A ⊖ B along the candidate nearest points `pa`, `pb`
/// (A's frame): true when it proves them to GJK's tolerance (the duality gap
/// of van den Bergen's stop). The call's lower bound is kept either way.
template <class A, class B>
PROXIMA_HOT_INLINE inline bool proves(MinkowskiDifference<A, B>& md, const Vec3& pa, const Vec3& pb,
                                      const GjkOptions& opt, double& scale2, double& lower) {
  const Vec3 v = pa - pb;
  const double vv = v.squaredNorm();
  if (!(vv > 1e-28 * scale2)) return false;  // touching or overlapping: GJK decides
  Vec3 wa, wb;
  md.support(-v, wa, wb);
  const Vec3 w = wa - wb;
  scale2 = std::max(scale2, w.squaredNorm());
  const double vnorm = std::sqrt(vv);
  const double vw = v.dot(w);
  if (vw > 0.0) lower = std::max(lower, vw / vnorm);
  return vv - vw <= vnorm * (opt.tol_abs + opt.tol_rel * std::sqrt(scale2));
}

/// The finish of narrow/curved_finish.hpp for GJK's state: tries the nearest
/// points between the curved core and the settled vertex-side feature `f`
/// (A's frame) and returns true with the witnesses `pa`, `pb` (A's frame)
/// when one support call proves them.
template <class A, class B>
PROXIMA_HOT_INLINE inline bool curved_finish(MinkowskiDifference<A, B>& md, const SettledFeature& f,
                                             const GjkOptions& opt, double& scale2, double& lower, Vec3& pa,
                                             Vec3& pb) {
  constexpr bool kCurvedA = kCurvedCore<A>;
  // Into the curved core's frame: A's frame itself, or B's placement in it.
  const auto to_curved = [&](const Vec3& x) -> Vec3 {
    if constexpr (kCurvedA) return x;
    else return md.R.transpose() * (x - md.t);
  };
  const auto from_curved = [&](const Vec3& x) -> Vec3 {
    if constexpr (kCurvedA) return x;
    else return md.R * x + md.t;
  };
  const auto& curved = [&]() -> const auto& {
    if constexpr (kCurvedA) return md.sa.shape;
    else return md.sb.shape;
  }();
  Vec3 on_curved, on_feature;
  if (f.n == 1) {
    on_feature = to_curved(f.p[0]);
    on_curved = curved_nearest(curved, on_feature);
  } else {
    curved_segment_nearest(curved, to_curved(f.p[0]), to_curved(f.p[1]), on_curved, on_feature);
  }
  if constexpr (kCurvedA) {
    pa = on_curved;
    pb = on_feature;
  } else {
    pa = from_curved(on_feature);
    pb = from_curved(on_curved);
  }
  return proves(md, pa, pb, opt, scale2, lower);
}

/// Two curved cores whose simplex never settles on vertices.
template <class A, class B>
inline constexpr bool kCurvedPairFinish = kSmoothFinish<A, B> || kFaceFinish<A, B>;

/// Their finish from GJK's nearest point v (A's frame): a cylinder's or a
/// cone's face when GJK's direction is within about 6° of the face's normals
/// (narrow/face_finish.hpp), otherwise Newton's method where both support
/// points move smoothly (narrow/smooth_finish.hpp). At most `budget` (≥ 1)
/// support calls, counted in `calls`; true with the proven witnesses `pa`,
/// `pb` (A's frame).
template <class A, class B>
PROXIMA_HOT_INLINE inline bool curved_pair_finish(MinkowskiDifference<A, B>& md, const Vec3& v, const GjkOptions& opt,
                                                  int budget, double& scale2, double& lower, Vec3& pa, Vec3& pb,
                                                  int& calls) {
  if constexpr (kFaceFinish<A, B>) {
    const Vec3 u = v.normalized();
    // Each faced solid's nearest face to its support direction: −u in A's
    // frame, Rᵀu in B's.
    int face_a = -1, face_b = -1;
    double sine_a = kNearFace, sine_b = kNearFace;
    if constexpr (kFaced<A>) sine_a = nearest_face(md.sa.shape, Vec3(-u), face_a);
    if constexpr (kFaced<B>) sine_b = nearest_face(md.sb.shape, Vec3(md.R.transpose() * u), face_b);
    if (std::min(sine_a, sine_b) < kNearFace) {
      bool found = false;
      if constexpr (kFaced<A>) {
        if (sine_a <= sine_b) found = face_candidate(md.sa.shape, md.sb.shape, md.R, md.t, face_a, pa, pb);
      }
      if constexpr (kFaced<B>) {
        if (sine_b < sine_a) {
          // A placed in B's frame: x_B = Rᵀ x_A − Rᵀ t.
          const Mat3 Rt = md.R.transpose();
          Vec3 on_b, on_a;
          found = face_candidate(md.sb.shape, md.sa.shape, Rt, Vec3(-(Rt * md.t)), face_b, on_b, on_a);
          if (found) {
            pa = md.R * on_a + md.t;
            pb = md.R * on_b + md.t;
          }
        }
      }
      if (!found) return false;
      ++calls;
      return proves(md, pa, pb, opt, scale2, lower);
    }
  }
  return smooth_finish(md, v, opt.tol_abs, opt.tol_rel, budget, scale2, lower, pa, pb, calls);
}

}  // namespace detail

/// GJK on the cores of `a` and `b`. Never throws; non-finite poses and a
/// cache that is not valid() give status invalid_input.
///
/// `simplex_out` (optional) receives the final simplex in A's local frame, for
/// EPA to start from when the cores overlap.
template <class A, class B>
GjkResult gjk(const A& a, const Transform& pose_a, const B& b, const Transform& pose_b,
              const GjkOptions& opt = {}, GjkCache* cache = nullptr,
              detail::Simplex* simplex_out = nullptr) {
  GjkResult out;
  detail::Simplex local_simplex;
  if (!both_valid(pose_a, pose_b) || (cache && !cache->valid())) {
    out.status = Status::invalid_input;
    return out;
  }
  detail::MinkowskiDifference<A, B> md(a, pose_a, b, pose_b, cache ? cache->hint_a : -1,
                                       cache ? cache->hint_b : -1);
  const Vec3& t = md.t;
  detail::Simplex& s = simplex_out ? *simplex_out : local_simplex;
  s.n = 0;
  auto push = [&](const Vec3& d) PROXIMA_HOT_INLINE {
    Vec3 pa, pb;
    md.support(d, pa, pb);
    s.d[s.n] = d;
    s.a[s.n] = pa;
    s.b[s.n] = pb;
    s.y[s.n] = pa - pb;
    ++s.n;
  };

  bool start_inside = false;
  // A lower bound on the distance from the first support point alone (see
  // below), 0 when it gives none.
  double first_lower = 0.0;
  if (cache && cache->simplex_size > 0) {
    // Warm start: the last simplex's support directions at the new poses.
    for (int k = 0; k < cache->simplex_size && k < 4; ++k) {
      push(pose_a.R.transpose() * cache->support_directions[k]);
    }
    s.w[0] = 1.0;
    if (s.n > 1) {
      const detail::SimplexSolution sol = detail::closest(s, false);
      detail::reduce(s, sol);
      start_inside = sol.inside;
    }
  } else {
    // The line between the cores' centres: a hull's own frame (a robot
    // link's joint) may lie far from its middle, where the line between
    // the frames' origins parts fewer pairs at the first support call.
    Vec3 dir;
    if (cache && cache->direction.squaredNorm() > 0.0) {
      dir = pose_a.R.transpose() * cache->direction;
    } else {
      dir = -t;
      if constexpr (std::is_same_v<A, ConvexPolytope>) dir += a.data().bounds.center();
      if constexpr (std::is_same_v<B, ConvexPolytope>) dir -= md.R * b.data().bounds.center();
    }
    if (!(dir.squaredNorm() > 0.0)) dir = Vec3::UnitX();
    push(-dir);
    s.w[0] = 1.0;
    // That point is the least of dir·y over A ⊖ B, so the cores are at
    // least dir·w/|dir| apart: a pair parted along the centre line (or the
    // cached direction) by more than stop_above is answered from this one
    // support call, where the loop below would make a second to bound it
    // (a collide or tolerance query on shapes well apart).
    const double along = dir.dot(s.y[0]);
    if (along > 0.0) first_lower = along / dir.norm();
  }
  Vec3 v = s.point();
  double vv = start_inside ? 0.0 : v.squaredNorm();
  double lower = first_lower;
  // Squared length scale of the problem: the largest support point seen.
  double scale2 = std::max(vv, 1e-300);
  for (int k = 0; k < s.n; ++k) scale2 = std::max(scale2, s.y[k].squaredNorm());

  // The curved cores' finish (narrow/curved_finish.hpp): tried at most twice.
  [[maybe_unused]] detail::SettledFeature settled;
  [[maybe_unused]] int finishes_left = 2;
  bool finished = false;
  Vec3 finish_a = Vec3::Zero(), finish_b = Vec3::Zero();
  // Two curved cores' finish (curved_pair_finish): tried at most three times,
  // from the first iteration whose support point proved the cores apart
  // (GJK's duality gap below the distance).
  [[maybe_unused]] int pair_left = 3;
  [[maybe_unused]] double last_gap = std::numeric_limits<double>::infinity();

  int it = 0;
  const bool parted_at_once = lower > opt.stop_above;
  if (parted_at_once) out.stopped_above = true;
  for (; !parted_at_once; ++it) {
    if (vv <= 1e-28 * scale2) {
      out.overlap = true;
      break;
    }
    if (it >= opt.max_iterations) {
      out.status = Status::not_converged;
      break;
    }
    const double vnorm = std::sqrt(vv);
    if (vnorm <= opt.stop_below) {
      out.stopped_below = true;
      break;
    }
    if constexpr (detail::kCurvedFinish<A, B>) {
      const bool settled_now = settled.settle(detail::kVertexCore<A> ? s.a : s.b, s.n);
      // Its support call counts against max_iterations like GJK's own.
      if (settled_now && it >= 2 && finishes_left > 0 && it < opt.max_iterations) {
        --finishes_left;
        const bool proven = detail::curved_finish(md, settled, opt, scale2, lower, finish_a, finish_b);
        ++it;
        if (proven) {
          finished = true;
          break;
        }
        if (lower > opt.stop_above) {
          out.stopped_above = true;
          break;
        }
        if (it >= opt.max_iterations) continue;  // the loop's head reports not_converged
      }
    }
    if constexpr (detail::kCurvedPairFinish<A, B>) {
      // Its support calls count against max_iterations like GJK's own.
      if (it >= 1 && pair_left > 0 && last_gap < vnorm && it < opt.max_iterations) {
        --pair_left;
        int calls = 0;
        const bool proven =
            detail::curved_pair_finish(md, v, opt, opt.max_iterations - it, scale2, lower, finish_a, finish_b, calls);
        it += calls;
        if (proven) {
          finished = true;
          break;
        }
        if (lower > opt.stop_above) {
          out.stopped_above = true;
          break;
        }
        if (it >= opt.max_iterations) continue;  // the loop's head reports not_converged
      }
    }
    push(-v);
    const Vec3& w = s.y[s.n - 1];
    scale2 = std::max(scale2, w.squaredNorm());
    const double vw = v.dot(w);
    if constexpr (detail::kCurvedPairFinish<A, B>) last_gap = vnorm - vw / vnorm;
    if (vw > 0.0) lower = std::max(lower, vw / vnorm);
    // Early exits drop the new point: the simplex before it holds the answer.
    if (lower > opt.stop_above) {
      out.stopped_above = true;
      --s.n;
      break;
    }
    // Converged: the new support point cannot bring v closer than the tolerance.
    if (vv - vw <= vnorm * (opt.tol_abs + opt.tol_rel * std::sqrt(scale2))) {
      --s.n;
      break;
    }
    bool repeated = false;
    for (int i = 0; i + 1 < s.n; ++i) repeated |= (s.y[i] - w).squaredNorm() <= 1e-30 * scale2;
    if (repeated) {
      --s.n;
      break;
    }
    const detail::SimplexSolution sol = detail::closest(s, true);
    if (sol.inside) {
      detail::reduce(s, sol);
      out.overlap = true;
      ++it;
      break;
    }
    // No progress: rounding has taken over; the previous simplex is the answer.
    if (sol.vv >= vv) {
      --s.n;
      break;
    }
    detail::reduce(s, sol);
    v = sol.v;
    vv = sol.vv;
  }

  // Support calls made after the first one.
  out.iterations = parted_at_once ? 0 : std::min(it + 1, opt.max_iterations);
  if (finished) {
    v = finish_a - finish_b;
    vv = v.squaredNorm();
  }
  const Vec3 pa = finished ? finish_a : s.point_a();
  const Vec3 pb = finished ? finish_b : out.overlap ? pa : s.point_b();
  out.point_a = pose_a.apply(pa);
  out.point_b = pose_a.apply(pb);
  if (out.overlap) {
    out.distance = 0.0;
    out.lower_bound = 0.0;
  } else {
    out.distance = std::sqrt(vv);
    out.lower_bound = std::min(lower, out.distance);
    out.direction = pose_a.rotate(v / out.distance);
  }
  if (cache) {
    if (!out.overlap) cache->direction = out.direction;
    cache->simplex_size = s.n;
    for (int k = 0; k < s.n; ++k) cache->support_directions[k] = pose_a.rotate(s.d[k]);
    cache->hint_a = md.sa.hint();
    cache->hint_b = md.sb.hint();
  }
  return out;
}

}  // namespace proxima
