// Exact depth of a polytope P against a capsule: the separating-axis test
// (papers/contact-data-convex-polyhedra-time-stepping.txt, Alg. 1–2) on the
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

#include <proxima/narrow/closed_form.hpp>
#include <proxima/narrow/sat.hpp>

namespace proxima::narrow {
namespace {

// As in sat.cpp: an edge nearly parallel to the segment spans a sliver facet
// (skipped below kParallel; its neighbours are tested), and between that and
// kWellConditioned the axis carries up to ε/sine of noise, so h_C is
// recomputed from honest support values there.
constexpr double kParallel = 1e-9;
constexpr double kWellConditioned = 1e-5;

// The largest n·s over the cap of half angle θ about unit a, with |s| = len.
double cap_max(const NormalCone& c, const Vec3& s, double len) {
  const double as = c.axis.dot(s);
  if (as >= len * c.cos_angle) return len;
  return as * c.cos_angle + std::sqrt(std::max(0.0, len * len - as * as)) * c.sin_angle;
}

enum class Kind { face, edge };

struct Best {
  double h = std::numeric_limits<double>::infinity();
  Vec3 u = Vec3::UnitZ();
  Kind kind = Kind::face;
  int index = -1;  // cone_faces or cone_edges
};

// The query in P's frame.
class SegmentSat {
 public:
  SegmentSat(const ConvexPolytope& p, const Vec3& s0, const Vec3& s1, SatStats* stats)
      : poly_(p), d_(p.data()), s0_(s0), s1_(s1), dir_(s1 - s0), len0_(s0.norm()), len1_(s1.norm()),
        dir_len_(dir_.norm()), stats_(stats) {}

  Best run() {
    // Explicit stack: depth ≤ log2(faces) + 1 levels, two entries each.
    struct Entry {
      int node;
      double bound;
      int side;
    };
    Entry stack[128];
    int top = 0;
    int side = 0;
    stack[top++] = {0, bound(0, side), side};
    while (top > 0) {
      const Entry e = stack[--top];
      if (!(e.bound < best_.h)) continue;
      const NormalCone& c = d_.cones[static_cast<std::size_t>(e.node)];
      if (c.right < 0) {
        leaf(c, e.side);
        continue;
      }
      int sl = 0, sr = 0;
      const double bl = bound(e.node + 1, sl), br = bound(c.right, sr);
      // The nearer child is pushed last, so it is popped first.
      if (bl <= br) {
        if (br < best_.h) stack[top++] = {c.right, br, sr};
        if (bl < best_.h) stack[top++] = {e.node + 1, bl, sl};
      } else {
        if (bl < best_.h) stack[top++] = {e.node + 1, bl, sl};
        if (br < best_.h) stack[top++] = {c.right, br, sr};
      }
    }
    if (stats_) {
      stats_->face_axes += faces_;
      stats_->edge_pairs += edges_;
      stats_->edge_axes += crossings_;
    }
    return best_;
  }

 private:
  // Lower bound on h_C under cone k; side = +1 (−1) when the whole cone has
  // n·d > 0 (< 0): s0 (s1) alone is supporting and no arc crosses G.
  double bound(int k, int& side) const {
    const NormalCone& c = d_.cones[static_cast<std::size_t>(k)];
    const double ad = c.axis.dot(dir_), margin = c.side * dir_len_;
    if (ad > margin) {
      side = 1;
      return c.min_offset - cap_max(c, s0_, len0_);
    }
    if (-ad > margin) {
      side = -1;
      return c.min_offset - cap_max(c, s1_, len1_);
    }
    side = 0;
    return c.min_offset - std::min(cap_max(c, s0_, len0_), cap_max(c, s1_, len1_));
  }

  void leaf(const NormalCone& c, int side) {
    double nd[NormalCone::kMaxLeafFaces];
    const int nf = c.face_end - c.face_begin;
    for (int k = 0; k < nf; ++k) {
      const ConeFace& f = d_.cone_faces[static_cast<std::size_t>(c.face_begin + k)];
      nd[k] = f.normal.dot(dir_);
      const double h = f.offset - std::min(f.normal.dot(s0_), f.normal.dot(s1_));
      if (h < best_.h) best_ = {h, f.normal, Kind::face, c.face_begin + k};
    }
    faces_ += nf;
    if (side != 0) return;
    for (int k = c.edge_begin; k < c.edge_end; ++k) {
      const ConeEdge& e = d_.cone_edges[static_cast<std::size_t>(k)];
      ++edges_;
      const double d0 = nd[e.owner], d1 = e.other_normal.dot(dir_);
      if (!((d0 > 0.0 && d1 < 0.0) || (d0 < 0.0 && d1 > 0.0))) continue;  // arc misses G
      ++crossings_;
      Vec3 u = e.e.cross(dir_);
      const double l2 = u.squaredNorm(), scale2 = e.e.squaredNorm() * dir_len_ * dir_len_;
      if (!(l2 > kParallel * kParallel * scale2)) continue;
      u /= std::sqrt(l2);
      const Vec3& n0 = d_.cone_faces[static_cast<std::size_t>(c.face_begin + e.owner)].normal;
      if (u.dot(n0 + e.other_normal) < 0.0) u = -u;  // the crossing lies on the edge's minor arc
      double h;
      if (l2 > kWellConditioned * kWellConditioned * scale2) {
        h = u.dot(e.q - s0_);
      } else {
        int hint = -1;
        h = u.dot(poly_.core_support(u, hint)) - std::min(u.dot(s0_), u.dot(s1_));
      }
      if (h < best_.h) best_ = {h, u, Kind::edge, k};
    }
  }

  const ConvexPolytope& poly_;
  const PolytopeData& d_;
  Vec3 s0_, s1_, dir_;
  double len0_, len1_, dir_len_;
  SatStats* stats_;
  Best best_;
  long faces_ = 0, edges_ = 0, crossings_ = 0;
};

}  // namespace

DistanceResult sat_polytope_capsule(const ConvexPolytope& a, const Transform& ta, const Capsule& b,
                                    const Transform& tb, SatStats* stats) {
  DistanceResult r;
  if (!ta.is_finite() || !tb.is_finite()) {
    r.status = Status::invalid_input;
    return r;
  }
  const PolytopeData& d = a.data();
  if (d.dimension < 3 || d.cones.empty()) {
    r.status = Status::not_implemented;  // flat core: no cone hierarchy
    return r;
  }
  // B's segment in A's frame.
  const Vec3 axis = ta.R.transpose() * tb.R.col(2);
  const Vec3 centre = ta.apply_inverse(tb.p);
  const Vec3 s0 = centre - b.half_length() * axis, s1 = centre + b.half_length() * axis;
  const Best best = SegmentSat(a, s0, s1, stats).run();
  if (!std::isfinite(best.h)) {
    r.status = Status::not_converged;  // unreachable for valid hulls; never NaN
    return r;
  }
  // Deepest points on the cores, in A's frame: for a face, the segment's
  // trailing end along u pushed out to the face plane; for an edge, its
  // closest point to the segment.
  Vec3 pa;
  if (best.kind == Kind::face) {
    pa = (best.u.dot(s0) <= best.u.dot(s1) ? s0 : s1) + best.h * best.u;
  } else {
    const ConeEdge& e = d.cone_edges[static_cast<std::size_t>(best.index)];
    const auto [s, t] = closed_form::closest_segment_params(e.q, e.q + e.e, s0, s1);
    (void)t;
    pa = e.q + s * e.e;
  }
  const double ra = a.core_inflation(), rb = b.core_inflation();
  r.normal = ta.rotate(-best.u);
  r.distance = -best.h - ra - rb;
  r.point_a = ta.apply(pa) - ra * r.normal;
  r.point_b = r.point_a - r.distance * r.normal;
  return r;
}

}  // namespace proxima::narrow
