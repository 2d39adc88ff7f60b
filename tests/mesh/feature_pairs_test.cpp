// SPDX-License-Identifier: BSD-3-Clause
// The feature-pair raw set (MeshContactOptions::feature_pairs) against brute
// force written here (every vertex–triangle and edge–edge pair of two small
// meshes, mutual nearness over all triangles, with this file's own
// point–triangle and segment–segment distances), and closed forms: a box on
// a triangulated floor, an edge across an edge, a corner over a face and
// over a vertex, a sphere over a mesh vertex and edge.
#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/mesh/mesh_queries.hpp>

#include "mesh_fixtures.hpp"

namespace proxima {
namespace {

using testing::Rng;

MeshContactOptions feature_options(double patch_angle = 0.0) {
  MeshContactOptions o;
  o.feature_pairs = true;
  o.cluster = false;
  o.patch_angle = patch_angle;
  return o;
}

// ------------------------------------------------ this file's own geometry

// Closest point of segment [p, q] to x, by the projection's parameter.
Vec3 fp_on_segment(const Vec3& x, const Vec3& p, const Vec3& q) {
  const Vec3 d = q - p;
  const double dd = d.dot(d);
  double s = dd > 0 ? (x - p).dot(d) / dd : 0.0;
  s = s < 0 ? 0 : (s > 1 ? 1 : s);
  return p + s * d;
}

// Is the projection of x strictly inside triangle (a, b, c)? Then `foot`.
// Same-side tests of the three edges against the plane's normal.
bool fp_over_interior(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c, Vec3& foot) {
  const Vec3 n = (b - a).cross(c - a);
  const double nn = n.dot(n);
  if (!(nn > 0)) return false;
  foot = x - n * (n.dot(x - a) / nn);
  return (b - a).cross(foot - a).dot(n) > 0 && (c - b).cross(foot - b).dot(n) > 0 &&
         (a - c).cross(foot - c).dot(n) > 0;
}

// Distance from x to triangle (a, b, c): the interior foot or the nearest of
// the three edges.
double fp_point_triangle(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c) {
  Vec3 foot;
  if (fp_over_interior(x, a, b, c, foot)) return (x - foot).norm();
  return std::min({(x - fp_on_segment(x, a, b)).norm(), (x - fp_on_segment(x, b, c)).norm(),
                   (x - fp_on_segment(x, c, a)).norm()});
}

// Closest points of two segments: the lines' critical point when it lies in
// both, else the best of the four end-to-segment projections.
void fp_segments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2, Vec3& x1, Vec3& x2) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.dot(d1), e = d2.dot(d2), b = d1.dot(d2), c = d1.dot(r), f = d2.dot(r);
  const double det = a * e - b * b;
  double best = 1e300;
  if (det > 1e-12 * a * e) {
    const double s = (b * f - c * e) / det, t = (a * f - b * c) / det;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
      x1 = p1 + s * d1;
      x2 = p2 + t * d2;
      best = (x1 - x2).norm();
    }
  }
  auto try_pair = [&](const Vec3& u, const Vec3& v) {
    const double d = (u - v).norm();
    if (d < best - 1e-15) {
      best = d;
      x1 = u;
      x2 = v;
    }
  };
  try_pair(p1, fp_on_segment(p1, p2, q2));
  try_pair(q1, fp_on_segment(q1, p2, q2));
  try_pair(fp_on_segment(p2, p1, q1), p2);
  try_pair(fp_on_segment(q2, p1, q1), q2);
}

struct Witnesses {
  Vec3 a, b;
};

std::vector<Vec3> world_vertices(const TriangleMesh& m, const Transform& t) {
  std::vector<Vec3> v;
  for (const Vec3& p : m.vertices()) v.push_back(t.apply(p));
  return v;
}

std::set<std::pair<std::uint32_t, std::uint32_t>> unique_edges(const TriangleMesh& m) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> e;
  for (const TriangleIndices& t : m.triangles())
    for (int k = 0; k < 3; ++k) e.insert(std::minmax(t[k], t[(k + 1) % 3]));
  return e;
}

double fp_mesh_distance(const Vec3& x, const std::vector<Vec3>& v, const TriangleMesh& m) {
  double d = 1e300;
  for (const TriangleIndices& t : m.triangles()) d = std::min(d, fp_point_triangle(x, v[t[0]], v[t[1]], v[t[2]]));
  return d;
}

// Every vertex–triangle and edge–edge pair within `limit`, kept when each
// witness is (within 1e-9 relative) the closest point of its mesh to the
// other's; copies (an edge pair meeting at a shared end) merged.
std::vector<Witnesses> brute_feature_pairs(const TriangleMesh& a, const Transform& ta, const TriangleMesh& b,
                                           const Transform& tb, double limit) {
  const std::vector<Vec3> va = world_vertices(a, ta), vb = world_vertices(b, tb);
  std::vector<Witnesses> out;
  auto consider = [&](const Vec3& xa, const Vec3& xb) {
    const double d = (xa - xb).norm();
    if (!(d > 0) || d > limit) return;
    const double below = d - 1e-9 * d;
    if (fp_mesh_distance(xa, vb, b) < below || fp_mesh_distance(xb, va, a) < below) return;
    for (const Witnesses& w : out)
      if ((w.a - xa).norm() < 1e-9 && (w.b - xb).norm() < 1e-9) return;
    out.push_back({xa, xb});
  };
  Vec3 foot;
  std::set<std::uint32_t> used_a, used_b;
  for (const TriangleIndices& t : a.triangles()) used_a.insert(t.begin(), t.end());
  for (const TriangleIndices& t : b.triangles()) used_b.insert(t.begin(), t.end());
  for (const std::uint32_t i : used_a)
    for (const TriangleIndices& t : b.triangles())
      if (fp_over_interior(va[i], vb[t[0]], vb[t[1]], vb[t[2]], foot)) consider(va[i], foot);
  for (const std::uint32_t j : used_b)
    for (const TriangleIndices& t : a.triangles())
      if (fp_over_interior(vb[j], va[t[0]], va[t[1]], va[t[2]], foot)) consider(foot, vb[j]);
  const auto ea = unique_edges(a), eb = unique_edges(b);
  for (const auto& [p, q] : ea)
    for (const auto& [u, w] : eb) {
      Vec3 x1, x2;
      fp_segments(va[p], va[q], vb[u], vb[w], x1, x2);
      consider(x1, x2);
    }
  return out;
}

// A contact's witnesses from its point, normal and depth (paper §3.2).
Witnesses witnesses_of(const Contact& c, double ra, double rb) {
  const double d = ra + rb - c.depth;
  const Vec3 mid = c.point - 0.5 * (rb - ra) * c.normal;
  return {mid + 0.5 * d * c.normal, mid - 0.5 * d * c.normal};
}

// Height field over an n×n grid of side h, heights from `z`.
template <class Z>
TriangleMesh fp_height_field(int n, double h, Z z, double margin) {
  std::vector<Vec3> v;
  std::vector<TriangleIndices> t;
  const double o = -0.5 * n * h;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) v.emplace_back(o + i * h, o + j * h, z(i, j));
  auto id = [n](int i, int j) { return static_cast<std::uint32_t>(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      t.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      t.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  return TriangleMesh(std::move(v), std::move(t), margin);
}

// ------------------------------------------------ owners

// Bvh::feature_owners against a scan of every triangle: a vertex's and an
// edge's owner is the lowest triangle id holding it, on a soup with
// duplicates and degenerate triangles and on a closed box.
TEST(FeaturePairs, OwnersAreTheLowestTriangleHoldingTheFeature) {
  Rng rng(92);
  for (const TriangleMesh& m : {testing::random_soup(rng, 60, 0.3, 0.1), testing::box_mesh(Vec3(0.1, 0.2, 0.3)),
                                fp_height_field(5, 0.1, [](int i, int j) { return 0.01 * (i * j % 3); }, 0.0)}) {
    const Bvh bvh(m);
    const auto& owners = bvh.feature_owners();
    ASSERT_EQ(owners.size(), m.triangle_count());
    const auto& tris = m.triangles();
    std::set<std::uint32_t> vertices_seen;
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges_seen;
    for (std::size_t t = 0; t < tris.size(); ++t)
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t v = tris[t][k];
        std::size_t first = t;
        for (std::size_t u = 0; u < t; ++u)
          if (std::find(tris[u].begin(), tris[u].end(), v) != tris[u].end()) first = std::min(first, u);
        const bool repeated = (k > 0 && tris[t][0] == v) || (k > 1 && tris[t][1] == v);
        EXPECT_EQ(bool(owners[t] >> k & 1u), first == t && !repeated) << "triangle " << t << " corner " << k;
        const auto e = std::minmax(v, tris[t][(k + 1) % 3]);
        std::size_t first_e = t;
        for (std::size_t u = 0; u < t; ++u)
          for (int q = 0; q < 3; ++q)
            if (std::minmax(tris[u][q], tris[u][(q + 1) % 3]) == e) first_e = std::min(first_e, u);
        const bool point = e.first == e.second;  // a degenerate triangle's edge of one vertex
        // An edge met twice within one triangle (a degenerate one) is owned once, by its first use.
        bool earlier_here = false;
        for (int q = 0; q < k; ++q) earlier_here = earlier_here || std::minmax(tris[t][q], tris[t][(q + 1) % 3]) == e;
        EXPECT_EQ(bool(owners[t] >> (3 + k) & 1u), first_e == t && !point && !earlier_here)
            << "triangle " << t << " edge " << k;
        if (owners[t] >> k & 1u) {
          EXPECT_TRUE(vertices_seen.insert(v).second);
        }
        if (owners[t] >> (3 + k) & 1u) {
          EXPECT_TRUE(edges_seen.insert(e).second);
        }
      }
    std::set<std::uint32_t> used;
    for (const auto& t : tris) used.insert(t.begin(), t.end());
    EXPECT_EQ(vertices_seen.size(), used.size());  // every vertex owned once
  }
}

// ------------------------------------------------ brute force

// Two noisy height fields face to face, and a rotated box over one: the
// raw set is the brute-force feature pairs, each once.
TEST(FeaturePairs, NoisySurfacesMatchBruteForce) {
  Rng rng(91);
  std::size_t compared = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const double ra = rng.uniform(0.005, 0.02), rb = rng.uniform(0.0, 0.01);
    std::vector<double> za, zb;
    for (int k = 0; k < 81; ++k) za.push_back(rng.uniform(-0.01, 0.01));
    for (int k = 0; k < 81; ++k) zb.push_back(rng.uniform(-0.01, 0.01));
    const TriangleMesh lower = fp_height_field(8, 0.05, [&](int i, int j) { return zb[std::size_t(j * 9 + i)]; }, rb);
    TriangleMesh upper = fp_height_field(8, 0.04, [&](int i, int j) { return -za[std::size_t(j * 9 + i)]; }, ra);
    if (trial % 3 == 2) upper = testing::box_mesh(Vec3(0.07, 0.05, 0.03), ra);
    const double tilt = rng.uniform(-0.1, 0.1), yaw = rng.uniform(0, 3);
    const Mat3 R = (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(tilt, Vec3::UnitX())).toRotationMatrix();
    const double base = trial % 3 == 2 ? 0.03 : 0.0;
    // Lifted until the cores are clear of each other by 1 mm.
    Transform tu{R, Vec3(rng.uniform(-0.02, 0.02), rng.uniform(-0.02, 0.02), base + 0.04)};
    const Bvh bu(upper), bl(lower);
    for (int it = 0; it < 40; ++it) {
      const auto d = distance(Bvh(upper.with_margin(0)), tu, Bvh(lower.with_margin(0)), Transform::identity());
      if (std::abs(d.distance - 0.001) < 1e-9) break;
      tu.p.z() += 0.001 - d.distance;
    }
    ContactSet set;
    MeshContactStats stats;
    mesh_contacts(bu, tu, bl, Transform::identity(), feature_options(), set, &stats);
    ASSERT_EQ(set.status, Status::ok);
    const std::vector<Witnesses> want = brute_feature_pairs(upper, tu, lower, Transform::identity(), ra + rb);
    ASSERT_EQ(set.points.size(), want.size()) << "trial " << trial;
    for (const Witnesses& w : want) {
      int matches = 0;
      for (const Contact& c : set.points) {
        const Witnesses g = witnesses_of(c, ra, rb);
        matches += (g.a - w.a).norm() < 1e-9 && (g.b - w.b).norm() < 1e-9;
      }
      EXPECT_EQ(matches, 1) << "trial " << trial << " witness " << w.a.transpose();
    }
    for (const Contact& c : set.points) {
      const Witnesses g = witnesses_of(c, ra, rb);
      EXPECT_NEAR(c.depth, ra + rb - (g.a - g.b).norm(), 1e-12);
      EXPECT_FALSE(c.intersecting);
    }
    // No two contacts alike.
    for (std::size_t i = 0; i < set.points.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        EXPECT_GT((set.points[i].point - set.points[j].point).norm(), 1e-9) << "trial " << trial;
    compared += want.size();
    EXPECT_GT(stats.shadowed, 0u);  // some pairs within the layers are not mutually nearest
  }
  EXPECT_GT(compared, 30u);
}

// Flat grids over flat grids, tilted from parallel by 0 to 0.02 rad: many
// feature pairs lie within rounding of their triangles' distance (parallel
// edges, corners over faces), where the test of mutual nearness is decided
// by its tolerance and where the pairs ruled out before it (beyond the
// reach of MeshMesh::mutual_reach) come closest to passing. The raw set is
// still the brute-force one.
TEST(FeaturePairs, NearlyParallelGridsMatchBruteForce) {
  Rng rng(17);
  std::size_t compared = 0;
  for (const double tilt : {0.0, 1e-7, 1e-5, 1e-3, 2e-2}) {
    for (int trial = 0; trial < 3; ++trial) {
      const double ra = 0.004, rb = 0.002;
      const TriangleMesh lower = fp_height_field(4, 0.05, [](int, int) { return 0.0; }, rb);
      const TriangleMesh upper = fp_height_field(3, 0.04, [](int, int) { return 0.0; }, ra);
      const double yaw = rng.uniform(0.1, 3);
      const Mat3 R = (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) *
                      Eigen::AngleAxisd(tilt, Vec3(1, trial - 1, 0).normalized())).toRotationMatrix();
      // Anywhere over the lower grid, 1 mm above it. (Grid lines exactly
      // over grid lines are ties that this brute force merges otherwise.)
      const Vec3 shift(rng.uniform(-0.01, 0.01), rng.uniform(-0.01, 0.01), 0);
      Transform tu{R, shift + Vec3(0, 0, 0.001 + 0.06 * std::sin(tilt))};
      const Bvh bu(upper), bl(lower);
      ContactSet set;
      mesh_contacts(bu, tu, bl, Transform::identity(), feature_options(), set);
      ASSERT_EQ(set.status, Status::ok);
      const std::vector<Witnesses> want = brute_feature_pairs(upper, tu, lower, Transform::identity(), ra + rb);
      ASSERT_EQ(set.points.size(), want.size()) << "tilt " << tilt << " trial " << trial;
      for (const Witnesses& w : want) {
        int matches = 0;
        for (const Contact& c : set.points) {
          const Witnesses g = witnesses_of(c, ra, rb);
          matches += (g.a - w.a).norm() < 1e-9 && (g.b - w.b).norm() < 1e-9;
        }
        EXPECT_EQ(matches, 1) << "tilt " << tilt << " trial " << trial << " witness " << w.a.transpose();
      }
      compared += want.size();
    }
  }
  EXPECT_GT(compared, 30u);
}

// ------------------------------------------------ closed forms

// A 12-triangle box on a triangulated floor at a 1 mm core gap: the patch
// rule stays, and clustered, the set is the box's four bottom corners with
// depth r_A + r_B − gap along +z; tilted beyond the patch angle, the raw set
// is the one lowest corner.
TEST(FeaturePairs, BoxOnTriangulatedFloor) {
  const double h = 0.05, ra = 0.0025, rb = 0.001, gap = 0.001;
  const Bvh box(testing::box_mesh(Vec3::Constant(h), ra));
  const Bvh floor(testing::grid(8, 0.04, [](int, int) { return false; }, rb));
  MeshContactOptions o;
  o.feature_pairs = true;
  ContactSet set;
  const Transform rest = Transform::from_axis_angle(Vec3::UnitZ(), 0.3, {0.011, -0.007, h + gap});
  mesh_contacts(box, rest, floor, Transform::identity(), o, set);
  ASSERT_EQ(set.status, Status::ok);
  ASSERT_EQ(set.points.size(), 4u);
  std::set<std::pair<int, int>> corners;
  for (const Contact& c : set.points) {
    EXPECT_LT((c.normal - Vec3::UnitZ()).norm(), 1e-12);
    EXPECT_NEAR(c.depth, ra + rb - gap, 1e-12);
    const Vec3 local = rest.apply_inverse(c.point);
    EXPECT_NEAR(std::abs(local.x()), h, 1e-9);
    EXPECT_NEAR(std::abs(local.y()), h, 1e-9);
    corners.insert({local.x() > 0, local.y() > 0});
  }
  EXPECT_EQ(corners.size(), 4u);

  // Tilted 0.05 rad about a diagonal-free axis: one corner lowest.
  const double tilt = 0.05;
  const Mat3 R = (Eigen::AngleAxisd(0.3, Vec3::UnitZ()) * Eigen::AngleAxisd(tilt, Vec3::UnitX()) *
                  Eigen::AngleAxisd(0.8 * tilt, Vec3::UnitY()))
                     .toRotationMatrix();
  Transform tilted{R, Vec3(0.011, -0.007, 0)};
  double lowest = 1e9;
  Vec3 corner = Vec3::Zero();
  const TriangleMesh core = testing::box_mesh(Vec3::Constant(h));
  for (const Vec3& v : core.vertices()) {
    const Vec3 w = R * v;
    if (w.z() < lowest) {
      lowest = w.z();
      corner = w;
    }
  }
  tilted.p.z() = gap - lowest;
  mesh_contacts(box, tilted, floor, Transform::identity(), feature_options(0.01), set);
  ASSERT_EQ(set.status, Status::ok);
  ASSERT_EQ(set.points.size(), 1u);
  EXPECT_LT((set.points[0].normal - Vec3::UnitZ()).norm(), 1e-12);
  EXPECT_NEAR(set.points[0].depth, ra + rb - gap, 1e-12);
  const Vec3 at = tilted.p + corner;  // the corner, gap above the floor
  EXPECT_LT((set.points[0].point - Vec3(at.x(), at.y(), 0.5 * (gap + rb - ra))).norm(), 1e-12);
}

// An edge across an edge (two cubes turned 45° about crossed axes): one
// contact at the crossing, where the triangle-pair rule gives one per pair
// of the four triangles meeting there.
TEST(FeaturePairs, EdgeAcrossEdgeIsOneContact) {
  const double h = 0.05, ra = 0.002, rb = 0.003, gap = 0.001;
  const Bvh a(testing::box_mesh(Vec3::Constant(h), ra)), b(testing::box_mesh(Vec3::Constant(h), rb));
  const double s = std::sqrt(2.0) * h;  // a turned cube's half height
  const Transform tb = Transform::from_axis_angle(Vec3::UnitY(), M_PI / 4, {0.002, -0.003, -s});
  const Transform ta = Transform::from_axis_angle(Vec3::UnitX(), M_PI / 4, {0.002, -0.003, s + gap});
  ContactSet set;
  mesh_contacts(a, ta, b, tb, feature_options(0.01), set);
  ASSERT_EQ(set.status, Status::ok);
  ASSERT_EQ(set.points.size(), 1u);
  const Contact& c = set.points[0];
  EXPECT_LT((c.normal - Vec3::UnitZ()).norm(), 1e-9);
  EXPECT_NEAR(c.depth, ra + rb - gap, 1e-9);
  EXPECT_LT((c.point - Vec3(0.002, -0.003, 0.5 * gap + 0.5 * (rb - ra))).norm(), 1e-9);
  // The triangle-pair rule: a contact per pair of the 2 × 2 triangles there.
  MeshContactOptions paper = feature_options(0.01);
  paper.feature_pairs = false;
  mesh_contacts(a, ta, b, tb, paper, set);
  EXPECT_EQ(set.points.size(), 4u);
}

// A cube balanced on a corner over a floor: over a triangle's interior and
// over a floor vertex shared by six triangles, one contact each, straight up.
TEST(FeaturePairs, CornerOverFaceAndOverVertexIsOneContact) {
  const double h = 0.05, ra = 0.002, rb = 0.001, gap = 0.0015;
  const Bvh cube(testing::box_mesh(Vec3::Constant(h), ra));
  const Bvh floor(testing::grid(6, 0.05, [](int, int) { return false; }, rb));
  // (−1, −1, −1) turned onto −z.
  const Eigen::Quaterniond q = Eigen::Quaterniond::FromTwoVectors(Vec3(-1, -1, -1).normalized(), -Vec3::UnitZ());
  const Mat3 R = q.toRotationMatrix();
  const double depth_of_corner = std::sqrt(3.0) * h;
  for (const Vec3& over : {Vec3(0.013, 0.031, 0), Vec3(0.05, 0.0, 0)}) {  // a face's interior, a grid vertex
    const Transform t{R, Vec3(over.x(), over.y(), depth_of_corner + gap)};
    ContactSet set;
    mesh_contacts(cube, t, floor, Transform::identity(), feature_options(0.01), set);
    ASSERT_EQ(set.status, Status::ok);
    ASSERT_EQ(set.points.size(), 1u) << over.transpose();
    EXPECT_LT((set.points[0].normal - Vec3::UnitZ()).norm(), 1e-9);
    EXPECT_NEAR(set.points[0].depth, ra + rb - gap, 1e-9);
    EXPECT_NEAR(set.points[0].point.x(), over.x(), 1e-9);
    EXPECT_NEAR(set.points[0].point.y(), over.y(), 1e-9);
  }
}

// A sphere straight over a mesh vertex shared by six triangles and over an
// edge shared by two: one contact, depth r_A − gap, along −z (the sphere is
// B); the triangle rule gives one per triangle (all tie).
TEST(FeaturePairs, SphereOverSharedVertexAndEdgeIsOneContact) {
  const double ra = 0.001, radius = 0.05, gap = 0.0007;
  const Bvh floor(testing::grid(6, 0.05, [](int, int) { return false; }, ra));
  for (const auto& [feature, holders] : {std::pair{Vec3(0.05, 0.0, 0.0), 6u}, std::pair{Vec3(0.025, 0.05, 0.0), 2u}}) {
    const Vec3 centre = feature + Vec3(0, 0, radius + gap);
    ContactSet set;
    MeshContactOptions o = feature_options(0.01);
    mesh_contacts(floor, Transform::identity(), Shape(Sphere(radius)), Transform::from_translation(centre), o, set);
    ASSERT_EQ(set.status, Status::ok);
    ASSERT_EQ(set.points.size(), 1u) << feature.transpose();
    EXPECT_NEAR(set.points[0].depth, ra - gap, 1e-9);
    EXPECT_LT((set.points[0].normal + Vec3::UnitZ()).norm(), 1e-9);
    EXPECT_NEAR(set.points[0].point.x(), feature.x(), 1e-9);
    EXPECT_NEAR(set.points[0].point.y(), feature.y(), 1e-9);
    o.feature_pairs = false;
    mesh_contacts(floor, Transform::identity(), Shape(Sphere(radius)), Transform::from_translation(centre), o, set);
    EXPECT_EQ(set.points.size(), holders);
  }
}

// Strict as before: bad options and poses are invalid input with the
// option on, and a reused scratch gives the fresh one's contacts.
TEST(FeaturePairs, BadInputAndScratchReuse) {
  const Bvh box(testing::box_mesh(Vec3::Constant(0.05), 0.002));
  const Bvh floor(testing::grid(4, 0.05, [](int, int) { return false; }, 0.001));
  MeshContactOptions o = feature_options(0.01);
  ContactSet set;
  o.patch_angle = -0.1;
  mesh_contacts(box, Transform::identity(), floor, Transform::identity(), o, set);
  EXPECT_EQ(set.status, Status::invalid_input);
  EXPECT_TRUE(set.points.empty());
  o = feature_options(0.01);
  Transform bad = Transform::identity();
  bad.p.x() = std::nan("");
  mesh_contacts(box, bad, floor, Transform::identity(), o, set);
  EXPECT_EQ(set.status, Status::invalid_input);
  mesh_contacts(box, bad, Shape(Sphere(0.1)), Transform::identity(), o, set);
  EXPECT_EQ(set.status, Status::invalid_input);
  MeshContactScratch scratch;
  Rng rng(93);
  for (int k = 0; k < 5; ++k) {
    const Transform t = Transform::from_axis_angle(rng.unit_vector(), rng.uniform(0, 0.3),
                                                   {rng.uniform(-0.02, 0.02), 0.0, 0.05 + 0.0015});
    ContactSet fresh, reused;
    mesh_contacts(box, t, floor, Transform::identity(), o, fresh);
    mesh_contacts(box, t, floor, Transform::identity(), o, reused, scratch);
    ASSERT_EQ(fresh.points.size(), reused.points.size());
    for (std::size_t i = 0; i < fresh.points.size(); ++i)
      EXPECT_EQ(fresh.points[i].point, reused.points[i].point);
  }
}

}  // namespace
}  // namespace proxima
