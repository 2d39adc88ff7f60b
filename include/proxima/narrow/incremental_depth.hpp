// SPDX-License-Identifier: BSD-3-Clause
// Incremental penetration depth (Efficient Incremental Penetration Depth Estimation between Convex
// Geometries): SQP over the direction d, with the MPR ray cast of
// narrow/mpr.hpp as the inner step (Alg. 3) and the paper's shortcut
// (Alg. 4–5). For OVERLAPPING pairs only: the caller has run GJK and knows
// the shapes (with their inflation) intersect.
//
// Notation (mpr.hpp): C = A ⊖ B with inflation, h(u) its support value, ρ(d)
// the distance from the origin to ∂C along d. PD = min_u h(u) = min_d ρ(d),
// reached at d*; this project's normal (B→A) is −d*.
//
// One SQP step at direction d (Alg. 4 with Alg. 5 as subroutine):
//   * MPR along d. Its first support call gives h(d) ≥ ρ(d).
//   * Every portal crossing gives a lower bound L ≤ ρ(d); every support call
//     h(u) at a unit u is an upper bound on PD (the plane u·x = h(u) bounds
//     C, so translating A by h(u) along −u separates). The smallest h seen,
//     over every direction tried, is kept as the answer.
//   * Shortcut (Alg. 5): as soon as a support call at u has h(u) < L, the
//     ray along u leaves C closer than along d (ρ(u) ≤ h(u) < L ≤ ρ(d));
//     abandon d and continue from u.
//   * Otherwise MPR converges (portal within eps of the plane at its normal
//     n) and the SQP step is d ← n (Alg. 3: project the origin on the
//     supporting plane).
//   * Stop (the stationarity certificate) as soon as L ≥ h(d) − eps: then
//     h(d) − eps ≤ ρ(d) ≤ h(d), i.e. the point where the ray along d leaves
//     C has, within eps, d itself as a supporting-plane normal — the KKT
//     condition of min ρ. (The paper's stop, "new direction equals the old
//     and the bound gap is small", implies this one.)
//
// Inflation model (a Proxima addition, PenetrationOptions::inflation_model):
// every shape is core ⊕ ball(r), so C = C0 ⊕ ball(r) with C0 = core_A ⊖
// core_B and r = r_A + r_B. Before the SQP, a GJK on the core points
// (s_C(p) − r p) runs; for any point v of their hull, ball(v, r) ⊂ C, hence
// PD ≥ r − |v| for EVERY direction (a global lower bound). When the cores are
// apart this meets the upper bound in a few support calls (sphere, capsule
// and margin pairs); otherwise the SQP takes over from the best direction.
// Without it, the SQP on a curved boundary contracts the direction error only
// linearly (by PD / radius of curvature per step), hundreds of support calls
// for a 1e-4 rad normal.
//
// Every answer carries, with eps = tol_abs + tol_rel · |largest support point|:
//   1. PD ≤ −distance exactly (an upper bound, as the paper returns): the
//      value is h_C(−normal) evaluated at the returned normal, so translating
//      A by (−distance + δ)·normal separates the pair for every δ > 0. This
//      holds whatever the status.
// status ok additionally certifies ONE of:
//   2. (global) −distance − eps ≤ PD: the inflation model's bound r − |v|
//      is within eps of the answer. Exact to eps, no local-minimum risk.
//   3. (local, only with accept_local) stationarity and the sampled check:
//      some direction d_f tried has h(d_f) − eps ≤ ρ(d_f) ≤ h(d_f) and
//      −distance ≤ h(d_f) (the answer is within eps of a critical value of
//      the distance from the origin to ∂C), and no direction tried and none
//      of the check directions (the answer's antipode, ±axes of A's and of
//      B's frame, A's 8 diagonals, 8 directions 20° around the answer) has a
//      support value below −distance − eps.
// (3) does NOT certify global optimality: the distance from an interior point
// to ∂C can have several local minima (a polytope has one per facet whose
// foot point lies inside it; a vertex in its own normal cone is even a
// critical point), and a non-global stop that no check direction exposes
// passes. Measured on random overlapping poses (the test), about 4–10% of
// polytope answers accepted by (3) are such local minima, up to 0.05 off;
// hence accept_local is off by default and such answers report
// not_converged: the caller falls back to an exact method (EPA/SAT), and may
// still use the returned upper bound and direction as its warm start. When
// the sampled check exposes a better direction, the SQP restarts from it (up
// to max_restarts times) before giving up.
//
// The cone certificate (a Proxima addition, PenetrationOptions::
// cone_certificate), for a polytope against a capsule, a sphere or a box, in
// either order, whose cores overlap. There the inflation model's bound stops
// at r (the origin is inside the cores' difference C0), the SQP's stationary
// stops are local minima often enough (above), and the sampled check is no
// proof. The proof used instead: C = C0 ⊕ ball(r) and C0 = P ⊖ Q is a
// polytope (Q the segment, point or box core), so for an origin inside C0
// PD = r + min over C0's facets of their support value h. The walk of
// narrow/sat.hpp (sat_polytope_capsule_below, sat_polytope_box_depth)
// enumerates those facets on P's Gauss-map cone hierarchy, pruning every
// cone whose lower bound on h is ≥ `below`; asked for facets below
// below = best_h − r − eps (best_h the SQP's smallest support value, a proven
// upper bound on PD), it either
//   * finds none: every facet has h ≥ below > 0, so the origin is inside C0
//     and PD ≥ r + below = best_h − eps. With PD ≤ best_h the SQP's answer
//     is bracketed within eps: status ok, a proof, not a sample; or
//   * finds some: its answer, the smallest facet value (all facets below
//     `below` were searched), is the exact depth, replacing the SQP's
//     (a local minimum) when that value is > 0 (origin inside C0).
// When best_h ≤ r + eps the bracket proves nothing about the cores (they may
// be apart) and the answer stays as the rest of this comment says. The walk
// replaces the sampled check on these pairs. Measured (proxima-bench,
// polytope(200), deep overlaps): the walk costs about what the warm-started
// SAT does (0.8 µs on the capsule, 1.2–1.5 µs on the box) and the SQP
// 8–60 support calls (1.6–4.8 µs in all) before it, so the request path
// (query.hpp, Method::incremental) asks the capsule's walk directly with the
// warm start's support value as its bound and leaves the box to EPA (1.3 µs,
// 0.75 µs on 3 mm overlaps), and this function, without a cache, is the
// certified SQP for callers who want the paper's method; with a
// PenetrationCache it answers these pairs by the coherence certificate below.
//
// The coherence certificate (a Proxima addition, with a PenetrationCache, on
// the cone certificate's pairs): the paper warm-starts from the previous
// answer's direction (Sec. III-C, Initialization: temporal coherence); this
// carries the previous answer's proof instead, so that after a small motion
// neither the SQP nor the walk runs. Notation: P the hull, Q the other
// core (segment, point, box), both in P's frame, C0 = P ⊖ Q, h(u) =
// h_P(u) + h_{−Q}(u) its support function, and for an origin inside C0 the
// cores' depth is min over C0's facets of h at their normals. Every facet
// normal of C0 lies in the Gauss-map region of a feature of P (a face's
// normal, or a point of an edge's arc where it crosses Q's edge circles)
// or is a face normal of Q (a box's six).
//   Collection (at a certified answer, pose M0): the cone walk of
//   narrow/sat.hpp with a FIXED threshold F instead of the best value
//   opens every cone whose bound is below F (its stack cannot fill:
//   NormalCone::kMaxDepth) and keeps the leaves reached, then their features whose h (a face) or lower bound on h over the arc
//   (an edge: h(u) ≥ u·(q − x) for an end q of the edge and any point x of
//   Q, minimised over the arc exactly) is below F; when a cap on either
//   count is hit, the largest value dropped becomes F. So at M0, for every
//   direction u in the region of a feature NOT kept, h_M0(u) ≥ F (the cone
//   bounds of NormalCone hold on a cone's whole cap). Stored: the features,
//   F, Q's placement at M0, the hull (a weak reference), Q's sizes and the
//   inflation r. The collected answer must be below F (else nothing is
//   stored): its facet is then among the kept features.
//   Check (pose M1 of the same hull, core sizes, inflation and order): Δ =
//   the largest displacement of a vertex of Q between its placements at M0
//   and M1 (the displacement is affine on Q, so a vertex attains its
//   largest norm). For every unit u, |h_{−Q,M1}(u) − h_{−Q,M0}(u)| ≤ Δ and
//   h_P does not change, so every direction in a non-kept feature's region
//   has h_M1(u) ≥ F − Δ. The kept features are evaluated at M1 exactly as
//   the walk evaluates facets, and Q's faces (a box) by a support call each
//   unless h_P(u) ≥ h_P(u0) − |P| |u − u0| (u0 the face's normal at M0,
//   h_P sublinear) already puts them above the best. With v the smallest
//   value found: if 0 < v ≤ F − Δ − slack, every facet of C0 at M1 has h ≥
//   v > 0, so the origin is inside C0 and the cores' depth is v exactly:
//   status ok, the same answer the full walk gives (slack = 1e-9 of the
//   lengths involved, far above the rounding of the bounds).
//   Otherwise v is still a support value (an upper bound on the depth), and
//   the collecting walk runs at M1 with its threshold at v plus a margin:
//   the exact answer and a new certificate, still without the SQP. Only a
//   cache of another pair, a motion Δ ≥ F, or a walk whose answer ends
//   above its lowered threshold leaves the SQP to answer (re-collecting).
//   A cache without a certificate (fresh, or of another pair) and without a
//   direction is answered the same way from the unbounded pruned walk: its
//   answer, the smallest facet value of C0 over all facets, is the cores'
//   depth when positive (then the collecting walk runs at it plus the
//   margin); when not, the cores are apart and the SQP answers.
//   Cores apart (the radius-only overlaps of a capsule or sphere): the
//   check finds v ≤ 0 and refuses (v > 0 is what proves the origin inside
//   C0), the SQP's inflation model answers, and the certificate is kept,
//   unused: it speaks of the pose M0 only, and the check at a later pose
//   proves again, from Δ and v > 0, whatever it answers. No collecting
//   walk runs while the cores may be apart (depth ≤ r): walk() would
//   refuse its answer.
// Cores apart, with a PenetrationCache (a Proxima addition): when the last
// answer had the cores apart (PD ≤ r: a sphere's, a capsule's or a
// margin's shallow contact), the next query first runs GJK between the
// cores from the cache's simplex (GjkCache). Cores apart at distance δ
// give PD = r − δ, the inflation model's bound met: GJK's |v| ≥ δ gives
// PD ≥ r − |v|, and the support value h_C(u) along GJK's direction gives
// PD ≤ h_C(u). Within eps of each other, r − |v| is the answer (status ok,
// the same certificate 2 as the SQP's), its witnesses GJK's closest points
// moved out along the normal by each shape's radius; otherwise (the cores overlap now,
// the pair is apart, or the bounds are further apart) the query goes on as
// without it. After a small motion GJK starts from the closest features
// and stops in one or two steps: on polytope(200)–capsule shallow-contact
// pose sequences (proxima-bench) a step's median went from 557 to 268 ns.
// A cache names its hull by a weak reference to the hull's shared data
// (ConvexPolytope::shared_data): a copy of the hull matches, another hull
// never does, not even one built where a freed one was. Garbage in the
// cache's public fields (direction, hints) only changes the warm start.
//
// No heap allocation; templated on both shape types; the inner loops are the
// inlined support calls of detail::DifferenceSupport.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>

#include <proxima/narrow/mpr.hpp>
#include <proxima/narrow/sat.hpp>
#include <proxima/query.hpp>

namespace proxima {

namespace detail {
struct ConeCoherenceAccess;
}

/// The coherence certificate's state (see the file comment), kept in a
/// PenetrationCache and written only by incremental_penetration: the hull it
/// is about (a weak reference: ConvexPolytope::shared_data), the other
/// shape's core and inflation and the pair's order, where that core lay in
/// the hull's frame when the features were collected, and the features with
/// their floor. A certificate for any other pair is never used.
class ConeCoherence {
 public:
  /// True when it holds a certificate (for this pair or another).
  bool holds() const { return features_.count > 0; }
  void clear() {
    features_.count = 0;
    poly_.reset();
  }

 private:
  friend struct detail::ConeCoherenceAccess;
  std::weak_ptr<const PolytopeData> poly_;
  int kind_ = 0;              // 1: a segment core (capsule, sphere), 2: a box core
  bool poly_first_ = true;    // the hull is A
  Vec3 size_ = Vec3::Zero();  // segment: (half length, 0, 0); box: half extents
  double inflation_ = 0.0;    // r_A + r_B
  Vec3 centre_ = Vec3::Zero();
  Mat3 axes_ = Mat3::Identity();
  narrow::detail::ConeFeatures features_;
};

/// Caller-owned warm start for one pair, filled on exit. `direction` is the
/// last normal (unit, B→A, world frame); zero means none (cold start from the
/// centre difference). The hints speed up hill climbing on polytopes.
/// `coherence`: for a polytope against a capsule, a sphere or a box, the
/// coherence certificate of the last certified answer, which answers the
/// next query of a small motion without the SQP (see the file comment).
/// `cores`: GJK's warm start between the two cores while the last answer
/// had them apart (a shallow contact of a sphere, a capsule or a margin);
/// its direction is zero otherwise. The next query then measures the
/// cores' distance from it first (see the file comment).
struct PenetrationCache {
  Vec3 direction = Vec3::Zero();
  int hint_a = -1;
  int hint_b = -1;
  ConeCoherence coherence;
  GjkCache cores;
};

struct PenetrationOptions {
  /// eps = tol_abs + tol_rel · L, L the largest support point of C seen: the
  /// MPR tolerance and the stationarity tolerance of the certificate.
  double tol_abs = 0.0;
  double tol_rel = 1e-9;
  /// Cap on support calls in total (all rays, checks and restarts).
  int max_iterations = 400;
  /// Cap on rays cast (SQP steps).
  int max_directions = 100;
  /// Sampled check for a non-optimal stop (see the file comment).
  bool check = true;
  /// Restarts from a better check direction before giving up.
  int max_restarts = 2;
  /// Accept a stationary answer that passed the sampled check but has no
  /// global certificate (status ok). Off by default: on polytopes such
  /// answers are local minima often enough (about 10% of overlapping random
  /// poses in tests/narrow/incremental_depth_test.cpp) that ok would lie.
  bool accept_local = false;
  /// Inflation model (a Proxima addition, not in the paper): use the known
  /// core ⊕ ball(r) structure of the shapes for a GJK on the core points
  /// and the global lower bound PD ≥ r − |v| (see the file comment).
  bool inflation_model = true;
  /// Cone certificate (a Proxima addition, see the file comment): for a
  /// polytope against a capsule, sphere or box, prove the answer on the
  /// polytope's Gauss-map cone hierarchy instead of the sampled check, or
  /// replace it by the exact one the proof finds.
  bool cone_certificate = true;
};

namespace detail {

/// Pairs that the cone certificate covers (see the file comment).
template <class A, class B>
inline constexpr bool kConeCertified =
    (std::is_same_v<A, ConvexPolytope> &&
     (std::is_same_v<B, Capsule> || std::is_same_v<B, Sphere> || std::is_same_v<B, Box>)) ||
    (std::is_same_v<B, ConvexPolytope> &&
     (std::is_same_v<A, Capsule> || std::is_same_v<A, Sphere> || std::is_same_v<A, Box>));

/// The cone walk's facets of P ⊖ Q below `below` (the cores' depth, see
/// narrow/sat.hpp), in the pair's own order: `guess` is a B→A normal, and
/// the answer's normal and witnesses are A–B like every answer here.
template <class A, class B>
DistanceResult cone_walk_below(const A& a, const Transform& ta, const B& b, const Transform& tb, const Vec3& guess,
                               double below) {
  const auto walk = [below](const ConvexPolytope& p, const Transform& tp, const auto& q, const Transform& tq,
                            const Vec3& g) {
    if constexpr (std::is_same_v<std::decay_t<decltype(q)>, Box>) {
      return narrow::detail::sat_polytope_box_depth(p, tp, q, tq, g, below);
    } else {
      (void)g;
      return narrow::detail::sat_polytope_capsule_below(p, tp, narrow::detail::SegmentCore::of(q), tq, below);
    }
  };
  if constexpr (std::is_same_v<A, ConvexPolytope>) {
    return walk(a, ta, b, tb, guess);
  } else {
    DistanceResult r = walk(b, tb, a, ta, Vec3(-guess));
    r.normal = -r.normal;
    std::swap(r.point_a, r.point_b);
    return r;
  }
}

/// The coherence certificate (file comment): checking a PenetrationCache's
/// ConeCoherence at a new pose, and collecting one at a certified answer.
struct ConeCoherenceAccess {
  template <class Q>
  static constexpr int kind() {
    return std::is_same_v<Q, Box> ? 2 : 1;
  }
  template <class Q>
  static Vec3 size(const Q& q) {
    if constexpr (std::is_same_v<Q, Box>) {
      return q.half_extents();
    } else if constexpr (std::is_same_v<Q, Capsule>) {
      return Vec3(q.half_length(), 0.0, 0.0);
    } else {
      (void)q;
      return Vec3::Zero();
    }
  }
  /// The facets of P ⊖ Q that the features of `set` give at this pose;
  /// `on_p`: whether the answer's point on P is on its surface by
  /// construction.
  template <class Q>
  static DistanceResult features(const ConvexPolytope& p, const Transform& tp, const Q& q, const Transform& tq,
                               const narrow::detail::ConeFeatures& set, double moved, int& hint, bool* on_p) {
    if constexpr (std::is_same_v<Q, Box>) {
      return narrow::detail::sat_polytope_box_features(p, tp, q, tq, set, moved, hint, on_p);
    } else {
      (void)hint;
      return narrow::detail::sat_polytope_capsule_features(p, tp, narrow::detail::SegmentCore::of(q), tq, set,
                                                           moved, on_p);
    }
  }
  /// Whether `c` was collected for this hull, this core (size, inflation)
  /// and this order.
  template <class Q>
  static bool same_pair(const ConvexPolytope& p, const Q& q, bool poly_first, const ConeCoherence& c) {
    const std::shared_ptr<const PolytopeData>& mine = p.shared_data();
    return c.features_.count > 0 && c.kind_ == kind<Q>() && c.poly_first_ == poly_first && c.size_ == size(q) &&
           c.inflation_ == p.core_inflation() + q.core_inflation() && !c.poly_.owner_before(mine) &&
           !mine.owner_before(c.poly_);
  }
  /// How far the collecting walk's floor is asked above the depth: the
  /// walk lowers it to keep at most ConeFeatures::kMax features. Higher: larger
  /// motions certified, a longer walk.
  static double floor_margin(const ConvexPolytope& p) {
    return 0.02 * (p.data().bounds.max - p.data().bounds.min).norm();
  }
  /// The certificate at a new pose (P the hull, Q the other shape): true
  /// with `out` the exact answer (P–Q order) when it holds. Otherwise, when
  /// the cache was this pair's, `bound` receives the smallest facet value
  /// of its features (a support value of P ⊖ Q: an upper bound on the
  /// cores' depth), else +inf. `on_p` as features().
  template <class Q>
  static bool check(const ConvexPolytope& p, const Transform& tp, const Q& q, const Transform& tq, bool poly_first,
                    const ConeCoherence& c, int& hint, DistanceResult& out, double& bound, bool* on_p) {
    bound = std::numeric_limits<double>::infinity();
    if (!same_pair(p, q, poly_first, c)) return false;
    // Δ: the largest displacement of a point of Q's core between the
    // collecting placement and this one, both in P's frame. The
    // displacement is affine in the core point, so its norm is largest at a
    // vertex: the segment's ends, the box's corners (a sphere: its centre).
    const Vec3 centre = tp.apply_inverse(tq.p);
    const Mat3 axes = tp.R.transpose() * tq.R;
    const Vec3 dc = centre - c.centre_;
    const Mat3 dr = axes - c.axes_;
    double delta2 = 0.0;
    if constexpr (std::is_same_v<Q, Box>) {
      // A corner moves by dc + Σ σ_i a_i (a_i: dr's column i times the half
      // extent, σ_i = ±1): its squared norm is |dc|² + Σ |a_i|² + 2 Σ σ_i
      // a_i·dc + 2 Σ_{i<j} σ_i σ_j a_i·a_j, the dot products taken once;
      // σ_0 at its best makes its terms |g0 + σ_1 m01 + σ_2 m02|.
      const Vec3 a0 = c.size_[0] * dr.col(0), a1 = c.size_[1] * dr.col(1), a2 = c.size_[2] * dr.col(2);
      const double base = dc.squaredNorm() + a0.squaredNorm() + a1.squaredNorm() + a2.squaredNorm();
      const double g0 = 2.0 * a0.dot(dc), g1 = 2.0 * a1.dot(dc), g2 = 2.0 * a2.dot(dc);
      const double m01 = 2.0 * a0.dot(a1), m02 = 2.0 * a0.dot(a2), m12 = 2.0 * a1.dot(a2);
      const double most = std::max(std::max(g1 + g2 + m12 + std::abs(g0 + m01 + m02),
                                            g1 - g2 - m12 + std::abs(g0 + m01 - m02)),
                                   std::max(-g1 + g2 - m12 + std::abs(g0 - m01 + m02),
                                            -g1 - g2 + m12 + std::abs(g0 - m01 - m02)));
      delta2 = std::max(0.0, base + most);
    } else {
      const Vec3 end = c.size_.x() * dr.col(2);
      delta2 = std::max((dc + end).squaredNorm(), (dc - end).squaredNorm());
    }
    const double delta = std::sqrt(delta2);
    const double floor = c.features_.floor;
    // Rounding of the bounds and of the facet values (all O(1e-16) of the
    // lengths involved): a margin far above it.
    const double slack = 1e-9 * (1.0 + std::abs(floor) + centre.norm() + c.size_.norm());
    if (!(delta < floor)) return false;  // moved too far for the features to matter
    const DistanceResult w = features(p, tp, q, tq, c.features_, delta, hint, on_p);
    if (w.status != Status::ok) return false;
    const double h = -w.distance - c.inflation_;  // the smallest facet value of the features
    bound = h;
    if (!(h > 0.0 && h <= floor - delta - slack)) return false;
    out = w;
    return true;
  }
  /// The collecting walk at this pose with the floor asked at `floor`:
  /// true with `out` the exact answer (P–Q order) and `c` the new
  /// certificate when the answer lies below the floor the walk ends with
  /// (then every facet outside the kept features is above it, so the answer
  /// is the smallest facet of P ⊖ Q); false and `c` cleared otherwise.
  template <class Q>
  static bool walk(const ConvexPolytope& p, const Transform& tp, const Q& q, const Transform& tq, bool poly_first,
                   double floor, ConeCoherence& c, DistanceResult& out) {
    c.clear();
    if (!(floor > 0.0)) return false;
    DistanceResult w;
    if constexpr (std::is_same_v<Q, Box>) {
      w = narrow::detail::sat_polytope_box_collect(p, tp, q, tq, floor, c.features_);
    } else {
      w = narrow::detail::sat_polytope_capsule_collect(p, tp, narrow::detail::SegmentCore::of(q), tq, floor,
                                                       c.features_);
    }
    const double inflation = p.core_inflation() + q.core_inflation();
    // An answer with the cores apart (h ≤ 0) is no depth: the origin is then
    // outside P ⊖ Q and its facets bound a distance, not a depth.
    if (w.status != Status::ok || c.features_.count == 0 || !(-w.distance - inflation > 0.0)) {
      c.clear();
      return false;
    }
    c.poly_ = p.shared_data();
    c.kind_ = kind<Q>();
    c.poly_first_ = poly_first;
    c.size_ = size(q);
    c.inflation_ = inflation;
    c.centre_ = tp.apply_inverse(tq.p);
    c.axes_ = tp.R.transpose() * tq.R;
    out = w;
    return true;
  }
  /// h_{−Q}(u) in P's frame (Q's core placed by tq, seen from tp).
  template <class Q>
  static double minus_q_support(const Vec3& u, const Transform& tp, const Q& q, const Transform& tq) {
    const Vec3 centre = tp.apply_inverse(tq.p);
    const Mat3 axes = tp.R.transpose() * tq.R;
    double h = -u.dot(centre);
    if constexpr (std::is_same_v<Q, Box>) {
      for (int i = 0; i < 3; ++i) h += q.half_extents()[i] * std::abs(u.dot(axes.col(i)));
    } else if constexpr (std::is_same_v<Q, Capsule>) {
      h += q.half_length() * std::abs(u.dot(axes.col(2)));
    } else {
      (void)q;
    }
    return h;
  }
  /// check(), else the collecting walk from an upper bound on the cores'
  /// depth: the smallest facet value under this pair's cached features, or
  /// without them h_C along the warm start `guess` (a unit direction of
  /// P ⊖ Q in P's frame), or without a guess the exact cores' depth of the
  /// unbounded pruned walk.
  template <class Q>
  static bool answer_pq(const ConvexPolytope& p, const Transform& tp, const Q& q, const Transform& tq,
                        bool poly_first, const Vec3& guess, ConeCoherence& c, int& hint, DistanceResult& out,
                        bool* on_p) {
    double bound = 0.0;
    if (check(p, tp, q, tq, poly_first, c, hint, out, bound, on_p)) return true;
    if (on_p) *on_p = false;
    if (!std::isfinite(bound)) {
      // The collecting walk opens every cone below its threshold, so it is
      // given the exact depth: the pruned walk (cheap) below h_C along the
      // guess finds it first. Without a guess the walk prunes on the best
      // facet it has found (the cold SAT, cheaper than the SQP it replaces:
      // about 8k instructions against 30k on polytope(200)–capsule); its
      // answer is the smallest facet of P ⊖ Q over all of them, the cores'
      // depth when positive, and when not the cores are apart (the SQP's
      // inflation model answers those).
      double below = std::numeric_limits<double>::infinity();
      if (guess.allFinite() && guess.squaredNorm() > 0.5) {
        const double h = guess.dot(p.core_support(guess, hint)) + minus_q_support(guess, tp, q, tq);
        if (!(h > 0.0)) return false;
        below = h + 1e-9 * (1.0 + h);
      }
      DistanceResult w;
      if constexpr (std::is_same_v<Q, Box>) {
        w = narrow::detail::sat_polytope_box_depth(p, tp, q, tq, Vec3::Zero(), below);
      } else {
        w = narrow::detail::sat_polytope_capsule_below(p, tp, narrow::detail::SegmentCore::of(q), tq, below);
      }
      if (w.status != Status::ok) return false;
      bound = -w.distance - p.core_inflation() - q.core_inflation();
    }
    // h ≤ 0: the guess's plane separates the cores, no depth of theirs to walk for.
    return std::isfinite(bound) && bound > 0.0 && walk(p, tp, q, tq, poly_first, bound + floor_margin(p), c, out);
  }
  /// The cache in the pair's own order (`normal_guess` B→A, world frame;
  /// zero: none). True with `out` an exact answer (status ok) and the
  /// cache's certificate for this pose or an earlier one. `on_p`
  /// (optional) receives whether the answer's point on the polytope is on
  /// its surface by construction.
  template <class A, class B>
  static bool answer(const A& a, const Transform& ta, const B& b, const Transform& tb, const Vec3& normal_guess,
                     ConeCoherence& c, int& hint, DistanceResult& out, bool* on_p = nullptr) {
    const bool guessed = normal_guess.allFinite() && normal_guess.squaredNorm() > 0.0;
    if constexpr (std::is_same_v<A, ConvexPolytope>) {
      // C = A ⊖ B: its direction is −normal, in A's frame.
      const Vec3 u = guessed ? Vec3(-(ta.R.transpose() * normal_guess).normalized()) : Vec3(Vec3::Zero());
      return answer_pq(a, ta, b, tb, true, u, c, hint, out, on_p);
    } else {
      // P ⊖ Q = B ⊖ A = −C: its direction is +normal, in B's frame.
      const Vec3 u = guessed ? Vec3((tb.R.transpose() * normal_guess).normalized()) : Vec3(Vec3::Zero());
      if (!answer_pq(b, tb, a, ta, false, u, c, hint, out, on_p)) return false;
      out.normal = -out.normal;
      std::swap(out.point_a, out.point_b);
      return true;
    }
  }
  /// A certificate collected at a certified answer whose cores' depth is
  /// `core_depth` (`c` cleared when the walk keeps none).
  template <class A, class B>
  static void collect(const A& a, const Transform& ta, const B& b, const Transform& tb, double core_depth,
                      ConeCoherence& c) {
    DistanceResult unused;
    if constexpr (std::is_same_v<A, ConvexPolytope>) {
      (void)walk(a, ta, b, tb, true, core_depth + floor_margin(a), c, unused);
    } else {
      (void)walk(b, tb, a, ta, false, core_depth + floor_margin(b), c, unused);
    }
  }
};

/// The answer from GJK between the cores when they are apart (file
/// comment: "Cores apart, with a PenetrationCache"): true with `out` set,
/// certified. False when GJK finds the cores overlapping (then
/// `cache.cores` is cleared), the pair apart, or the bounds more than eps
/// apart.
template <class A, class B>
bool cores_apart_answer(const A& a, const Transform& pose_a, const B& b, const Transform& pose_b,
                        const PenetrationOptions& opt, PenetrationCache& cache, DistanceResult& out) {
  const double r = a.core_inflation() + b.core_inflation();
  if (!(r > 0.0)) return false;
  GjkOptions go;
  go.tol_abs = 0.5 * opt.tol_abs;
  go.tol_rel = 0.5 * opt.tol_rel;
  go.max_iterations = opt.max_iterations;
  go.stop_above = r;  // the cores farther apart than r: the pair does not overlap
  const GjkResult g = gjk(a, pose_a, b, pose_b, go, &cache.cores);
  if (g.overlap) cache.cores = GjkCache{};
  if (g.status != Status::ok || g.overlap || g.stopped_above) return false;
  DifferenceSupport<A, B> sup(a, pose_a, b, pose_b, cache.hint_a, cache.hint_b);
  const Vec3 u = -(pose_a.R.transpose() * g.direction);  // C's direction: −normal, in A's frame
  const double h = u.dot(sup(u));
  const double eps = opt.tol_abs + opt.tol_rel * sup.scale();
  // PD ≤ h (the plane across u) and PD ≥ r − |v| (|v| = g.distance ≥ δ).
  if (!(h > eps && h - (r - g.distance) <= eps)) return false;
  // The depth r − |v| (within eps of h), with the cores' closest points
  // moved out to the surfaces along the normal as witnesses: on both
  // shapes, where A's support point along u, dropped by h onto B's plane,
  // lies on B only by chance.
  out.status = Status::ok;
  out.iterations = g.iterations + 1;
  out.normal = g.direction;
  out.distance = g.distance - r;
  out.point_a = g.point_a - a.core_inflation() * out.normal;
  out.point_b = g.point_b + b.core_inflation() * out.normal;
  cache.direction = out.normal;
  cache.hint_a = sup.md.sa.hint();
  cache.hint_b = sup.md.sb.hint();
  return true;
}

/// What the cache answers without the SQP, both certified and neither
/// assuming that the pair overlaps: the cores' distance while they were
/// apart at the last answer, the coherence certificate (file comment) after
/// a small motion, else the collecting walk bounded by the guess. True with
/// `out` the exact answer and the cache filled for the next query.
/// `polytope_witness_known` (optional) receives whether the answer's point
/// on the polytope lies on its surface by construction.
template <class A, class B>
bool cached_answer(const A& a, const Transform& pose_a, const B& b, const Transform& pose_b,
                   const Vec3& normal_guess, int hint_a, int hint_b, const PenetrationOptions& opt,
                   PenetrationCache& cache, DistanceResult& out, bool* polytope_witness_known = nullptr) {
  if (polytope_witness_known) *polytope_witness_known = false;
  if (opt.inflation_model && cache.cores.direction.squaredNorm() > 0.0 &&
      cores_apart_answer(a, pose_a, b, pose_b, opt, cache, out)) {
    return true;
  }
  if constexpr (kConeCertified<A, B>) {
    if (opt.cone_certificate) {
      int& hint = std::is_same_v<A, ConvexPolytope> ? hint_a : hint_b;
      if (ConeCoherenceAccess::answer(a, pose_a, b, pose_b, normal_guess, cache.coherence, hint, out,
                                      polytope_witness_known)) {
        cache.direction = out.normal;
        cache.hint_a = hint_a;
        cache.hint_b = hint_b;
        return true;
      }
    }
  }
  return false;
}

template <class A, class B>
struct PenetrationVisitor {
  DifferenceSupport<A, B>& sup;
  double tol_abs, tol_rel;
  double best_h = std::numeric_limits<double>::infinity();
  Vec3 best_u = Vec3::UnitX(), best_a = Vec3::Zero(), best_b = Vec3::Zero();
  double hd = std::numeric_limits<double>::infinity();  ///< h(d) of the current ray
  bool have_hd = false, certified = false, shortcut = false, zero = false;
  Vec3 next = Vec3::UnitX();

  double eps() const { return tol_abs + tol_rel * sup.scale(); }
  void start() {
    have_hd = certified = shortcut = false;
  }
  void record(const Vec3& u, double h) {
    if (h < best_h) {
      best_h = h;
      best_u = u;
      best_a = sup.a;
      best_b = sup.b;
    }
  }
  bool support(const Vec3& u, double h, double L) {
    if (!have_hd) {
      hd = h;  // the first call of a ray is s(d)
      have_hd = true;
    }
    record(u, h);
    if (h <= eps()) {
      zero = true;  // PD ≤ h ≤ eps (and ≥ 0 by the precondition), or separated
      return true;
    }
    if (L > 0.0 && h < L) {
      shortcut = true;  // Alg. 5: the upper bound along u is below the lower bound along d
      next = u;
      return true;
    }
    return false;
  }
  bool lower(double L) {
    if (L >= hd - eps()) certified = true;  // stationarity certificate at d
    return certified;
  }
};

template <class A, class B>
DistanceResult incremental_penetration_impl(const A& a, const Transform& pose_a, const B& b,
                                            const Transform& pose_b, const Vec3& normal_guess,
                                            int hint_a, int hint_b, const PenetrationOptions& opt,
                                            PenetrationCache* cache) {
  DistanceResult out;
  if (!both_valid(pose_a, pose_b)) {
    out.status = Status::invalid_input;
    return out;
  }
  if (cache && cached_answer(a, pose_a, b, pose_b, normal_guess, hint_a, hint_b, opt, *cache, out)) return out;
  DifferenceSupport<A, B> sup(a, pose_a, b, pose_b, hint_a, hint_b);
  const Mat3& R = sup.md.R;
  const Vec3& t = sup.md.t;
  PenetrationVisitor<A, B> vis{sup, opt.tol_abs, opt.tol_rel};

  // Initial direction d0 = −(normal guess); cold: the centre difference. C is
  // centred near c_A − c_B = −t, so the boundary is nearest along +t.
  Vec3 d = t;
  if (normal_guess.allFinite() && normal_guess.squaredNorm() > 0.0) d = -(pose_a.R.transpose() * normal_guess);
  if (!(d.squaredNorm() > 1e-300)) d = Vec3::UnitX();
  d.normalize();

  int calls = 0, rays = 0, restarts = 0;
  bool ok = false, separated = false;

  // Inflation model (Proxima addition): C = C0 ⊕ ball(r), C0 = core_A ⊖
  // core_B, r = r_A + r_B. For every point v of C0, ball(v, r) ⊂ C, so the
  // ball of radius r − |v| about the origin is inside C: PD ≥ r − |v|, a
  // GLOBAL lower bound. GJK on the core points (s_C(p) − r p) drives |v|
  // down to dist(0, C0); when the cores are apart, PD = r − dist(0, C0) and
  // the bounds meet. When the origin is inside the core points' hull, PD ≥ r.
  double model_lower = -std::numeric_limits<double>::infinity();
  const double r = sup.ra + sup.rb;
  if (opt.inflation_model && r > 0.0) {
    Simplex core;
    Vec3 p = d;
    for (int k = 0; k < opt.max_directions && calls < opt.max_iterations; ++k) {
      const Vec3 w = sup(p);
      ++calls;
      const double h = p.dot(w);
      vis.record(p, h);
      if (h < -vis.eps()) {
        separated = true;
        break;
      }
      // GJK progress test before adding e: e no closer than v (within eps).
      const Vec3 e = w - r * p;
      if (core.n > 0 && core.point().norm() + p.dot(e) <= vis.eps()) break;
      core.y[core.n] = e;
      core.a[core.n] = core.b[core.n] = e;
      core.d[core.n] = p;
      ++core.n;
      if (solve_simplex(core)) {
        model_lower = r;  // the origin is inside the hull of core points
        break;
      }
      const Vec3 v = core.point();
      const double vn = v.norm();
      model_lower = std::max(model_lower, r - vn);
      if (vis.best_h - model_lower <= vis.eps() || !(vn > 1e-14 * sup.scale())) break;
      p = -v / vn;
    }
    if (vis.best_h - model_lower <= vis.eps() || separated) {
      ok = !separated;
      goto done;
    }
    d = vis.best_u;
  }

  while (calls < opt.max_iterations && rays < opt.max_directions) {
    vis.start();
    const MprRaw raw = mpr_ray_core(sup, d, opt.tol_abs, opt.tol_rel, opt.max_iterations - calls, vis);
    calls += raw.calls;
    ++rays;
    if (vis.zero || raw.stop == MprStop::outside || raw.stop == MprStop::near_boundary) {
      // A support value ≤ eps: PD ≤ eps, or the pair does not overlap.
      separated = vis.best_h < -vis.eps();
      ok = !separated;
      break;
    }
    Vec3 next;
    if (vis.certified || raw.stop == MprStop::on_ray || (raw.stop == MprStop::converged && raw.lower >= vis.hd - vis.eps())) {
      if (vis.best_h - model_lower <= vis.eps()) {
        ok = true;  // global certificate
        break;
      }
      if constexpr (kConeCertified<A, B>) {
        if (opt.cone_certificate) break;  // the proof after `done` replaces the sampled check
      }
      if (!opt.check) {
        ok = opt.accept_local;
        break;
      }
      // Sampled check for a non-optimal stop: fixed directions of both
      // frames and a ring around the answer.
      const double s3 = 1.0 / std::sqrt(3.0);
      const Vec3 u0 = vis.best_u;
      const double answer = vis.best_h;
      const Vec3 e1 = u0.unitOrthogonal(), e2 = u0.cross(e1);
      const double cr = std::cos(0.35), sr = std::sin(0.35);  // ring at 20°
      double check_h = answer;
      Vec3 check_u = u0;
      auto probe = [&](const Vec3& u) {
        const double h = u.dot(sup(u));
        ++calls;
        if (h < check_h) {
          check_h = h;
          check_u = u;
        }
        vis.record(u, h);
      };
      probe(-u0);  // the far side of a thin C (nearly coplanar cores)
      for (int k = 0; k < 3; ++k) {
        probe(Vec3::Unit(k));
        probe(-Vec3::Unit(k));
        const Vec3 bk = R.col(k);
        probe(bk);
        probe(-bk);
      }
      for (int k = 0; k < 8; ++k) {
        probe(s3 * Vec3((k & 1) ? 1.0 : -1.0, (k & 2) ? 1.0 : -1.0, (k & 4) ? 1.0 : -1.0));
        const double ang = 0.785398163397448 * k;
        probe(cr * u0 + sr * (std::cos(ang) * e1 + std::sin(ang) * e2));
      }
      if (check_h >= answer - vis.eps()) {
        ok = opt.accept_local;
        break;
      }
      if (restarts >= opt.max_restarts) break;
      ++restarts;
      next = check_u;
    } else if (vis.shortcut) {
      next = vis.next;
    } else {
      next = raw.normal;  // Alg. 3/4: d ← the (converged) portal normal
    }
    if ((next - d).squaredNorm() <= 1e-30) break;  // stalled without a certificate
    d = next;
  }

done:
  if constexpr (kConeCertified<A, B>) {
    // The cone certificate (file comment): every stop that has not
    // certified, the stationary one and the caps alike.
    const double below = vis.best_h - r - vis.eps();
    if (opt.cone_certificate && !ok && !separated && below > 0.0) {
      DistanceResult w = cone_walk_below(a, pose_a, b, pose_b, Vec3(-pose_a.rotate(vis.best_u)), below);
      if (w.status == Status::not_converged) {
        ok = true;  // no facet of C0 below `below`: PD ≥ best_h − eps
      } else if (w.status == Status::ok && w.distance + r < 0.0) {
        // The exact minimum over C0's facets, all of those below `below` searched.
        w.iterations = calls;
        if (cache) {
          cache->direction = w.normal;
          cache->hint_a = sup.md.sa.hint();
          cache->hint_b = sup.md.sb.hint();
          cache->cores = GjkCache{};  // the cores overlap
          ConeCoherenceAccess::collect(a, pose_a, b, pose_b, -w.distance - r, cache->coherence);
        }
        return w;
      }
    }
  }
  const double depth = std::max(vis.best_h, 0.0);
  const Vec3 nw = -pose_a.rotate(vis.best_u);
  out.status = ok ? Status::ok : Status::not_converged;
  out.iterations = calls;
  out.normal = nw;
  out.point_a = pose_a.apply(vis.best_a);
  if (separated) {
    // Precondition violated: the plane u·x = h(u) < 0 separates the pair;
    // report the (positive) gap it proves.
    out.distance = -vis.best_h;
    out.point_b = out.point_a - out.distance * nw;
  } else {
    out.distance = -depth;
    out.point_b = out.point_a + depth * nw;
  }
  if (cache) {
    cache->direction = nw;
    cache->hint_a = sup.md.sa.hint();
    cache->hint_b = sup.md.sb.hint();
    // Cores apart (depth ≤ r): the next query tries GJK between them first.
    if (ok && !separated && depth <= r) {
      if (cache->cores.direction.squaredNorm() == 0.0) cache->cores.direction = nw;
    } else {
      cache->cores = GjkCache{};
    }
    if constexpr (kConeCertified<A, B>) {
      // depth ≤ r: the cores may be apart, where the walk's answer is no
      // depth (walk() refuses it), so no walk is run. A certificate already
      // held stays: it is a statement about the pose where it was collected
      // (the file comment), as true now as then, and answers again once the
      // cores overlap (its check proves that) within its reach.
      if (opt.cone_certificate && ok && !separated && depth - r > 0.0) {
        ConeCoherenceAccess::collect(a, pose_a, b, pose_b, depth - r, cache->coherence);
      }
    }
  }
  return out;
}

}  // namespace detail

/// Penetration depth of overlapping A and B by the incremental SQP + MPR
/// method. distance = −PD (the proven upper bound on PD), normal unit B→A,
/// point_a the deepest point of A in B, point_b = point_a + PD · normal,
/// iterations = support calls. Warm start from `cache` (its direction, a
/// B→A normal, and polytope hints), filled on exit; on the cone
/// certificate's pairs the cache's coherence certificate answers first, and
/// without one its direction bounds the walk that collects one, or without
/// a direction the unbounded pruned walk does (no SQP while the cores
/// overlap; see the file comment). status: ok (see the file
/// comment for what is certified), not_converged (caps, stall, or the sampled
/// check found a better direction: fall back to an exact method),
/// invalid_input (non-finite pose). If the pair turns out not to overlap,
/// status is not_converged with distance > 0 a proven lower bound on the gap.
template <class A, class B>
DistanceResult incremental_penetration(const A& a, const Transform& pose_a, const B& b,
                                       const Transform& pose_b, const PenetrationOptions& opt = {},
                                       PenetrationCache* cache = nullptr) {
  return detail::incremental_penetration_impl(a, pose_a, b, pose_b,
                                              cache ? cache->direction : Vec3(Vec3::Zero()),
                                              cache ? cache->hint_a : -1, cache ? cache->hint_b : -1,
                                              opt, cache);
}

/// As above, warm-started from an explicit normal guess (B→A, world frame).
template <class A, class B>
DistanceResult incremental_penetration(const A& a, const Transform& pose_a, const B& b,
                                       const Transform& pose_b, const Vec3& normal_guess,
                                       const PenetrationOptions& opt = {}) {
  return detail::incremental_penetration_impl(a, pose_a, b, pose_b, normal_guess, -1, -1, opt, nullptr);
}

}  // namespace proxima
