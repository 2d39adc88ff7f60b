// SPDX-License-Identifier: BSD-3-Clause
// Exact depth of a polytope P against a capsule: the separating-axis test
// (Contact data for convex polyhedra, Alg. 1–2) on the
// facets of C = P ⊖ S, S the capsule's core segment [s0, s1] (d = s1 − s0),
// pruned by the cone hierarchy over P's Gauss map (PolytopeData::cones).
//
// Why these candidates: the Gauss map of −S is the great circle G ⟂ d (its
// arc) splitting the sphere into the hemispheres where −s0 (u·d > 0) and
// −s1 (u·d < 0) are supporting. Overlaying it on P's map (as sat.cpp does
// for two polytopes), the facets of C are P's faces, with
// h_C(n) = c − min(n·s0, n·s1), and the crossings of P's arcs with G: the
// silhouette edges of P seen along d, u = ±(e × d)/|e × d|, where the edge
// and the whole segment are supporting, so h_C(u) = u·(q − s0). For an
// interior origin the depth is the smallest h_C over them.
//
// Why the pruning is exact: every face or arc under a cone of half angle θ
// about axis a has h_P ≥ min_offset, and for a point s, n·s over the cap is
// at most |s|·cos(max(0, ∠(a, s) − θ)). So h_C ≥ min_offset − max over the
// cap of the supporting endpoint's n·s, and a subtree whose bound is not
// below the best h found so far holds nothing better. A cone strictly on one
// side of G holds no silhouette edge and only one supporting endpoint. The
// walk goes to the child with the smaller bound first, so the best h drops
// fast; the minimum itself is never pruned, only what cannot beat it.
#include <algorithm>
#include <cmath>
#include <limits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <proxima/narrow/closed_form.hpp>
#include <proxima/narrow/sat.hpp>

#include "cone_feature_set.hpp"
#include "face_polygon.hpp"
#include "sat_edge_axis.hpp"
#include "sat_thresholds.hpp"

namespace proxima::narrow {
namespace {

// As in sat.cpp: an edge nearly parallel to the segment spans a sliver facet
// (skipped below kParallel; its neighbours are tested), and between that and
// kWellConditioned the axis carries up to ε/sine of noise, so h_C is
// recomputed from honest support values there (sat_thresholds.hpp).
using detail::cone_edge_axis;
using detail::arc_min_below;
using detail::ConeFeatures;
using detail::ConeLeaves;
using detail::kWellConditioned;

enum class Kind { face, edge };

struct SegmentBest {
  double h = std::numeric_limits<double>::infinity();
  Vec3 u = Vec3::UnitZ();
  Kind kind = Kind::face;
  int index = -1;  // cone_faces or cone_edges
};

// The query in P's frame.
class SegmentSat {
 public:
  // `keep`: collect the leaves reached (sat_polytope_capsule_collect),
  // pruning on keep->floor instead of the best value.
  SegmentSat(const ConvexPolytope& p, const Vec3& s0, const Vec3& s1, SatStats* stats, bool stop_apart,
             double below, ConeLeaves* keep = nullptr)
      : poly_(p), d_(p.data()), s0_(s0), s1_(s1), dir_(s1 - s0), len0_(s0.norm()), len1_(s1.norm()),
        dir_len_(dir_.norm()), len0_sq_(len0_ * len0_), len1_sq_(len1_ * len1_), stats_(stats),
        stop_apart_(stop_apart), keep_(keep) {
    best_.h = below;
    if (keep_) {
      keep_->count = 0;
      best_.h = std::numeric_limits<double>::infinity();
    }
#if defined(__SSE2__)
    v_ = {_mm_set1_pd(dir_.x()), _mm_set1_pd(dir_.y()), _mm_set1_pd(dir_.z()), _mm_set1_pd(s0_.x()),
          _mm_set1_pd(s0_.y()), _mm_set1_pd(s0_.z()), _mm_set1_pd(len0_), _mm_set1_pd(len1_),
          _mm_set1_pd(len0_sq_), _mm_set1_pd(len1_sq_), _mm_set1_pd(dir_len_)};
#endif
  }

  SegmentBest run() {
    // Explicit stack of at most cone_depth ≤ kMaxDepth entries
    // (NormalCone::kMaxDepth), the unconditional writes below included: a
    // push never finds it full, and no node is dropped, which the coherence
    // certificate (incremental_depth.hpp) relies on.
    struct Entry {
      int node;
      double bound;
      int side;
    };
    Entry stack[NormalCone::kMaxDepth];
    int top = 0;
    int side = 0;
    stack[top++] = {0, bound(0, side), side};
    while (top > 0) {
      if (stop_apart_ && best_.h <= 0.0) break;  // the cores are apart: the caller wants no more
      const Entry e = stack[--top];
      if (!(e.bound < limit())) continue;
      const NormalCone& c = d_.cones[static_cast<std::size_t>(e.node)];
      if (c.right < 0) {
        if (keep_ == nullptr || kept(e.node, e.bound)) leaf(c, e.side);
        continue;
      }
      double b[2];
      int sides[2];
      child_bounds(e.node, b, sides);
      const double bl = b[0], br = b[1];
      const int sl = sides[0], sr = sides[1];
      // The nearer child is pushed last, so it is popped first. Which one
      // that is, and whether either is pushed at all, is a coin flip to the
      // branch predictor: both are done with selects instead.
      const bool left_near = bl <= br;
      const int near_node = left_near ? e.node + 1 : c.right, far_node = left_near ? c.right : e.node + 1;
      const double near_bound = left_near ? bl : br, far_bound = left_near ? br : bl;
      const int near_side = left_near ? sl : sr, far_side = left_near ? sr : sl;
      stack[top] = {far_node, far_bound, far_side};
      top += far_bound < limit() ? 1 : 0;
      stack[top] = {near_node, near_bound, near_side};
      top += near_bound < limit() ? 1 : 0;
    }
    return finish();
  }

  // Only the features of `set`, with nothing to beat, up to the first that
  // cannot beat the best found after the segment moved by `moved`.
  SegmentBest run_features(const ConeFeatures& set, double moved) {
    best_.h = std::numeric_limits<double>::infinity();
    detail::visit_features(
        d_, set, [&](int k) { face(k); },
        [&](const NormalCone& c, int k, const Vec3& n0, const Vec3& n1) {
          if (n0.dot(dir_) * n1.dot(dir_) < 0.0) edge(c, k);
        },
        [&](double v) { return detail::cannot_beat(v, moved, best_.h); });
    return finish();
  }

  // The features of the leaves a collecting walk kept whose h_C (a face) or
  // lower bound on h_C over the arc (an edge) is below its floor, at most
  // ConeFeatures::kMax (the largest dropped into the floor). On an edge's
  // arc both ends q, q + e support P, so h_C(u) = u·q + max(−u·s0, −u·s1) ≥
  // u·(q − s_j) for each end s_j: the larger of their minima over the arc
  // bounds h_C there from below.
  void refine(ConeFeatures& out) const {
    out.count = 0;
    out.floor = keep_->floor;
    double value[ConeFeatures::kMax] = {};
    const auto add = [&](int leaf, int index, double v) {
      detail::keep_lowest(value, out.item, out.count, ConeFeatures::kMax, out.floor, v, ConeFeatures::Feature{leaf, index});
    };
    for (int l = 0; l < keep_->count; ++l) {
      const int node = keep_->leaf[l];
      const NormalCone& c = d_.cones[static_cast<std::size_t>(node)];
      for (int k = c.face_begin; k < c.face_end; ++k) {
        const ConeFace& f = d_.cone_faces[static_cast<std::size_t>(k)];
        const double ns0 = f.normal.dot(s0_);
        add(node, k, f.offset - std::min(ns0, ns0 + f.normal.dot(dir_)));
      }
      for (int k = c.edge_begin; k < c.edge_end; ++k) {
        const ConeEdge& e = d_.cone_edges[static_cast<std::size_t>(k)];
        const Vec3& n0 = d_.cone_faces[static_cast<std::size_t>(c.face_begin + e.owner)].normal;
        // One end suffices for a bound: the one trailing at the arc's middle.
        const Vec3 mid = n0 + e.other_normal;
        add(node, -1 - k, arc_min_below(n0, e.other_normal, e.q - (mid.dot(dir_) >= 0.0 ? s0_ : s1_), out.floor));
      }
    }
    detail::sort_features(value, out);
  }

 private:
  // The pruning threshold: the best value found, or the collecting walk's floor.
  double limit() const { return keep_ ? keep_->floor : best_.h; }

  // Face k of cone_faces as leaf() evaluates it.
  void face(int k) {
    const ConeFace& f = d_.cone_faces[static_cast<std::size_t>(k)];
    const double ns0 = f.normal.dot(s0_);
    const double h = f.offset - std::min(ns0, ns0 + f.normal.dot(dir_));
    if (h < best_.h) best_ = {h, f.normal, Kind::face, k};
  }

  // Keeps leaf `node` (bound `b` < floor) in the collected set; when the set
  // is full, the largest bound of the set and `b` leaves it and becomes the
  // floor, so every leaf not kept, like every cone pruned, has its bound ≥
  // the floor. False when `node` itself is the one dropped.
  bool kept(int node, double b) {
    ConeLeaves& k = *keep_;
    return detail::keep_lowest(kept_bound_, k.leaf, k.count, ConeLeaves::kMax, k.floor, b, node);
  }

  SegmentBest finish() {
    if (best_.kind == Kind::face && best_.index >= 0) {
      best_.u = d_.cone_faces[static_cast<std::size_t>(best_.index)].normal;
    }
    if (stats_) {
      stats_->face_axes += faces_;
      stats_->edge_pairs += edges_;
      stats_->edge_axes += crossings_;
    }
    return best_;
  }

  // Lower bound on h_C under cone k; side = +1 (−1) when the whole cone has
  // n·d > 0 (< 0): s0 (s1) alone is supporting and no arc crosses G.
  double bound(int k, int& side) const {
    // a·s1 is taken as a·s0 + a·d: its rounding is far inside the cones'
    // 1e-9 rad widening.
    const NormalCone& c = d_.cones[static_cast<std::size_t>(k)];
    const double ad = c.axis.dot(dir_), as0 = c.axis.dot(s0_), margin = c.side * dir_len_;
    if (ad > margin) {
      side = 1;
      return c.min_offset - c.cap_max(as0, len0_);
    }
    const double as1 = as0 + ad;
    if (-ad > margin) {
      side = -1;
      return c.min_offset - c.cap_max(as1, len1_);
    }
    side = 0;
    return c.min_offset - std::min(c.cap_max(as0, len0_), c.cap_max(as1, len1_));
  }

  // bound() for both children of inner node k at once, branch free (the
  // traversal spends most of its time here).
  void child_bounds(int k, double out[2], int sides[2]) const {
    const ConePair& p = d_.cone_pairs[static_cast<std::size_t>(k)];
#if defined(__SSE2__)
    const __m128d ax = _mm_loadu_pd(p.axis_x), ay = _mm_loadu_pd(p.axis_y), az = _mm_loadu_pd(p.axis_z);
    const __m128d ad = _mm_add_pd(_mm_add_pd(_mm_mul_pd(ax, v_.dx), _mm_mul_pd(ay, v_.dy)), _mm_mul_pd(az, v_.dz));
    const __m128d as0 =
        _mm_add_pd(_mm_add_pd(_mm_mul_pd(ax, v_.s0x), _mm_mul_pd(ay, v_.s0y)), _mm_mul_pd(az, v_.s0z));
    const __m128d as1 = _mm_add_pd(as0, ad);
    const __m128d cs = _mm_loadu_pd(p.cos_angle), sn = _mm_loadu_pd(p.sin_angle);
    const __m128d c0 = cap(as0, v_.len0, v_.len0_sq, cs, sn), c1 = cap(as1, v_.len1, v_.len1_sq, cs, sn);
    const __m128d margin = _mm_mul_pd(_mm_loadu_pd(p.side), v_.dir_len);
    const __m128d pos = _mm_cmpgt_pd(ad, margin), neg = _mm_cmpgt_pd(_mm_sub_pd(_mm_setzero_pd(), ad), margin);
    const __m128d m = select(pos, c0, select(neg, c1, _mm_min_pd(c0, c1)));
    _mm_storeu_pd(out, _mm_sub_pd(_mm_loadu_pd(p.min_offset), m));
    const int pm = _mm_movemask_pd(pos), nm = _mm_movemask_pd(neg);
    sides[0] = (pm & 1) ? 1 : (nm & 1) ? -1 : 0;
    sides[1] = (pm & 2) ? 1 : (nm & 2) ? -1 : 0;
#else
    for (int l = 0; l < 2; ++l) {
      const double ad = p.axis_x[l] * dir_.x() + p.axis_y[l] * dir_.y() + p.axis_z[l] * dir_.z();
      const double as0 = p.axis_x[l] * s0_.x() + p.axis_y[l] * s0_.y() + p.axis_z[l] * s0_.z();
      const double as1 = as0 + ad, margin = p.side[l] * dir_len_;
      const double c0 = cap(as0, len0_, len0_sq_, p.cos_angle[l], p.sin_angle[l]);
      const double c1 = cap(as1, len1_, len1_sq_, p.cos_angle[l], p.sin_angle[l]);
      const bool pos = ad > margin, neg = -ad > margin;
      out[l] = p.min_offset[l] - (pos ? c0 : neg ? c1 : std::min(c0, c1));
      sides[l] = pos ? 1 : neg ? -1 : 0;
    }
#endif
  }

#if defined(__SSE2__)
  static __m128d select(__m128d mask, __m128d a, __m128d b) {
    return _mm_or_pd(_mm_and_pd(mask, a), _mm_andnot_pd(mask, b));
  }
  static __m128d cap(__m128d as, __m128d len, __m128d len_sq, __m128d cos_angle, __m128d sin_angle) {
    const __m128d rest = _mm_max_pd(_mm_sub_pd(len_sq, _mm_mul_pd(as, as)), _mm_setzero_pd());
    const __m128d off_axis = _mm_add_pd(_mm_mul_pd(as, cos_angle), _mm_mul_pd(_mm_sqrt_pd(rest), sin_angle));
    return select(_mm_cmpge_pd(as, _mm_mul_pd(len, cos_angle)), len, off_axis);
  }
#endif

  // cap_max from a·s, |s| and |s|².
  static double cap(double as, double len, double len_sq, double cos_angle, double sin_angle) {
    const double off_axis = as * cos_angle + std::sqrt(std::max(0.0, len_sq - as * as)) * sin_angle;
    return as >= len * cos_angle ? len : off_axis;
  }

  void leaf(const NormalCone& c, int side) {
    double nd[NormalCone::kMaxLeafFaces];
    const int nf = c.face_end - c.face_begin;
    for (int k = 0; k < nf; ++k) {
      const ConeFace& f = d_.cone_faces[static_cast<std::size_t>(c.face_begin + k)];
      nd[k] = f.normal.dot(dir_);
      const double ns0 = f.normal.dot(s0_);
      const double h = f.offset - std::min(ns0, ns0 + nd[k]);
      // Select, not branch (unpredictable); the axis is read back at the end.
      const bool better = h < best_.h;
      best_.h = better ? h : best_.h;
      best_.kind = better ? Kind::face : best_.kind;
      best_.index = better ? c.face_begin + k : best_.index;
    }
    faces_ += nf;
    if (side != 0) return;
    // The arcs crossing G (strictly opposite signs of n·d at the two ends)
    // are gathered first without branching: about one in six crosses.
    constexpr int kChunk = 16;
    int crossing[kChunk];
    for (int base = c.edge_begin; base < c.edge_end; base += kChunk) {
      const int end = std::min(c.edge_end, base + kChunk);
      int n = 0;
      for (int k = base; k < end; ++k) {
        const ConeEdge& e = d_.cone_edges[static_cast<std::size_t>(k)];
        crossing[n] = k;
        n += nd[e.owner] * e.other_normal.dot(dir_) < 0.0 ? 1 : 0;
      }
      edges_ += end - base;
      for (int i = 0; i < n; ++i) edge(c, crossing[i]);
    }
  }

  // A silhouette edge k (its arc crosses G) as the axis e × d.
  void edge(const NormalCone& c, int k) {
    const ConeEdge& e = d_.cone_edges[static_cast<std::size_t>(k)];
    ++crossings_;
    const double scale2 = e.e.squaredNorm() * dir_len_ * dir_len_;
    Vec3 u;
    double l2;
    if (!cone_edge_axis(d_, c, e, dir_, scale2, u, l2)) return;
    double h;
    if (l2 > kWellConditioned * kWellConditioned * scale2) {
      h = u.dot(e.q - s0_);
    } else {
      int hint = -1;
      h = u.dot(poly_.core_support(u, hint)) - std::min(u.dot(s0_), u.dot(s1_));
    }
    if (h < best_.h) best_ = {h, u, Kind::edge, k};
  }

  const ConvexPolytope& poly_;
  const PolytopeData& d_;
  Vec3 s0_, s1_, dir_;
  double len0_, len1_, dir_len_, len0_sq_, len1_sq_;
#if defined(__SSE2__)
  // The query's scalars broadcast to both lanes.
  struct Lanes {
    __m128d dx, dy, dz, s0x, s0y, s0z, len0, len1, len0_sq, len1_sq, dir_len;
  } v_;
#endif
  SatStats* stats_;
  bool stop_apart_;
  ConeLeaves* keep_;
  double kept_bound_[ConeLeaves::kMax] = {};
  SegmentBest best_;  // u is set for edges only until run() returns
  long faces_ = 0, edges_ = 0, crossings_ = 0;
};

// `below`: only axes with h_C below it are searched (a known upper bound on
// the cores' depth, slightly raised); none found reports not_converged.
// `keep`: collect the features (sat_polytope_capsule_collect); `only`:
// evaluate only these features (sat_polytope_capsule_features).
// `on_polytope` (optional) receives whether point_a is on P's surface by
// construction (see sat_polytope_capsule_depth).
DistanceResult polytope_capsule(const ConvexPolytope& a, const Transform& ta, const detail::SegmentCore& b,
                                const Transform& tb, SatStats* stats, bool stop_apart,
                                double below = std::numeric_limits<double>::infinity(), ConeFeatures* keep = nullptr,
                                const ConeFeatures* only = nullptr, bool* on_polytope = nullptr,
                                double moved = std::numeric_limits<double>::infinity()) {
  if (on_polytope) *on_polytope = false;
  DistanceResult r;
  const PolytopeData& d = a.data();
  if (d.dimension < 3 || d.cones.empty()) {
    r.status = Status::not_implemented;  // flat core: no cone hierarchy
    return r;
  }
  // B's segment in A's frame.
  const Vec3 axis = ta.R.transpose() * tb.R.col(2);
  const Vec3 centre = ta.apply_inverse(tb.p);
  const Vec3 s0 = centre - b.half_length() * axis, s1 = centre + b.half_length() * axis;
  ConeLeaves leaves;
  if (keep) leaves.floor = below;
  SegmentSat sat(a, s0, s1, stats, stop_apart, below, keep ? &leaves : nullptr);
  const SegmentBest best = only ? sat.run_features(*only, moved) : sat.run();
  if (keep) sat.refine(*keep);
  if (!std::isfinite(best.h) || best.index < 0 || (keep && !(best.h < keep->floor))) {
    if (keep) keep->count = 0;  // the minimum is not proven to be among the kept features
    r.status = Status::not_converged;  // nothing below `below`; unseeded, unreachable for valid hulls
    return r;
  }
  // Deepest points on the cores, in A's frame: for a face, the segment's
  // trailing end along u pushed out to the face plane; for an edge, its
  // closest point to the segment.
  Vec3 pa;
  bool on_core;  // pa on P's core surface: an edge's point, or a face's inside its polygon
  if (best.kind == Kind::face) {
    pa = (best.u.dot(s0) <= best.u.dot(s1) ? s0 : s1) + best.h * best.u;
    on_core = on_polytope && detail::inside_face_polygon(d, d.cone_face_ids[static_cast<std::size_t>(best.index)], pa);
  } else {
    const ConeEdge& e = d.cone_edges[static_cast<std::size_t>(best.index)];
    const auto [s, t] = closed_form::closest_segment_params(e.q, e.q + e.e, s0, s1);
    (void)t;
    pa = e.q + s * e.e;  // s in [0, 1]: on the edge
    on_core = true;
  }
  const double ra = a.core_inflation(), rb = b.core_inflation();
  // With a margin the witness is off the core, on the rounded surface.
  if (on_polytope) *on_polytope = on_core && ra == 0.0;
  r.normal = ta.rotate(-best.u);
  r.distance = -best.h - ra - rb;
  r.point_a = ta.apply(pa) - ra * r.normal;
  r.point_b = r.point_a - r.distance * r.normal;
  return r;
}

}  // namespace

DistanceResult sat_polytope_capsule(const ConvexPolytope& a, const Transform& ta, const Capsule& b,
                                    const Transform& tb, SatStats* stats) {
  if (!both_valid(ta, tb)) {
    DistanceResult r;
    r.status = Status::invalid_input;
    return r;
  }
  return polytope_capsule(a, ta, detail::SegmentCore::of(b), tb, stats, false);
}

DistanceResult detail::sat_polytope_capsule_depth(const ConvexPolytope& a, const Transform& ta,
                                                  const Capsule& b, const Transform& tb) {
  return polytope_capsule(a, ta, SegmentCore::of(b), tb, nullptr, true);
}

DistanceResult detail::sat_polytope_capsule_below(const ConvexPolytope& a, const Transform& ta,
                                                  const SegmentCore& b, const Transform& tb, double below) {
  return polytope_capsule(a, ta, b, tb, nullptr, false, below);
}

DistanceResult detail::sat_polytope_capsule_collect(const ConvexPolytope& a, const Transform& ta,
                                                    const SegmentCore& b, const Transform& tb, double floor,
                                                    ConeFeatures& out) {
  out.count = 0;
  out.floor = floor;
  DistanceResult r = polytope_capsule(a, ta, b, tb, nullptr, false, floor, &out);
  if (r.status != Status::ok) out.count = 0;
  return r;
}

DistanceResult detail::sat_polytope_capsule_features(const ConvexPolytope& a, const Transform& ta,
                                                     const SegmentCore& b, const Transform& tb,
                                                     const ConeFeatures& set, double moved,
                                                     bool* witness_on_polytope) {
  return polytope_capsule(a, ta, b, tb, nullptr, false, std::numeric_limits<double>::infinity(), nullptr, &set,
                          witness_on_polytope, moved);
}

DistanceResult detail::sat_polytope_capsule_depth(const ConvexPolytope& a, const Transform& ta,
                                                  const SegmentCore& b, const Transform& tb, const Vec3& normal_guess,
                                                  int* guess_vertex, bool* witness_on_polytope) {
  if (witness_on_polytope) *witness_on_polytope = false;
  const PolytopeData& d = a.data();
  if (d.dimension < 3 || d.cones.empty()) return polytope_capsule(a, ta, b, tb, nullptr, true);
  // h_C along the guess (one support call) bounds the cores' depth from
  // above. The slack keeps the facet that attains it (computed in the walk
  // along another rounding path) strictly under the bound.
  // The centre line is tried too (a second, short hill climb): a warm start
  // far off the answer bounds worse than it.
  const Vec3 centre = ta.apply_inverse(tb.p);
  const Vec3 axis = ta.R.transpose() * tb.R.col(2);
  int vertex = -1;
  const auto h_along = [&](const Vec3& dir) {
    return dir.dot(a.core_support(dir, vertex)) - dir.dot(centre) + b.half_length() * std::abs(dir.dot(axis));
  };
  Vec3 u = centre.squaredNorm() > 0.0 ? Vec3(centre.normalized()) : Vec3(Vec3::UnitZ());
  double h = h_along(u);
  const Vec3 g = -(ta.R.transpose() * normal_guess);
  if (g.allFinite() && g.squaredNorm() > 0.0) {
    const Vec3 ug = g.normalized();
    const int centre_vertex = vertex;
    const double hg = h_along(ug);
    if (hg < h) {
      h = hg;
      u = ug;
    } else {
      vertex = centre_vertex;
    }
  }
  if (guess_vertex) *guess_vertex = vertex;
  if (h <= 0.0) {
    // The guess's plane already separates the cores: GJK takes over from it.
    DistanceResult r;
    r.normal = ta.rotate(-u);
    r.distance = -h - a.core_inflation() - b.core_inflation();
    r.point_a = r.point_b = ta.apply(centre);
    return r;
  }
  const double below = h + 1e-9 * (1.0 + h);
  if (std::isfinite(below)) {
    const DistanceResult r = polytope_capsule(a, ta, b, tb, nullptr, true, below, nullptr, nullptr, witness_on_polytope);
    if (r.status != Status::not_converged) return r;
  }
  return polytope_capsule(a, ta, b, tb, nullptr, true, std::numeric_limits<double>::infinity(), nullptr, nullptr,
                          witness_on_polytope);
}

}  // namespace proxima::narrow
