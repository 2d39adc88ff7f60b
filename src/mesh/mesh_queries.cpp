// SPDX-License-Identifier: BSD-3-Clause
// Mesh–mesh and mesh–convex traversals. One traversal per question, with
// fixed-size storage (the build caps the depth) and a bound that prunes
// node pairs:
//   collide   – prune when a node pair is farther than the margins; stop at
//               the first touching triangle pair;
//   tolerance – the same with margins + t;
//   distance  – branch and bound: prune when the pair's lower bound is not
//               below the best distance so far (bounds as in PQP, Larsen et
//               al., "Fast proximity queries with swept sphere volumes",
//               1999): node pairs bounded by their RSSs when both BVHs have
//               them (the default build), else by boxes; the best pair's
//               direction bounds node pairs and, in leaves, triangle pairs
//               before any exact triangle distance. Mesh–mesh and
//               mesh–convex distance take node pairs (nodes) best first,
//               least bound next (PendingQueue).
// Node volumes are stored relative to each BVH's origin; B's are mapped
// into A's node frame with one rigid transform per query.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/mesh/triangle_distance.hpp>
#include <proxima/narrow/gjk.hpp>

#include "traversal.hpp"

namespace proxima {
namespace {

using mesh::Triangle;
using namespace mesh::detail;

enum class Ask { collide, tolerance, distance };

// How node pairs are bounded in one mesh–mesh traversal.
enum class Bound { aabb_rebox, aabb_sat, obb, rss };


// The direction u of the best witness pair so far (unit, B→A, A's frame)
// and the projection bound along it: for any unit u and points x of A, y of
// B, |x − y| ≥ u·(x − y) ≥ min_A u·x − max_B u·y. Near the answer u is the
// direction of the closest pair, along which this bound is tight for node
// pairs facing each other across the gap, where box-axis bounds of tilted
// patches of curved surfaces are loose; it is a few dot products per pair.
struct Direction {
  Vec3 u = Vec3::Zero(), au = Vec3::Zero();  // A's node frame
  Vec3 ub = Vec3::Zero(), aub = Vec3::Zero();  // R^T u: B's node frame
  double ut = 0.0;
  bool valid = false;

  void set(const Vec3& pa, const Vec3& pb, double d, const Placement& P) {
    valid = false;
    if (!(d > 0.0)) return;
    u = (pa - pb) / d;
    if (!u.allFinite()) return;
    au = u.cwiseAbs();
    ub = P.R.transpose() * u;
    aub = ub.cwiseAbs();
    ut = u.dot(P.t);
    valid = true;
  }

  // Lower bound for box a (A's node frame) and box b (B's node frame),
  // lowered by a rounding slack relative to the magnitudes (u's norm is 1
  // to rounding, which the slack also covers).
  double bound(const NodeGeom& a, const NodeGeom& b) const {
    const double lo_a = u.dot(a.c) - au.dot(a.h);
    const double hi_b = ub.dot(b.c) + aub.dot(b.h) + ut;
    const double slack =
        1e-12 * (a.c.lpNorm<1>() + a.h.lpNorm<1>() + b.c.lpNorm<1>() + b.h.lpNorm<1>() + std::abs(ut));
    return lo_a - hi_b - slack;
  }

  // The same for two triangles in A's mesh frame (u is a direction, the
  // same in A's node and mesh frames).
  double gap(const Triangle& a, const Triangle& b) const {
    const double da0 = u.dot(a[0]), da1 = u.dot(a[1]), da2 = u.dot(a[2]);
    const double db0 = u.dot(b[0]), db1 = u.dot(b[1]), db2 = u.dot(b[2]);
    // Rounding of the dot products: relative to the coordinates (large for
    // a mesh far from its frame's origin), not to the projections.
    const double slack = 1e-12 * (a[0].lpNorm<1>() + b[0].lpNorm<1>() + (a[0] - a[1]).lpNorm<1>() +
                                  (a[0] - a[2]).lpNorm<1>() + (b[0] - b[1]).lpNorm<1>() + (b[0] - b[2]).lpNorm<1>());
    return std::min({da0, da1, da2}) - std::max({db0, db1, db2}) - slack;
  }

  // The same along u for two rectangle swept spheres: a rectangle's extreme
  // along u is its centre's ± Σ half_k |u·axis_k|, plus the radius; tighter
  // than the boxes' for tilted patches. B's axes are dotted with u in B's
  // own node frame, so nothing is rotated per pair.
  double bound(const BvhRss& a, const BvhRss& b) const {
    const Vec3 ca(a.center[0], a.center[1], a.center[2]), cb(b.center[0], b.center[1], b.center[2]);
    const double lo_a = u.dot(ca) - std::abs(u.dot(Vec3(a.axis[0][0], a.axis[0][1], a.axis[0][2]))) * a.half[0] -
                        std::abs(u.dot(Vec3(a.axis[1][0], a.axis[1][1], a.axis[1][2]))) * a.half[1] - a.radius;
    const double hi_b = ub.dot(cb) + std::abs(ub.dot(Vec3(b.axis[0][0], b.axis[0][1], b.axis[0][2]))) * b.half[0] +
                        std::abs(ub.dot(Vec3(b.axis[1][0], b.axis[1][1], b.axis[1][2]))) * b.half[1] + b.radius + ut;
    const double slack = 1e-12 * (ca.lpNorm<1>() + cb.lpNorm<1>() + a.half[0] + a.half[1] + b.half[0] + b.half[1] +
                                  a.radius + b.radius + std::abs(ut));
    return lo_a - hi_b - slack;
  }
};

// Triangle pair outcome in A's frame.
struct Best {
  double d = std::numeric_limits<double>::infinity();  // core distance
  Vec3 pa = Vec3::Zero(), pb = Vec3::Zero();           // A's frame
  std::int64_t ta = -1, tb = -1;
  bool hit = false;  // collide / tolerance answer
};

bool bad_pose(const Transform& a, const Transform& b) { return !both_valid(a, b); }


// ---------------------------------------------------------------- mesh–mesh

struct MeshPair {
  const Bvh& A;
  const Bvh& B;
  Transform ab;      // B's mesh frame → A's mesh frame
  Placement nodes;   // B's node frame → A's node frame
  double radii;

  MeshPair(const Bvh& a, const Transform& ta, const Bvh& b, const Transform& tb)
      : A(a), B(b), ab(ta.inverse() * tb), nodes(node_placement(ab, a, b)),
        radii(a.mesh().margin() + b.mesh().margin()) {}

  Triangle b_in_a(std::uint32_t t) const { return triangle_of(B.mesh(), t, ab); }

  // One triangle pair against the current state; true to stop.
  template <Ask kAsk>
  bool visit(std::uint32_t ia, std::uint32_t ib, const Triangle& a, const Triangle& b, double bound,
             Best& best, const Direction* dir = nullptr) const {
    if constexpr (kAsk == Ask::collide) {
      // The boxes first: strictly disjoint boxes (an exact comparison of
      // coordinates) cannot share a point, and most pairs in overlapping
      // leaves are rejected so before the exact predicate's set-up.
      if (radii == 0.0 ? (triangle_gap(a, b) == 0.0 && mesh::triangles_intersect(a, b))
                       : (triangle_gap(a, b) <= radii && mesh::triangle_distance(a, b).distance <= radii)) {
        best.hit = true;
        best.ta = ia;
        best.tb = ib;
        return true;
      }
      return false;
    } else {
      const double limit = kAsk == Ask::distance ? best.d : bound;
      if (triangle_gap(a, b) > limit) return false;
      // Along the best pair's direction (distance): near the answer the
      // triangles facing each other across the gap are separated along it
      // by about their distance, where boxes and planes of tilted triangles
      // are loose; six dot products.
      if (dir && dir->valid && dir->gap(a, b) > limit) return false;
      const double pg = plane_gap(a, b);
      if (pg > limit) return false;
      // A positive plane gap is a true lower bound on the distance, so the
      // triangles are disjoint and the exact intersection test is not needed
      // (the common case between separated meshes).
      const mesh::ClosestPoints c = pg > 0.0 ? mesh::feature_distance(a, b) : mesh::triangle_distance(a, b);
      if constexpr (kAsk == Ask::tolerance) {
        if (c.distance <= bound) {
          best.hit = true;
          best.ta = ia;
          best.tb = ib;
          return true;
        }
        return false;
      } else {
        if (c.distance < best.d) {
          best.d = c.distance;
          best.pa = c.a;
          best.pb = c.b;
          best.ta = ia;
          best.tb = ib;
        }
        return best.d <= radii;  // touching within the margins: distance 0
      }
    }
  }

  // `bound`: the fixed pruning distance of collide / tolerance (core units).
  // `enough` (distance): a bound that reaches it prunes, however much more.
  template <Bound kBound>
  double node_bound(std::uint32_t a, std::uint32_t b, double* depth = nullptr,
                    double enough = std::numeric_limits<double>::infinity()) const {
    if constexpr (kBound == Bound::rss) {
      const double lb = rss_bound(A.rss()[a], B.rss()[b], nodes, enough);
      if (depth) *depth = lb;
      return lb;
    } else if constexpr (kBound == Bound::obb) {
      const double lb = obb_bound(A.obbs()[a], B.obbs()[b], nodes);
      if (depth) *depth = lb;
      return lb;
    } else {
      return box_bound<kBound == Bound::aabb_sat>(geom(A.nodes()[a]), geom(B.nodes()[b]), nodes, depth);
    }
  }

  struct NodePair {
    std::uint32_t a, b;
    double lb;
  };

  // Every triangle pair of two leaves; true to stop.
  template <Ask kAsk>
  bool visit_leaves(const BvhNode& x, const BvhNode& y, double bound, Best& best,
                    const Direction* dir = nullptr) const {
    const std::vector<std::uint32_t>& oa = A.order();
    const std::vector<std::uint32_t>& ob = B.order();
    Triangle tb[kMaxLeaf];
    for (std::uint32_t j = 0; j < y.count; ++j) tb[j] = b_in_a(ob[y.index + j]);
    for (std::uint32_t i = 0; i < x.count; ++i) {
      const std::uint32_t ta = oa[x.index + i];
      const Triangle a = triangle_of(A.mesh(), ta);
      for (std::uint32_t j = 0; j < y.count; ++j)
        if (visit<kAsk>(ta, ob[y.index + j], a, tb[j], bound, best, dir)) return true;
    }
    return false;
  }

  // The two pairs a node pair (x, y) that is not two leaves splits into:
  // the larger box's children (a leaf cannot be split), bounds unset.
  static std::pair<NodePair, NodePair> split(const NodePair& it, const BvhNode& x, const BvhNode& y) {
    if (!x.leaf() && (y.leaf() || size_of(x) >= size_of(y)))
      return {{x.index, it.b, 0.0}, {x.index + 1, it.b, 0.0}};
    return {{it.a, y.index, 0.0}, {it.a, y.index + 1, 0.0}};
  }

  // Distance, best first (PendingQueue): the pending node pair of least
  // lower bound is expanded next, so no pair whose bound reaches the final
  // distance is ever expanded, where the nearer-child-first depth-first
  // order expands every pair below the best distance found so far (on two
  // bunnies near contact, 45 % of its expansions and 60 % of its leaf pairs
  // had bounds at or above the answer).
  template <Bound kBound>
  Status nearest_first(Best& best) const {
    PendingQueue<NodePair> pending;
    const std::vector<BvhNode>& na = A.nodes();
    const std::vector<BvhNode>& nb = B.nodes();
    Direction dir;
    std::int64_t dir_ta = -1, dir_tb = -1;  // the pair dir was set from
    auto bound_of = [&](std::uint32_t a, std::uint32_t b) {
      // The best pair's direction first: a dozen products against the RSS
      // bound's hundred, and near the answer it prunes as often.
      double along = -std::numeric_limits<double>::infinity();
      if (dir.valid) {
        if constexpr (kBound == Bound::rss) along = dir.bound(A.rss()[a], B.rss()[b]);
        else along = dir.bound(geom(na[a]), geom(nb[b]));
        if (along >= best.d) return along;
      }
      return std::max(along, node_bound<kBound>(a, b, nullptr, best.d));
    };
    pending.push({0, 0, bound_of(0, 0)});
    for (NodePair it{}; pending.next_below(best.d, it);) {
      const BvhNode& x = na[it.a];
      const BvhNode& y = nb[it.b];
      if (x.leaf() && y.leaf()) {
        if (visit_leaves<Ask::distance>(x, y, 0.0, best, &dir)) return Status::ok;
        if (best.ta != dir_ta || best.tb != dir_tb) {
          dir_ta = best.ta;
          dir_tb = best.tb;
          dir.set(best.pa, best.pb, best.d, nodes);
        }
        continue;
      }
      auto [c0, c1] = split(it, x, y);
      c0.lb = bound_of(c0.a, c0.b);
      c1.lb = bound_of(c1.a, c1.b);
      if (c1.lb < c0.lb) std::swap(c0, c1);  // c0 nearer: pushed last
      if ((!(c1.lb >= best.d) && !pending.push(c1)) || (!(c0.lb >= best.d) && !pending.push(c0)))
        return Status::not_converged;
    }
    return Status::ok;
  }

  // Collide and tolerance, depth first: pairs within the fixed bound.
  template <Ask kAsk, Bound kBound>
  Status depth_first(double bound, Best& best) const {
    NodePair stack[kStack];
    int sp = 0;
    stack[sp++] = {0, 0, node_bound<kBound>(0, 0, nullptr, bound)};
    while (sp > 0) {
      const NodePair it = stack[--sp];
      if (it.lb > bound) continue;
      const BvhNode& x = A.nodes()[it.a];
      const BvhNode& y = B.nodes()[it.b];
      if (x.leaf() && y.leaf()) {
        if (visit_leaves<kAsk>(x, y, bound, best)) return Status::ok;
        continue;
      }
      auto [c0, c1] = split(it, x, y);
      // Overlapping pairs all bound at 0, so the bound cannot order them;
      // the deeper overlap first (box_bound).
      double k0 = 0.0, k1 = 0.0;
      c0.lb = node_bound<kBound>(c0.a, c0.b, &k0);
      c1.lb = node_bound<kBound>(c1.a, c1.b, &k1);
      if (k1 < k0) std::swap(c0, c1);
      if (sp + 2 > kStack) return Status::not_converged;
      if (c1.lb <= bound) stack[sp++] = c1;
      if (c0.lb <= bound) stack[sp++] = c0;
    }
    return Status::ok;
  }

  template <Ask kAsk, Bound kBound>
  Status run(double bound, Best& best) const {
    if constexpr (kAsk == Ask::distance) return nearest_first<kBound>(best);
    else return depth_first<kAsk, kBound>(bound, best);
  }

  template <Ask kAsk>
  Status run(double bound, Best& best, NodeTest test) const {
    if (test == NodeTest::aabb) return run<kAsk, Bound::aabb_rebox>(bound, best);
    // RSS bounds serve distance only: collide and tolerance prune at a fixed
    // bound, where the boxes' cheaper test and overlap depth do as well.
    if constexpr (kAsk == Ask::distance) {
      if (!A.rss().empty() && !B.rss().empty()) return run<kAsk, Bound::rss>(bound, best);
    }
    if (!A.obbs().empty() && !B.obbs().empty()) return run<kAsk, Bound::obb>(bound, best);
    return run<kAsk, Bound::aabb_sat>(bound, best);
  }

  // The cached pair first: a hit ends collide / tolerance at once, and a
  // distance seeds the bound.
  template <Ask kAsk>
  bool seed(const MeshCache* cache, double bound, Best& best) const {
    if (!cache || cache->triangle_a < 0 || cache->triangle_b < 0) return false;
    const auto ia = static_cast<std::uint64_t>(cache->triangle_a);
    const auto ib = static_cast<std::uint64_t>(cache->triangle_b);
    if (ia >= A.mesh().triangle_count() || ib >= B.mesh().triangle_count()) return false;
    const auto ta = static_cast<std::uint32_t>(ia), tb = static_cast<std::uint32_t>(ib);
    return visit<kAsk>(ta, tb, triangle_of(A.mesh(), ta), b_in_a(tb), bound, best);
  }
};

void store(MeshCache* cache, std::int64_t a, std::int64_t b) {
  if (cache && a >= 0) {
    cache->triangle_a = a;
    cache->triangle_b = b;
  }
}

// Core distance and witnesses (A's frame) → the answer with margins, world.
MeshDistanceResult finish(const Best& best, const Transform& ta, double ra, double rb, Status status) {
  MeshDistanceResult r;
  r.status = status;
  r.triangle_a = best.ta;
  r.triangle_b = best.tb;
  if (!(best.d < std::numeric_limits<double>::infinity())) {
    r.status = status == Status::ok ? Status::not_converged : status;
    return r;
  }
  const Vec3 pa = ta.apply(best.pa), pb = ta.apply(best.pb);
  if (best.d > 0.0) {
    r.normal = (pa - pb) / best.d;
    if (!r.normal.allFinite()) r.normal = Vec3::UnitX();
  }
  r.point_a = pa - ra * r.normal;
  r.point_b = pb + rb * r.normal;
  r.distance = best.d - ra - rb;
  if (r.distance <= 0.0 || best.d == 0.0) {
    // A point of both bodies: the cores' points are at most ra + rb apart,
    // so the one ra / (ra + rb) of the way from A's to B's is within ra of
    // A's and rb of B's. (Their midpoint is off a body whose margin is less
    // than half that distance: a raw mesh without margin against a sphere.)
    r.distance = 0.0;
    const double radii = ra + rb;
    r.point_a = r.point_b = pa + (radii > 0.0 ? ra / radii : 0.5) * (pb - pa);
  }
  return r;
}

// ------------------------------------------------------------- mesh–convex


template <class S>
struct ConvexPair {
  const Bvh& A;
  const S& shape;
  const Transform& ta;
  const Transform& tb;
  double rs, radii;
  ShapeInNodes placed;
  Status status = Status::ok;

  ConvexPair(const Bvh& a, const Transform& pose_a, const S& s, const Transform& pose_b)
      : A(a), shape(s), ta(pose_a), tb(pose_b), rs(s.core_inflation()),
        radii(s.core_inflation() + a.mesh().margin()), placed(a, pose_a, s, pose_b) {}

  // Lower bound on the core distance from node n to the shape's core.
  double bound(const BvhNode& n) const { return placed.bound(n); }

  template <Ask kAsk>
  bool visit(std::uint32_t t, double limit, Best& best) {
    const TriangleMesh& m = A.mesh();
    const TriangleCore tri{m.corner(t, 0), m.corner(t, 1), m.corner(t, 2)};
    GjkOptions opt;
    opt.stop_above = kAsk == Ask::distance ? best.d : limit;
    opt.stop_below = kAsk == Ask::distance ? radii : limit;
    const GjkResult g = gjk(tri, ta, shape, tb, opt);
    if (g.status != Status::ok) status = g.status;
    if (g.stopped_above) return false;
    const double d = g.overlap ? 0.0 : g.distance;
    if constexpr (kAsk != Ask::distance) {
      if (g.overlap || g.stopped_below || d <= limit) {
        best.hit = true;
        best.ta = t;
        return true;
      }
      return false;
    } else {
      if (d < best.d || best.ta < 0) {
        best.d = d;
        best.pa = ta.apply_inverse(g.point_a);
        best.pb = ta.apply_inverse(g.point_b);
        best.ta = t;
      }
      return best.d <= radii;
    }
  }

  // Distance, best first as MeshPair::nearest_first: no node bounded at or
  // above the answer is expanded (on the bunny beside a box, the depth-first
  // order had spent a fifth of its expansions and leaves on such nodes).
  Status nearest_first(Best& best) {
    struct Item {
      std::uint32_t n;
      double lb;
    };
    PendingQueue<Item> pending;
    const std::vector<BvhNode>& nodes = A.nodes();
    const std::vector<std::uint32_t>& order = A.order();
    pending.push({0, bound(nodes[0])});
    for (Item it{}; pending.next_below(best.d, it);) {
      const BvhNode& x = nodes[it.n];
      if (x.leaf()) {
        for (std::uint32_t i = 0; i < x.count; ++i)
          if (visit<Ask::distance>(order[x.index + i], 0.0, best)) return status;
        continue;
      }
      Item c0{x.index, bound(nodes[x.index])}, c1{x.index + 1, bound(nodes[x.index + 1])};
      if (c1.lb < c0.lb) std::swap(c0, c1);  // c0 nearer: pushed last
      if ((!(c1.lb >= best.d) && !pending.push(c1)) || (!(c0.lb >= best.d) && !pending.push(c0)))
        return Status::not_converged;
    }
    return status;
  }

  // Collide and tolerance, depth first: nodes within the fixed limit.
  template <Ask kAsk>
  Status depth_first(double limit, Best& best) {
    struct Item {
      std::uint32_t n;
      double lb;
    };
    Item stack[kStack];
    int sp = 0;
    const std::vector<BvhNode>& nodes = A.nodes();
    const std::vector<std::uint32_t>& order = A.order();
    stack[sp++] = {0, bound(nodes[0])};
    while (sp > 0) {
      const Item it = stack[--sp];
      if (it.lb > limit) continue;
      const BvhNode& x = nodes[it.n];
      if (x.leaf()) {
        for (std::uint32_t i = 0; i < x.count; ++i)
          if (visit<kAsk>(order[x.index + i], limit, best)) return status;
        continue;
      }
      Item c0{x.index, bound(nodes[x.index])}, c1{x.index + 1, bound(nodes[x.index + 1])};
      if (c1.lb < c0.lb) std::swap(c0, c1);
      if (sp + 2 > kStack) return Status::not_converged;
      if (c1.lb <= limit) stack[sp++] = c1;
      if (c0.lb <= limit) stack[sp++] = c0;
    }
    return status;
  }

  template <Ask kAsk>
  Status run(double limit, Best& best) {
    if constexpr (kAsk == Ask::distance) return nearest_first(best);
    else return depth_first<kAsk>(limit, best);
  }

  template <Ask kAsk>
  bool seed(const MeshCache* cache, double limit, Best& best) {
    if (!cache || cache->triangle_a < 0) return false;
    if (static_cast<std::uint64_t>(cache->triangle_a) >= A.mesh().triangle_count()) return false;
    return visit<kAsk>(static_cast<std::uint32_t>(cache->triangle_a), limit, best);
  }
};

// ------------------------------------------------------------ mesh–halfspace

// Closed form per vertex: the core distance of x from {n·x ≤ offset} is
// n·x − offset (negative inside); a triangle is closest at a vertex.
struct HalfspacePair {
  const Bvh& A;
  PlaneInNodes plane;  // A's frame
  double rh, radii;

  HalfspacePair(const Bvh& a, const Transform& ta, const Halfspace& h, const Transform& tb)
      : A(a), plane(a, ta, h, tb), rh(h.core_inflation()), radii(h.core_inflation() + a.mesh().margin()) {}

  double bound(const BvhNode& nd) const { return plane.bound(nd); }

  template <Ask kAsk>
  Status run(double limit, Best& best) const {
    struct Item {
      std::uint32_t n;
      double lb;
    };
    Item stack[kStack];
    int sp = 0;
    const std::vector<BvhNode>& nodes = A.nodes();
    const std::vector<std::uint32_t>& order = A.order();
    const TriangleMesh& m = A.mesh();
    auto prune = [&](double lb) { return kAsk == Ask::distance ? lb >= best.d : lb > limit; };
    stack[sp++] = {0, bound(nodes[0])};
    while (sp > 0) {
      const Item it = stack[--sp];
      if (prune(it.lb)) continue;
      const BvhNode& x = nodes[it.n];
      if (x.leaf()) {
        for (std::uint32_t i = 0; i < x.count; ++i) {
          const std::uint32_t t = order[x.index + i];
          for (int k = 0; k < 3; ++k) {
            const Vec3& v = m.corner(t, k);
            const double s = plane.height(v);
            if constexpr (kAsk != Ask::distance) {
              if (s <= limit) {
                best.hit = true;
                best.ta = t;
                return Status::ok;
              }
            } else if (s < best.d) {
              best.d = s;
              best.pa = v;
              best.pb = v - s * plane.n;
              best.ta = t;
            }
          }
        }
        if (kAsk == Ask::distance && best.d <= radii) return Status::ok;
        continue;
      }
      Item c0{x.index, bound(nodes[x.index])}, c1{x.index + 1, bound(nodes[x.index + 1])};
      if (c1.lb < c0.lb) std::swap(c0, c1);
      if (sp + 2 > kStack) return Status::not_converged;
      if (!prune(c1.lb)) stack[sp++] = c1;
      if (!prune(c0.lb)) stack[sp++] = c0;
    }
    return Status::ok;
  }
};

// The halfspace answer: core "distance" s may be negative (vertex inside).
MeshDistanceResult finish_halfspace(const Best& best, const Transform& ta, const Vec3& n_world,
                                    double ra, double rh, Status status) {
  MeshDistanceResult r;
  r.status = status;
  r.triangle_a = best.ta;
  r.normal = n_world;
  const Vec3 x = ta.apply(best.pa);
  const double s = best.d;
  r.point_a = x - ra * n_world;
  r.point_b = x - (s - rh) * n_world;
  r.distance = s - ra - rh;
  if (r.distance <= 0.0) {
    // A point of both bodies: the deepest vertex, moved towards the plane
    // by what its height exceeds the halfspace's margin (at most ra, as the
    // distance is ≤ 0), so within ra of the mesh and at most rh above the
    // plane. (The midpoint of the two witnesses is off the mesh by half the
    // depth once the vertex is deeper than the margins.)
    r.distance = 0.0;
    r.point_a = r.point_b = x - std::clamp(s - rh, 0.0, ra) * n_world;
  }
  return r;
}

// Dispatch on B's shape type: the halfspace closed form, or the convex
// traversal instantiated for that type.
template <class F>
auto with_shape(const Shape& b, F&& f) {
  return std::visit([&](const auto& s) { return f(s); }, b.variant());
}

}  // namespace

// ------------------------------------------------------------------ public

namespace {

// Collide and tolerance share one traversal: a hit within `extra` of the
// margins (0 for collide) ends it. Returns the status; `best` holds the hit.
template <Ask kAsk>
Status within(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b, double extra,
              const MeshRequest& request, Best& best) {
  const MeshPair pair(a, pose_a, b, pose_b);
  const double limit = extra + pair.radii;
  Status status = Status::ok;
  if (!pair.seed<kAsk>(request.cache, limit, best)) status = pair.run<kAsk>(limit, best, request.node_test);
  store(request.cache, best.ta, best.tb);
  return status;
}

template <Ask kAsk>
Status within(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b, double extra,
              const MeshRequest& request, Best& best) {
  const Status status = with_shape(b, [&](const auto& s) {
    using S = std::decay_t<decltype(s)>;
    if constexpr (std::is_same_v<S, Halfspace>) {
      const HalfspacePair h(a, pose_a, s, pose_b);
      return h.run<kAsk>(extra + h.radii, best);
    } else {
      ConvexPair<S> c(a, pose_a, s, pose_b);
      if (c.template seed<kAsk>(request.cache, extra + c.radii, best)) return c.status;
      return c.template run<kAsk>(extra + c.radii, best);
    }
  });
  store(request.cache, best.ta, -1);
  return status;
}

template <class B>
MeshCollideResult collide_any(const Bvh& a, const Transform& pose_a, const B& b, const Transform& pose_b,
                              const MeshRequest& request) {
  MeshCollideResult r;
  if (bad_pose(pose_a, pose_b)) {
    r.status = Status::invalid_input;
    return r;
  }
  Best best;
  r.status = within<Ask::collide>(a, pose_a, b, pose_b, 0.0, request, best);
  r.collide = best.hit;
  r.triangle_a = best.ta;
  r.triangle_b = best.tb;
  return r;
}

template <class B>
MeshToleranceResult tolerance_any(const Bvh& a, const Transform& pose_a, const B& b, const Transform& pose_b,
                                  double t, const MeshRequest& request) {
  MeshToleranceResult r;
  if (bad_pose(pose_a, pose_b) || !std::isfinite(t) || t < 0.0) {
    r.status = Status::invalid_input;
    return r;
  }
  Best best;
  r.status = within<Ask::tolerance>(a, pose_a, b, pose_b, t, request, best);
  r.within = best.hit;
  r.triangle_a = best.ta;
  r.triangle_b = best.tb;
  return r;
}

}  // namespace

MeshCollideResult collide(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b,
                          const MeshRequest& request) {
  return collide_any(a, pose_a, b, pose_b, request);
}

MeshToleranceResult tolerance(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b,
                              double t, const MeshRequest& request) {
  return tolerance_any(a, pose_a, b, pose_b, t, request);
}

MeshDistanceResult distance(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b,
                            const MeshRequest& request) {
  if (bad_pose(pose_a, pose_b)) {
    MeshDistanceResult r;
    r.status = Status::invalid_input;
    return r;
  }
  const MeshPair pair(a, pose_a, b, pose_b);
  Best best;
  Status status = Status::ok;
  if (!pair.seed<Ask::distance>(request.cache, 0.0, best)) {
    // Overlapping meshes first through the collide traversal: there every
    // overlapping node pair bounds at 0, so branch and bound cannot prune
    // until it meets a touching pair, and it computes full triangle
    // distances on the way; collide stops at the first touching pair after
    // cheap exact rejections. For separated meshes this costs one collide
    // (a few % of the distance query).
    Best touch;
    status = pair.run<Ask::collide>(pair.radii, touch, request.node_test);
    if (status == Status::ok && touch.hit) {
      const auto ta = static_cast<std::uint32_t>(touch.ta), tb = static_cast<std::uint32_t>(touch.tb);
      const mesh::ClosestPoints c = mesh::triangle_distance(triangle_of(a.mesh(), ta), pair.b_in_a(tb));
      best.d = c.distance;
      best.pa = c.a;
      best.pb = c.b;
      best.ta = touch.ta;
      best.tb = touch.tb;
    } else {
      status = pair.run<Ask::distance>(0.0, best, request.node_test);
    }
  }
  store(request.cache, best.ta, best.tb);
  return finish(best, pose_a, a.mesh().margin(), b.mesh().margin(), status);
}

MeshCollideResult collide(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                          const MeshRequest& request) {
  return collide_any(a, pose_a, b, pose_b, request);
}

MeshToleranceResult tolerance(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                              double t, const MeshRequest& request) {
  return tolerance_any(a, pose_a, b, pose_b, t, request);
}

MeshDistanceResult distance(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                            const MeshRequest& request) {
  if (bad_pose(pose_a, pose_b)) {
    MeshDistanceResult r;
    r.status = Status::invalid_input;
    return r;
  }
  return with_shape(b, [&](const auto& s) {
    using S = std::decay_t<decltype(s)>;
    Best best;
    if constexpr (std::is_same_v<S, Halfspace>) {
      const HalfspacePair h(a, pose_a, s, pose_b);
      const Status st = h.run<Ask::distance>(0.0, best);
      return finish_halfspace(best, pose_a, s.world_normal(pose_b), a.mesh().margin(), h.rh, st);
    } else {
      ConvexPair<S> c(a, pose_a, s, pose_b);
      Status st = Status::ok;
      if (!c.template seed<Ask::distance>(request.cache, 0.0, best)) st = c.template run<Ask::distance>(0.0, best);
      else st = c.status;
      store(request.cache, best.ta, -1);
      MeshDistanceResult r = finish(best, pose_a, a.mesh().margin(), c.rs, st);
      r.triangle_b = -1;
      return r;
    }
  });
}

}  // namespace proxima
