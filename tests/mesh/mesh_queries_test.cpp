// SPDX-License-Identifier: BSD-3-Clause
// Mesh queries against brute force over every triangle pair (no BVH, no
// pruning: the triangle primitives are tested on their own in
// triangle_distance_test.cpp) and against closed forms on hand-made scenes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <gtest/gtest.h>

#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/mesh/triangle_distance.hpp>

#include "../oracle/oracle_geometry.hpp"
#include <proxima/narrow/gjk.hpp>

#include "mesh_fixtures.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using mesh::Triangle;
using testing::Rng;
using testing::scaled;

struct Brute {
  bool collide = false;
  double distance = std::numeric_limits<double>::infinity();  // with margins, ≥ 0
};

// All pairs, in A's frame, B placed by A⁻¹·B.
Brute brute_mesh_mesh(const TriangleMesh& a, const Transform& ta, const TriangleMesh& b, const Transform& tb) {
  const Transform ab = ta.inverse() * tb;
  const double radii = a.margin() + b.margin();
  Brute out;
  double core = std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < b.triangle_count(); ++j) {
    const Triangle tj = {ab.apply(b.corner(j, 0)), ab.apply(b.corner(j, 1)), ab.apply(b.corner(j, 2))};
    const Vec3 cj = (tj[0] + tj[1] + tj[2]) / 3.0;
    const double rj = std::max({(tj[0] - cj).norm(), (tj[1] - cj).norm(), (tj[2] - cj).norm()});
    for (std::size_t i = 0; i < a.triangle_count(); ++i) {
      const Triangle ti = {a.corner(i, 0), a.corner(i, 1), a.corner(i, 2)};
      // Balls around the triangles farther apart than both the best so far
      // and the radii: the pair changes neither answer (speed only).
      const Vec3 ci = (ti[0] + ti[1] + ti[2]) / 3.0;
      const double ri = std::max({(ti[0] - ci).norm(), (ti[1] - ci).norm(), (ti[2] - ci).norm()});
      const double apart = (ci - cj).norm() - ri - rj;
      if (apart > core && apart > radii) continue;
      // The oracle's triangle distance, not the library's (tests/oracle).
      const double d = oracle::triangle_triangle_distance(ti[0], ti[1], ti[2], tj[0], tj[1], tj[2]);
      core = std::min(core, d);
      if (d <= radii) out.collide = true;
    }
  }
  out.distance = std::max(0.0, core - radii);
  return out;
}

struct TriangleSupport {
  Vec3 v0, v1, v2;
  Vec3 core_support(const Vec3& d) const {
    const double a = d.dot(v0), b = d.dot(v1), c = d.dot(v2);
    if (a >= b) return a >= c ? v0 : v2;
    return b >= c ? v1 : v2;
  }
};

// Every triangle against a shape with a polyhedral core (a point, a
// segment, a box, a hull of points): the oracle's explicit Minkowski
// difference of the triangle and the core's raw points, less the inflation.
Brute brute_mesh_polyhedral(const TriangleMesh& a, const Transform& ta, const testing::TestShape& ts,
                            const Transform& tb) {
  const std::vector<Vec3> core = ts.core_vertices(tb);
  const double radii = a.margin() + ts.inflation;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < a.triangle_count(); ++i) {
    const std::vector<Vec3> tri = {ta.apply(a.corner(i, 0)), ta.apply(a.corner(i, 1)), ta.apply(a.corner(i, 2))};
    // A triangle whose ball is farther from the shape's ball than the best so
    // far and than the radii changes neither answer (speed only).
    const Vec3 c = (tri[0] + tri[1] + tri[2]) / 3.0;
    const double r = std::max({(tri[0] - c).norm(), (tri[1] - c).norm(), (tri[2] - c).norm()});
    const double apart = (c - tb.p).norm() - r - ts.bounding_radius;
    if (apart > best && apart > radii) continue;
    best = std::min(best, std::max(0.0, oracle::minkowski_signed_distance(tri, core)));
  }
  return {best <= radii, std::max(0.0, best - radii)};
}

// Every triangle through GJK, no early exits: for the curved cores (the
// oracle has no cylinder, cone or ellipsoid), checked further by
// separating_plane_bound() below.
template <class S>
Brute brute_mesh_convex(const TriangleMesh& a, const Transform& ta, const S& s, const Transform& tb) {
  const double radii = a.margin() + s.core_inflation();
  double core = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < a.triangle_count(); ++i) {
    const TriangleSupport t{a.corner(i, 0), a.corner(i, 1), a.corner(i, 2)};
    const GjkResult g = gjk(t, ta, s, tb);
    core = std::min(core, g.overlap ? 0.0 : g.distance);
  }
  return {core <= radii, std::max(0.0, core - radii)};
}

// A proven lower bound on the distance between triangle i of the mesh (with
// the mesh's margin) and the shape, from the plane with normal n (B→A): the
// triangle's corners lie at least min n·v − margin above it and the shape at
// most h_S(n) below (the test's own support function, inflation included).
double separating_plane_bound(const TriangleMesh& a, const Transform& ta, std::int64_t i,
                              const testing::TestShape& ts, const Transform& tb, const Vec3& n) {
  double lowest = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) lowest = std::min(lowest, n.dot(ta.apply(a.corner(static_cast<std::size_t>(i), k))));
  return lowest - a.margin() - n.dot(ts.support(tb, n));
}

Brute brute_mesh_halfspace(const TriangleMesh& a, const Transform& ta, const Halfspace& h, const Transform& tb) {
  const Vec3 n = tb.R * h.normal();
  const double off = h.offset() + n.dot(tb.p);
  double s = std::numeric_limits<double>::infinity();
  for (const Vec3& v : a.vertices()) s = std::min(s, n.dot(ta.apply(v)) - off);
  const double radii = a.margin() + h.margin();
  return {s <= radii, std::max(0.0, s - radii)};
}

// How far the world point p lies from the mesh's surface at pose ta (its
// triangles, by the oracle's closest points).
double off_surface(const TriangleMesh& m, const Transform& ta, const Vec3& p) {
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t t = 0; t < m.triangle_count(); ++t)
    least = std::min(least, (p - oracle::closest_point_on_triangle(p, ta.apply(m.corner(t, 0)), ta.apply(m.corner(t, 1)),
                                                                   ta.apply(m.corner(t, 2))))
                                .norm());
  return least;
}

void expect_consistent(const MeshDistanceResult& r, double tol) {
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_TRUE(r.point_a.allFinite() && r.point_b.allFinite() && r.normal.allFinite());
  EXPECT_NEAR((r.point_a - r.point_b).norm(), r.distance, tol);
  if (r.distance > tol) { EXPECT_LE((r.point_a - r.point_b - r.distance * r.normal).norm(), tol); }
}

// Mesh–mesh on random soups (duplicates, segments, points) at random poses,
// half of them overlapping: identical collide, distance within 1e-12,
// tolerance consistent with distance, the cache changing nothing.
void mesh_mesh_soups(double margin_a, double margin_b, NodeTest test, unsigned seed) {
  Rng rng(seed);
  const TriangleMesh ma = testing::random_soup(rng, 90, 0.5, 0.25, margin_a);
  const TriangleMesh mb = testing::random_soup(rng, 70, 0.4, 0.3, margin_b);
  // One BVH with oriented boxes, one without: both bound kinds are exercised.
  const Bvh a(ma, {BvhSplit::sah, 4, BvhVolume::obb}), b(mb, {BvhSplit::median, 4, BvhVolume::aabb});
  const Bvh b_obb(mb, {BvhSplit::sah, 4, BvhVolume::obb});
  MeshCache cache;
  int hits = 0;
  const int n = scaled(1000);
  for (int k = 0; k < n; ++k) {
    const Transform ta = rng.pose(0.3), tb = rng.pose(1.2);
    const Brute truth = brute_mesh_mesh(ma, ta, mb, tb);
    MeshRequest req;
    req.node_test = test;
    const MeshCollideResult c = collide(a, ta, b, tb, req);
    ASSERT_EQ(c.collide, truth.collide) << "pose " << k;
    hits += truth.collide;
    const MeshDistanceResult d = distance(a, ta, b, tb, req);
    ASSERT_NEAR(d.distance, truth.distance, 1e-12) << "pose " << k;
    expect_consistent(d, 1e-12);
    ASSERT_EQ(collide(a, ta, b_obb, tb, req).collide, truth.collide) << "pose " << k;
    ASSERT_NEAR(distance(a, ta, b_obb, tb, req).distance, truth.distance, 1e-12) << "pose " << k;
    EXPECT_EQ(d.distance == 0.0, truth.collide || truth.distance == 0.0) << "pose " << k;
    req.cache = &cache;
    EXPECT_NEAR(distance(a, ta, b, tb, req).distance, truth.distance, 1e-12);
    for (double t : {0.0, 0.01, 0.1}) {
      if (std::abs(truth.distance - t) < 1e-12) continue;
      EXPECT_EQ(tolerance(a, ta, b, tb, t, req).within, truth.distance <= t) << "pose " << k << " t " << t;
      EXPECT_EQ(tolerance(a, ta, b_obb, tb, t, req).within, truth.distance <= t) << "pose " << k << " t " << t;
    }
  }
  EXPECT_GT(hits, n / 10);
  EXPECT_LT(hits, n - n / 10);
}

TEST(MeshMesh, SoupsMatchBruteForce) { mesh_mesh_soups(0.0, 0.0, NodeTest::obb, 31); }
TEST(MeshMesh, SoupsMatchBruteForceAabbNodeTest) { mesh_mesh_soups(0.0, 0.0, NodeTest::aabb, 32); }
TEST(MeshMesh, SoupsWithMarginsMatchBruteForce) { mesh_mesh_soups(0.02, 0.05, NodeTest::obb, 33); }

// Mesh–convex on a soup against every shape type of the core, margins mixed in.
TEST(MeshConvex, EveryShapeMatchesBruteForce) {
  Rng rng(41);
  const TriangleMesh m = testing::random_soup(rng, 80, 0.5, 0.25, 0.01);
  const Bvh bvh(m);
  const std::vector<testing::TestShape> shapes = testing::bounded_test_shapes();
  const int n = scaled(1000);
  int by_oracle = 0, by_gjk = 0, certified = 0, on_round_cores = 0;
  for (const testing::TestShape& ts : shapes) {
    int hits = 0;
    MeshCache cache;
    for (int k = 0; k < n / 4; ++k) {
      const Transform ta = rng.pose(0.3), tb = rng.pose(1.0);
      const Brute truth = ts.core_vertices ? brute_mesh_polyhedral(m, ta, ts, tb)
                                           : std::visit(
                                                 [&](const auto& s) -> Brute {
                                                   if constexpr (std::is_same_v<std::decay_t<decltype(s)>, Halfspace>)
                                                     return {};
                                                   else
                                                     return brute_mesh_convex(m, ta, s, tb);
                                                 },
                                                 ts.shape.variant());
      ++(ts.core_vertices ? by_oracle : by_gjk);
      const MeshCollideResult c = collide(bvh, ta, ts.shape, tb);
      ASSERT_EQ(c.collide, truth.collide) << ts.label << " pose " << k;
      hits += truth.collide;
      MeshRequest req;
      req.cache = (k % 2) ? &cache : nullptr;
      const MeshDistanceResult d = distance(bvh, ta, ts.shape, tb, req);
      // A curved core's brute force is GJK per triangle, which stops within
      // 1e-10 of the problem's size and does not take the library's finish on
      // a cylinder or a cone: the two agree to GJK's accuracy, not to the bit.
      ASSERT_NEAR(d.distance, truth.distance, ts.core_vertices ? 1e-12 : 1e-9) << ts.label << " pose " << k;
      expect_consistent(d, 1e-9);
      // Each witness on its body, overlapping too: within the mesh's margin
      // of its surface, and within the shape's inflation of its core where
      // that is a point or a segment (checked here in closed form).
      EXPECT_LE(off_surface(m, ta, d.point_a), m.margin() + 1e-9) << ts.label << " pose " << k;
      if (ts.core_vertices) {
        const std::vector<Vec3> core = ts.core_vertices(tb);
        if (core.size() <= 2) {
          const Vec3 q = core.size() == 1 ? core[0] : oracle::closest_point_on_segment(d.point_b, core[0], core[1]);
          EXPECT_LE((d.point_b - q).norm(), ts.inflation + 1e-9) << ts.label << " pose " << k;
          ++on_round_cores;
        }
      }
      if (!ts.core_vertices && d.distance > 1e-9) {
        // The answer's own plane proves its triangle that far (to GJK's
        // accuracy on a curved core); the brute force, that no other is nearer.
        ASSERT_GE(d.triangle_a, 0);
        EXPECT_GE(separating_plane_bound(m, ta, d.triangle_a, ts, tb, d.normal), d.distance - 1e-9)
            << ts.label << " pose " << k;
        ++certified;
      }
      for (double t : {0.0, 0.05}) {
        if (std::abs(truth.distance - t) < 1e-9) continue;
        EXPECT_EQ(tolerance(bvh, ta, ts.shape, tb, t).within, truth.distance <= t) << ts.label;
      }
    }
    EXPECT_GT(hits, 0) << ts.label;
  }
  std::printf("mesh-convex: %d poses judged by the Minkowski oracle, %d by per-triangle GJK (%d of them certified "
              "by their separating plane)\n", by_oracle, by_gjk, certified);
  EXPECT_GE(by_oracle, 4 * (n / 4));
  EXPECT_GE(certified, by_gjk / 4);
  EXPECT_GE(on_round_cores, 2 * (n / 4));
}

TEST(MeshHalfspace, MatchesClosedForm) {
  Rng rng(42);
  const TriangleMesh m = testing::random_soup(rng, 200, 0.5, 0.2, 0.01);
  const Bvh bvh(m);
  const Halfspace h(Vec3(0.2, -0.3, 1.0), 0.1, 0.02);
  // The lowest core vertex's height above the plane n·x = offset.
  const auto brute_core_height = [](const TriangleMesh& mesh, const Transform& ta, const Vec3& n, double offset) {
    double s = std::numeric_limits<double>::infinity();
    for (const Vec3& v : mesh.vertices()) s = std::min(s, n.dot(ta.apply(v)) - offset);
    return s;
  };
  int deep = 0;
  for (int k = 0; k < scaled(1000); ++k) {
    const Transform ta = rng.pose(1.0), tb = rng.pose(0.5);
    const Brute truth = brute_mesh_halfspace(m, ta, h, tb);
    EXPECT_EQ(collide(bvh, ta, h, tb).collide, truth.collide);
    const MeshDistanceResult d = distance(bvh, ta, h, tb);
    ASSERT_NEAR(d.distance, truth.distance, 1e-12);
    expect_consistent(d, 1e-12);
    // Each witness on its body: within the mesh's margin of its surface, and
    // no farther above the plane than the halfspace's margin, overlapping too.
    const Vec3 n = tb.R * h.normal();
    EXPECT_LE(off_surface(m, ta, d.point_a), m.margin() + 1e-12) << k << " depth " << truth.collide;
    EXPECT_LE(n.dot(d.point_b) - h.offset() - n.dot(tb.p), h.margin() + 1e-12) << k;
    deep += d.distance == 0.0 && brute_core_height(m, ta, n, h.offset() + n.dot(tb.p)) < -0.05;
    if (d.distance > 0) { EXPECT_NEAR(d.normal.dot(tb.R * h.normal()), 1.0, 1e-12); }
    if (std::abs(truth.distance - 0.1) > 1e-12) { EXPECT_EQ(tolerance(bvh, ta, h, tb, 0.1).within, truth.distance <= 0.1); }
  }
  // Overlaps deeper than the margins: where a witness halfway between the
  // deepest vertex and the plane would be off the mesh.
  EXPECT_GT(deep, scaled(1000) / 10);
}

TEST(MeshOpen, SingleTriangleAndPatchWithHole) {
  // A single triangle against a sphere over its face and beyond its edge.
  const Bvh one(TriangleMesh({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {{0, 1, 2}}));
  const Sphere s(0.1);
  EXPECT_NEAR(distance(one, {}, s, Transform::from_translation(Vec3(0.2, 0.2, 0.5))).distance, 0.4, 1e-12);
  EXPECT_NEAR(distance(one, {}, s, Transform::from_translation(Vec3(0.5, -0.5, 0))).distance, 0.4, 1e-12);
  EXPECT_TRUE(collide(one, {}, s, Transform::from_translation(Vec3(0.2, 0.2, 0.05))).collide);

  // 10×10 patch of 0.1 squares with the middle 2×2 squares missing: a sphere
  // centred in the hole reaches the rim, not the (absent) plane.
  const Bvh patch(testing::grid(10, 0.1, [](int i, int j) { return (i == 4 || i == 5) && (j == 4 || j == 5); }));
  EXPECT_EQ(patch.mesh().triangle_count(), 2u * (100 - 4));
  const MeshDistanceResult d = distance(patch, {}, s, Transform::from_translation(Vec3(0, 0, 0.05)));
  EXPECT_NEAR(d.distance, std::hypot(0.1, 0.05) - 0.1, 1e-12);
  EXPECT_FALSE(collide(patch, {}, Sphere(0.09), Transform::identity()).collide);
  EXPECT_TRUE(collide(patch, {}, Sphere(0.11), Transform::identity()).collide);
  // Mesh–mesh: a small triangle passing through the hole touches nothing.
  const Bvh small(TriangleMesh({Vec3(-0.05, 0, -0.5), Vec3(0.05, 0, -0.5), Vec3(0, 0, 0.5)}, {{0, 1, 2}}));
  EXPECT_FALSE(collide(patch, {}, small, {}).collide);
  // Nearest: the rim point (0.1, 0, 0) to the slanted edge of the small triangle.
  EXPECT_NEAR(distance(patch, {}, small, {}).distance, 0.075 / std::sqrt(1.0025), 1e-12);
  const Brute truth = brute_mesh_mesh(patch.mesh(), {}, small.mesh(), {});
  EXPECT_NEAR(distance(patch, {}, small, {}).distance, truth.distance, 1e-15);
}

TEST(MeshClosed, InsideIsDistanceToTheSurface) {
  // A closed box surface inside a larger closed box surface: the meshes are
  // surfaces, so they do not collide and the distance is the gap between them.
  const Bvh outer(testing::box_mesh(Vec3(2, 2, 2)));
  const Bvh inner(testing::box_mesh(Vec3(0.5, 0.5, 0.5)));
  EXPECT_FALSE(collide(outer, {}, inner, {}).collide);
  EXPECT_NEAR(distance(outer, {}, inner, {}).distance, 1.5, 1e-12);
  const Transform shifted = Transform::from_translation(Vec3(1.2, 0, 0));
  EXPECT_NEAR(distance(outer, {}, inner, shifted).distance, 0.3, 1e-12);
  // A sphere inside: distance to the nearest face.
  EXPECT_NEAR(distance(outer, {}, Sphere(0.5), shifted).distance, 0.3, 1e-12);
}

TEST(MeshHuge, FarFromTheOrigin) {
  // Vertices and poses around 1e6 m: the BVH keeps its boxes relative to the
  // mesh centre; answers match brute force to rounding of the coordinates
  // (1e6 · 1e-16 per operation).
  Rng rng(51);
  const Vec3 offset(1e6, -1e6, 1e6);
  TriangleMesh base = testing::random_soup(rng, 60, 0.5, 0.25);
  std::vector<Vec3> v = base.vertices();
  for (Vec3& x : v) x += offset;
  const TriangleMesh ma(v, base.triangles());
  const TriangleMesh mb = testing::random_soup(rng, 50, 0.4, 0.3);
  const Bvh a(ma), b(mb);
  for (int k = 0; k < scaled(200); ++k) {
    Transform ta = rng.pose(0.3);
    Transform tb = rng.pose(1.0);
    tb.p += ta.apply(offset);  // B's origin near A's far-away triangles
    const Brute truth = brute_mesh_mesh(ma, ta, mb, tb);
    EXPECT_EQ(collide(a, ta, b, tb).collide, truth.collide);
    EXPECT_NEAR(distance(a, ta, b, tb).distance, truth.distance, 1e-9);
  }
}

// Exactly touching flat triangles: one's edge lies on the other's face. The
// node boxes have zero thickness there, so a bound rounded 1e-16 above zero
// used to prune the pair and collide answered false while distance said 0.
TEST(MeshMesh, ExactTouchingOfFlatTrianglesCollides) {
  const TriangleMesh tri({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {TriangleIndices{0, 1, 2}});
  const Bvh a(tri), b(tri);
  const Transform tb = Transform::from_quaternion(0.7071067811865476, 0.7071067811865476, 0, 0, Vec3(0.2, 0.2, 0));
  for (NodeTest test : {NodeTest::obb, NodeTest::aabb}) {
    MeshRequest rq;
    rq.node_test = test;
    EXPECT_TRUE(collide(a, Transform::identity(), b, tb, rq).collide);
    EXPECT_TRUE(tolerance(a, Transform::identity(), b, tb, 0.0, rq).within);
    EXPECT_EQ(distance(a, Transform::identity(), b, tb, rq).distance, 0.0);
  }
}

// Two parallel grids 1 mm apart, B turned about the normal: every facing
// node pair's RSS bound is the gap less its rounding slack (1e-6 of the
// sizes), so the best-first distance traversal has more pairs pending than
// its heap holds before it reaches a single leaf, and goes on depth first
// (seen with a print while writing the test: for δ = 0 with both node
// tests, and for δ = 1e-7 with the RSS bounds). One vertex of B is pushed
// towards A by δ: the answer is the gap less δ (a vertex over a plane), at
// that vertex, also when δ is below the slack and its pair ties with all
// the others.
TEST(MeshMesh, ParallelGridsPendingMorePairsThanTheHeapHoldsStayExact) {
  const Bvh a(testing::grid(120, 0.01, [](int, int) { return false; }));  // 1.2 m square, 28,800 triangles
  const TriangleMesh flat = testing::grid(80, 0.01, [](int, int) { return false; });
  const double gap = 1e-3;
  const std::size_t dent = 41 * 81 + 37;  // a vertex inside B's grid
  const Transform tb = Transform::from_quaternion(std::cos(0.15), 0.0, 0.0, std::sin(0.15), Vec3(0.013, -0.021, gap));
  for (const double delta : {0.0, 1e-7, 1e-4}) {
    std::vector<Vec3> v = flat.vertices();
    v[dent].z() -= delta;
    const Bvh b(TriangleMesh(v, flat.triangles()));
    for (const NodeTest test : {NodeTest::obb, NodeTest::aabb}) {
      MeshRequest rq;
      rq.node_test = test;
      const MeshDistanceResult d = distance(a, Transform::identity(), b, tb, rq);
      expect_consistent(d, 1e-12);
      EXPECT_NEAR(d.distance, gap - delta, 1e-12) << "delta " << delta;
      EXPECT_NEAR(d.point_a.z(), 0.0, 1e-12);
      EXPECT_NEAR(d.point_b.z(), gap - delta, 1e-12);
      if (delta > 0.0) {
        EXPECT_LT((d.point_b - tb.apply(v[dent])).norm(), 1e-12) << "delta " << delta;
      }
      EXPECT_FALSE(collide(a, Transform::identity(), b, tb, rq).collide);
      EXPECT_TRUE(tolerance(a, Transform::identity(), b, tb, gap, rq).within);
      EXPECT_FALSE(tolerance(a, Transform::identity(), b, tb, gap - delta - 1e-9, rq).within);
    }
  }
}

// A ball of 0.5 m radius 1 mm over a flat 1.2 m grid, found best first
// among thousands of nodes under it: the answer is the gap less δ, for the
// grid vertex under the centre raised by δ, at that vertex.
TEST(MeshConvex, BallOverAGridAnswersAtTheVertexUnderItsCentre) {
  const TriangleMesh flat = testing::grid(120, 0.01, [](int, int) { return false; });
  const double gap = 1e-3, r = 0.5;
  const Shape ball = Sphere(r);
  const std::size_t under = 57 * 121 + 63;  // the vertex at (0.03, -0.03, 0)
  const Transform tb = Transform::from_quaternion(1.0, 0.0, 0.0, 0.0, Vec3(0.03, -0.03, gap + r));
  for (const double delta : {0.0, 1e-7, 1e-4}) {
    std::vector<Vec3> v = flat.vertices();
    v[under].z() += delta;
    const Bvh a(TriangleMesh(v, flat.triangles()));
    const MeshDistanceResult d = distance(a, Transform::identity(), ball, tb);
    expect_consistent(d, 1e-12);
    EXPECT_NEAR(d.distance, gap - delta, 1e-12) << "delta " << delta;
    EXPECT_LT((d.point_a - v[under]).norm(), 1e-12) << "delta " << delta;
    EXPECT_LT((d.point_b - Vec3(0.03, -0.03, gap)).norm(), 1e-12) << "delta " << delta;
    EXPECT_FALSE(collide(a, Transform::identity(), ball, tb).collide);
    EXPECT_TRUE(tolerance(a, Transform::identity(), ball, tb, gap - delta + 1e-9).within);
    EXPECT_FALSE(tolerance(a, Transform::identity(), ball, tb, gap - delta - 1e-9).within);
  }
}

TEST(MeshQueries, BadInputGivesStatusNotNaN) {
  const Bvh a(testing::box_mesh(Vec3(1, 1, 1)));
  Transform bad;
  bad.p.x() = std::numeric_limits<double>::quiet_NaN();
  const MeshDistanceResult d = distance(a, bad, a, {});
  EXPECT_EQ(d.status, Status::invalid_input);
  EXPECT_FALSE(std::isnan(d.distance));
  EXPECT_EQ(collide(a, {}, a, bad).status, Status::invalid_input);
  EXPECT_EQ(tolerance(a, {}, a, {}, -1.0).status, Status::invalid_input);
  EXPECT_EQ(tolerance(a, {}, a, {}, std::nan("")).status, Status::invalid_input);
  bad.R(0, 0) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(distance(a, bad, Sphere(1), {}).status, Status::invalid_input);
  EXPECT_EQ(collide(a, {}, Halfspace(Vec3(0, 0, 1), 0), bad).status, Status::invalid_input);
  // Finite but beyond the range of lengths (kMaxLength): squared, 1e200 is infinite.
  const Transform far = Transform{Mat3::Identity(), Vec3(0, 1e200, 0)};
  const MeshDistanceResult f = distance(a, far, a, {});
  EXPECT_EQ(f.status, Status::invalid_input);
  EXPECT_FALSE(std::isnan(f.distance));
  EXPECT_EQ(collide(a, {}, a, far).status, Status::invalid_input);
  EXPECT_EQ(tolerance(a, far, Sphere(1), {}, 0.1).status, Status::invalid_input);
}

}  // namespace
}  // namespace proxima
