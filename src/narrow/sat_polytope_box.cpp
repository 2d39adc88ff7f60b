// SPDX-License-Identifier: BSD-3-Clause
// Exact depth of a polytope P against a box: the separating-axis test
// (Contact data for convex polyhedra, Alg. 1–2) on the facets of
// C = P ⊖ Q, Q the box's core, pruned by the cone hierarchy over P's Gauss
// map (PolytopeData::cones), as sat_segment.cpp does for a segment.
//
// Why these candidates: Q = c + Σ_i [−h_i, h_i] e_i (centre c, unit axes e_i,
// half extents h_i, all in P's frame), so h_{−Q}(u) = −u·c + Σ_i h_i |u·e_i|.
// The Gauss map of −Q is the three great circles G_i ⟂ e_i (its twelve edges'
// arcs cover them) with its six face normals ±e_i where they meet.
// Overlaying it on P's map, the facets of C are
//   * P's faces n: h_C(n) = c_n + h_{−Q}(n);
//   * the crossings of P's arcs with G_i: u = ±(e × e_i)/|e × e_i|, where the
//     edge (endpoint q) and a box edge along e_i both support, so
//     h_C(u) = u·(q − c) + Σ_{j≠i} h_j |u·e_j|;
//   * Q's faces ±e_i: h_C = h_P(±e_i) ∓ e_i·c + h_i (a support call each).
// For an interior origin the depth is the smallest h_C over them.
//
// Why the pruning is exact: on a cone of half angle θ about axis a, h_P ≥
// min_offset (NormalCone), and h_{−Q}(u) = max over corners x of −u·x ≥ −u·x
// for every corner x, while u·x ≤ |x| cos(max(0, ∠(a, x) − θ)) on the cap.
// So h_C ≥ min_offset − min over corners of that cap maximum; only the
// corners that can support somewhere on the cone are worth taking (those
// whose sign along e_i is fixed when the cone lies on one side of G_i), and
// taking fewer only loosens the bound. A subtree whose bound is not below the
// best h found so far holds nothing better; the minimum itself is never
// pruned.
#include <algorithm>
#include <cmath>
#include <limits>

#include <proxima/narrow/closed_form.hpp>
#include <proxima/narrow/sat.hpp>

#include "cone_feature_set.hpp"
#include "face_polygon.hpp"
#include "sat_edge_axis.hpp"
#include "sat_thresholds.hpp"

namespace proxima::narrow {
namespace {

using detail::cone_edge_axis;
using detail::arc_min_below;
using detail::ConeFeatures;
using detail::ConeLeaves;
using detail::kWellConditioned;

enum class BoxAxisKind { poly_face, poly_edge, box_face };

struct BoxWalkBest {
  double h = std::numeric_limits<double>::infinity();
  Vec3 u = Vec3::UnitZ();
  BoxAxisKind kind = BoxAxisKind::poly_face;
  int index = -1;  // cone_faces, cone_edges, or 2·i + (u = −e_i) for a box face
  int box_axis = -1;  // the box edge's axis for a crossing
};

// The walk, in P's frame.
class BoxConeWalk {
 public:
  // `keep`: collect the leaves reached (sat_polytope_box_collect), pruning
  // on keep->floor instead of the best value.
  BoxConeWalk(const ConvexPolytope& p, const Vec3& c, const Mat3& axes, const Vec3& half, double below,
              ConeLeaves* keep = nullptr)
      : poly_(p), d_(p.data()), c_(c), e_(axes), h_(half), keep_(keep) {
    best_.h = below;
    if (keep_) {
      keep_->count = 0;
      best_.h = std::numeric_limits<double>::infinity();
    }
  }

  // h_{−Q}(u) for unit u.
  double box_support(const Vec3& u) const {
    return -u.dot(c_) + h_[0] * std::abs(u.dot(e_.col(0))) + h_[1] * std::abs(u.dot(e_.col(1))) +
           h_[2] * std::abs(u.dot(e_.col(2)));
  }

  BoxWalkBest run(int& hint) {
    // The box's corners, which only the cones' bounds read (the
    // certificate's run_features evaluates its features without them).
    for (int k = 0; k < 8; ++k) {
      corner_[k] = c_;
      for (int i = 0; i < 3; ++i) corner_[k] += (((k >> i) & 1) ? h_[i] : -h_[i]) * e_.col(i);
      corner_len_[k] = corner_[k].norm();
    }
    struct Entry {
      int node;
      double bound;
    };
    // At most cone_depth ≤ kMaxDepth entries (NormalCone::kMaxDepth): a
    // push never finds the stack full, and no node is dropped, which the
    // coherence certificate (incremental_depth.hpp) relies on.
    Entry stack[NormalCone::kMaxDepth];
    int top = 0;
    stack[top++] = {0, bound(d_.cones[0])};
    while (top > 0) {
      const Entry en = stack[--top];
      if (!(en.bound < limit())) continue;
      const NormalCone& c = d_.cones[static_cast<std::size_t>(en.node)];
      if (c.right < 0) {
        if (keep_ == nullptr || kept(en.node, en.bound)) leaf(c);
        continue;
      }
      const int l = en.node + 1, r = c.right;
      const double bl = bound(d_.cones[static_cast<std::size_t>(l)]);
      const double br = bound(d_.cones[static_cast<std::size_t>(r)]);
      // The nearer child is pushed last, so it is popped first.
      const bool left_near = bl <= br;
      const Entry near_e{left_near ? l : r, left_near ? bl : br}, far_e{left_near ? r : l, left_near ? br : bl};
      if (far_e.bound < limit()) stack[top++] = far_e;
      if (near_e.bound < limit()) stack[top++] = near_e;
    }
    return finish(hint);
  }

  // Only the features of `set`, with nothing to beat, up to the first that
  // cannot beat the best found after Q moved by `moved`; then the box's faces.
  BoxWalkBest run_features(const ConeFeatures& set, double moved, int& hint) {
    best_.h = std::numeric_limits<double>::infinity();
    only_ = &set;
    detail::visit_features(
        d_, set, [&](int k) { face(k); },
        [&](const NormalCone& c, int k, const Vec3& n0, const Vec3& n1) {
          for (int i = 0; i < 3; ++i)
            if (n0.dot(e_.col(i)) * n1.dot(e_.col(i)) < 0.0) edge(c, k, i);
        },
        [&](double v) { return detail::cannot_beat(v, moved, best_.h); });
    return finish(hint);
  }

  // As SegmentSat::refine (sat_segment.cpp): the kept leaves' features below
  // the floor. On an edge's arc h_C(u) = u·q + h_{−Q}(u) ≥ u·(q − x) for
  // every corner x of Q, so the minimum over the arc of u·(q − x) bounds
  // h_C there from below for any x; the corner supporting at the arc's
  // middle is taken. Then h_P along Q's six face normals, for
  // run_features' bound on them after a motion.
  void refine(ConeFeatures& out, int& hint) const {
    out.count = 0;
    out.floor = keep_->floor;
    double value[ConeFeatures::kMax] = {};
    const auto add = [&](int leaf, int index, double v) {
      detail::keep_lowest(value, out.item, out.count, ConeFeatures::kMax, out.floor, v, ConeFeatures::Feature{leaf, index});
    };
    const auto low_corner = [&](const Vec3& u) {  // the corner of Q least along u
      Vec3 x = c_;
      for (int i = 0; i < 3; ++i) x -= std::copysign(h_[i], u.dot(e_.col(i))) * e_.col(i);
      return x;
    };
    for (int l = 0; l < keep_->count; ++l) {
      const int node = keep_->leaf[l];
      const NormalCone& c = d_.cones[static_cast<std::size_t>(node)];
      for (int k = c.face_begin; k < c.face_end; ++k) add(node, k, face_value(k));
      for (int k = c.edge_begin; k < c.edge_end; ++k) {
        const ConeEdge& e = d_.cone_edges[static_cast<std::size_t>(k)];
        const Vec3& n0 = d_.cone_faces[static_cast<std::size_t>(c.face_begin + e.owner)].normal;
        const Vec3& n1 = e.other_normal;
        add(node, -1 - k, arc_min_below(n0, n1, e.q - low_corner(n0 + n1), out.floor));
      }
    }
    detail::sort_features(value, out);
    for (int i = 0; i < 6; ++i) {
      const Vec3 u = (i & 1) ? Vec3(-e_.col(i / 2)) : Vec3(e_.col(i / 2));
      out.box_dir[i] = u;
      out.box_hp[i] = u.dot(poly_.core_support(u, hint));
    }
  }

 private:
  // The pruning threshold: the best value found, or the collecting walk's floor.
  double limit() const { return keep_ ? keep_->floor : best_.h; }

  // h_C at face k of cone_faces, as leaf() evaluates it.
  double face_value(int k) const {
    const ConeFace& f = d_.cone_faces[static_cast<std::size_t>(k)];
    return f.offset - f.normal.dot(c_) + h_[0] * std::abs(f.normal.dot(e_.col(0))) +
           h_[1] * std::abs(f.normal.dot(e_.col(1))) + h_[2] * std::abs(f.normal.dot(e_.col(2)));
  }
  void face(int k) {
    const double h = face_value(k);
    if (h < best_.h) best_ = {h, d_.cone_faces[static_cast<std::size_t>(k)].normal, BoxAxisKind::poly_face, k, -1};
  }

  // As SegmentSat::kept (sat_segment.cpp): keeps leaf `node` of bound `b`,
  // dropping the largest bound into the floor when the set is full.
  bool kept(int node, double b) {
    ConeLeaves& k = *keep_;
    return detail::keep_lowest(kept_bound_, k.leaf, k.count, ConeLeaves::kMax, k.floor, b, node);
  }

  BoxWalkBest finish(int& hint) {
    // The box's faces: h_P ≥ the root's min_offset on every direction, so a
    // face whose bound from it is not below the best needs no support call.
    // With features from an earlier pose (run_features), also h_P(u) ≥
    // h_P(u0) − h_P(u0 − u) ≥ h_P(u0) − |P| |u0 − u| (h_P is sublinear and
    // |P| bounds its vertices' norms), u0 the face's normal then.
    const double floor_p = d_.cones[0].min_offset;
    const Vec3 far = d_.bounds.min.cwiseAbs().cwiseMax(d_.bounds.max.cwiseAbs());
    const double reach = far.norm();
    for (int i = 0; i < 3; ++i) {
      for (int s = 0; s < 2; ++s) {
        const Vec3 u = s == 0 ? Vec3(e_.col(i)) : Vec3(-e_.col(i));
        const double rest = -u.dot(c_) + h_[i];
        double hp_low = floor_p;
        if (only_) {
          const int j = 2 * i + s;
          hp_low = std::max(hp_low, only_->box_hp[j] - reach * (u - only_->box_dir[j]).norm() -
                                        1e-12 * (1.0 + std::abs(only_->box_hp[j])));
        }
        if (!(hp_low + rest < best_.h)) continue;
        const double h = u.dot(poly_.core_support(u, hint)) + rest;
        if (h < best_.h) best_ = {h, u, BoxAxisKind::box_face, 2 * i + s, -1};
      }
    }
    if (best_.kind == BoxAxisKind::poly_face && best_.index >= 0) {
      best_.u = d_.cone_faces[static_cast<std::size_t>(best_.index)].normal;
    }
    return best_;
  }

  // Lower bound on h_C over cone k (see the file comment).
  double bound(const NormalCone& k) const {
    // Corner k supports −Q along u when its sign along e_i is −sign(u·e_i):
    // a cone wholly on the positive side of G_i (a·e_i > side) fixes bit i
    // to 0 (the −h_i end), on the negative side to 1.
    int fixed_mask = 0, fixed_bits = 0;
    for (int i = 0; i < 3; ++i) {
      const double ae = k.axis.dot(e_.col(i));
      if (ae > k.side) {
        fixed_mask |= 1 << i;
      } else if (-ae > k.side) {
        fixed_mask |= 1 << i;
        fixed_bits |= 1 << i;
      }
    }
    double least = std::numeric_limits<double>::infinity();
    for (int x = 0; x < 8; ++x) {
      if ((x & fixed_mask) != fixed_bits) continue;
      least = std::min(least, k.cap_max(k.axis.dot(corner_[x]), corner_len_[x]));
    }
    return k.min_offset - least;
  }

  void leaf(const NormalCone& c) {
    double ne[NormalCone::kMaxLeafFaces][3];
    const int nf = c.face_end - c.face_begin;
    for (int k = 0; k < nf; ++k) {
      const ConeFace& f = d_.cone_faces[static_cast<std::size_t>(c.face_begin + k)];
      for (int i = 0; i < 3; ++i) ne[k][i] = f.normal.dot(e_.col(i));
      const double h = f.offset - f.normal.dot(c_) + h_[0] * std::abs(ne[k][0]) + h_[1] * std::abs(ne[k][1]) +
                       h_[2] * std::abs(ne[k][2]);
      if (h < best_.h) best_ = {h, f.normal, BoxAxisKind::poly_face, c.face_begin + k, -1};
    }
    for (int k = c.edge_begin; k < c.edge_end; ++k) {
      const ConeEdge& e = d_.cone_edges[static_cast<std::size_t>(k)];
      for (int i = 0; i < 3; ++i) {
        // The arc crosses G_i when its two face normals are strictly on
        // opposite sides of it.
        if (ne[e.owner][i] * e.other_normal.dot(e_.col(i)) < 0.0) edge(c, k, i);
      }
    }
  }

  // The crossing of edge k's arc with G_i, as the axis e × e_i.
  void edge(const NormalCone& c, int k, int i) {
    const ConeEdge& e = d_.cone_edges[static_cast<std::size_t>(k)];
    const double scale2 = e.e.squaredNorm();
    Vec3 u;
    double l2;
    if (!cone_edge_axis(d_, c, e, e_.col(i), scale2, u, l2)) return;
    double h;
    if (l2 > kWellConditioned * kWellConditioned * scale2) {
      h = u.dot(e.q - c_);
      for (int j = 0; j < 3; ++j) {
        if (j != i) h += h_[j] * std::abs(u.dot(e_.col(j)));
      }
    } else {
      int hint = -1;  // an honest support value on the noisy axis (sat_thresholds.hpp)
      h = u.dot(poly_.core_support(u, hint)) + box_support(u);
    }
    if (h < best_.h) best_ = {h, u, BoxAxisKind::poly_edge, k, i};
  }

  const ConvexPolytope& poly_;
  const PolytopeData& d_;
  Vec3 c_;
  Mat3 e_;
  Vec3 h_;
  Vec3 corner_[8];  // set by run()
  double corner_len_[8];
  ConeLeaves* keep_;
  double kept_bound_[ConeLeaves::kMax] = {};
  const ConeFeatures* only_ = nullptr;
  BoxWalkBest best_;
};

// `below`: only axes with h_C below it are searched; none found reports
// not_converged (the proof that the cores' depth is at least `below`).
// `keep`: collect the features (sat_polytope_box_collect); `only`:
// evaluate only these features (sat_polytope_box_features).
// `on_polytope` (optional) receives whether point_a is on P's surface by
// construction: an edge's point, a vertex, or a face's inside its polygon.
DistanceResult polytope_box_walk(const ConvexPolytope& a, const Transform& ta, const Box& b, const Transform& tb,
                                 double below, int& hint, ConeFeatures* keep = nullptr,
                                 const ConeFeatures* only = nullptr, bool* on_polytope = nullptr,
                                 double moved = std::numeric_limits<double>::infinity()) {
  if (on_polytope) *on_polytope = false;
  DistanceResult r;
  const PolytopeData& d = a.data();
  if (d.dimension < 3 || d.cones.empty()) {
    r.status = Status::not_implemented;  // flat core: no cone hierarchy
    return r;
  }
  const Mat3 axes = ta.R.transpose() * tb.R;
  const Vec3 centre = ta.apply_inverse(tb.p);
  const Vec3& half = b.half_extents();
  ConeLeaves leaves;
  if (keep) leaves.floor = below;
  BoxConeWalk walk(a, centre, axes, half, below, keep ? &leaves : nullptr);
  const BoxWalkBest best = only ? walk.run_features(*only, moved, hint) : walk.run(hint);
  if (keep) walk.refine(*keep, hint);
  if (!std::isfinite(best.h) || best.index < 0 || (keep && !(best.h < keep->floor))) {
    if (keep) keep->count = 0;  // the minimum is not proven to be among the kept features
    r.status = Status::not_converged;
    return r;
  }
  // Deepest point of P's core in A's frame: on a face of P, the box's
  // corner that is deepest along −u pushed out to the face plane; on an
  // edge, its closest point to the supporting box edge; on a box face, the
  // polytope's supporting vertex.
  const Vec3& u = best.u;
  Vec3 low = centre;  // the box's point of least u·x (a corner)
  for (int i = 0; i < 3; ++i) low -= std::copysign(half[i], u.dot(axes.col(i))) * axes.col(i);
  Vec3 pa;
  bool on_core = true;
  if (best.kind == BoxAxisKind::poly_face) {
    pa = low + best.h * u;
    on_core = on_polytope && detail::inside_face_polygon(d, d.cone_face_ids[static_cast<std::size_t>(best.index)], pa);
  } else if (best.kind == BoxAxisKind::poly_edge) {
    const ConeEdge& e = d.cone_edges[static_cast<std::size_t>(best.index)];
    const Vec3 ei = axes.col(best.box_axis);
    // The supporting box edge runs along e_i through `low`'s other coordinates.
    const Vec3 b0 = low - (low - centre).dot(ei) * ei - half[best.box_axis] * ei;
    const Vec3 b1 = b0 + 2.0 * half[best.box_axis] * ei;
    const auto [s, t] = closed_form::closest_segment_params(e.q, e.q + e.e, b0, b1);
    (void)t;
    pa = e.q + s * e.e;
  } else {
    int h = hint;
    pa = a.core_support(u, h);
  }
  const double ra = a.core_inflation(), rb = b.core_inflation();
  // With a margin the witness is off the core, on the rounded surface.
  if (on_polytope) *on_polytope = on_core && ra == 0.0;
  r.normal = ta.rotate(-u);
  r.distance = -best.h - ra - rb;
  r.point_a = ta.apply(pa) - ra * r.normal;
  r.point_b = r.point_a - r.distance * r.normal;
  return r;
}

}  // namespace

DistanceResult detail::sat_polytope_box_depth(const ConvexPolytope& a, const Transform& ta, const Box& b,
                                              const Transform& tb, const Vec3& normal_guess, double below) {
  if (!both_valid(ta, tb)) {
    DistanceResult r;
    r.status = Status::invalid_input;
    return r;
  }
  const PolytopeData& d = a.data();
  int hint = -1;
  if (d.dimension < 3 || d.cones.empty()) return polytope_box_walk(a, ta, b, tb, below, hint);
  // h_C along the guess (one support call) bounds the cores' depth from
  // above; the slack keeps the facet that attains it (computed in the walk
  // along another rounding path) strictly under the bound. Without a guess,
  // the centre line.
  const Mat3 axes = ta.R.transpose() * tb.R;
  const Vec3 centre = ta.apply_inverse(tb.p);
  const Vec3& half = b.half_extents();
  const auto h_along = [&](const Vec3& u) {
    double h = u.dot(a.core_support(u, hint)) - u.dot(centre);
    for (int i = 0; i < 3; ++i) h += half[i] * std::abs(u.dot(axes.col(i)));
    return h;
  };
  Vec3 u = -(ta.R.transpose() * normal_guess);
  if (!(u.allFinite() && u.squaredNorm() > 0.0)) u = centre;
  if (!(u.squaredNorm() > 0.0)) u = Vec3::UnitZ();
  u.normalize();
  const double h = h_along(u);
  if (h <= 0.0 && below == std::numeric_limits<double>::infinity()) {
    // The guess's plane separates the cores: GJK takes over from it.
    DistanceResult r;
    r.normal = ta.rotate(-u);
    r.distance = -h - a.core_inflation() - b.core_inflation();
    r.point_a = r.point_b = ta.apply(centre);
    return r;
  }
  const double bound = std::min(below, h + 1e-9 * (1.0 + std::abs(h)));
  if (std::isfinite(bound)) {
    const DistanceResult r = polytope_box_walk(a, ta, b, tb, bound, hint);
    // Nothing below `below` itself: the proof the caller asked for.
    if (r.status != Status::not_converged || bound == below) return r;
  }
  // Nothing below the guess's own support value: rounding; walk again.
  return polytope_box_walk(a, ta, b, tb, below, hint);
}

}  // namespace proxima::narrow

namespace proxima::narrow {

DistanceResult detail::sat_polytope_box_collect(const ConvexPolytope& a, const Transform& ta, const Box& b,
                                                const Transform& tb, double floor, ConeFeatures& out) {
  out.count = 0;
  out.floor = floor;
  int hint = -1;
  DistanceResult r = polytope_box_walk(a, ta, b, tb, floor, hint, &out);
  if (r.status != Status::ok) out.count = 0;
  return r;
}

DistanceResult detail::sat_polytope_box_features(const ConvexPolytope& a, const Transform& ta, const Box& b,
                                                 const Transform& tb, const ConeFeatures& set, double moved,
                                                 int& hint, bool* witness_on_polytope) {
  return polytope_box_walk(a, ta, b, tb, std::numeric_limits<double>::infinity(), hint, nullptr, &set,
                           witness_on_polytope, moved);
}

}  // namespace proxima::narrow
