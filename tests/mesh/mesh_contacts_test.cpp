// SPDX-License-Identifier: BSD-3-Clause
// BLEM contacts (mesh_contacts.hpp) against brute force over every triangle
// pair, closed forms on hand-made scenes (cubes face to face, a grid over a
// plane, a sphere over a soup) and the scanned mug between two boxes.
#include <algorithm>
#include <cmath>
#include <array>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include <gtest/gtest.h>

#include <proxima/io/mesh_io.hpp>
#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/mesh/triangle_distance.hpp>

#include "mesh_fixtures.hpp"

namespace proxima {
namespace {

using mesh::Triangle;
using testing::Rng;
using PairSet = std::set<std::pair<int, int>>;

// Every pair within the layers, one contact each: the paper's raw set
// (triangle pairs, whatever MeshContactOptions' default).
MeshContactOptions raw_options(double patch_angle = 0.0) {
  MeshContactOptions o;
  o.cluster = false;
  o.drop_shadowed = false;
  o.feature_pairs = false;
  o.patch_angle = patch_angle;
  return o;
}

Triangle world_triangle(const TriangleMesh& m, const Transform& t, std::size_t i) {
  return {t.apply(m.corner(i, 0)), t.apply(m.corner(i, 1)), t.apply(m.corner(i, 2))};
}

// Every pair within the layers, by brute force (no BVH), world frame.
PairSet brute_pairs(const TriangleMesh& a, const Transform& ta, const TriangleMesh& b, const Transform& tb,
                    double limit) {
  PairSet s;
  for (std::size_t i = 0; i < a.triangle_count(); ++i)
    for (std::size_t j = 0; j < b.triangle_count(); ++j)
      if (mesh::triangle_distance(world_triangle(a, ta, i), world_triangle(b, tb, j)).distance <= limit)
        s.insert({static_cast<int>(i), static_cast<int>(j)});
  return s;
}

PairSet found_pairs(const ContactSet& set) {
  PairSet s;
  for (const Contact& c : set.points) s.insert({c.feature_a, c.feature_b});
  return s;
}

// Subdivided closed box: n×n squares per face (2 n² triangles per face),
// outward, vertices on the cube's edges shared by the faces meeting there.
TriangleMesh fine_box(const Vec3& h, int n, double margin) {
  std::vector<Vec3> v;
  std::vector<TriangleIndices> t;
  std::map<std::array<long, 3>, std::uint32_t> index;  // welds by grid coordinates
  auto vertex = [&](const Vec3& p) {
    const std::array<long, 3> key = {std::lround(p.x() / h.x() * n), std::lround(p.y() / h.y() * n),
                                     std::lround(p.z() / h.z() * n)};
    const auto [it, added] = index.emplace(key, static_cast<std::uint32_t>(v.size()));
    if (added) v.push_back(p);
    return it->second;
  };
  for (int axis = 0; axis < 3; ++axis)
    for (int side = -1; side <= 1; side += 2) {
      const int u = (axis + 1) % 3, w = (axis + 2) % 3;
      auto id = [&](int i, int j) {
        Vec3 p;
        p[axis] = side * h[axis];
        p[u] = h[u] * (-1.0 + 2.0 * i / n);
        p[w] = h[w] * (-1.0 + 2.0 * j / n);
        return vertex(p);
      };
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          // (u, w, axis) is right-handed: counter-clockwise in (u, w) faces +axis.
          if (side > 0) {
            t.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
            t.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
          } else {
            t.push_back({id(i, j), id(i + 1, j + 1), id(i + 1, j)});
            t.push_back({id(i, j), id(i, j + 1), id(i + 1, j + 1)});
          }
        }
    }
  return TriangleMesh(std::move(v), std::move(t), margin);
}

// Paper §3.2 per contact: depth = r_A + r_B − d and the point midway through
// the overlap, checked against the brute-force closest points of its pair.
TEST(MeshContacts, RandomSoupsMatchBruteForcePairsAndFormulas) {
  Rng rng(61);
  int checked = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const double ra = 0.01 * (trial % 3), rb = 0.015;
    const TriangleMesh a = testing::random_soup(rng, 250, 0.5, 0.12, ra);
    const TriangleMesh b = testing::random_soup(rng, 250, 0.5, 0.12, rb);
    const Bvh ba(a), bb(b);
    const Transform ta = rng.pose(0.2), tb = rng.pose(0.2);
    for (double patch : {0.0, 0.01}) {
      ContactSet set;
      MeshContactStats stats;
      mesh_contacts(ba, ta, bb, tb, raw_options(patch), set, &stats);
      ASSERT_EQ(set.status, Status::ok);
      const PairSet want = brute_pairs(a, ta, b, tb, ra + rb);
      EXPECT_EQ(found_pairs(set), want) << "trial " << trial;
      EXPECT_EQ(stats.pairs_within, want.size());
      EXPECT_EQ(stats.raw_contacts, set.points.size());
      if (patch != 0.0) continue;
      EXPECT_EQ(set.points.size(), want.size());  // one contact per pair without patches
      for (const Contact& c : set.points) {
        const Triangle x = world_triangle(a, ta, static_cast<std::size_t>(c.feature_a));
        const Triangle y = world_triangle(b, tb, static_cast<std::size_t>(c.feature_b));
        const mesh::ClosestPoints cp = mesh::triangle_distance(x, y);
        EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
        EXPECT_EQ(c.intersecting, cp.intersect);
        if (cp.intersect) {
          EXPECT_GE(c.depth, ra + rb - 1e-12);
          continue;
        }
        EXPECT_NEAR(c.depth, ra + rb - cp.distance, 1e-12);
        if (cp.distance > 1e-6) {
          const Vec3 n = (cp.a - cp.b) / cp.distance;
          EXPECT_LT((c.normal - n).norm(), 1e-6);
          EXPECT_LT((c.point - (0.5 * (cp.a + cp.b) + 0.5 * (rb - ra) * n)).norm(), 1e-9);
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

// The shadow rule by brute force: a pair within the layers is dropped when
// its witness on A is strictly closer (beyond rounding) to another triangle
// of B that is within the layers of the same triangle of A, or its witness on
// B to another triangle of A within the layers of the same triangle of B;
// a partner pair whose triangles cross shadows nothing, and a face lying on
// a face (parallel within the patch angle, the witness segment along one
// face's normal) is hidden only by a triangle within 45° of its normal.
// Returns the pairs it keeps.
PairSet brute_unshadowed(const TriangleMesh& a, const Transform& ta, const TriangleMesh& b, const Transform& tb,
                         const PairSet& within) {
  PairSet keep;
  for (const auto& [i, j] : within) {
    const Triangle x = world_triangle(a, ta, std::size_t(i)), y = world_triangle(b, tb, std::size_t(j));
    const mesh::ClosestPoints c = mesh::triangle_distance(x, y);
    bool drop = false;
    auto flat = [](const Triangle& t, const Triangle& u, const mesh::ClosestPoints& p) {
      const Vec3 na = (t[1] - t[0]).cross(t[2] - t[0]), nb = (u[1] - u[0]).cross(u[2] - u[0]);
      const Vec3 w = (p.a - p.b).normalized();
      return na.norm() > 0.0 && nb.norm() > 0.0 && std::abs(na.dot(nb)) >= std::cos(0.01) * na.norm() * nb.norm() &&
             std::max(std::abs(na.normalized().dot(w)), std::abs(nb.normalized().dot(w))) >= 1.0 - 1e-9;
    };
    const bool h_flat = flat(x, y, c);
    // Can pair (i2, j2), through its triangle `t`, hide this one? Not if
    // its triangles cross, nor `t` steeper than 45° to a face lying on a
    // face.
    auto can_hide = [&](std::size_t i2, std::size_t j2, const Triangle& t) {
      const mesh::ClosestPoints p = mesh::triangle_distance(world_triangle(a, ta, i2), world_triangle(b, tb, j2));
      const Vec3 u = (t[1] - t[0]).cross(t[2] - t[0]);
      return !p.intersect && p.distance > 0.0 &&
             (!h_flat || std::abs(u.dot(c.a - c.b)) >= 0.7071 * u.norm() * c.distance);
    };
    if (!c.intersect && c.distance > 0.0) {
      const double eps = 1e-12 + 1e-9 * c.distance;
      for (const auto& [i2, j2] : within) {
        if (i2 != i && j2 != j) continue;
        const Triangle y2 = world_triangle(b, tb, std::size_t(j2)), x2 = world_triangle(a, ta, std::size_t(i2));
        if (i2 == i && j2 != j && mesh::point_triangle(c.a, y2).distance < c.distance - eps - 1e-10 &&
            can_hide(std::size_t(i2), std::size_t(j2), y2))
          drop = true;
        if (j2 == j && i2 != i && mesh::point_triangle(c.b, x2).distance < c.distance - eps - 1e-10 &&
            can_hide(std::size_t(i2), std::size_t(j2), x2))
          drop = true;
        if (drop) break;
      }
    }
    if (!drop) keep.insert({i, j});
  }
  return keep;
}

// The library's shadow test against brute_unshadowed(): the brute-force rule
// is a little stricter (1e-10) than the library's, so pairs on the edge of
// rounding may go either way: every pair it keeps must be kept, and nothing
// outside the layers appears. Returns how many pairs the library dropped.
std::size_t expect_shadow_rule(const TriangleMesh& a, const Transform& ta, const TriangleMesh& b,
                               const Transform& tb) {
  const PairSet within = brute_pairs(a, ta, b, tb, a.margin() + b.margin());
  const PairSet keep = brute_unshadowed(a, ta, b, tb, within);
  MeshContactOptions o = raw_options();
  o.drop_shadowed = true;
  ContactSet set;
  MeshContactStats stats;
  mesh_contacts(Bvh(a), ta, Bvh(b), tb, o, set, &stats);
  const PairSet got = found_pairs(set);
  for (const auto& p : keep) EXPECT_TRUE(got.count(p)) << p.first << "," << p.second;
  for (const auto& p : got) EXPECT_TRUE(within.count(p));
  EXPECT_EQ(stats.pairs_within, within.size());
  EXPECT_EQ(stats.shadowed + got.size(), within.size());
  return stats.shadowed;
}

TEST(MeshContacts, ShadowedPairsMatchBruteForceRule) {
  Rng rng(64);
  std::size_t dropped_total = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const double ra = 0.02, rb = 0.02;
    const TriangleMesh a = testing::random_soup(rng, 200, 0.4, 0.15, ra);
    const TriangleMesh b = testing::random_soup(rng, 200, 0.4, 0.15, rb);
    const Transform ta = rng.pose(0.1), tb = rng.pose(0.1);
    dropped_total += expect_shadow_rule(a, ta, b, tb);
  }
  EXPECT_GT(dropped_total, 0u);
}

// A finely meshed box on a coarse one: each coarse face triangle has
// hundreds of partners, the groups whose shadow scan looks only at the
// partners whose boxes reach the witness along x (shadow_and_emit's
// window). Both ways round, tilted and turned so that the windows cut
// through the groups.
TEST(MeshContacts, LargeShadowGroupsMatchBruteForceRule) {
  Rng rng(65);
  const double h = 0.01, r = 0.0025;
  const TriangleMesh fine = fine_box(Vec3(0.01, 0.007, 0.0035), 12, r);
  const TriangleMesh coarse = testing::box_mesh(Vec3::Constant(h), 0.0);
  std::size_t dropped_total = 0;
  for (int trial = 0; trial < 6; ++trial) {
    // No face parallel to another: flush faces have no unique witnesses,
    // and the brute force's may differ from the query's.
    const double yaw = rng.uniform(0.1, 1.4), tx = rng.uniform(0.02, 0.06), ty = rng.uniform(0.02, 0.06);
    const Mat3 R = (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(tx, Vec3::UnitX()) *
                    Eigen::AngleAxisd(ty, Vec3::UnitY()))
                       .toRotationMatrix();
    const double x = rng.uniform(-0.005, 0.005), y = rng.uniform(-0.005, 0.005), z = rng.uniform(0.0008, 0.002);
    const Transform pose{R, Vec3(x, y, h + 0.0035 + z)};
    if (trial % 2 == 0)
      dropped_total += expect_shadow_rule(fine, pose, coarse, Transform::identity());
    else
      dropped_total += expect_shadow_rule(coarse, Transform::identity(), fine, pose);
  }
  EXPECT_GT(dropped_total, 100u);
}

// The shadow rule against a convex shape (layer r_b), by brute force over
// the raw set: one point contact per triangle within the layers, whose
// closest points follow from point, normal and depth (paper §3.2). A
// triangle is dropped when the shape's witness is closer to another
// triangle within the layers, not crossing the shape, than to it (beyond
// rounding), and one whose normal is along its own is hidden only by a
// triangle within 45° of that normal. The brute force's margins go both
// ways: the query keeps every triangle the harder-to-drop rule keeps, and
// only those the easier-to-drop one keeps. Returns how many were dropped.
std::size_t expect_convex_shadow_rule(const TriangleMesh& mesh, const Transform& ta, const Shape& shape,
                                      const Transform& tb, double r_b) {
  const Bvh bvh(mesh);
  ContactSet raw, got;
  MeshContactStats raw_stats, stats;
  mesh_contacts(bvh, ta, shape, tb, raw_options(), raw, &raw_stats);
  MeshContactOptions o = raw_options();
  o.drop_shadowed = true;
  o.smooth_edge_normals = false;  // the shadow rule alone (the smooth-edge rule: tests/sim/mesh_floor_test.cpp)
  mesh_contacts(bvh, ta, shape, tb, o, got, &stats);
  EXPECT_EQ(got.status, Status::ok);
  EXPECT_EQ(raw.points.size(), raw_stats.pairs_within);  // one contact per triangle
  const double r_a = mesh.margin();
  struct Witness {
    int tri;
    bool overlap;
    Vec3 a, b, u;  // closest points, the triangle's normal
    double d;
  };
  std::vector<Witness> w;
  for (const Contact& c : raw.points) {
    const Triangle t = world_triangle(mesh, ta, std::size_t(c.feature_a));
    Witness x{c.feature_a, c.intersecting, {}, {}, (t[1] - t[0]).cross(t[2] - t[0]), 0.0};
    if (!c.intersecting) {
      x.d = r_a + r_b - c.depth;
      x.b = c.point - 0.5 * (r_b - r_a) * c.normal - 0.5 * x.d * c.normal;
      x.a = x.b + x.d * c.normal;
    }
    w.push_back(x);
  }
  auto drops = [&](const Witness& h, double slack) {
    if (h.overlap || !(h.d > 0.0)) return false;
    const double below = h.d - (1e-12 + 1e-9 * h.d) + slack;
    const bool face = std::abs(h.u.dot(h.a - h.b)) >= (1.0 - 1e-9 - slack) * h.u.norm() * h.d;
    for (const Witness& g : w) {
      if (g.tri == h.tri || g.overlap || !(g.d > 0.0) || !(g.d < below)) continue;
      const Triangle t = world_triangle(mesh, ta, std::size_t(g.tri));
      if (!(mesh::point_triangle(h.b, t).distance < below)) continue;
      if (!face || std::abs(g.u.dot(h.a - h.b)) >= (0.7071 - 1e3 * slack) * g.u.norm() * h.d) return true;
    }
    return false;
  };
  std::set<int> kept, may_keep;
  for (const Witness& h : w) {
    if (!drops(h, -1e-10)) may_keep.insert(h.tri);
    if (!drops(h, 1e-10)) kept.insert(h.tri);
  }
  std::set<int> found;
  for (const Contact& c : got.points) found.insert(c.feature_a);
  for (int t : kept) EXPECT_TRUE(found.count(t)) << "triangle " << t << " dropped";
  for (int t : found) EXPECT_TRUE(may_keep.count(t)) << "triangle " << t << " kept";
  EXPECT_EQ(stats.pairs_within, raw_stats.pairs_within);
  EXPECT_EQ(stats.shadowed + found.size(), stats.pairs_within);
  return stats.shadowed;
}

// Boxes and spheres on a finely meshed box (hundreds of triangles under a
// box: the shadow test's window) and over random soups.
TEST(MeshContacts, ConvexShadowedTrianglesMatchBruteForceRule) {
  Rng rng(66);
  const double r = 0.002;
  const TriangleMesh fine = fine_box(Vec3(0.05, 0.05, 0.02), 24, r);
  std::size_t dropped = 0;
  for (int trial = 0; trial < 6; ++trial) {
    const double yaw = rng.uniform(0.1, 1.4), tx = rng.uniform(0.01, 0.05), ty = rng.uniform(0.01, 0.05);
    const Mat3 R = (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(tx, Vec3::UnitX()) *
                    Eigen::AngleAxisd(ty, Vec3::UnitY()))
                       .toRotationMatrix();
    const double x = rng.uniform(-0.04, 0.04), y = rng.uniform(-0.04, 0.04), z = rng.uniform(-0.001, 0.0015);
    const Vec3 c(x, y, 0.02 + 0.01 + z);
    dropped += expect_convex_shadow_rule(fine, Transform::identity(), Shape(Box(Vec3(0.04, 0.03, 0.02))),
                                         Transform{R, c}, 0.0);
    const double radius = rng.uniform(0.005, 0.03);
    dropped += expect_convex_shadow_rule(fine, Transform::identity(), Shape(Sphere(radius)),
                                         Transform::from_translation(Vec3(c.x(), c.y(), 0.02 + radius +
                                                                                    rng.uniform(-0.001, 0.0015))),
                                         radius);
  }
  for (int trial = 0; trial < 4; ++trial) {
    const TriangleMesh soup = testing::random_soup(rng, 200, 0.4, 0.15, 0.02);
    const Transform sa = rng.pose(0.1), sb = rng.pose(0.1), ba = rng.pose(0.1), bb = rng.pose(0.1);
    dropped += expect_convex_shadow_rule(soup, sa, Shape(Sphere(0.1)), sb, 0.1);
    dropped += expect_convex_shadow_rule(soup, ba, Shape(Box(Vec3(0.2, 0.1, 0.15), 0.01)), bb, 0.01);
  }
  EXPECT_GT(dropped, 100u);
}

// A sphere's closest point to a triangle is closed form: the pairs within the
// layers are exactly the triangles whose distance to the centre is ≤ r + r_A.
TEST(MeshContacts, SphereOverSoupMatchesClosedForm) {
  Rng rng(62);
  for (int trial = 0; trial < 10; ++trial) {
    const double ra = 0.005 * trial, r = 0.2;
    const TriangleMesh a = testing::random_soup(rng, 400, 0.5, 0.1, ra);
    const Bvh ba(a);
    const Transform ta = rng.pose(0.1), tb = rng.pose(0.3);
    ContactSet set;
    mesh_contacts(ba, ta, Shape(Sphere(r)), tb, raw_options(), set);
    ASSERT_EQ(set.status, Status::ok);
    std::set<int> want, got;
    for (std::size_t i = 0; i < a.triangle_count(); ++i) {
      const Triangle x = world_triangle(a, ta, i);
      const Vec3 q = mesh::closest_on_triangle(tb.p, x[0], x[1], x[2]);
      const double d = (q - tb.p).norm();
      if (d <= r + ra - 1e-9) want.insert(static_cast<int>(i));
      if (d > r + ra + 1e-9) continue;
      // Pairs on the boundary (within 1e-9) may go either way.
    }
    for (const Contact& c : set.points) {
      got.insert(c.feature_a);
      EXPECT_EQ(c.feature_b, -1);
      const Triangle x = world_triangle(a, ta, static_cast<std::size_t>(c.feature_a));
      const Vec3 q = mesh::closest_on_triangle(tb.p, x[0], x[1], x[2]);
      const double d = (q - tb.p).norm();
      EXPECT_LE(d, r + ra + 1e-9);
      if (d > 1e-3) {
        EXPECT_NEAR(c.depth, r + ra - d, 1e-7);
        EXPECT_LT((c.normal - (q - tb.p) / d).norm(), 1e-5);
      } else {
        EXPECT_TRUE(c.intersecting);  // the triangle passes through the centre point
      }
    }
    for (int i : want) EXPECT_TRUE(got.count(i)) << "missed triangle " << i;
  }
}

// Two 12-triangle cubes, A resting on B with a 1 mm core gap inside 2.5 mm
// layers: every contact pushes A up by 4 mm, and the contacts reach all four
// corners of the face (the patch, not one arbitrary corner per pair).
TEST(MeshContacts, CubeOnCubeRawContactsSpanTheFace) {
  const double h = 0.05, r = 0.0025, gap = 0.001;
  const Bvh a(testing::box_mesh(Vec3::Constant(h), r)), b(testing::box_mesh(Vec3::Constant(h), r));
  const Transform ta = Transform::from_translation({0.3, -0.2, 2 * h + gap + 1.0});
  const Transform tb = Transform::from_translation({0.3, -0.2, 1.0});
  ContactSet set;
  MeshContactStats stats;
  MeshContactOptions o;
  o.cluster = false;
  mesh_contacts(a, ta, b, tb, o, set, &stats);
  ASSERT_EQ(set.status, Status::ok);
  ASSERT_FALSE(set.points.empty());
  EXPECT_EQ(stats.intersecting, 0u);
  Vec3 lo = Vec3::Constant(1e9), hi = Vec3::Constant(-1e9);
  for (const Contact& c : set.points) {
    EXPECT_LT((c.normal - Vec3::UnitZ()).norm(), 1e-12);
    EXPECT_NEAR(c.depth, 2 * r - gap, 1e-12);
    EXPECT_NEAR(c.point.z(), 1.0 + h + 0.5 * gap, 1e-12);
    EXPECT_FALSE(c.intersecting);
    lo = lo.cwiseMin(c.point);
    hi = hi.cwiseMax(c.point);
  }
  EXPECT_NEAR(lo.x(), 0.3 - h, 1e-12);
  EXPECT_NEAR(hi.x(), 0.3 + h, 1e-12);
  EXPECT_NEAR(lo.y(), -0.2 - h, 1e-12);
  EXPECT_NEAR(hi.y(), -0.2 + h, 1e-12);
  EXPECT_NEAR(set.distance, gap - 2 * r, 1e-12);
  EXPECT_LT((set.normal - Vec3::UnitZ()).norm(), 1e-12);
}

// Without patches (patch_angle = 0) the same pose gives the paper's single
// point per pair; they still lie on the face, with the same depth.
TEST(MeshContacts, CubeOnCubePointPerPairWithoutPatches) {
  const double h = 0.05, r = 0.0025, gap = 0.001;
  const Bvh a(testing::box_mesh(Vec3::Constant(h), r)), b(testing::box_mesh(Vec3::Constant(h), r));
  ContactSet set;
  MeshContactStats stats;
  mesh_contacts(a, Transform::from_translation({0, 0, 2 * h + gap}), b, Transform::identity(), raw_options(), set,
                &stats);
  ASSERT_FALSE(set.points.empty());
  EXPECT_EQ(set.points.size(), stats.pairs_within);
  for (const Contact& c : set.points) {
    EXPECT_NEAR(c.depth, 2 * r - gap, 1e-12);
    EXPECT_LE(std::abs(c.point.x()), h + 1e-12);
    EXPECT_LE(std::abs(c.point.y()), h + 1e-12);
  }
}

// A box shape (convex path) resting on a grid mesh: the patch covers the
// box's bottom face, every point with the exact depth.
TEST(MeshContacts, BoxShapeOnGridCoversItsFace) {
  const double r = 0.002, gap = 0.0005;
  const Bvh grid(testing::grid(20, 0.05, [](int, int) { return false; }, r));
  const Box box(Vec3(0.2, 0.1, 0.05));
  const Transform tb = Transform::from_axis_angle(Vec3::UnitZ(), 0.3, {0.01, 0.02, 0.025 + gap});
  ContactSet set;
  MeshContactOptions o;
  o.cluster = false;
  mesh_contacts(grid, Transform::identity(), Shape(box), tb, o, set);
  ASSERT_EQ(set.status, Status::ok);
  ASSERT_FALSE(set.points.empty());
  double u_lo = 1e9, u_hi = -1e9, v_lo = 1e9, v_hi = -1e9;
  for (const Contact& c : set.points) {
    // B (the box) is above A (the grid): the normal from B to A is down.
    EXPECT_LT((c.normal + Vec3::UnitZ()).norm(), 1e-9);
    EXPECT_NEAR(c.depth, r - gap, 1e-9);
    const Vec3 local = tb.apply_inverse(c.point);
    u_lo = std::min(u_lo, local.x());
    u_hi = std::max(u_hi, local.x());
    v_lo = std::min(v_lo, local.y());
    v_hi = std::max(v_hi, local.y());
  }
  EXPECT_NEAR(u_lo, -0.1, 1e-9);
  EXPECT_NEAR(u_hi, 0.1, 1e-9);
  EXPECT_NEAR(v_lo, -0.05, 1e-9);
  EXPECT_NEAR(v_hi, 0.05, 1e-9);
}

// Against a halfspace every vertex within reach is one contact, once.
TEST(MeshContacts, GridOverHalfspaceGivesEachVertexOnce) {
  const double r = 0.003, gap = 0.001;
  const int n = 8;
  const Bvh grid(testing::grid(n, 0.1, [](int i, int j) { return i == 3 && j == 3; }, r));
  ContactSet set;
  MeshContactStats stats;
  MeshContactOptions o;
  o.cluster = false;
  const Transform ta = Transform::from_translation({0, 0, gap});
  mesh_contacts(grid, ta, Shape(Halfspace(Vec3::UnitZ(), 0.0)), Transform::identity(), o, set, &stats);
  ASSERT_EQ(set.status, Status::ok);
  EXPECT_EQ(set.points.size(), std::size_t((n + 1) * (n + 1)));  // the hole keeps its corners
  std::set<std::pair<long, long>> seen;
  for (const Contact& c : set.points) {
    EXPECT_NEAR(c.depth, r - gap, 1e-12);
    EXPECT_LT((c.normal - Vec3::UnitZ()).norm(), 1e-12);
    EXPECT_NEAR(c.point.z(), 0.5 * (gap - r), 1e-12);
    EXPECT_TRUE(seen.insert({std::lround(c.point.x() * 1e6), std::lround(c.point.y() * 1e6)}).second);
  }
  // Lowered through the plane: the cores cross it, flagged.
  mesh_contacts(grid, Transform::from_translation({0, 0, -0.001}), Shape(Halfspace(Vec3::UnitZ(), 0.0)),
                Transform::identity(), o, set, &stats);
  EXPECT_EQ(stats.intersecting, set.points.size());
}

// Zero layers: only intersecting cores make contacts, all flagged, each
// with its pair's shortest retraction (here straight up by the overlap).
TEST(MeshContacts, ZeroLayersFallBackToFlaggedRetraction) {
  const double h = 0.05, overlap = 0.001;
  const Bvh a(testing::box_mesh(Vec3::Constant(h))), b(testing::box_mesh(Vec3::Constant(h)));
  ContactSet set;
  MeshContactStats stats;
  mesh_contacts(a, Transform::from_translation({0.01, 0.02, 2 * h - overlap}), b, Transform::identity(),
                raw_options(), set, &stats);
  ASSERT_EQ(set.status, Status::ok);
  ASSERT_FALSE(set.points.empty());
  EXPECT_EQ(stats.intersecting, set.points.size());
  for (const Contact& c : set.points) {
    EXPECT_TRUE(c.intersecting);
    EXPECT_LT((c.normal - Vec3::UnitZ()).norm(), 1e-9);
    EXPECT_NEAR(c.depth, overlap, 1e-9);
  }
  EXPECT_NEAR(set.distance, -overlap, 1e-9);
  // Apart by 1 mm with zero layers: nothing.
  mesh_contacts(a, Transform::from_translation({0, 0, 2 * h + 0.001}), b, Transform::identity(), raw_options(),
                set);
  EXPECT_TRUE(set.points.empty());
  EXPECT_EQ(set.status, Status::ok);
}

// The r = 0 mesh stack's first landing (examples/mesh_cube_stack_r0.json):
// a 12-triangle cube sunk 1.5 µm into a 12-triangle ground box, its pose off
// by nano-radians as a simulator leaves it. Every flagged contact must lift
// the cube by about the sink. Before: a side triangle tilted by 2e-9 rad
// forbade the straight lift (its orientation test had no slack) and the
// pair retracted sideways by 0.55 m, the length of the ground's triangle,
// which flung the cube; and the cube's bottom-face pairs were shadowed by
// the side faces crossing the ground at the corner their witness sat on.
// The contacts must hold the cube up at its four corners (the ends of the
// side faces' crossings with the ground), so that it rests on its whole
// footprint.
TEST(MeshContacts, CubeSunkIntoGroundWithNanoTiltLiftsStraightUp) {
  auto box = [](const Vec3& half) {
    std::vector<Vec3> v;
    for (int i = 0; i < 8; ++i)
      v.emplace_back(i == 1 || i == 2 || i == 5 || i == 6 ? half.x() : -half.x(),
                     i == 2 || i == 3 || i == 6 || i == 7 ? half.y() : -half.y(), i >= 4 ? half.z() : -half.z());
    const std::vector<TriangleIndices> t = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                            {3, 7, 6}, {3, 6, 2}, {0, 4, 7}, {0, 7, 3}, {1, 2, 6}, {1, 6, 5}};
    return TriangleMesh(std::move(v), t, 0.0);
  };
  const Bvh cube(box(Vec3::Constant(0.05))), ground(box(Vec3(0.5, 0.5, 0.05)));
  const double sink = 1.517586214934e-6;
  const Transform pg = Transform::from_translation({0, 0, -0.05});
  MeshContactOptions o = raw_options();
  o.margin = 0.005;  // the simulator's contact margin
  o.drop_shadowed = true;
  for (const bool tilted : {false, true})
  for (const bool cube_is_a : {true, false}) {
    SCOPED_TRACE(std::string(cube_is_a ? "cube is A" : "ground is A") + (tilted ? ", tilted" : ", level"));
    Transform pc = Transform::from_translation({0, 0, 0.05 - sink});
    if (tilted) {
      pc.p += Vec3(2.09e-10, -1.52e-10, 0);
      pc.R = Eigen::Quaterniond(1, 1.5185e-9, 2.0881e-9, 0).normalized().toRotationMatrix();
    }
    ContactSet set;
    MeshContactStats stats;
    if (cube_is_a) {
      mesh_contacts(cube, pc, ground, pg, o, set, &stats);
    } else {
      mesh_contacts(ground, pg, cube, pc, o, set, &stats);
    }
    ASSERT_EQ(set.status, Status::ok);
    const Vec3 up(0, 0, cube_is_a ? 1.0 : -1.0);  // the normal points B→A
    int flagged = 0;
    bool corner[4] = {false, false, false, false};
    for (const Contact& c : set.points) {
      if (!c.intersecting) continue;
      ++flagged;
      EXPECT_LE(c.depth, 2 * sink) << c.feature_a << " " << c.feature_b;
      EXPECT_GT(c.normal.dot(up), 0.5) << c.feature_a << " " << c.feature_b;
      for (int k = 0; k < 4; ++k) {
        const Eigen::Vector2d xy((k & 1) ? 0.05 : -0.05, (k & 2) ? 0.05 : -0.05);
        corner[k] = corner[k] || ((c.point.head<2>() - xy).norm() < 1e-6 && std::abs(c.point.z()) < 1e-5);
      }
    }
    EXPECT_GE(flagged, 4);
    for (int k = 0; k < 4; ++k) EXPECT_TRUE(corner[k]) << "corner " << k;
  }
}

// Centre of pressure of a contact set on a horizontal face (penalty model).
Vec3 centre_of_pressure(const ContactSet& set) {
  Vec3 sum = Vec3::Zero();
  double w = 0.0;
  for (const Contact& c : set.points) {
    const double f = std::max(c.depth, 0.0);
    sum += f * c.point;
    w += f;
  }
  return w > 0.0 ? Vec3(sum / w) : Vec3::Constant(std::nan(""));
}

// The paper's PR2 fingertip: ~1,000 triangles per face (here 968) on a
// 12-triangle cube, clustered to the paper's k = 20 for an object. The
// clustered set must support the cube: the centre of pressure at the face's
// centre, the points spread over the face, no contact pulling A down. Not
// every normal is vertical: near the edges, a fine side triangle of A and
// the coarse side triangle of B whose half of the face does not reach under
// it are closest along the diagonal, so their layers overlap obliquely (the
// paper's per-pair geometry, by design blind to neighbours); those contacts
// are shallow, and the set's net force still points straight up. (The
// paper's clustering, patch hulls off; with them see the next test.)
TEST(MeshContacts, FineCubeOnCoarseCubeClusteredSetSupportsIt) {
  const double h = 0.05, r = 0.0025, gap = 0.001;
  const Bvh a(fine_box(Vec3::Constant(h), 22, r)), b(testing::box_mesh(Vec3::Constant(h), r));
  const Transform ta = Transform::from_translation({0, 0, 2 * h + gap}), tb = Transform::identity();
  ContactSet set;
  MeshContactStats stats;
  MeshContactOptions o;
  o.patch_hulls = false;
  mesh_contacts(a, ta, b, tb, o, set, &stats);
  ASSERT_EQ(set.status, Status::ok);
  EXPECT_GT(stats.raw_contacts, 968u);
  ASSERT_LE(set.points.size(), 20u);
  ASSERT_GE(set.points.size(), 10u);
  Vec3 lo = Vec3::Constant(1e9), hi = Vec3::Constant(-1e9);
  for (const Contact& c : set.points) {
    EXPECT_GE(c.normal.z(), 0.0);
    EXPECT_GT(c.depth, 0.0);
    EXPECT_LE(c.depth, 2 * r - gap + 1e-12);
    lo = lo.cwiseMin(c.point);
    hi = hi.cwiseMax(c.point);
  }
  const Wrench w = penalty_wrench(set.points, Vec3(0, 0, h + 0.5 * gap));
  EXPECT_LT(w.force.head<2>().norm(), 1e-3 * w.force.z());
  const Vec3 cop = centre_of_pressure(set);
  EXPECT_LT(std::hypot(cop.x(), cop.y()), 0.05 * h) << cop.transpose();
  // Cluster means lie inside the patch; they still reach well out to its
  // sides (a 4×5 partition of the square puts its outer means at ±0.6 h to
  // ±0.75 h).
  EXPECT_GT(hi.x() - lo.x(), 1.0 * h);
  EXPECT_GT(hi.y() - lo.y(), 1.0 * h);
  EXPECT_LE(hi.head<2>().cwiseAbs().maxCoeff(), h + 1e-12);
  EXPECT_LE(lo.head<2>().cwiseAbs().maxCoeff(), h + 1e-12);
}

// With patch hulls (the default) the same resting face is exactly its four
// corners: the hull of thousands of coplanar raw contacts.
TEST(MeshContacts, FineCubeOnCoarseCubeWithPatchHullsIsTheFaceCorners) {
  const double h = 0.05, r = 0.0025, gap = 0.001;
  const Bvh a(fine_box(Vec3::Constant(h), 22, r)), b(testing::box_mesh(Vec3::Constant(h), r));
  ContactSet set;
  MeshContactStats stats;
  mesh_contacts(a, Transform::from_translation({0, 0, 2 * h + gap}), b, Transform::identity(), {}, set, &stats);
  ASSERT_EQ(set.status, Status::ok);
  EXPECT_GT(stats.raw_contacts, 968u);
  ASSERT_EQ(set.points.size(), 4u);
  for (const Contact& c : set.points) {
    EXPECT_LT((c.normal - Vec3::UnitZ()).norm(), 1e-9);
    EXPECT_NEAR(c.depth, 2 * r - gap, 1e-9);
    EXPECT_NEAR(std::abs(c.point.x()), h, 1e-9);
    EXPECT_NEAR(std::abs(c.point.y()), h, 1e-9);
  }
  const Vec3 cop = centre_of_pressure(set);
  EXPECT_LT(std::hypot(cop.x(), cop.y()), 1e-9);
}

// The resting pose moved by 1e-6 m and turned by 1e-6 rad about random
// directions. The two draws are separate statements: as arguments of one
// call their order is unspecified, and gcc and clang would sample different
// poses.
Transform tiny_perturbation(const Transform& rest, Rng& rng) {
  const Vec3 axis = rng.unit_vector();
  const Vec3 shift = rng.unit_vector();
  return Transform::from_axis_angle(axis, 1e-6, rest.p + 1e-6 * shift);
}

// Contact stability: moving the resting fine cube by 1e-6 m and
// 1e-6 rad changes the clustered set's penalty wrench by a bounded amount,
// relative to the wrench itself (scaled(200) perturbations):
// - default options: the force by < 1e-3 and the torque about the face's
//   centre by < 1e-3 · |F| · h, a centre-of-pressure shift below 0.05 mm.
//   Measured over 2,000 perturbations: force ≤ 2.5e-4 (the depth change),
//   centre of pressure ≤ 0.0014 mm.
// - the paper's clustering of the raw set alone (patch_hulls off): the
//   force by < 1e-3; the centre of pressure by < 0.01 mm for most
//   perturbations (asserted: 3 in 4) and by < h / 25 = 2 mm for all.
//   Measured over 2,000: median 0.0011 mm, 1,911 below 0.01 mm, 99th
//   percentile 0.18 mm, largest 0.99 mm (12 above 0.25 mm). The outliers
//   are raw sets with 2 or 3 single-point contacts of the fine cube's side
//   triangles along its bottom edges, 1.8 to 3 mm from every contact of the
//   rest pose, which move the k-means partition.
//   The patch hulls replace a resting face's raw contacts by the corners of
//   the overlap, which those perturbations do not move.
// A method whose contacts jump between corners (one arbitrary closest point
// per parallel pair) moves the centre of pressure by a good fraction of h.
TEST(MeshContacts, ClusteredWrenchIsStableUnderTinyPerturbations) {
  const double h = 0.05, r = 0.0025, gap = 0.001;
  const Bvh a(fine_box(Vec3::Constant(h), 16, r)), b(testing::box_mesh(Vec3::Constant(h), r));
  const Vec3 centre(0, 0, h + 0.5 * gap);
  const Transform rest = Transform::from_translation({0, 0, 2 * h + gap});
  const int n = testing::scaled(200);
  for (const bool hulls : {true, false}) {
    SCOPED_TRACE(hulls ? "patch hulls" : "clustering alone");
    MeshContactOptions options;
    options.patch_hulls = hulls;
    auto wrench_at = [&](const Transform& ta) {
      ContactSet set;
      mesh_contacts(a, ta, b, Transform::identity(), options, set);
      EXPECT_EQ(set.status, Status::ok);
      return penalty_wrench(set.points, centre);
    };
    const Wrench w0 = wrench_at(rest);
    ASSERT_GT(w0.force.z(), 0.0);
    const double f0 = w0.force.norm();
    Rng rng(63);
    int small_shift = 0;
    for (int k = 0; k < n; ++k) {
      const Wrench w = wrench_at(tiny_perturbation(rest, rng));
      EXPECT_LT((w.force - w0.force).norm(), 1e-3 * f0) << k;
      const double cop_shift = (w.torque - w0.torque).norm() / f0;
      if (hulls) {
        EXPECT_LT(cop_shift, 1e-3 * h) << k;
      } else {
        EXPECT_LT(cop_shift, h / 25) << k;
        small_shift += cop_shift < 1e-5 ? 1 : 0;
      }
    }
    if (!hulls) {
      EXPECT_GE(4 * small_shift, 3 * n);
    }
  }
}

// With the default patch hulls, two 12-triangle cubes resting face on face
// give the face's 4 corners, and 1e-6 m / 1e-6 rad perturbations change the
// penalty force by the depth change only (< 2e-3) and the torque by < 1e-3 ·
// |F| · h.
TEST(MeshContacts, RestingCoarseCubesKeepTheirCornersUnderTinyPerturbations) {
  const double h = 0.05, r = 0.0025, gap = 0.001;
  const Bvh a(testing::box_mesh(Vec3::Constant(h), r)), b(testing::box_mesh(Vec3::Constant(h), r));
  const Vec3 centre(0, 0, h + 0.5 * gap);
  const Transform rest = Transform::from_translation({0, 0, 2 * h + gap});
  ContactSet set;
  mesh_contacts(a, rest, b, Transform::identity(), {}, set);
  ASSERT_EQ(set.points.size(), 4u);
  for (const Contact& c : set.points) EXPECT_NEAR(c.point.head<2>().cwiseAbs().minCoeff(), h, 1e-12);
  const Wrench w0 = penalty_wrench(set.points, centre);
  Rng rng(65);
  for (int k = 0; k < 20; ++k) {
    mesh_contacts(a, tiny_perturbation(rest, rng), b, Transform::identity(), {}, set);
    EXPECT_EQ(set.points.size(), 4u) << k;
    const Wrench w = penalty_wrench(set.points, centre);
    EXPECT_LT((w.force - w0.force).norm(), 2e-3 * w0.force.norm()) << k;
    EXPECT_LT((w.torque - w0.torque).norm(), 1e-3 * w0.force.norm() * h) << k;
  }
}

// The scanned mug (MuJoCo samples, an open thin shell with no bottom) held
// between two boxes: contacts on both sides, each pushing the mug away from
// its box.
TEST(MeshContacts, ScannedMugBetweenTwoBoxesTouchesBothSides) {
  const std::filesystem::path path = "/usr/share/mujoco/model/mug/mug.obj";
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " missing: install libmujoco-samples (scripts/deps.sh)";
  const double r = 0.0025, gap = 0.001;
  const Bvh mug(read_mesh(path, {.scale = 1.0, .margin = r}));
  // Squeeze along y: each box's face 1 mm beyond the mug's extreme vertex
  // on that side, centred on it.
  const Vec3 size(0.04, 0.02, 0.04);
  int sides = 0;
  for (int s = -1; s <= 1; s += 2) {
    Vec3 extreme = mug.mesh().vertices().front();
    for (const Vec3& v : mug.mesh().vertices())
      if (s * v.y() > s * extreme.y()) extreme = v;
    const Transform tb =
        Transform::from_translation({extreme.x(), extreme.y() + s * (gap + 0.5 * size.y()), extreme.z()});
    ContactSet set;
    MeshContactStats stats;
    mesh_contacts(mug, Transform::identity(), Shape(Box(size)), tb, {}, set, &stats);
    ASSERT_EQ(set.status, Status::ok);
    ASSERT_FALSE(set.points.empty()) << "side " << s;
    EXPECT_LE(set.points.size(), 20u);
    EXPECT_EQ(stats.intersecting, 0u);
    for (const Contact& c : set.points) {
      EXPECT_LT(s * c.normal.y(), -0.5) << "side " << s;  // from the box (B) to the mug (A)
      EXPECT_GT(c.depth, 0.0);
      EXPECT_LE(c.depth, r + 1e-12);
    }
    ++sides;
  }
  EXPECT_EQ(sides, 2);
}

// A fine closed cube sunk 1 mm into a coarse one (the layers and more
// overrun): the fallback must still push it out, never sideways past a
// small triangle or down. Both meshes are closed and outward, so each
// intersecting pair retracts through B's face or off A's; near B's top
// edges and corners a triangle may leave over them (n·z = 1/√2 or 1/√3),
// still up.
TEST(MeshContacts, SunkFineCubeRetractsOutwardNotDeeper) {
  const double h = 0.05, r = 0.0025, sink = 0.001;
  const Bvh a(fine_box(Vec3::Constant(h), 16, r)), b(testing::box_mesh(Vec3::Constant(h)));
  ASSERT_EQ(a.mesh().orientation(), 1);
  ASSERT_EQ(b.mesh().orientation(), 1);
  for (double offset : {0.0, 0.013}) {
    ContactSet set;
    MeshContactStats stats;
    mesh_contacts(a, Transform::from_translation({offset, -offset, 2 * h - sink}), b, Transform::identity(),
                  raw_options(0.01), set, &stats);
    ASSERT_EQ(set.status, Status::ok);
    ASSERT_GT(stats.intersecting, 0u);
    for (const Contact& c : set.points) {
      if (!c.intersecting) continue;
      EXPECT_GT(c.normal.z(), 0.5) << "offset " << offset << ": " << c.normal.transpose() << " at " << c.point.transpose();
      EXPECT_LE(c.depth, sink + r + 1e-9);
    }
  }
  // Inward-oriented copies (every triangle reversed) say so.
  TriangleMesh m = testing::box_mesh(Vec3::Constant(h));
  std::vector<TriangleIndices> flipped = m.triangles();
  for (TriangleIndices& t : flipped) std::swap(t[1], t[2]);
  EXPECT_EQ(TriangleMesh(m.vertices(), flipped).orientation(), -1);
  EXPECT_EQ(testing::grid(3, 0.1, [](int, int) { return false; }).orientation(), 0);
}

// A reused scratch must not leak one query into the next (prepared
// triangles, for one, are not cleared when made): after a large query, a
// small one gives bit for bit what a fresh scratch and the overload without
// a scratch give, mesh–mesh and mesh–convex, shadowed and raw.
TEST(MeshContacts, ReusedScratchGivesTheSameContactsAsAFreshOne) {
  const Bvh fine(fine_box(Vec3(0.05, 0.05, 0.05), 8, 0.0025));
  const Bvh coarse(testing::box_mesh(Vec3::Constant(0.05), 0.0));
  const Transform big = Transform::from_translation({0.01, 0.005, 0.1 + 0.001});
  const Transform small{Eigen::AngleAxisd(0.3, Vec3::UnitZ()).toRotationMatrix(), Vec3(0.07, 0.07, 0.1 + 0.0015)};
  auto same = [](const ContactSet& x, const ContactSet& y) {
    EXPECT_EQ(x.status, y.status);
    EXPECT_EQ(x.distance, y.distance);
    EXPECT_EQ(x.normal, y.normal);
    ASSERT_EQ(x.points.size(), y.points.size());
    for (std::size_t i = 0; i < x.points.size(); ++i) {
      EXPECT_EQ(x.points[i].point, y.points[i].point);
      EXPECT_EQ(x.points[i].normal, y.points[i].normal);
      EXPECT_EQ(x.points[i].depth, y.points[i].depth);
      EXPECT_EQ(x.points[i].feature_a, y.points[i].feature_a);
      EXPECT_EQ(x.points[i].feature_b, y.points[i].feature_b);
    }
  };
  for (const bool shadow : {true, false}) {
    MeshContactOptions o;
    o.cluster = false;
    o.drop_shadowed = shadow;
    MeshContactScratch reused;
    ContactSet set, fresh_set, thread_set;
    mesh_contacts(fine, big, coarse, Transform::identity(), o, set, reused);
    ASSERT_GT(set.points.size(), 100u);
    mesh_contacts(fine, small, coarse, Transform::identity(), o, set, reused);
    mesh_contacts(fine, small, coarse, Transform::identity(), o, thread_set);
    {
      MeshContactScratch fresh;
      mesh_contacts(fine, small, coarse, Transform::identity(), o, fresh_set, fresh);
    }
    ASSERT_FALSE(fresh_set.points.empty());
    same(set, fresh_set);
    same(thread_set, fresh_set);
    const Shape box(Box(Vec3::Constant(0.1)));  // full sizes: the coarse cube
    mesh_contacts(fine, big, box, Transform::identity(), o, set, reused);
    mesh_contacts(fine, small, box, Transform::identity(), o, set, reused);
    mesh_contacts(fine, small, box, Transform::identity(), o, thread_set);
    {
      MeshContactScratch fresh;
      mesh_contacts(fine, small, box, Transform::identity(), o, fresh_set, fresh);
    }
    ASSERT_FALSE(fresh_set.points.empty());
    same(set, fresh_set);
    same(thread_set, fresh_set);
  }
}

TEST(MeshContacts, BadInputIsReportedNotThrown) {
  const Bvh a(testing::box_mesh(Vec3::Constant(0.05), 0.01));
  const Transform far = Transform::from_translation({0, 0, 0.101});
  ContactSet set;
  MeshContactOptions o;
  o.clustering.max_contacts = 0;
  mesh_contacts(a, far, a, Transform::identity(), o, set);
  EXPECT_EQ(set.status, Status::invalid_input);
  EXPECT_TRUE(set.points.empty());
  o = {};
  o.margin = -1.0;
  mesh_contacts(a, far, Shape(Sphere(0.1)), Transform::identity(), o, set);
  EXPECT_EQ(set.status, Status::invalid_input);
  o = {};
  o.patch_angle = 2.0;
  mesh_contacts(a, far, a, Transform::identity(), o, set);
  EXPECT_EQ(set.status, Status::invalid_input);
  Transform bad = far;
  bad.p.x() = std::nan("");
  mesh_contacts(a, bad, a, Transform::identity(), {}, set);
  EXPECT_EQ(set.status, Status::invalid_input);
  mesh_contacts(a, Transform::identity(), Shape(Box(Vec3::Constant(0.1))), bad, {}, set);
  EXPECT_EQ(set.status, Status::invalid_input);
  // Finite but beyond the range of lengths (kMaxLength).
  bad.p.x() = -2.0 * kMaxLength;
  mesh_contacts(a, bad, a, Transform::identity(), {}, set);
  EXPECT_EQ(set.status, Status::invalid_input);
  mesh_contacts(a, Transform::identity(), Shape(Sphere(0.1)), bad, {}, set);
  EXPECT_EQ(set.status, Status::invalid_input);
  // A mesh without triangles cannot be built: the error names the mesh.
  EXPECT_THROW(TriangleMesh({Vec3::Zero()}, {}, 0.0, "empty.obj"), Error);
  // Huge k: the raw set comes back without its copies. Two 12-triangle
  // cubes face to face give 80 raw contacts at the face's 4 corners (each
  // corner is a vertex of several triangle pairs' patches).
  o = {};
  o.clustering.max_contacts = 1 << 30;
  mesh_contacts(a, far, a, Transform::identity(), o, set);
  ContactSet raw;
  mesh_contacts(a, far, a, Transform::identity(), raw_options(o.patch_angle), raw);
  EXPECT_EQ(set.status, Status::ok);
  EXPECT_EQ(raw.points.size(), 80u);
  ASSERT_EQ(set.points.size(), 4u);
  for (const Contact& r : raw.points) {
    int near = 0;
    for (const Contact& c : set.points) near += (c.point - r.point).norm() < 1e-9 && (c.normal - r.normal).norm() < 1e-9;
    EXPECT_EQ(near, 1) << r.point.transpose();
  }
}

}  // namespace
}  // namespace proxima

namespace proxima {
namespace {

// traverse_only visits the same bounding-volume pairs and counts the same
// candidate triangle pairs as the full query, and tests none of them.
TEST(MeshContacts, TraverseOnlyVisitsTheSameNodesAndReturnsNoContacts) {
  testing::Rng rng(64);
  int overlapping = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const TriangleMesh a = testing::random_soup(rng, 300, 0.5, 0.1, 0.01);
    const TriangleMesh b = testing::random_soup(rng, 300, 0.5, 0.1, 0.01);
    const Bvh ba(a), bb(b);
    const Transform ta = rng.pose(0.2), tb = rng.pose(0.2);
    MeshContactOptions full;
    MeshContactOptions walk = full;
    walk.traverse_only = true;
    ContactSet with, without;
    MeshContactStats s_with, s_without;
    mesh_contacts(ba, ta, bb, tb, full, with, &s_with);
    mesh_contacts(ba, ta, bb, tb, walk, without, &s_without);
    ASSERT_EQ(without.status, Status::ok);
    EXPECT_TRUE(without.points.empty());
    EXPECT_EQ(s_without.node_pairs, s_with.node_pairs) << trial;
    EXPECT_EQ(s_without.pairs_within, 0u) << trial;
    if (!with.points.empty()) ++overlapping;
  }
  EXPECT_GE(overlapping, 6);  // the soups overlap: the full query has contacts to skip
}

}  // namespace
}  // namespace proxima
