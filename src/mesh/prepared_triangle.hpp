// SPDX-License-Identifier: BSD-3-Clause
// A triangle of a leaf pair with the parts of the pair tests that depend on
// it alone (box, corner sum, plane, edges), computed once and shared by all
// the pairs it is in instead of once per pair: in the terrain benchmark a
// triangle meets ~5 others within its leaf pair, and the planes and edge
// frames were most of the prefilters' and feature_distance's set-up.
//
// Every quantity is computed by the same floating-point operations, in the
// same order, as the per-pair functions it replaces (centroid_gap,
// plane_gap in traversal.hpp; feature_distance, triangle_distance in
// mesh/triangle_distance.hpp), so the results are bit-identical.
#pragma once

#include <algorithm>
#include <cmath>

#include <proxima/mesh/triangle_distance.hpp>

namespace proxima::mesh::detail {

class PreparedTriangle {
 public:
  Triangle t;
  Vec3 lo, hi;  // box, the first test of every pair

  void reset(const Triangle& x) {
    t = x;
    lo = x[0].cwiseMin(x[1]).cwiseMin(x[2]);
    hi = x[0].cwiseMax(x[1]).cwiseMax(x[2]);
    sum_ = x[0] + x[1] + x[2];
    has_face_ = has_edges_ = false;
  }

  const Vec3& sum() const { return sum_; }

  // The plane and barycentric helpers, with the plane's own rounding
  // (plane_gap's `own`) and |n|: on first use, since most pairs end at the
  // box. The check is inline and the set-up out of line: the pair tests ask
  // for the frame ~8 times per pair, and a call each time cost more than
  // the check.
  const FaceFrame& face() {
    if (!has_face_) make_face();
    return face_;
  }
  double own() {
    face();
    return own_;
  }
  double normal_length() {
    face();
    return len_;
  }

  const EdgeFrame& edges() {
    if (!has_edges_) make_edges();
    return edges_;
  }

 private:
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  void make_face() {
    face_ = FaceFrame(t);
    own_ = std::max(std::abs(face_.n.dot(face_.ab)), std::abs(face_.n.dot(face_.ac)));
    len_ = std::sqrt(face_.nn);
    has_face_ = true;
  }
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  void make_edges() {
    edges_ = EdgeFrame(t);
    has_edges_ = true;
  }

  Vec3 sum_;
  FaceFrame face_;
  EdgeFrame edges_;
  double own_ = 0.0, len_ = 0.0;
  bool has_face_ = false, has_edges_ = false;
};

// centroid_gap (traversal.hpp) from the prepared corner sums.
inline double centroid_gap(const PreparedTriangle& pa, const PreparedTriangle& pb) {
  const Triangle& a = pa.t;
  const Triangle& b = pb.t;
  const Vec3 u = pa.sum() - pb.sum();
  const double len = u.norm();
  if (!(len > 0.0)) return 0.0;
  const double lo_a = std::min({u.dot(a[0]), u.dot(a[1]), u.dot(a[2])});
  const double hi_b = std::max({u.dot(b[0]), u.dot(b[1]), u.dot(b[2])});
  return (1.0 - 1e-9) * (lo_a - hi_b) / len;
}

// Each triangle's corners over the other's plane, n·(q_k − p_0) with n
// unnormalised: the first step of both plane_gap's sides and both
// face_settles of prepared_distance, computed once per pair. A side whose
// triangle has no plane (nn = 0) is left at 0 and used by neither.
struct PairHeights {
  double b_over_a[3] = {0.0, 0.0, 0.0};
  double a_over_b[3] = {0.0, 0.0, 0.0};
};

inline PairHeights pair_heights(PreparedTriangle& pa, PreparedTriangle& pb) {
  auto over = [](PreparedTriangle& p, const Triangle& q, double* h) {
    const FaceFrame& f = p.face();
    if (!(f.nn > 0.0)) return;
    const Vec3& p0 = p.t[0];
    h[0] = f.n.dot(q[0] - p0);
    h[1] = f.n.dot(q[1] - p0);
    h[2] = f.n.dot(q[2] - p0);
  };
  PairHeights hs;
  over(pa, pb.t, hs.b_over_a);
  over(pb, pa.t, hs.a_over_b);
  return hs;
}

// plane_gap (traversal.hpp) from the prepared planes and the pair's heights.
inline double plane_gap(PreparedTriangle& pa, PreparedTriangle& pb, const PairHeights& hs) {
  auto side = [](PreparedTriangle& p, const double* hq) {
    const FaceFrame& f = p.face();
    if (!(f.nn > 0.0)) return 0.0;
    const double h0 = hq[0], h1 = hq[1], h2 = hq[2];
    const double lo = std::min({h0, h1, h2}), hi = std::max({h0, h1, h2});
    const double h = lo > 0.0 ? lo : (hi < 0.0 ? -hi : 0.0);
    return (1.0 - 1e-9) * (h - p.own()) / p.normal_length();
  };
  return std::max(side(pa, hs.b_over_a), side(pb, hs.a_over_b));
}

inline double plane_gap(PreparedTriangle& pa, PreparedTriangle& pb) { return plane_gap(pa, pb, pair_heights(pa, pb)); }

// feature_distance, or with `exact` triangle_distance (mesh/triangle_distance.hpp),
// from the prepared frames and the pair's heights.
inline ClosestPoints prepared_distance(PreparedTriangle& pa, PreparedTriangle& pb, bool exact, const PairHeights& hs) {
  ClosestPoints best;
  if (!face_settles(pa.t, pa.face(), pb.t, hs.b_over_a, false, best) &&
      !face_settles(pb.t, pb.face(), pa.t, hs.a_over_b, true, best))
    best = feature_pairs(pa.t, pa.face(), pa.edges(), pb.t, pb.face(), pb.edges());
  // Boxes strictly apart on an axis (exact comparisons of the corners'
  // own coordinates) leave the closed triangles no common point: the exact
  // predicate would say so too, at the price of its orientation tests
  // (exact expansions for the coplanar side faces of stacked boxes).
  const bool apart = (pa.lo.array() > pb.hi.array()).any() || (pb.lo.array() > pa.hi.array()).any();
  if (exact && !apart && triangles_intersect(pa.t, pb.t)) return intersection_point(pa.t, pb.t, best);
  return best;
}

inline ClosestPoints prepared_distance(PreparedTriangle& pa, PreparedTriangle& pb, bool exact) {
  return prepared_distance(pa, pb, exact, pair_heights(pa, pb));
}

}  // namespace proxima::mesh::detail
