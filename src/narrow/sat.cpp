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
// u·(a_edge − b_edge): no support search is needed for edge axes.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <proxima/narrow/closed_form.hpp>
#include <proxima/narrow/sat.hpp>

namespace proxima::narrow {
namespace {

// Edge pairs whose directions make an angle with sine below kParallel are
// skipped: the facet they span is a sliver of width ≤ edge length · sine, so
// the neighbouring facets (always tested) are within that of the depth,
// while the normalized cross product would carry ε/sine of noise.
constexpr double kParallel = 1e-9;
// Between kParallel and kWellConditioned the axis direction carries up to
// ε/sine ≈ 1e-11 of noise; there the support values are recomputed honestly
// (an honest h_C(u') on a slightly wrong u' is still an upper bound on the
// depth, where u'·(a_edge − b_edge) could undershoot).
constexpr double kWellConditioned = 1e-5;

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
  int support(const Vec3& dir, int& hint) const { return s_.support_index(dir, hint); }
  double margin() const { return s_.core_inflation(); }

 private:
  const ConvexPolytope& s_;
  const PolytopeData& d_;
};

// Box numbering: vertex v has coordinate k at +h_k when bit k of v is set;
// faces 2k and 2k+1 have normals +e_k and −e_k. The edge along axis k joins v
// and v | (1 << k) for v with bit k clear; its faces are the ones of the other
// two axes on the sides v lies on.
constexpr int box_side(int v, int k) { return 2 * k + (((v >> k) & 1) ? 0 : 1); }
constexpr std::array<std::array<int, 2>, 12> kBoxEdges{{
    {0, 1}, {2, 3}, {4, 5}, {6, 7},    // along x
    {0, 2}, {1, 3}, {4, 6}, {5, 7},    // along y
    {0, 4}, {1, 5}, {2, 6}, {3, 7}}};  // along z
constexpr std::array<std::array<int, 2>, 12> kBoxEdgeFaces{{
    {box_side(0, 1), box_side(0, 2)}, {box_side(2, 1), box_side(2, 2)},
    {box_side(4, 1), box_side(4, 2)}, {box_side(6, 1), box_side(6, 2)},
    {box_side(0, 0), box_side(0, 2)}, {box_side(1, 0), box_side(1, 2)},
    {box_side(4, 0), box_side(4, 2)}, {box_side(5, 0), box_side(5, 2)},
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
// the working frame; i, j the feature indices (face or edge of A, support
// vertex or edge of B, as the kind says).
struct Best {
  double h = std::numeric_limits<double>::infinity();
  Vec3 u = Vec3::UnitZ();
  Feature kind = Feature::face_a;
  int i = -1;
  int j = -1;
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

// Generic SAT on two views, in B's local frame (x_B = R x_A + p).
template <class VA, class VB>
DistanceResult sat_views(const VA& a, const Transform& ta, const VB& b, const Transform& tb,
                         SatStats* stats) {
  DistanceResult r;
  if (!ta.is_finite() || !tb.is_finite()) {
    r.status = Status::invalid_input;
    return r;
  }
  if (a.dimension() < 3 || b.dimension() < 3) {
    r.status = Status::not_implemented;  // flat/segment/point cores: no facets to enumerate here
    return r;
  }
  const Mat3 R = tb.R.transpose() * ta.R;
  const Vec3 p = tb.R.transpose() * (ta.p - tb.p);
  Best best;
  int hint_a = -1, hint_b = -1;
  const int fa_count = a.face_count(), fb_count = b.face_count();

  // B's faces first: on exact ties (parallel faces in contact) the answer
  // then names a vertex of A as point_a, the deepest point of A in B.
  // Face normals v of B: facet normal u = −v of C, h_C(u) = c_B − min_A v·a.
  for (int f = 0; f < fb_count; ++f) {
    const Vec3& v = b.normal(f);
    const Vec3 w = R.transpose() * v;
    const int va = a.support(-w, hint_a);
    const double h = b.offset(f) - w.dot(a.vertex(va)) - v.dot(p);
    if (h < best.h) best = {h, -v, Feature::face_b, va, f};
  }

  // Face normals of A: h_C(u) = c_A − min_B u·b, B's deepest vertex along −u.
  for (int f = 0; f < fa_count; ++f) {
    const Vec3 u = R * a.normal(f);
    const int vb = b.support(-u, hint_b);
    const double h = a.offset(f) - u.dot(b.vertex(vb) - p);
    if (h < best.h) best = {h, u, Feature::face_a, f, vb};
  }
  // Edge pairs. Arc of A's edge: from na0 to na1 (its face normals); arc of
  // −B's edge: from −nb0 to −nb1. They cross iff each arc's endpoints lie on
  // opposite sides of the other arc's great circle and the crossing is not
  // the antipodal one (last test). Signs of the −nb terms are folded in.
  const int ea_count = a.edge_count(), eb_count = b.edge_count();
  long candidates = 0;
  for (int ea = 0; ea < ea_count; ++ea) {
    const auto& fa = a.edge_faces(ea);
    const Vec3 na0 = R * a.normal(fa[0]);
    const Vec3 na1 = R * a.normal(fa[1]);
    const Vec3 g = na1.cross(na0);  // normal of A's great circle (∥ edge)
    bool have_edge = false;
    Vec3 qa0 = Vec3::Zero(), qa1 = Vec3::Zero();
    for (int eb = 0; eb < eb_count; ++eb) {
      const auto& fb = b.edge_faces(eb);
      const Vec3& nb0 = b.normal(fb[0]);
      const Vec3& nb1 = b.normal(fb[1]);
      const double cba = -nb0.dot(g);
      const double dba = -nb1.dot(g);
      if (cba * dba >= 0.0) continue;  // −B's arc does not cross A's great circle
      const Vec3 k = nb1.cross(nb0);   // normal of −B's great circle
      const double adc = na0.dot(k), bdc = na1.dot(k);
      if (adc * bdc >= 0.0 || cba * bdc <= 0.0) continue;
      ++candidates;
      if (!have_edge) {
        qa0 = R * a.vertex(a.edge(ea)[0]) + p;
        qa1 = R * a.vertex(a.edge(ea)[1]) + p;
        have_edge = true;
      }
      const Vec3 qb0 = b.vertex(b.edge(eb)[0]);
      const Vec3 da = qa1 - qa0, db = b.vertex(b.edge(eb)[1]) - qb0;
      Vec3 u = da.cross(db);
      const double l2 = u.squaredNorm(), scale2 = da.squaredNorm() * db.squaredNorm();
      if (!(l2 > kParallel * kParallel * scale2)) continue;
      u /= std::sqrt(l2);
      if (u.dot(na0 + na1) < 0.0) u = -u;  // the crossing lies on A's (minor) arc
      double h;
      if (l2 > kWellConditioned * kWellConditioned * scale2) {
        h = u.dot(qa0 - qb0);
      } else {
        int sa = a.edge(ea)[0], sb = b.edge(eb)[0];
        const int va = a.support(R.transpose() * u, sa);
        const int vb = b.support(-u, sb);
        h = u.dot(R * a.vertex(va) + p) - u.dot(b.vertex(vb));
      }
      if (h < best.h) best = {h, u, Feature::edges, ea, eb};
    }
  }
  if (stats) {
    stats->face_axes += fa_count + fb_count;
    stats->edge_pairs += static_cast<long>(ea_count) * eb_count;
    stats->edge_axes += candidates;
  }

  Vec3 pa;
  switch (best.kind) {
    case Feature::face_a: pa = b.vertex(best.j) + best.h * best.u; break;
    case Feature::face_b: pa = R * a.vertex(best.i) + p; break;
    case Feature::edges: {
      const Vec3 qa0 = R * a.vertex(a.edge(best.i)[0]) + p;
      const Vec3 qa1 = R * a.vertex(a.edge(best.i)[1]) + p;
      const auto [s, t] = closed_form::closest_segment_params(qa0, qa1, b.vertex(b.edge(best.j)[0]),
                                                              b.vertex(b.edge(best.j)[1]));
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
  DistanceResult r;
  if (!ta.is_finite() || !tb.is_finite()) {
    r.status = Status::invalid_input;
    return r;
  }
  // A's frame: columns of R are B's axes, t is B's centre.
  const Mat3 R = ta.R.transpose() * tb.R;
  const Vec3 t = ta.R.transpose() * (tb.p - ta.p);
  const Mat3 absR = R.cwiseAbs();
  const Vec3& ha = a.half_extents();
  const Vec3& hb = b.half_extents();
  Best best;

  // For a symmetric body the two facets ±u of C have h = r_A + r_B ∓ u·t;
  // the smaller is on the side of B's centre: u = sign(u·t)·axis. B's faces
  // first, as in sat_views.
  for (int j = 0; j < 3; ++j) {
    const double tj = t.dot(R.col(j));
    const double h = ha.dot(absR.col(j)) + hb[j] - std::abs(tj);
    if (h < best.h) best = {h, sign_of(tj) * Vec3(R.col(j)), Feature::face_b, -1, j};
  }
  for (int i = 0; i < 3; ++i) {
    const double h = ha[i] + hb.dot(absR.row(i)) - std::abs(t[i]);
    if (h < best.h) best = {h, sign_of(t[i]) * Vec3::Unit(i), Feature::face_a, i, -1};
  }
  // Edge axes e_i × b_j. Radii are exact support values on whatever unit axis
  // the cross product gives, so rounding can only raise h (an upper bound);
  // near-parallel pairs are skipped (see kParallel).
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      Vec3 L = Vec3::Unit(i).cross(Vec3(R.col(j)));
      const double l2 = L.squaredNorm();
      if (!(l2 > kParallel * kParallel)) continue;
      L /= std::sqrt(l2);
      const double tl = t.dot(L);
      const double h = ha.dot(L.cwiseAbs()) + hb.dot((R.transpose() * L).cwiseAbs()) - std::abs(tl);
      if (h < best.h) best = {h, sign_of(tl) * L, Feature::edges, i, j};
    }
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
