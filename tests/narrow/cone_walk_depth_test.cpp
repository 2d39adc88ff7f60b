// SPDX-License-Identifier: BSD-3-Clause
// The cone walks' stacks (NormalCone::kMaxDepth) against the largest hulls
// a test can build, round and degenerate: the hierarchy's depth, found by
// walking the stored tree here, is the median split's ⌈log2(faces / 8)⌉ + 1,
// is what PolytopeData::cone_depth says and is within the stacks; and the
// walks' answers on those hulls (polytope–capsule, polytope–box, and the
// warm-started incremental depth whose certificate needs every node visited)
// are the explicit Minkowski difference's (tests/oracle, written apart from
// the library).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/narrow/incremental_depth.hpp>
#include <proxima/narrow/sat.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../support/test_shapes.hpp"

// A named namespace of its own: the unity build batches this file with others.
namespace proxima::cone_walk_test {
namespace {

using testing::Rng;

struct TreeShape {
  int levels = 0;
  int leaf_faces = 0;      // faces over all leaves
  int widest_leaf = 0;     // most faces in a leaf
};

// The stored hierarchy below `node`, walked recursively (the library's
// walks are iterative and bounded; this one is neither).
TreeShape walk_tree(const PolytopeData& d, int node) {
  const NormalCone& c = d.cones[static_cast<std::size_t>(node)];
  if (c.right < 0) return {1, c.face_end - c.face_begin, c.face_end - c.face_begin};
  const TreeShape l = walk_tree(d, node + 1), r = walk_tree(d, c.right);
  return {1 + std::max(l.levels, r.levels), l.leaf_faces + r.leaf_faces, std::max(l.widest_leaf, r.widest_leaf)};
}

struct BigHull {
  std::string label;
  std::vector<Vec3> points;
  bool box = true;  // also against a box (its oracle has 8 points per vertex)
};

std::vector<Vec3> scaled_points(std::vector<Vec3> p, const Vec3& s) {
  for (Vec3& x : p) x = x.cwiseProduct(s);
  return p;
}

// Two circles of n points each: a prism whose caps are two n-gons and whose
// sides are n thin quads.
std::vector<Vec3> two_rims(int n, double r, double h) {
  std::vector<Vec3> p;
  for (int i = 0; i < n; ++i) {
    const double a = 2.0 * M_PI * i / n;
    p.emplace_back(r * std::cos(a), r * std::sin(a), -h);
    p.emplace_back(r * std::cos(a + M_PI / n), r * std::sin(a + M_PI / n), h);
  }
  return p;
}

// Hulls: of `round` points on a sphere; of `thin` on a needle 400 times
// longer than wide and on a pancake 1000 times wider than thick; a prism of
// two `sides`-gons (qhull takes longest over its coplanar points).
std::vector<BigHull> big_hulls(int round, int thin, int sides) {
  Rng g(77u);
  std::vector<BigHull> out;
  out.push_back({"sphere", g.sphere_points(round, 0.5)});
  out.push_back({"needle", scaled_points(g.sphere_points(thin, 1.0), Vec3(0.005, 0.005, 2.0))});
  out.push_back({"pancake", scaled_points(g.sphere_points(thin, 1.0), Vec3(1.0, 1.0, 1e-3))});
  out.push_back({"prism", two_rims(sides, 0.5, 0.2)});
  for (BigHull& h : out) {
    char label[48];
    std::snprintf(label, sizeof label, "%s(%zu)", h.label.c_str(), h.points.size());
    h.label = label;
  }
  return out;
}

TEST(ConeWalkDepth, LargestHullsFitTheWalksStacks) {
  // Up to 100,000 faces; the depth grows by one per doubling, so the
  // stacks' 32 levels hold every face count an int can hold (the builder's
  // static_assert), not just these.
  for (const BigHull& h : big_hulls(50000, 20000, 2000)) {
    const ConvexPolytope poly(h.points);
    const PolytopeData& d = poly.data();
    ASSERT_EQ(d.dimension, 3) << h.label;
    ASSERT_FALSE(d.cones.empty()) << h.label;
    const int faces = static_cast<int>(d.face_normals.size());
    const TreeShape t = walk_tree(d, 0);
    const int closed_form = faces <= 8 ? 1 : static_cast<int>(std::ceil(std::log2(faces / 8.0))) + 1;
    std::printf("%-18s %6zu vertices %6d faces: %2d levels (stacks hold %d)\n", h.label.c_str(), d.vertices.size(),
                faces, t.levels, NormalCone::kMaxDepth);
    EXPECT_EQ(t.leaf_faces, faces) << h.label;
    EXPECT_LE(t.widest_leaf, NormalCone::kMaxLeafFaces) << h.label;
    EXPECT_EQ(t.levels, closed_form) << h.label;
    EXPECT_EQ(d.cone_depth, t.levels) << h.label;
    EXPECT_LE(d.cone_depth, NormalCone::kMaxDepth) << h.label;
  }
  // The flat hull (with a margin) has no hierarchy, and says so.
  const ConvexPolytope flat({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, 0.1);
  EXPECT_TRUE(flat.data().cones.empty());
  EXPECT_EQ(flat.data().cone_depth, 0);
  // A small hull's root is its one leaf.
  const ConvexPolytope tetra({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)});
  EXPECT_EQ(tetra.data().cone_depth, 1);
}

// Poses with the other shape's centre well inside the hull (at 0.8 of a
// vertex, the hull holding the origin), so that the cores overlap.
Transform inside_pose(const std::vector<Vec3>& points, const Transform& ta, Rng& rng) {
  const Vec3& v = points[static_cast<std::size_t>(rng.uniform(0.0, 1.0) * static_cast<double>(points.size() - 1))];
  Transform tb = rng.pose(0.0);
  tb.p = ta.apply(0.8 * v);
  return tb;
}

TEST(ConeWalkDepth, WalksOnTheLargestHullsMatchTheMinkowskiOracle) {
  // The oracle hulls every vertex against every point of the other core, a
  // second or so at 20,000 vertices: the round hull that large (14 levels,
  // one short of the largest above) against a capsule, and all four shapes
  // at 2,500–5,000 points (9–12 levels) against a capsule and a box.
  std::vector<BigHull> hulls = big_hulls(5000, 5000, 1250);
  BigHull large = big_hulls(20000, 0, 0).front();
  large.box = false;
  hulls.insert(hulls.begin(), std::move(large));
  Rng rng(2024u);
  int checked = 0;
  for (const BigHull& h : hulls) {
    const ConvexPolytope poly(h.points);
    const Vec3 extent = poly.data().bounds.max - poly.data().bounds.min;
    const double small = extent.minCoeff(), tol = 1e-9 * extent.maxCoeff();
    const Capsule cap(0.2 * small, 0.3 * extent.maxCoeff());
    const Box box(Vec3(0.3 * small, 0.2 * small, 0.1 * extent.maxCoeff()));
    const std::vector<Vec3> corners = testing::box_corners(0.5 * Vec3(0.3 * small, 0.2 * small, 0.1 * extent.maxCoeff()));
    {
      SCOPED_TRACE(::testing::Message() << h.label);
      const Transform ta = rng.pose(1.0);
      const std::vector<Vec3> wa = testing::transformed(ta, poly.vertices());
      {
        const Transform tb = inside_pose(poly.vertices(), ta, rng);
        const std::vector<Vec3> seg = {tb.apply(Vec3(0, 0, -cap.half_length())), tb.apply(Vec3(0, 0, cap.half_length()))};
        const double core = oracle::minkowski_signed_distance(wa, seg);
        ASSERT_LT(core, 0.0);
        const double truth = core - cap.radius();
        const DistanceResult s = narrow::sat_polytope_capsule(poly, ta, cap, tb);
        EXPECT_EQ(s.status, Status::ok);
        EXPECT_NEAR(s.distance, truth, tol);
        // Warm-started with its certificate, then again after a small motion
        // from the cache the first call filled.
        PenetrationCache cache;
        const DistanceResult w = incremental_penetration(poly, ta, cap, tb, {}, &cache);
        EXPECT_EQ(w.status, Status::ok);
        EXPECT_NEAR(w.distance, truth, tol);
        Transform moved = tb;
        moved.p += 1e-4 * small * rng.unit_vector();
        const std::vector<Vec3> seg2 = {moved.apply(Vec3(0, 0, -cap.half_length())),
                                        moved.apply(Vec3(0, 0, cap.half_length()))};
        const double core2 = oracle::minkowski_signed_distance(wa, seg2);
        ASSERT_LT(core2, 0.0);
        const DistanceResult w2 = incremental_penetration(poly, ta, cap, moved, {}, &cache);
        EXPECT_EQ(w2.status, Status::ok);
        EXPECT_NEAR(w2.distance, core2 - cap.radius(), tol);
        checked += 3;
      }
      if (h.box) {
        const Transform tb = inside_pose(poly.vertices(), ta, rng);
        const double core = oracle::minkowski_signed_distance(wa, testing::transformed(tb, corners));
        ASSERT_LT(core, 0.0);
        const DistanceResult s = narrow::detail::sat_polytope_box_depth(poly, ta, box, tb, Vec3::Zero());
        EXPECT_EQ(s.status, Status::ok);
        EXPECT_NEAR(s.distance, core, tol);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 5 * 3 + 4);
}

}  // namespace
}  // namespace proxima::cone_walk_test
