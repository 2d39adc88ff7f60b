// SPDX-License-Identifier: BSD-3-Clause
// The candidate axis of a polytope edge against a direction in the cone-
// pruned SATs (sat_segment.cpp: a segment's direction; sat_polytope_box.cpp:
// a box's edge): e × d, unit, turned to the side where the crossing of the
// edge's Gauss-map arc with d's great circle lies.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include <proxima/shape/convex_polytope.hpp>

#include "sat_thresholds.hpp"

namespace proxima::narrow::detail {

/// Sets u to the axis of edge `e` (of cone `c` of `d`) and direction `dir`,
/// and l2 to |e × dir|² before it was normalised. False, u unset, when the
/// two are within kParallel of parallel (scale2 = |e|² |dir|²): a sliver
/// facet whose neighbours are tested.
inline bool cone_edge_axis(const PolytopeData& d, const NormalCone& c, const ConeEdge& e, const Vec3& dir,
                           double scale2, Vec3& u, double& l2) {
  u = e.e.cross(dir);
  l2 = u.squaredNorm();
  if (!(l2 > kParallel * kParallel * scale2)) return false;
  u /= std::sqrt(l2);
  const Vec3& n0 = d.cone_faces[static_cast<std::size_t>(c.face_begin + e.owner)].normal;
  if (u.dot(n0 + e.other_normal) < 0.0) u = -u;  // the crossing lies on the edge's minor arc
  return true;
}

/// The smallest u·w over the unit vectors u of the minor great-circle arc
/// from n0 to n1 (unit, not opposite): at an end, or where −w's projection
/// on the arc's plane points, if that lies on the arc (a linear function on
/// a circle has its one minimum there). For the coherence certificate's
/// lower bounds of h_C over an edge's arc; 1e-12 of |w| is subtracted for
/// the rounding of the on-the-arc test.
inline double arc_min(const Vec3& n0, const Vec3& n1, const Vec3& w) {
  double least = std::min(n0.dot(w), n1.dot(w));
  const Vec3 m = n0.cross(n1);
  const double m2 = m.squaredNorm();
  if (m2 > 0.0) {
    const Vec3 p = w - (w.dot(m) / m2) * m;  // w in the arc's plane
    const double pn = p.norm();
    if (pn > 0.0) {
      const Vec3 u = -p / pn;
      if (n0.cross(u).dot(m) >= 0.0 && u.cross(n1).dot(m) >= 0.0) least = std::min(least, -pn);
    }
  }
  return least - 1e-12 * (1.0 + w.norm());
}

/// arc_min(n0, n1, w) where it may be below `floor`, else +∞ without the
/// arc's cross products and roots: every u of the minor arc lies within the
/// chord |n1 − n0| of both ends, so u·w ≥ n_i·w − |w| |n1 − n0|, compared
/// squared with room for rounding (1e-9 (1 + |w|²), far above it and above
/// arc_min's own 1e-12 (1 + |w|)). The collecting walks' refine keeps an
/// edge only below its floor: most of a leaf's edges are proven above it so.
inline double arc_min_below(const Vec3& n0, const Vec3& n1, const Vec3& w, double floor) {
  const double w2 = w.squaredNorm();
  const double above = std::max(n0.dot(w), n1.dot(w)) - floor - 1e-9 * (1.0 + w2);
  if (above > 0.0 && above * above > w2 * (n1 - n0).squaredNorm()) return std::numeric_limits<double>::infinity();
  return arc_min(n0, n1, w);
}

}  // namespace proxima::narrow::detail
