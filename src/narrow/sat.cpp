// SPDX-License-Identifier: BSD-3-Clause
// Separating-axis penetration depth (paper Alg. 1–2) with Gauss-map pruning.
//
// Why only one side per axis: the paper projects both bodies on each axis and
// keeps the smaller of the two overlaps. Here every candidate axis is an
// outward facet normal u of C = A ⊖ B, and the overlap that matters is the
// support value h_C(u) = max_A u·a − min_B u·b: for an interior origin the
// depth is min over facets of h_C(u) (the nearest facet plane), and for an
// exterior origin −min h_C(u) is the largest separation over facet planes, a
// lower bound on the distance. One formula serves both.
//
// Facets of C come in three kinds (Gauss map of C = overlay of the Gauss
// maps of A and −B): face normals of A, negated face normals of B, and the
// crossings of an arc of A (an edge, between its two face normals) with an
// arc of −B. At a crossing both edges are supporting, so h_C is just
// u·(a_edge − b_edge): no support search is needed for edge axes. The
// crossings are enumerated by walking A's arcs over −B's map (see the edge
// section of sat_views); tests/narrow/sat_test.cpp checks that the walk finds
// exactly the pairs of the classic four-normal test.
//
// Flat polygons: their two faces are the poles ±n of the Gauss map and each
// edge's arc is a half circle from n to −n through the edge's outward
// in-plane normal, walked as two quarter arcs.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include <proxima/narrow/closed_form.hpp>
#include <proxima/narrow/sat.hpp>

#include "sat_box.hpp"
#include "sat_thresholds.hpp"

namespace proxima::narrow {
namespace {

double sign_of(double x) { return x >= 0.0 ? 1.0 : -1.0; }

// A hull as the generic code sees it.
class HullView {
 public:
  explicit HullView(const ConvexPolytope& s) : s_(s), d_(s.data()) {}
  int dimension() const { return d_.dimension; }
  int face_count() const { return static_cast<int>(d_.face_normals.size()); }
  const Vec3& normal(int f) const { return d_.face_normals[static_cast<std::size_t>(f)]; }
  double offset(int f) const { return d_.face_offsets[static_cast<std::size_t>(f)]; }
  int edge_count() const { return static_cast<int>(d_.edges.size()); }
  const std::array<int, 2>& edge(int e) const { return d_.edges[static_cast<std::size_t>(e)]; }
  const std::array<int, 2>& edge_faces(int e) const { return d_.edge_faces[static_cast<std::size_t>(e)]; }
  const Vec3& vertex(int v) const { return d_.vertices[static_cast<std::size_t>(v)]; }
  int vertex_count() const { return static_cast<int>(d_.vertices.size()); }
  template <class F>
  void for_each_neighbor(int v, F&& f) const {
    const int* nb = d_.neighbors.data();
    const int end = d_.neighbor_offsets[static_cast<std::size_t>(v) + 1];
    for (int k = d_.neighbor_offsets[static_cast<std::size_t>(v)]; k < end; ++k) f(nb[k]);
  }
  int support(const Vec3& dir, int& hint) const { return s_.support_index(dir, hint); }
  double margin() const { return s_.core_inflation(); }

 private:
  const ConvexPolytope& s_;
  const PolytopeData& d_;
};

// Box numbering: vertex v has coordinate k at +h_k when bit k of v is set;
// faces 2k and 2k+1 have normals +e_k and −e_k. The edge along axis k joins v
// and v | (1 << k) for v with bit k clear; its faces are the ones of the other
// two axes on the sides v lies on, ordered so that every face is slot 0 of
// some edge (sat_views visits faces that way).
constexpr int box_side(int v, int k) { return 2 * k + (((v >> k) & 1) ? 0 : 1); }
constexpr std::array<std::array<int, 2>, 12> kBoxEdges{{
    {0, 1}, {2, 3}, {4, 5}, {6, 7},    // along x
    {0, 2}, {1, 3}, {4, 6}, {5, 7},    // along y
    {0, 4}, {1, 5}, {2, 6}, {3, 7}}};  // along z
constexpr std::array<std::array<int, 2>, 12> kBoxEdgeFaces{{
    {box_side(0, 1), box_side(0, 2)}, {box_side(2, 1), box_side(2, 2)},
    {box_side(4, 1), box_side(4, 2)}, {box_side(6, 1), box_side(6, 2)},
    {box_side(0, 2), box_side(0, 0)}, {box_side(1, 2), box_side(1, 0)},
    {box_side(4, 2), box_side(4, 0)}, {box_side(5, 2), box_side(5, 0)},
    {box_side(0, 0), box_side(0, 1)}, {box_side(1, 0), box_side(1, 1)},
    {box_side(2, 0), box_side(2, 1)}, {box_side(3, 0), box_side(3, 1)}}};

// A box as the generic code sees it (numbering above).
class BoxView {
 public:
  explicit BoxView(const Box& b) : h_(b.half_extents()), margin_(b.core_inflation()) {}
  int dimension() const { return 3; }
  int face_count() const { return 6; }
  Vec3 normal(int f) const {
    Vec3 n = Vec3::Zero();
    n[f / 2] = (f & 1) ? -1.0 : 1.0;
    return n;
  }
  double offset(int f) const { return h_[f / 2]; }
  int edge_count() const { return 12; }
  const std::array<int, 2>& edge(int e) const { return kBoxEdges[static_cast<std::size_t>(e)]; }
  const std::array<int, 2>& edge_faces(int e) const { return kBoxEdgeFaces[static_cast<std::size_t>(e)]; }
  Vec3 vertex(int v) const {
    return {(v & 1) ? h_.x() : -h_.x(), (v & 2) ? h_.y() : -h_.y(), (v & 4) ? h_.z() : -h_.z()};
  }
  int vertex_count() const { return 8; }
  template <class F>
  void for_each_neighbor(int v, F&& f) const {
    f(v ^ 1);
    f(v ^ 2);
    f(v ^ 4);
  }
  int support(const Vec3& dir, int& hint) const {
    hint = (dir.x() >= 0.0 ? 1 : 0) | (dir.y() >= 0.0 ? 2 : 0) | (dir.z() >= 0.0 ? 4 : 0);
    return hint;
  }
  double margin() const { return margin_; }

 private:
  Vec3 h_;
  double margin_;
};

enum class Feature { face_a, face_b, edges };

// The best (smallest h_C) axis so far: u is the outward facet normal of C in
// the working frame; i, j, k the features: face_a (face i of A, B's vertex
// j), face_b (A's vertex i, face j of B), edges (edge i of A, B's edge from
// vertex j to vertex k).
struct Best {
  double h = std::numeric_limits<double>::infinity();
  Vec3 u = Vec3::UnitZ();
  Feature kind = Feature::face_a;
  int i = -1;
  int j = -1;
  int k = -1;
};

// Final result from the best axis: frame-local point on A's core `pa`, the
// frame's pose `frame`, margins added (see from_cores in closed_form.cpp).
DistanceResult make_result(const Best& best, const Vec3& pa, const Transform& frame, double ra,
                           double rb) {
  DistanceResult r;
  if (!std::isfinite(best.h) || !pa.allFinite()) {
    r.status = Status::not_converged;  // unreachable for valid hulls; never NaN
    return r;
  }
  r.normal = frame.rotate(-best.u);
  r.distance = -best.h - ra - rb;
  r.point_a = frame.apply(pa) - ra * r.normal;
  r.point_b = r.point_a - r.distance * r.normal;
  return r;
}

// At least two axes of a box of half extents h flip along local direction
// d under tol (support_feature's face test, loosened: at most one axis
// keeps its sign).
bool may_show_face(const Vec3& h, const Vec3& d, double tol) {
  int flips = 0;
  for (int i = 0; i < 3; ++i) flips += 2.0 * h[i] * std::abs(d[i]) <= tol ? 1 : 0;
  return flips >= 2;
}

// An overlap whose axis may have a face of each box lying on the other.
bool overlapping_faces(const Best& best, const Mat3& R, const Vec3& ha, const Vec3& hb, double tol) {
  if (!(best.h > 0.0) || !std::isfinite(best.h)) return false;
  switch (best.kind) {
    case Feature::face_a: return may_show_face(hb, R.row(best.i).transpose(), tol);
    case Feature::face_b: return may_show_face(ha, best.u, tol);
    default: return may_show_face(ha, best.u, tol) && may_show_face(hb, R.transpose() * best.u, tol);
  }
}

// Generic SAT on two views, in B's local frame (x_B = R x_A + p).
template <class VA, class VB>
DistanceResult sat_views(const VA& a, const Transform& ta, const VB& b, const Transform& tb,
                         SatStats* stats) {
  DistanceResult r;
  if (!both_valid(ta, tb)) {
    r.status = Status::invalid_input;
    return r;
  }
  if (a.dimension() < 2 || b.dimension() < 2) {
    r.status = Status::not_implemented;  // segment or point core: no faces to start from
    return r;
  }
  const Mat3 R = tb.R.transpose() * ta.R;
  const Vec3 p = tb.R.transpose() * (ta.p - tb.p);
  Best best;
  int hint_a = -1;
  long face_axes = 0;

  // B's faces first: on exact ties (parallel faces in contact) the answer
  // then names a vertex of A as point_a, the deepest point of A in B.
  // Face normals v of B: facet normal u = −v of C, h_C(u) = c_B − min_A v·a.
  // Faces are visited as slot 0 of each edge (every face is, at least once),
  // in edge order: consecutive edges share a vertex, so the faces are
  // neighbours and each support search starts next to its answer. Hill
  // climbing in the hull's face order was most of the query time.
  const int eb_count = b.edge_count();
  for (int eb = 0; eb < eb_count; ++eb) {
    const int f = b.edge_faces(eb)[0];
    const Vec3& v = b.normal(f);
    const Vec3 w = R.transpose() * v;
    const int va = a.support(-w, hint_a);
    const double h = b.offset(f) - w.dot(a.vertex(va)) - v.dot(p);
    ++face_axes;
    if (h < best.h) best = {h, -v, Feature::face_b, va, f, -1};
  }

  // Edge pairs, by walking each arc of A across the Gauss map of −B. Along
  // the arc u(t) = (1 − t)·n0 + t·n1 (t ∈ [0, 1], the minor arc between the
  // edge's face normals), track B's vertex v minimizing u·x, i.e. the region
  // of −B's map that u(t) is in. v hands over to a neighbour w exactly where
  // u(t) crosses the arc of B's edge (v, w); each hand-over is a face of
  // A ⊖ B, and nothing else is. This finds the same pairs as testing every
  // pair's four face normals (the classic Gauss-map test) in O(steps)
  // instead of O(|E_A|·|E_B|).
  long examined = 0, candidates = 0;
  int hint_walk = -1;
  const int ea_count = a.edge_count(), vb_count = b.vertex_count();
  // A walk starting on face `face_a` of A (n0 its normal) starts at B's
  // deepest vertex along −n0, exactly what that face's axis needs:
  // h_C(n0) = c_A − min_B n0·b. Every face of A is slot 0 of some edge, so
  // this covers all of A's faces without a support search of their own.
  auto walk = [&](int ea, const Vec3& n0, const Vec3& n1, const Vec3& qa0, const Vec3& qa1, int face_a) {
    int v = b.support(-n0, hint_walk);
    if (face_a >= 0) {
      const double h = a.offset(face_a) - n0.dot(b.vertex(v) - p);
      ++face_axes;
      if (h < best.h) best = {h, n0, Feature::face_a, face_a, v, -1};
    }
    // Each hand-over strictly lowers n1·v, so the walk ends; the cap only
    // guards against NaN from outside.
    for (int step = 0; step < vb_count; ++step) {
      const Vec3 pv = b.vertex(v);
      int next = -1;
      double t_next = 1.0;
      b.for_each_neighbor(v, [&](int w) {
        ++examined;
        const Vec3 dw = b.vertex(w) - pv;
        const double beta = n1.dot(dw);
        if (!(beta < 0.0)) return;  // w never beats v on this arc
        const double alpha = n0.dot(dw);
        const double tw = alpha <= 0.0 ? 0.0 : alpha / (alpha - beta);
        if (tw < t_next) { t_next = tw; next = w; }
      });
      if (next < 0) break;
      ++candidates;
      const Vec3 qb0 = pv, qb1 = b.vertex(next);
      const Vec3 da = qa1 - qa0, db = qb1 - qb0;
      Vec3 u = da.cross(db);
      const double l2 = u.squaredNorm(), scale2 = da.squaredNorm() * db.squaredNorm();
      if (l2 > detail::kParallel * detail::kParallel * scale2) {
        u /= std::sqrt(l2);
        if (u.dot(n0 + n1) < 0.0) u = -u;  // the crossing lies on A's minor arc
        double h;
        if (l2 > detail::kWellConditioned * detail::kWellConditioned * scale2) {
          h = u.dot(qa0 - qb0);
        } else {
          int sa = a.edge(ea)[0], sb = v;
          const int va = a.support(R.transpose() * u, sa);
          const int vb = b.support(-u, sb);
          h = u.dot(R * a.vertex(va) + p) - u.dot(b.vertex(vb));
        }
        if (h < best.h) best = {h, u, Feature::edges, ea, v, next};
      }
      v = next;
    }
    hint_walk = v;  // the next edge's arc usually starts near this one's end
  };
  for (int ea = 0; ea < ea_count; ++ea) {
    const auto& fa = a.edge_faces(ea);
    const auto& ev = a.edge(ea);
    const Vec3 qa0 = R * a.vertex(ev[0]) + p, qa1 = R * a.vertex(ev[1]) + p;
    const Vec3 n0 = R * a.normal(fa[0]), n1 = R * a.normal(fa[1]);
    if (a.dimension() == 3) {
      walk(ea, n0, n1, qa0, qa1, fa[0]);
    } else {
      // Flat A: the arc from n to −n is a half circle through the edge's
      // outward in-plane normal o; walk it as two quarter arcs. Face 0 runs
      // the edge ev[0] → ev[1] counter-clockwise about n0, so o = e × n0.
      const Vec3 o = (qa1 - qa0).cross(n0).normalized();
      walk(ea, n0, o, qa0, qa1, fa[0]);
      walk(ea, o, n1, qa0, qa1, -1);
    }
  }
  if (stats) {
    stats->face_axes += face_axes;
    stats->edge_pairs += examined;
    stats->edge_axes += candidates;
  }

  Vec3 pa;
  switch (best.kind) {
    case Feature::face_a: pa = b.vertex(best.j) + best.h * best.u; break;
    case Feature::face_b: pa = R * a.vertex(best.i) + p; break;
    case Feature::edges: {
      const Vec3 qa0 = R * a.vertex(a.edge(best.i)[0]) + p;
      const Vec3 qa1 = R * a.vertex(a.edge(best.i)[1]) + p;
      const auto [s, t] = closed_form::closest_segment_params(qa0, qa1, b.vertex(best.j), b.vertex(best.k));
      (void)t;
      pa = qa0 + s * (qa1 - qa0);
      break;
    }
  }
  return make_result(best, pa, tb, a.margin(), b.margin());
}

}  // namespace

DistanceResult sat_polytope_polytope(const ConvexPolytope& a, const Transform& ta,
                                     const ConvexPolytope& b, const Transform& tb) {
  return sat_views(HullView(a), ta, HullView(b), tb, nullptr);
}

DistanceResult sat_polytope_polytope(const ConvexPolytope& a, const Transform& ta,
                                     const ConvexPolytope& b, const Transform& tb, SatStats& stats) {
  return sat_views(HullView(a), ta, HullView(b), tb, &stats);
}

DistanceResult sat_box_polytope(const Box& a, const Transform& ta, const ConvexPolytope& b,
                                const Transform& tb) {
  return sat_views(BoxView(a), ta, HullView(b), tb, nullptr);
}

DistanceResult sat_polytope_box(const ConvexPolytope& a, const Transform& ta, const Box& b,
                                const Transform& tb) {
  return sat_views(HullView(a), ta, BoxView(b), tb, nullptr);
}

DistanceResult sat_box_box(const Box& a, const Transform& ta, const Box& b, const Transform& tb) {
  if (!both_valid(ta, tb)) {
    DistanceResult r;
    r.status = Status::invalid_input;
    return r;
  }
  return detail::sat_box_box_finite(a, ta, b, tb);
}

DistanceResult detail::sat_box_box_finite(const Box& a, const Transform& ta, const Box& b,
                                          const Transform& tb, double face_tol, bool* skipped) {
  // A's frame: columns of R are B's axes, t is B's centre.
  const Mat3 R = ta.R.transpose() * tb.R;
  const Vec3 t = ta.R.transpose() * (tb.p - ta.p);
  const Mat3 absR = R.cwiseAbs();
  const Vec3& ha = a.half_extents();
  const Vec3& hb = b.half_extents();

  // For a symmetric body the two facets ±u of C have h = r_A + r_B ∓ u·t;
  // the smaller is on the side of B's centre: u = sign(u·t)·axis. B's faces
  // first, as in sat_views. Only the winner's axis is built (below).
  double best_h = std::numeric_limits<double>::infinity();
  Feature kind = Feature::face_a;
  int bi = -1, bj = -1;
  for (int j = 0; j < 3; ++j) {
    const double h = ha.dot(absR.col(j)) + hb[j] - std::abs(t.dot(R.col(j)));
    if (h < best_h) { best_h = h; kind = Feature::face_b; bj = j; }
  }
  for (int i = 0; i < 3; ++i) {
    const double h = ha[i] + hb.dot(absR.row(i)) - std::abs(t[i]);
    if (h < best_h) { best_h = h; kind = Feature::face_a; bi = i; }
  }
  // Edge axes L = e_i × b_j, unnormalized: with (i1, i2) the other two axes
  // of A, L has L[i1] = −R(i2, j), L[i2] = R(i1, j), and B's axis k ≠ j sees
  // it as R_kᵀL = R(i2, k)·R(i1, j) − R(i1, k)·R(i2, j) (zero for k = j). The
  // radii are support values along L, so h = (r_A + r_B − |t·L|) / |L| is
  // h_C on the unit axis up to rounding; near-parallel pairs are skipped
  // (see detail::kParallel). All nine are formed first; the square root and division
  // (most of the SAT's time when taken for all nine) are then spent only on
  // axes that may beat the faces (see below).
  double num[9], len2[9];
  for (int i = 0; i < 3; ++i) {
    const int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
    for (int j = 0; j < 3; ++j) {
      const int j1 = j == 2 ? 0 : j + 1, j2 = j == 0 ? 2 : j - 1;
      const double p1 = R(i1, j), p2 = R(i2, j);
      const double ra = ha[i1] * absR(i2, j) + ha[i2] * absR(i1, j);
      const double rb = hb[j1] * std::abs(R(i2, j1) * p1 - R(i1, j1) * p2) +
                        hb[j2] * std::abs(R(i2, j2) * p1 - R(i1, j2) * p2);
      num[3 * i + j] = ra + rb - std::abs(t[i2] * p1 - t[i1] * p2);
      len2[3 * i + j] = p1 * p1 + p2 * p2;
    }
  }
  // An axis with num ≥ 0 has h = num/|L| ≥ 0, so it cannot beat best_h ≤ 0;
  // and as |L| ≤ max(1, |L|²), not best_h > 0 either once num exceeds
  // best_h·max(1, |L|²) by 1e-12 (far above the roundings on either side).
  // The mask is taken against the faces' best; later axes only lower
  // best_h, so a skipped axis stays beaten, and the kept ones go through the
  // exact test in order: the winner and its h are bit for bit those of
  // testing all nine.
  const double face_h = best_h, beaten_above = face_h * (1.0 + 1e-12);
  unsigned keep = 0;
  for (int k = 0; k < 9; ++k) {
    const bool beaten = num[k] >= 0.0 && (face_h <= 0.0 || num[k] >= beaten_above * std::max(1.0, len2[k]));
    keep |= (len2[k] > detail::kParallel * detail::kParallel && !beaten) ? 1u << k : 0u;
  }
  for (; keep != 0; keep &= keep - 1) {
    const int k = std::countr_zero(keep);
    const double h = num[k] / std::sqrt(len2[k]);
    if (h < best_h) {
      best_h = h;
      kind = Feature::edges;
      bi = k / 3;
      bj = k % 3;
    }
  }
  Best best;
  best.h = best_h;
  best.kind = kind;
  best.i = bi;
  best.j = bj;
  switch (kind) {
    case Feature::face_b: best.u = sign_of(t.dot(R.col(bj))) * Vec3(R.col(bj)); break;
    case Feature::face_a: best.u = sign_of(t[bi]) * Vec3::Unit(bi); break;
    case Feature::edges: {
      const Vec3 L = Vec3::Unit(bi).cross(Vec3(R.col(bj)));
      best.u = sign_of(t.dot(L)) * (L / std::sqrt(len2[3 * bi + bj]));
      break;
    }
  }

  // A face lying on a face (see sat_box.hpp): the normal and distance only.
  // A's local direction −n is u and B's is −Rᵀu, up to rounding; the
  // winner's own box shows its face by construction, and for a face of A,
  // Rᵀu is ± a row of R.
  if (skipped != nullptr && overlapping_faces(best, R, ha, hb, face_tol)) {
    *skipped = true;
    return make_result(best, Vec3::Zero(), ta, a.core_inflation(), b.core_inflation());
  }

  // Deepest points in A's frame. B's vertex deepest along −u:
  const Vec3& u = best.u;
  const Vec3 w = -(R.transpose() * u);
  const Vec3 corner_b(sign_of(w.x()) * hb.x(), sign_of(w.y()) * hb.y(), sign_of(w.z()) * hb.z());
  const Vec3 corner_a(sign_of(u.x()) * ha.x(), sign_of(u.y()) * ha.y(), sign_of(u.z()) * ha.z());
  Vec3 pa;
  switch (best.kind) {
    case Feature::face_a: pa = t + R * corner_b + best.h * u; break;
    case Feature::face_b: pa = corner_a; break;
    case Feature::edges: {
      // A's supporting edge along u runs along axis i, B's along −u along j.
      Vec3 a0 = corner_a, a1 = corner_a, b0 = corner_b, b1 = corner_b;
      a0[best.i] = -ha[best.i];
      a1[best.i] = ha[best.i];
      b0[best.j] = -hb[best.j];
      b1[best.j] = hb[best.j];
      const Vec3 q0 = t + R * b0, q1 = t + R * b1;
      const auto [s, tt] = closed_form::closest_segment_params(a0, a1, q0, q1);
      (void)tt;
      pa = a0 + s * (a1 - a0);
      break;
    }
  }
  return make_result(best, pa, ta, a.core_inflation(), b.core_inflation());
}

}  // namespace proxima::narrow
