// SPDX-License-Identifier: BSD-3-Clause
// Pieces shared by the mesh traversals (mesh_queries.cpp for collide,
// distance and tolerance; mesh_contacts.cpp for BLEM contacts): node-pair
// lower bounds, triangle-pair quick rejections and a triangle as GJK's
// convex core.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <proxima/mesh/bvh.hpp>
#include <proxima/narrow/curved_finish.hpp>
#include <proxima/shape/halfspace.hpp>
#include <proxima/mesh/triangle_distance.hpp>

namespace proxima::mesh::detail {

// Enough for two trees of the capped depth (bvh.cpp): a depth-first pair
// traversal holds at most one pending sibling per level of either tree.
constexpr int kStack = 512;

// The pending node pairs (or nodes) of a best-first branch and bound,
// least lower bound `lb` next: a binary heap in a fixed array. Should it
// fill, its items become a depth-first stack, nearest on top, and the
// search goes on depth first (the caller pushes the nearer child last) in
// the kStack slots left.
template <class Item>
class PendingQueue {
 public:
  static constexpr int kHeap = 1024;
  bool empty() const { return n_ == 0; }
  // False when the depth-first stack is full too. A bound that is not a
  // number counts as −∞: the item is expanded, never dropped.
  bool push(Item c) {
    if (std::isnan(c.lb)) c.lb = -std::numeric_limits<double>::infinity();
    if (heap_ && n_ == kHeap) {
      // Ascending in `later` is descending in lb: the nearest on top.
      std::sort_heap(items_, items_ + n_, later);
      heap_ = false;
    }
    if (n_ == kHeap + kStack) return false;
    items_[n_++] = c;
    if (heap_) std::push_heap(items_, items_ + n_, later);
    return true;
  }
  Item pop() {
    if (heap_) std::pop_heap(items_, items_ + n_, later);
    return items_[--n_];
  }
  // Still best first: every item left bounds at least as far as the last
  // one popped.
  bool ordered() const { return heap_; }
  // The next item bounded below `limit` into `out`; false when none is left
  // worth expanding. Best first, the first one at or above it ends the
  // search (all the rest bound at least as far); depth first, it is skipped.
  bool next_below(double limit, Item& out) {
    while (!empty()) {
      out = pop();
      if (out.lb < limit) return true;
      if (ordered()) return false;
    }
    return false;
  }

 private:
  static bool later(const Item& x, const Item& y) { return x.lb > y.lb; }
  Item items_[kHeap + kStack];
  int n_ = 0;
  bool heap_ = true;
};

// Most triangles in one leaf (BvhOptions::leaf_size is at most 8), and a
// node index no leaf has.
constexpr std::uint32_t kMaxLeaf = 8;
constexpr std::uint32_t kNoLeaf = 0xffffffffu;

inline Triangle triangle_of(const TriangleMesh& m, std::uint32_t t) {
  return {m.corner(t, 0), m.corner(t, 1), m.corner(t, 2)};
}

// Triangle t of m, mapped by `to` (e.g. B's triangle into A's frame).
inline Triangle triangle_of(const TriangleMesh& m, std::uint32_t t, const Transform& to) {
  return {to.apply(m.corner(t, 0)), to.apply(m.corner(t, 1)), to.apply(m.corner(t, 2))};
}

struct NodeGeom {
  Vec3 c, h;  // centre and half extents, relative to the BVH origin
};

inline NodeGeom geom(const BvhNode& n) {
  const Vec3 lo(n.lo[0], n.lo[1], n.lo[2]), hi(n.hi[0], n.hi[1], n.hi[2]);
  return {0.5 * (lo + hi), 0.5 * (hi - lo)};
}

// Euclidean norm of the positive parts: the distance between two boxes that
// share their axes, from the per-axis gaps.
inline double gap_norm(const Vec3& gaps) { return gaps.cwiseMax(0.0).norm(); }

// A box of frame B seen from A's node frame: x_A = R x_B + t.
struct Placement {
  Mat3 R, absR;
  Vec3 t;
};

// Lower bound on the distance between box A (A's frame) and box B (B's
// frame, placed by P). Along A's axes the gaps are those of B's |R|-box, and
// they combine as an AABB distance; with `obb` the same is done along B's
// axes and the larger of the two bounds is kept (both are valid).
// The bound is lowered by a rounding slack relative to the magnitudes
// involved: boxes that touch exactly (a flat triangle's zero-thickness box
// on another's face) must not come out 1e-16 apart and be pruned by collide
// and tolerance, whose bound is 0 at zero margins.
// `depth` (optional) receives the largest signed per-axis gap: negative when
// the boxes overlap on every tested axis, by the least of those overlaps.
// Collide visits the deeper-overlapping child pair first: it is the likelier
// to hold touching triangles (on the overlapping bunny poses collide ends
// ~3× sooner: median 20 µs → 6 µs).
template <bool kObb>
inline double box_bound(const NodeGeom& a, const NodeGeom& b, const Placement& P, double* depth = nullptr) {
  const Vec3 c = P.R * b.c + P.t;
  const Vec3 d = a.c - c;
  const double slack = 1e-12 * (d.lpNorm<1>() + a.h.lpNorm<1>() + b.h.lpNorm<1>());
  const Vec3 ga = d.cwiseAbs() - a.h - P.absR * b.h;
  const double lb_a = gap_norm(ga);
  if constexpr (!kObb) {
    if (depth) *depth = ga.maxCoeff();
    return lb_a - slack;
  } else {
    const Vec3 gb = (P.R.transpose() * d).cwiseAbs() - b.h - P.absR.transpose() * a.h;
    if (depth) *depth = std::max(ga.maxCoeff(), gb.maxCoeff());
    const double lb_b = gap_norm(gb);
    // Bounding spheres as well: for boxes seen corner-on (a rotated B
    // against A's axes, a common case for curved surfaces) the centre
    // distance beats every face axis.
    const double spheres = d.norm() - a.h.norm() - b.h.norm();
    return std::max({lb_a, lb_b, spheres}) - slack;
  }
}

// box_bound<true>(a, b, P) <= limit, for traversals that only compare the
// bound with a limit: the same three terms by the same operations, but each
// one only while those before it are within the limit (most pruned node
// pairs fail the first, A's axes). Decisions are identical: x ↦ fl(x − slack)
// is monotone, so the largest term less the slack exceeds the limit iff one
// of the terms less the slack does.
inline bool box_within(const NodeGeom& a, const NodeGeom& b, const Placement& P, double limit) {
  const Vec3 c = P.R * b.c + P.t;
  const Vec3 d = a.c - c;
  const double slack = 1e-12 * (d.lpNorm<1>() + a.h.lpNorm<1>() + b.h.lpNorm<1>());
  const Vec3 ga = d.cwiseAbs() - a.h - P.absR * b.h;
  if (gap_norm(ga) - slack > limit) return false;
  const Vec3 gb = (P.R.transpose() * d).cwiseAbs() - b.h - P.absR.transpose() * a.h;
  if (gap_norm(gb) - slack > limit) return false;
  const double spheres = d.norm() - a.h.norm() - b.h.norm();
  return !(spheres - slack > limit);
}

// Oriented node boxes: B's box in A's box frame, then the same axis bounds.
// The float axes are orthonormal only to ~1e-7, so the bound is shrunk by
// 1e-6 to stay a lower bound (the boxes are padded for the same reason).
inline double obb_bound(const BvhObb& a, const BvhObb& b, const Placement& P) {
  Mat3 Ra, Rb;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j) {
      Ra(j, k) = a.axis[k][j];
      Rb(j, k) = b.axis[k][j];
    }
  const Vec3 ca(a.center[0], a.center[1], a.center[2]), cb(b.center[0], b.center[1], b.center[2]);
  Placement Q;
  Q.R = Ra.transpose() * (P.R * Rb);
  Q.absR = Q.R.cwiseAbs();
  Q.t = Ra.transpose() * (P.R * cb + P.t - ca);
  const NodeGeom ga{Vec3::Zero(), Vec3(a.half[0], a.half[1], a.half[2])};
  const NodeGeom gb{Vec3::Zero(), Vec3(b.half[0], b.half[1], b.half[2])};
  // Bounding spheres too: for boxes far apart relative to their size, and
  // seen corner-on, the centre distance beats every face axis.
  const double spheres = Q.t.norm() - ga.h.norm() - gb.h.norm();
  return (1.0 - 1e-6) * std::max(spheres, box_bound<true>(ga, gb, Q));
}

// Lower bound on the distance between two rectangle swept spheres: RSS a
// (A's node frame) and RSS b (B's node frame, placed by P). The distance
// between the rectangles, less both radii, is what PQP uses (Larsen et al.
// 1999); it is tight where box bounds are loose (curved patches whose tilted
// boxes meet corner-on). Instead of an exact rectangle–rectangle solver this
// finds a separating direction and measures the gap along it, which is a
// lower bound for any direction w (B → A):
//   |x − y| ≥ (min_A w·x − max_B w·y) / |w|   for x in A, y in B,
// and a rectangle's extreme along w is c·w ± Σ half_k |axis_k·w| in closed
// form. So the bound is valid whatever the direction, float axes that are
// orthonormal only to ~1e-7 included (the rectangles are the parallelograms
// they span, as bvh.cpp measures the radii), and tight when the direction is
// that of the closest points. Directions tried:
//  * both rectangles' normals: exact when a corner of one faces the other's
//    face (the common case between patches facing each other across a gap);
//  * the pair reached by alternating projections from the centres (closest
//    point of B to A's centre, of A to that, ...; Cheney and Goldstein 1959:
//    for convex sets it converges to a closest pair, fast unless the
//    rectangles are near parallel, which the normals cover).
// The result is lowered by a slack relative to the magnitudes (1e-6: the
// normals are cross products of float axes, unit only to ~1e-7).
// `enough`: a bound at or above it will prune the pair, so once the normals
// reach it the projections are skipped.
inline double rss_bound(const BvhRss& a, const BvhRss& b, const Placement& P,
                        double enough = std::numeric_limits<double>::infinity()) {
  const Vec3 ca(a.center[0], a.center[1], a.center[2]);
  const Vec3 ua(a.axis[0][0], a.axis[0][1], a.axis[0][2]), va(a.axis[1][0], a.axis[1][1], a.axis[1][2]);
  const Vec3 cb = P.R * Vec3(b.center[0], b.center[1], b.center[2]) + P.t;
  const Vec3 ub = P.R * Vec3(b.axis[0][0], b.axis[0][1], b.axis[0][2]);
  const Vec3 vb = P.R * Vec3(b.axis[1][0], b.axis[1][1], b.axis[1][2]);
  const double a0 = a.half[0], a1 = a.half[1], b0 = b.half[0], b1 = b.half[1];
  const Vec3 cd = ca - cb;
  // Half the rectangles' combined width along w; the unnormalised gap along
  // w is (min over A − max over B) of w·x = w·cd − spread(w).
  auto spread = [&](const Vec3& w) {
    return std::abs(w.dot(ua)) * a0 + std::abs(w.dot(va)) * a1 + std::abs(w.dot(ub)) * b0 +
           std::abs(w.dot(vb)) * b1;
  };
  auto gap = [&](const Vec3& w) { return std::abs(w.dot(cd)) - spread(w); };
  // |w·cd| picks the sign of w that points from B to A; for a direction whose
  // sign matters (the projections') the signed form is used below.
  const Vec3 na = ua.cross(va), nb = ub.cross(vb);
  double best = std::max(gap(na), gap(nb));  // |na|, |nb| are 1 to ~1e-7
  const double slack = 1e-6 * (cd.lpNorm<1>() + a0 + a1 + b0 + b1);
  const double radii = double(a.radius) + double(b.radius) + slack;
  if (best - radii >= enough) return best - radii;
  auto on_a = [&](const Vec3& p) {
    const Vec3 d = p - ca;
    return Vec3(ca + std::clamp(ua.dot(d), -a0, a0) * ua + std::clamp(va.dot(d), -a1, a1) * va);
  };
  auto on_b = [&](const Vec3& p) {
    const Vec3 d = p - cb;
    return Vec3(cb + std::clamp(ub.dot(d), -b0, b0) * ub + std::clamp(vb.dot(d), -b1, b1) * vb);
  };
  Vec3 pb = on_b(ca);
  Vec3 pa = on_a(pb);
  pb = on_b(pa);
  pa = on_a(pb);
  const Vec3 w = pa - pb;
  const double ww = w.squaredNorm();
  if (ww > 0.0) {
    best = std::max(best, (w.dot(cd) - spread(w)) / std::sqrt(ww));
  }
  return best - radii;
}

// B's node frame seen from A's node frame, for meshes A and B whose mesh
// frames are related by ab (B's mesh frame → A's).
inline Placement node_placement(const Transform& ab, const Bvh& a, const Bvh& b) {
  return {ab.R, ab.R.cwiseAbs(), Vec3(ab.R * b.origin() + ab.p - a.origin())};
}

// A convex shape seen from a mesh's node frame: its whole local box
// (inflation included) placed once per query, and a lower bound on the core
// distance from a node to the shape's core.
struct ShapeInNodes {
  NodeGeom box;
  Placement P;
  double inflation;

  template <class S>
  ShapeInNodes(const Bvh& a, const Transform& pose_a, const S& s, const Transform& pose_b)
      : inflation(s.core_inflation()) {
    const Transform ab = pose_a.inverse() * pose_b;
    const Aabb lb = s.local_aabb();
    box = {lb.center(), lb.half_extents()};
    P = {ab.R, ab.R.cwiseAbs(), Vec3(ab.p - a.origin())};
  }

  double bound(const BvhNode& n) const {
    const double lb = box_bound<true>(geom(n), box, P);
    return lb > 0.0 ? lb + inflation : 0.0;
  }
};

// A halfspace {n·x ≤ offset} (posed by pose_b) in a mesh's frame: the
// signed core distance of a mesh point x is n·x − offset, and of a node at
// least bound(node).
struct PlaneInNodes {
  Vec3 n;           // the halfspace normal in A's mesh frame
  double offset;    // in A's mesh frame
  double off_node;  // relative to A's node origin

  PlaneInNodes(const Bvh& a, const Transform& pose_a, const Halfspace& h, const Transform& pose_b) {
    const Vec3 nw = h.world_normal(pose_b);
    const double ow = h.offset() + nw.dot(pose_b.p);
    n = pose_a.rotate_inverse(nw);
    offset = ow - nw.dot(pose_a.p);
    off_node = offset - n.dot(a.origin());
  }

  double height(const Vec3& x) const { return n.dot(x) - offset; }
  double bound(const BvhNode& nd) const {
    const NodeGeom g = geom(nd);
    return n.dot(g.c) - n.cwiseAbs().dot(g.h) - off_node;
  }
};

inline double size_of(const BvhNode& n) {
  return double(n.hi[0] - n.lo[0]) + double(n.hi[1] - n.lo[1]) + double(n.hi[2] - n.lo[2]);
}

// Bounds of a triangle (A's frame) for the quick pair rejection in leaves.
inline double triangle_gap(const Triangle& a, const Triangle& b) {
  const Vec3 amin = a[0].cwiseMin(a[1]).cwiseMin(a[2]), amax = a[0].cwiseMax(a[1]).cwiseMax(a[2]);
  const Vec3 bmin = b[0].cwiseMin(b[1]).cwiseMin(b[2]), bmax = b[0].cwiseMax(b[1]).cwiseMax(b[2]);
  return (amin - bmax).cwiseMax(bmin - amax).cwiseMax(0.0).norm();
}

// Lower bound along the line through the centroids: for unit u, every pair
// of points is at least min_a u·x − max_b u·y apart. It rejects triangles
// side by side on a surface (diagonal neighbours that the coordinate boxes
// and the planes both miss), the common case among the candidate pairs of
// two meshes resting on each other.
inline double centroid_gap(const Triangle& a, const Triangle& b) {
  const Vec3 u = (a[0] + a[1] + a[2]) - (b[0] + b[1] + b[2]);
  const double len = u.norm();
  if (!(len > 0.0)) return 0.0;
  const double lo_a = std::min({u.dot(a[0]), u.dot(a[1]), u.dot(a[2])});
  const double hi_b = std::max({u.dot(b[0]), u.dot(b[1]), u.dot(b[2])});
  return (1.0 - 1e-9) * (lo_a - hi_b) / len;
}

// Lower bound from the triangles' planes: when all of one triangle lies
// strictly on one side of the other's plane, every point of it is at least
// the nearest corner's height away. 0 when neither plane separates.
inline double plane_gap(const Triangle& a, const Triangle& b) {
  auto side = [](const Triangle& p, const Triangle& q) {
    const Vec3 n = (p[1] - p[0]).cross(p[2] - p[0]);
    const double nn = n.squaredNorm();
    if (!(nn > 0.0)) return 0.0;
    const double h0 = n.dot(q[0] - p[0]), h1 = n.dot(q[1] - p[0]), h2 = n.dot(q[2] - p[0]);
    const double lo = std::min({h0, h1, h2}), hi = std::max({h0, h1, h2});
    const double h = lo > 0.0 ? lo : (hi < 0.0 ? -hi : 0.0);
    // p's own corners lie off the rounded plane by up to `own` (much so for
    // slivers, whose normal is ill-conditioned): subtract it, and shrink a
    // little for the rounding of the heights.
    const double own = std::max(std::abs(n.dot(p[1] - p[0])), std::abs(n.dot(p[2] - p[0])));
    return (1.0 - 1e-9) * (h - own) / std::sqrt(nn);
  };
  return std::max(side(a, b), side(b, a));
}

// A triangle as GJK's convex core: the vertex farthest along d.
struct TriangleCore {
  Vec3 v0, v1, v2;
  Vec3 core_support(const Vec3& d) const {
    const double a = d.dot(v0), b = d.dot(v1), c = d.dot(v2);
    if (a >= b) return a >= c ? v0 : v2;
    return b >= c ? v1 : v2;
  }
};

}  // namespace proxima::mesh::detail

namespace proxima::detail {
// Its support points are its corners: GJK's finish on a cylinder or a cone
// (narrow/curved_finish.hpp) applies.
template <>
inline constexpr bool kVertexCore<mesh::detail::TriangleCore> = true;
}  // namespace proxima::detail
