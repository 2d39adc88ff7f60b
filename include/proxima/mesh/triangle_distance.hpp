// SPDX-License-Identifier: BSD-3-Clause
// Distances and intersection between the primitives of a triangle soup:
// point–triangle, segment–segment, triangle–triangle. Triangles may be
// degenerate (zero area: a segment or a point); every routine then answers
// for the segment or point the triangle is, never NaN. Allocation-free; the
// distance routines are inline so that the BVH traversal can inline them.
//
// Intersection uses exact orientation predicates (Shewchuk's filtered
// orient2d/orient3d: a floating-point evaluation with a forward error bound,
// and an exact expansion-arithmetic evaluation only when the sign is in doubt;
// src/mesh/triangle_distance.cpp). So "touching" (a shared vertex, a vertex on
// an edge or face) and coplanar overlap are decided exactly on the input
// doubles, at the cost of a rare slow path. Distances are
// plain floating point (error a few ulps of the coordinates).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <proxima/core/math.hpp>

namespace proxima::mesh {

/// Three corners; may be degenerate.
using Triangle = std::array<Vec3, 3>;

/// Closest points of two primitives: `a` on the first, `b` on the second.
struct ClosestPoints {
  double distance = std::numeric_limits<double>::infinity();
  Vec3 a = Vec3::Zero();
  Vec3 b = Vec3::Zero();
  /// Triangle pairs only: the triangles intersect (exact predicate); then
  /// distance is 0 and a == b is a point (to rounding) on the intersection.
  bool intersect = false;
};

/// Exact sign (+1, 0, −1) of det[a−d, b−d, c−d]: positive when d lies below
/// the plane of a, b, c seen with a, b, c counter-clockwise.
int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);
/// Exact sign of det[a−c, b−c] of the projections onto the coordinate plane
/// (axes i, j).
int orient2d(const Vec3& a, const Vec3& b, const Vec3& c, int i, int j);

/// Do the closed triangles share a point? Exact (orientation predicates on the
/// input doubles): touching and coplanar overlap count as intersecting.
/// Degenerate triangles are treated as the segment or point they are.
bool triangles_intersect(const Triangle& a, const Triangle& b);

/// Closest point of segment [p, q] to x (p when p == q).
inline Vec3 closest_on_segment(const Vec3& x, const Vec3& p, const Vec3& q) {
  const Vec3 d = q - p;
  const double dd = d.squaredNorm();
  if (!(dd > 0.0)) return p;
  const double s = std::clamp((x - p).dot(d) / dd, 0.0, 1.0);
  return p + s * d;
}

namespace detail {

// closest_on_triangle once the triangle's ab = b − a, ac = c − a, n = ab×ac,
// nn = |n|² and `flat` are known: a caller that has them prepared (made by
// the same operations) skips them.
inline Vec3 closest_on_framed(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& ab,
                              const Vec3& ac, const Vec3& n, double nn, bool flat) {
  double u = -1.0, v = -1.0, w = -1.0;
  if (!flat) {
    const Vec3 ax = x - a;
    v = ax.cross(ac).dot(n) / nn;
    w = ab.cross(ax).dot(n) / nn;
    u = 1.0 - v - w;
    if (u >= 0.0 && v >= 0.0 && w >= 0.0) return a + v * ab + w * ac;
  }
  // Outside: the closest point lies on an edge whose line x is beyond (a
  // negative coordinate); for a vertex region at least one of the two edges
  // meeting there is such an edge. A flat triangle tries all three edges.
  Vec3 best = a;
  double best_d = std::numeric_limits<double>::infinity();
  auto edge = [&](bool use, const Vec3& p, const Vec3& q) {
    if (!use) return;
    const Vec3 y = closest_on_segment(x, p, q);
    const double d = (x - y).squaredNorm();
    if (d < best_d) {
      best_d = d;
      best = y;
    }
  };
  edge(flat || u < 0.0, b, c);
  edge(flat || v < 0.0, c, a);
  edge(flat || w < 0.0, a, b);
  return best;
}

}  // namespace detail

/// Closest point of the closed triangle to x.
inline Vec3 closest_on_triangle(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a;
  const Vec3 n = ab.cross(ac);
  const double nn = n.squaredNorm();
  // Barycentric coordinates of x's projection onto the plane, from signed
  // sub-triangle areas: with x = a + v ab + w ac + h n, (x−a)×ac·n = v nn and
  // ab×(x−a)·n = w nn. A sliver (sin of its angle below 1e-8) is treated as
  // its edges, where the division by nn would amplify rounding.
  const bool flat = !(nn > 1e-16 * ab.squaredNorm() * ac.squaredNorm());
  return detail::closest_on_framed(x, a, b, c, ab, ac, n, nn, flat);
}

/// Closest points of segments [p1, q1] and [p2, q2] (either may be a point).
/// Minimizes |p1 + s d1 − p2 − t d2|² over the unit square: the interior
/// critical point of the 2×2 normal equations when the lines are not
/// parallel, clamped to the square edge it leaves through, each clamp
/// followed by the exact 1-D minimization of the other parameter. Parallel
/// lines (or rounding noise in the determinant) start from s = 0, which is
/// as good as any s once t and s are re-minimized.
inline void segment_closest(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2, Vec3& on1, Vec3& on2) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (!(a > 0.0) && !(e > 0.0)) {
    // Two points.
  } else if (!(a > 0.0)) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (!(e > 0.0)) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2);
      const double det = a * e - b * b;
      if (det > 0.0) s = std::clamp((b * f - c * e) / det, 0.0, 1.0);
      // Best t for this s; if it leaves [0, 1], clamp it and redo s for it.
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  on1 = p1 + s * d1;
  on2 = p2 + t * d2;
}

inline ClosestPoints segment_segment(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
  ClosestPoints out;
  segment_closest(p1, q1, p2, q2, out.a, out.b);
  out.distance = (out.a - out.b).norm();
  return out;
}

/// Distance and closest points of x to the triangle.
inline ClosestPoints point_triangle(const Vec3& x, const Triangle& t) {
  ClosestPoints out;
  out.a = x;
  out.b = closest_on_triangle(x, t[0], t[1], t[2]);
  out.distance = (out.a - out.b).norm();
  return out;
}

namespace detail {

// A point on the intersection of two triangles known to intersect, to
// rounding: where an edge of one crosses the other's plane, projected onto
// the other triangle, or the best feature pair found so far (coplanar and
// touching cases). Returns the pair of the candidates that is closest.
ClosestPoints intersection_point(const Triangle& a, const Triangle& b, const ClosestPoints& features);

// A triangle's plane and the barycentric helpers, computed once per
// distance query: v nn = (x−a)×ac·n = (x−a)·(ac×n) and
// w nn = ab×(x−a)·n = (x−a)·(n×ab). `face` is false for a sliver or a
// degenerate triangle, which is its edges.
struct FaceFrame {
  Vec3 ab, ac, n, cv, cw;
  double nn;
  bool face;
  FaceFrame() = default;  // for storage filled later (a caller's per-triangle cache)
  explicit FaceFrame(const Triangle& t)
      : ab(t[1] - t[0]), ac(t[2] - t[0]), n(ab.cross(ac)), cv(ac.cross(n)), cw(n.cross(ab)), nn(n.squaredNorm()),
        face(nn > 1e-16 * ab.squaredNorm() * ac.squaredNorm()) {}
  // x − t[0] projects inside (or on) the triangle; then p is the point.
  bool inside(const Triangle& t, const Vec3& ax, Vec3& p) const {
    const double v = ax.dot(cv), w = ax.dot(cw);
    if (v < 0.0 || w < 0.0 || v + w > nn) return false;
    p = t[0] + (v / nn) * ab + (w / nn) * ac;
    return true;
  }
};

// point_triangle from the triangle's prepared frame (same operations as
// closest_on_triangle's own set-up: FaceFrame::face is its !flat).
inline ClosestPoints point_triangle(const Vec3& x, const Triangle& t, const FaceFrame& f) {
  ClosestPoints out;
  out.a = x;
  out.b = closest_on_framed(x, t[0], t[1], t[2], f.ab, f.ac, f.n, f.nn, !f.face);
  out.distance = (out.a - out.b).norm();
  return out;
}

// The distance settled by one vertex–face pair: when the plane of t leaves
// all of `other` strictly on one side, every point of `other` is at least
// its nearest corner's height away, and if that corner projects inside t it
// attains it. The usual case for two surfaces lying on each other, and 3
// dot products instead of the 9 edge pairs.
// `h`: other's corners over t's plane, n·(other_k − t_0), as a caller that
// has them already (the mesh contacts' plane prefilter) passes them.
inline bool face_settles(const Triangle& t, const FaceFrame& f, const Triangle& other, const double* h, bool swap,
                         ClosestPoints& out) {
  if (!f.face) return false;
  double h0 = h[0], h1 = h[1], h2 = h[2];
  if (!(h0 > 0.0 && h1 > 0.0 && h2 > 0.0)) {
    if (!(h0 < 0.0 && h1 < 0.0 && h2 < 0.0)) return false;
    h0 = -h0;
    h1 = -h1;
    h2 = -h2;
  }
  const int k = h0 <= h1 ? (h0 <= h2 ? 0 : 2) : (h1 <= h2 ? 1 : 2);
  Vec3 p;
  if (!f.inside(t, other[k] - t[0], p)) return false;
  out.a = swap ? other[k] : p;
  out.b = swap ? p : other[k];
  out.distance = (out.a - out.b).norm();
  out.intersect = false;
  return true;
}

inline bool face_settles(const Triangle& t, const FaceFrame& f, const Triangle& other, bool swap,
                         ClosestPoints& out) {
  if (!f.face) return false;
  const double h[3] = {f.n.dot(other[0] - t[0]), f.n.dot(other[1] - t[0]), f.n.dot(other[2] - t[0])};
  return face_settles(t, f, other, h, swap, out);
}

}  // namespace detail

namespace detail {

// A triangle's edges as the edge pairs of feature_distance use them:
// t1 − t0, t2 − t1, t0 − t2, their squared lengths and the reciprocals,
// also as structure-of-arrays lanes (corner, edge, length; lane 3 repeats
// lane 0) so that one edge of the other triangle meets all three in
// straight-line code the compiler can vectorize. Computed once per triangle
// by callers that test it against many others.
struct EdgeFrame {
  Vec3 d[3];
  double l[3];
  double inv[3];  // 1 / l (inf for a zero-length edge, then unused)
  double px[4], py[4], pz[4], dx[4], dy[4], dz[4], ll[4], linv[4];
  EdgeFrame() = default;  // for storage filled later (a caller's per-triangle cache)
  explicit EdgeFrame(const Triangle& t)
      : d{t[1] - t[0], t[2] - t[1], t[0] - t[2]}, l{d[0].squaredNorm(), d[1].squaredNorm(), d[2].squaredNorm()},
        inv{1.0 / l[0], 1.0 / l[1], 1.0 / l[2]},
        px{t[0].x(), t[1].x(), t[2].x(), t[0].x()}, py{t[0].y(), t[1].y(), t[2].y(), t[0].y()},
        pz{t[0].z(), t[1].z(), t[2].z(), t[0].z()}, dx{d[0].x(), d[1].x(), d[2].x(), d[0].x()},
        dy{d[0].y(), d[1].y(), d[2].y(), d[0].y()}, dz{d[0].z(), d[1].z(), d[2].z(), d[0].z()},
        ll{l[0], l[1], l[2], l[0]}, linv{inv[0], inv[1], inv[2], inv[0]} {}
  bool proper() const { return l[0] > 0.0 && l[1] > 0.0 && l[2] > 0.0; }
};

#if defined(__SSE2__)
// Two lanes of the segment–segment step below: A's edges in (ax…ia), B's
// edges o and o + 1 of `e`; stores the squared distances and the clamped
// s and t of both lanes. Shared by edge_rows and edge_pairs.
inline void edge_lanes(__m128d ax, __m128d ay, __m128d az, __m128d ux, __m128d uy, __m128d uz, __m128d la,
                       __m128d ia, const EdgeFrame& e, int o, double* dd, double* ss, double* tt) {
  const __m128d zero = _mm_setzero_pd(), one = _mm_set1_pd(1.0);
  // std::clamp(v, 0, 1) is min(max(v, 0), 1) with std::max(v, 0) = v < 0 ? 0 : v
  // and std::min(m, 1) = 1 < m ? 1 : m: maxpd/minpd return their second
  // operand unless the first is strictly greater/less, NaN and ±0 included.
  auto clamp01 = [&](__m128d v) { return _mm_min_pd(one, _mm_max_pd(zero, v)); };
  auto dot = [](__m128d x0, __m128d y0, __m128d x1, __m128d y1, __m128d x2, __m128d y2) {
    return _mm_add_pd(_mm_add_pd(_mm_mul_pd(x0, y0), _mm_mul_pd(x1, y1)), _mm_mul_pd(x2, y2));
  };
  const __m128d dx = _mm_loadu_pd(e.dx + o), dy = _mm_loadu_pd(e.dy + o), dz = _mm_loadu_pd(e.dz + o);
  const __m128d lv = _mm_loadu_pd(e.ll + o), iv = _mm_loadu_pd(e.linv + o);
  const __m128d rx = _mm_sub_pd(ax, _mm_loadu_pd(e.px + o)), ry = _mm_sub_pd(ay, _mm_loadu_pd(e.py + o)),
                rz = _mm_sub_pd(az, _mm_loadu_pd(e.pz + o));
  const __m128d b = dot(ux, dx, uy, dy, uz, dz);
  const __m128d c = dot(ux, rx, uy, ry, uz, rz);
  const __m128d f = dot(dx, rx, dy, ry, dz, rz);
  const __m128d det = _mm_sub_pd(_mm_mul_pd(la, lv), _mm_mul_pd(b, b));
  const __m128d s0 = clamp01(_mm_div_pd(_mm_sub_pd(_mm_mul_pd(b, f), _mm_mul_pd(c, lv)), det));
  const __m128d s1 = _mm_and_pd(_mm_cmpgt_pd(det, zero), s0);
  const __m128d t = clamp01(_mm_mul_pd(_mm_add_pd(_mm_mul_pd(b, s1), f), iv));
  const __m128d s = clamp01(_mm_mul_pd(_mm_sub_pd(_mm_mul_pd(b, t), c), ia));
  const __m128d ex = _mm_sub_pd(_mm_add_pd(rx, _mm_mul_pd(s, ux)), _mm_mul_pd(t, dx));
  const __m128d ey = _mm_sub_pd(_mm_add_pd(ry, _mm_mul_pd(s, uy)), _mm_mul_pd(t, dy));
  const __m128d ez = _mm_sub_pd(_mm_add_pd(rz, _mm_mul_pd(s, uz)), _mm_mul_pd(t, dz));
  _mm_storeu_pd(dd, dot(ex, ex, ey, ey, ez, ez));
  _mm_storeu_pd(ss, s);
  _mm_storeu_pd(tt, t);
}
#endif

// Edge i of one triangle (corner p, edge u, |u|² = lu, inv_u = 1/lu)
// against the three edges of another (lanes 0–2 of e; lane 3 is spare):
// per pair the clamped parameters s (on u), t (on e's edge) and the squared
// distance of those points, exactly as the Vec3 form
//   det = lu lv − b²,  s = det > 0 ? clamp((b f − c lv) / det) : 0,
//   t = clamp((b s + f) / lv),  s = clamp((b t − c) / lu),
//   d = |r + s u − t v|²,  r = p − q, b = u·v, c = u·r, f = v·r
// would compute them: the same operations in the same order (a 3-vector
// dot product is (x0 y0 + x1 y1) + x2 y2, as Eigen evaluates it), two
// lanes at a time where SSE2 is there. Identical results, not just close.
inline void edge_rows(const Vec3& p, const Vec3& u, double lu, double inv_u, const EdgeFrame& e, double* dd,
                      double* ss, double* tt) {
#if defined(__SSE2__)
  const __m128d ax = _mm_set1_pd(p.x()), ay = _mm_set1_pd(p.y()), az = _mm_set1_pd(p.z());
  const __m128d ux = _mm_set1_pd(u.x()), uy = _mm_set1_pd(u.y()), uz = _mm_set1_pd(u.z());
  const __m128d la = _mm_set1_pd(lu), ia = _mm_set1_pd(inv_u);
  for (int k = 0; k < 4; k += 2) edge_lanes(ax, ay, az, ux, uy, uz, la, ia, e, k, dd + k, ss + k, tt + k);
#else
  for (int j = 0; j < 3; ++j) {
    const Vec3 v(e.dx[j], e.dy[j], e.dz[j]);
    const Vec3 r = p - Vec3(e.px[j], e.py[j], e.pz[j]);
    const double b = u.dot(v), c = u.dot(r), f = v.dot(r);
    const double det = lu * e.ll[j] - b * b;
    double s = det > 0.0 ? std::clamp((b * f - c * e.ll[j]) / det, 0.0, 1.0) : 0.0;
    const double t = std::clamp((b * s + f) * e.linv[j], 0.0, 1.0);
    s = std::clamp((b * t - c) * inv_u, 0.0, 1.0);
    dd[j] = (r + s * u - t * v).squaredNorm();
    ss[j] = s;
    tt[j] = t;
  }
#endif
}

// All nine edge pairs of two triangles: lane 3 i + j is edge i of ea against
// edge j of eb, with the same values as edge_rows would give (the same
// operations in the same order per lane). Under SSE2 the nine lanes fill
// five register pairs instead of edge_rows' three times two (whose lane 3 is
// spare): A's edge is then a lane pattern (0 0, 0 1, 1 1, 2 2, 2 2) and B's
// (0 1, 2 0, 1 2, 0 1, 2 0) of the frames' four-lane arrays, loaded as they
// are or broadcast. Lane 9 is spare.
inline void edge_pairs(const EdgeFrame& ea, const EdgeFrame& eb, double* dd, double* ss, double* tt) {
#if defined(__SSE2__)
  constexpr int kOffB[5] = {0, 2, 1, 0, 2};
  // Unrolled, the lane patterns are constants: no loop counter, no
  // selection of load or broadcast per step.
#if defined(__GNUC__)
#pragma GCC unroll 5
#endif
  for (int k = 0; k < 5; ++k) {
    // A's lanes: k = 1 is edges 0 and 1 (a plain load), the others one edge twice.
    const int i = k == 0 ? 0 : (k == 2 ? 1 : 2);
    auto a_lanes = [&](const double* v) { return k == 1 ? _mm_loadu_pd(v) : _mm_load1_pd(v + i); };
    const __m128d ax = a_lanes(ea.px), ay = a_lanes(ea.py), az = a_lanes(ea.pz);
    const __m128d ux = a_lanes(ea.dx), uy = a_lanes(ea.dy), uz = a_lanes(ea.dz);
    const __m128d la = a_lanes(ea.ll), ia = a_lanes(ea.linv);
    edge_lanes(ax, ay, az, ux, uy, uz, la, ia, eb, kOffB[k], dd + 2 * k, ss + 2 * k, tt + 2 * k);
  }
#else
  for (int i = 0; i < 3; ++i) {
    double d4[4], s4[4], t4[4];
    edge_rows(Vec3(ea.px[i], ea.py[i], ea.pz[i]), ea.d[i], ea.l[i], ea.inv[i], eb, d4, s4, t4);
    for (int j = 0; j < 3; ++j) {
      dd[3 * i + j] = d4[j];
      ss[3 * i + j] = s4[j];
      tt[3 * i + j] = t4[j];
    }
  }
#endif
}

// feature_distance once neither vertex–face shortcut settled it: the nine
// edge pairs, then the vertices that project inside the other triangle.
inline ClosestPoints feature_pairs(const Triangle& a, const FaceFrame& fa, const EdgeFrame& ea, const Triangle& b,
                                   const FaceFrame& fb, const EdgeFrame& eb) {
  ClosestPoints best;
  // Candidates compete on squared distances; one square root at the end.
  double best_sq = std::numeric_limits<double>::infinity();
  auto take = [&](const Vec3& x, const Vec3& y) {
    const double d = (x - y).squaredNorm();
    if (d < best_sq) {
      best_sq = d;
      best.a = x;
      best.b = y;
    }
  };
  const Vec3* da = ea.d;
  const Vec3* db = eb.d;
  if (ea.proper() && eb.proper()) {
    // segment_closest's clamps without its branches: s from the normal
    // equations, t best for s, s best for that t, each clamped to [0, 1];
    // the third step leaves an unclamped s as it is (it is then already
    // the minimizer for t), so this is the same minimum.
    // The first nearest pair in the order (i, j), as when the rows came
    // one edge of a at a time.
    double dd[10], ss[10], tt[10];
    edge_pairs(ea, eb, dd, ss, tt);
    int wi = 0, wj = 0;
    double ws = 0.0, wt = 0.0;
    for (int k = 0; k < 9; ++k)
      if (dd[k] < best_sq) {
        best_sq = dd[k];
        wi = k / 3;
        wj = k % 3;
        ws = ss[k];
        wt = tt[k];
      }
    best.a = a[wi] + ws * da[wi];
    best.b = b[wj] + wt * db[wj];
    best_sq = (best.a - best.b).squaredNorm();
  } else {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        Vec3 x, y;
        segment_closest(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3], x, y);
        take(x, y);
      }
  }
  // Vertex–face pairs: only a vertex that projects inside the other triangle
  // can beat the edge pairs (outside, its nearest point is on an edge, and
  // the edge pairs above already include that vertex–edge distance). A
  // sliver or degenerate triangle is its edges.
  auto faces = [&](const Triangle& t, const FaceFrame& f, const Triangle& other, bool swap) {
    if (!f.face) return;
    for (int k = 0; k < 3; ++k) {
      Vec3 p;
      if (f.inside(t, other[k] - t[0], p)) swap ? take(other[k], p) : take(p, other[k]);
    }
  };
  faces(b, fb, a, true);
  faces(a, fa, b, false);
  best.distance = std::sqrt(best_sq);
  return best;
}

}  // namespace detail

/// The minimum over the 15 vertex–triangle and edge–edge feature pairs: the
/// distance of triangles known not to intersect (e.g. one lies strictly on
/// one side of the other's plane), without the exact intersection test.
inline ClosestPoints feature_distance(const Triangle& a, const Triangle& b) {
  ClosestPoints best;
  const detail::FaceFrame fa(a), fb(b);
  if (detail::face_settles(a, fa, b, false, best) || detail::face_settles(b, fb, a, true, best)) return best;
  return detail::feature_pairs(a, fa, detail::EdgeFrame(a), b, fb, detail::EdgeFrame(b));
}

/// Exact-case triangle–triangle distance with closest points (a on `a`, b on
/// `b`): the feature minimum, unless the triangles intersect.
inline ClosestPoints triangle_distance(const Triangle& a, const Triangle& b) {
  const ClosestPoints best = feature_distance(a, b);
  // A transversal crossing puts no feature pair at distance 0, and a float
  // 0 may be rounding: the exact predicate decides (cheap when one
  // triangle's plane strictly separates the other, the common case).
  if (triangles_intersect(a, b)) return detail::intersection_point(a, b, best);
  return best;
}

}  // namespace proxima::mesh
