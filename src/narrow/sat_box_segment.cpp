// SPDX-License-Identifier: BSD-3-Clause
// Exact depth of a box against a capsule: the separating-axis test (Contact data for
// convex polyhedra, Alg. 1–2) on the facets
// of C = X ⊖ S, X the box's core and S the capsule's core segment.
//
// Why these twelve axes: X ⊖ S is a zonotope with generators the box's three
// edge directions e_k and the segment's direction d, so its facets are
// normal to the cross products of generator pairs: the box's faces (e_i ×
// e_j, i.e. ±e_k) and ±(d × e_k)/|d × e_k|. For an origin inside C the depth
// is the smallest h_C over its facets, and every other unit direction has
// h_C at least that, so an axis that is no facet (d along e_k) is harmless.
// An axis with |d × e_k| below kSliverAxis is skipped: its facet is a sliver
// of width ~|d × e_k|·length, and its value tends to that of the box faces
// beside it as the sliver vanishes, so the error is below the skipped sine
// times the segment's length. No axis is noisy: d × e_k is a permutation of
// d's components with a sign, exact, so each axis is a unit direction ⟂ d
// to rounding and its value an honest h_C, never below the depth.
#include <algorithm>
#include <cmath>
#include <limits>

#include <proxima/narrow/closed_form.hpp>
#include <proxima/narrow/sat.hpp>

namespace proxima::narrow {
namespace {

constexpr double kSliverAxis = 1e-12;

DistanceResult box_segment(const Box& box, const Transform& tx, const detail::SegmentCore& seg,
                           const Transform& ts) {
  // The segment in the box's frame: centre c, unit direction d, half length l.
  const Vec3 c = tx.apply_inverse(ts.p);
  const Vec3 d = tx.rotate_inverse(ts.R.col(2));
  const double l = seg.half_length();
  const Vec3& h = box.half_extents();

  // Depth along unit u (box frame) with A = the box moving away from the
  // segment: h_C(±u) = h_X(u) + l|d·u| ∓ c·u, the smaller sign taken.
  double best = std::numeric_limits<double>::infinity();
  Vec3 best_u = Vec3::UnitZ();
  int best_axis = 0;  // 0–2 box faces, 3–5 segment × box edge k − 3
  for (int k = 0; k < 3; ++k) {
    const double v = h[k] + l * std::abs(d[k]) - std::abs(c[k]);
    if (v < best) {
      best = v;
      best_axis = k;
      best_u = Vec3::Unit(k) * (c[k] > 0.0 ? -1.0 : 1.0);
    }
  }
  for (int k = 0; k < 3; ++k) {
    Vec3 u = d.cross(Vec3::Unit(k));
    const double len = u.norm();
    if (!(len > kSliverAxis)) continue;
    u /= len;
    const double cu = c.dot(u);
    const double v = h.dot(u.cwiseAbs()) - std::abs(cu);
    if (v < best) {
      best = v;
      best_axis = 3 + k;
      best_u = cu > 0.0 ? Vec3(-u) : u;
    }
  }

  // Witnesses (sat.hpp's conventions, A the box): on a face axis the point
  // of the segment deepest into the box among those over the face (the
  // segment clipped to the face's slab; its middle when it lies parallel to
  // the face) and its projection on the face; on an edge axis the closest
  // points of the box's supporting edge and the segment.
  const Vec3& n = best_u;  // B→A: the box leaves along +n
  Vec3 pa;
  if (best_axis < 3) {
    const int k = best_axis;
    const double nd = n.dot(d);
    double lo = -l, hi = l;
    for (int i = 0; i < 3; ++i) {
      if (i == k) continue;
      if (d[i] == 0.0) {
        if (std::abs(c[i]) > h[i]) hi = -2.0 * l - 1.0;  // parallel to the slab and outside it: empty
        continue;
      }
      const double t0 = (-h[i] - c[i]) / d[i], t1 = (h[i] - c[i]) / d[i];
      lo = std::max(lo, std::min(t0, t1));
      hi = std::min(hi, std::max(t0, t1));
    }
    if (!(lo <= hi)) lo = hi = nd > 0.0 ? l : -l;  // no part over the face: the deepest end
    const double t = nd > 0.0 ? hi : nd < 0.0 ? lo : 0.5 * (lo + hi);
    const Vec3 pb = c + t * d;
    pa = pb - (n.dot(pb) + h[k]) * n;
  } else {
    const int k = best_axis - 3;
    Vec3 q0, q1;
    for (int i = 0; i < 3; ++i) q0[i] = n[i] > 0.0 ? -h[i] : h[i];  // the box's support along −n
    q1 = q0;
    q0[k] = -h[k];
    q1[k] = h[k];
    const double s = closed_form::closest_segment_params(q0, q1, c - l * d, c + l * d).first;
    pa = q0 + s * (q1 - q0);
  }
  const double ra = box.core_inflation(), rb = seg.core_inflation();
  const Vec3 normal = tx.rotate(n);
  DistanceResult r;
  r.distance = -(best + ra + rb);
  r.normal = normal;
  r.point_a = tx.apply(pa) - ra * normal;
  r.point_b = r.point_a - r.distance * normal;
  return r;
}

}  // namespace

DistanceResult sat_box_capsule(const Box& a, const Transform& ta, const Capsule& b, const Transform& tb) {
  if (!both_valid(ta, tb)) {
    DistanceResult r;
    r.status = Status::invalid_input;
    return r;
  }
  return box_segment(a, ta, detail::SegmentCore::of(b), tb);
}

DistanceResult detail::sat_box_segment_depth(const Box& a, const Transform& ta, const SegmentCore& b,
                                             const Transform& tb) {
  return box_segment(a, ta, b, tb);
}

}  // namespace proxima::narrow
