// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/convex_polytope.hpp>

#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

std::vector<Vec3> cube_corners(double h) {
  std::vector<Vec3> p;
  for (int c = 0; c < 8; ++c) p.emplace_back((c & 1) ? h : -h, (c & 2) ? h : -h, (c & 4) ? h : -h);
  return p;
}

std::string error_of(const std::vector<Vec3>& pts, double margin) {
  try {
    ConvexPolytope p(pts, margin);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ConvexPolytope, CubeHullTopology) {
  std::vector<Vec3> pts = cube_corners(0.5);
  // Duplicates, interior points and points on faces must all be dropped.
  pts.push_back(Vec3(0.5, 0.5, 0.5));
  pts.push_back(Vec3(0.1, -0.2, 0.3));
  pts.push_back(Vec3::Zero());
  const ConvexPolytope p(pts);
  const PolytopeData& d = p.data();
  EXPECT_EQ(d.dimension, 3);
  EXPECT_EQ(d.vertices.size(), 8u);
  EXPECT_EQ(d.faces.size(), 6u);
  EXPECT_EQ(d.edges.size(), 12u);
  for (const auto& f : d.faces) EXPECT_EQ(f.size(), 4u);
  for (std::size_t v = 0; v < 8; ++v) EXPECT_EQ(d.neighbor_offsets[v + 1] - d.neighbor_offsets[v], 3);
  // Faces are counter-clockwise about their outward normals.
  for (std::size_t f = 0; f < d.faces.size(); ++f) {
    const auto& ids = d.faces[f];
    const Vec3 a = d.vertices[ids[0]], b = d.vertices[ids[1]], c = d.vertices[ids[2]];
    EXPECT_GT((b - a).cross(c - a).dot(d.face_normals[f]), 0.0);
    EXPECT_NEAR(d.face_offsets[f], 0.5, 1e-15);
  }
}

// The hull's order is a function of the input alone (not of qhull's
// insertion history): vertices in input order, each face loop from its
// lowest index, faces sorted. Queries walk the hull in this order, so their
// answers then do not depend on qhull's version.
TEST(ConvexPolytope, HullOrderFollowsTheInput) {
  testing::Rng rng(12);
  std::vector<Vec3> pts = rng.sphere_points(60, 0.5);
  for (int i = 0; i < 20; ++i) pts.insert(pts.begin() + 3 * i, 0.3 * rng.unit_vector());  // interior
  const ConvexPolytope p(pts);
  const PolytopeData& d = p.data();
  // Vertices: a subsequence of the input, in its order.
  std::size_t next = 0;
  for (const Vec3& v : d.vertices) {
    while (next < pts.size() && pts[next] != v) ++next;
    ASSERT_LT(next, pts.size()) << "vertex out of input order";
    ++next;
  }
  EXPECT_EQ(d.vertices.size(), 60u);
  for (const auto& f : d.faces) EXPECT_EQ(f.front(), *std::min_element(f.begin(), f.end()));
  EXPECT_TRUE(std::is_sorted(d.faces.begin(), d.faces.end()));
}

TEST(ConvexPolytope, EulerCharacteristicAndNormals) {
  testing::Rng rng(3);
  for (int n : {4, 10, 50, 500}) {
    const ConvexPolytope p(rng.sphere_points(n, 0.5));
    const PolytopeData& d = p.data();
    EXPECT_EQ(static_cast<long>(d.vertices.size()) - static_cast<long>(d.edges.size()) +
                  static_cast<long>(d.faces.size()),
              2);
    for (std::size_t f = 0; f < d.faces.size(); ++f) {
      for (const Vec3& v : d.vertices) EXPECT_LE(d.face_normals[f].dot(v), d.face_offsets[f] + 1e-12);
    }
  }
}

TEST(ConvexPolytope, HillClimbingMatchesLinearScan) {
  testing::Rng rng(4);
  const ConvexPolytope p(rng.sphere_points(2000, 0.5));
  ASSERT_GT(p.vertices().size(), static_cast<std::size_t>(ConvexPolytope::kHillClimbThreshold));
  int hint = -1;
  for (int i = 0; i < 5000; ++i) {
    const Vec3 d = rng.unit_vector();
    double best = -1e300;
    for (const Vec3& v : p.vertices()) best = std::max(best, d.dot(v));
    EXPECT_EQ(d.dot(p.core_support(d, hint)), best);
    EXPECT_EQ(d.dot(p.core_support(d)), best);
  }
}

// Hulls the support and plane searches are checked on: round, small (just
// above the hill-climbing threshold), large, elongated and far from their
// own origin, and a flat polygon with a margin (no cone hierarchy).
std::vector<ConvexPolytope> search_hulls(testing::Rng& rng) {
  std::vector<ConvexPolytope> hulls;
  hulls.emplace_back(rng.sphere_points(60, 0.5));
  hulls.emplace_back(rng.sphere_points(300, 0.5));
  hulls.emplace_back(rng.sphere_points(3000, 2.0));
  std::vector<Vec3> far;
  for (const Vec3& p : rng.sphere_points(400, 1.0)) far.push_back(Vec3(5.0 * p.x(), 0.2 * p.y(), p.z()) + Vec3(40, -30, 20));
  hulls.emplace_back(far);
  std::vector<Vec3> flat;
  for (int i = 0; i < 100; ++i) {
    const double a = 2.0 * M_PI * i / 100.0;
    flat.emplace_back(std::cos(a), std::sin(a), 0.0);
  }
  hulls.emplace_back(flat, 0.1);
  // A prism: two 40-gons whose vertices tie along ±z and pairwise along
  // directions square to the axis, where a direction cell holds many.
  std::vector<Vec3> prism;
  for (int i = 0; i < 40; ++i) {
    const double a = 2.0 * M_PI * i / 40.0;
    prism.emplace_back(std::cos(a), std::sin(a), 0.0);
    prism.emplace_back(std::cos(a), std::sin(a), 1.0);
  }
  hulls.emplace_back(prism);
  return hulls;
}

// The corners and edge midpoints of every cell of p's direction map, where
// a direction belongs to up to four cells and the rounding of its cell
// index decides which, and the same nudged by a few units in the last place.
std::vector<Vec3> cell_boundary_directions(const ConvexPolytope& p) {
  std::vector<Vec3> out;
  const int n = p.data().direction_cells;
  for (int axis = 0; axis < 3; ++axis)
    for (double sign : {1.0, -1.0})
      for (int i = 0; i <= 2 * n; ++i)
        for (int j = 0; j <= 2 * n; ++j) {
          Vec3 d;
          d[axis] = sign;
          d[(axis + 1) % 3] = -1.0 + i * 1.0 / n;
          d[(axis + 2) % 3] = -1.0 + j * 1.0 / n;
          out.push_back(d);
          Vec3 e = d;
          e[(axis + 1) % 3] = std::nextafter(std::nextafter(e[(axis + 1) % 3], 2.0), 2.0);
          e[(axis + 2) % 3] = std::nextafter(e[(axis + 2) % 3], -2.0);
          out.push_back(0.3 * e);
        }
  return out;
}

// Directions where the direction map's cells meet (cube edges and corners,
// axes) besides random ones, at tiny and huge lengths, and zero.
std::vector<Vec3> search_directions(testing::Rng& rng) {
  std::vector<Vec3> d;
  for (int x = -1; x <= 1; ++x)
    for (int y = -1; y <= 1; ++y)
      for (int z = -1; z <= 1; ++z) d.emplace_back(x, y, z);
  for (int i = 0; i < testing::scaled(3000); ++i) d.push_back(rng.unit_vector());
  for (int i = 0; i < 100; ++i) d.push_back(1e-300 * rng.unit_vector());
  for (int i = 0; i < 100; ++i) d.push_back(1e300 * rng.unit_vector());
  return d;
}

TEST(ConvexPolytope, SupportFromAnyHintMatchesLinearScan) {
  testing::Rng rng(41);
  for (const ConvexPolytope& p : search_hulls(rng)) {
    const int n = static_cast<int>(p.vertices().size());
    ASSERT_GT(n, ConvexPolytope::kHillClimbThreshold);
    std::vector<Vec3> directions = search_directions(rng);
    for (const Vec3& d : cell_boundary_directions(p)) directions.push_back(d);
    double radius = 0.0;
    for (const Vec3& v : p.vertices()) radius = std::max(radius, v.norm());
    for (const Vec3& d : directions) {
      double best = -std::numeric_limits<double>::infinity();
      for (const Vec3& v : p.vertices()) best = std::max(best, d.dot(v));
      // Vertices whose d·v differ by less than the dot products' rounding
      // tie (d = (4.9e−324, 0, −0.3) on the prism's base: some round to 0,
      // some to the denormal); any of them is the support.
      const double rounding = 8.0 * std::numeric_limits<double>::epsilon() * radius * d.norm();
      for (int hint : {-7, -1, 0, n / 2, n - 1, n, n + 3, static_cast<int>(rng.uniform(0, n))}) {
        int h = hint;
        const Vec3 s = p.core_support(d, h);
        ASSERT_LE(best - d.dot(s), rounding) << "hull of " << n << " vertices, hint " << hint << ", d " << d.transpose();
        ASSERT_GE(h, 0);
        ASSERT_LT(h, n);
      }
    }
  }
}

TEST(ConvexPolytope, LargestPlaneValueMatchesTheScanOfEveryFace) {
  testing::Rng rng(42);
  for (const ConvexPolytope& p : search_hulls(rng)) {
    const PolytopeData& d = p.data();
    const Vec3 c = d.bounds.center();
    const double size = d.bounds.half_extents().norm();
    std::vector<Vec3> points;
    for (int i = 0; i < 400; ++i) points.push_back(c + rng.uniform_vec(-1.5, 1.5).cwiseProduct(d.bounds.half_extents()));
    for (const Vec3& v : p.vertices()) points.push_back(v);  // on the surface
    for (std::size_t f = 0; f < d.faces.size(); ++f) {
      Vec3 mid = Vec3::Zero();
      for (int v : d.faces[f]) mid += d.vertices[static_cast<std::size_t>(v)];
      mid /= static_cast<double>(d.faces[f].size());
      points.push_back(mid);
      points.push_back(mid + 1e-9 * size * d.face_normals[f]);
      points.push_back(mid - 1e-9 * size * d.face_normals[f]);
    }
    points.push_back(c + Vec3(1e6, -2e6, 3e6));
    points.push_back(Vec3::Zero());
    for (const Vec3& q : points) {
      double truth = -std::numeric_limits<double>::infinity();
      for (std::size_t f = 0; f < d.faces.size(); ++f) truth = std::max(truth, d.face_normals[f].dot(q) - d.face_offsets[f]);
      const double tol = 1e-12 * (size + q.norm());
      ASSERT_NEAR(p.largest_plane_value(q), truth, tol) << "q " << q.transpose();
      // With a stop: any value above it when the truth is, else the truth.
      for (double enough : {-0.1 * size, 0.0, 1e-10 * size, 0.1 * size}) {
        const double v = p.largest_plane_value(q, enough);
        if (truth > enough + tol) {
          ASSERT_GT(v, enough) << "q " << q.transpose() << " enough " << enough;
          ASSERT_LE(v, truth + tol);
        } else if (truth <= enough - tol) {
          ASSERT_NEAR(v, truth, tol) << "q " << q.transpose() << " enough " << enough;
        }
      }
    }
  }
}

TEST(ConvexPolytope, MassPropertiesOfBoxHull) {
  std::vector<Vec3> pts;
  const Box box(1.0, 2.0, 3.0);
  for (Vec3 c : cube_corners(1.0)) pts.push_back(c.cwiseProduct(box.half_extents()) + Vec3(1, -2, 0.5));
  const MassProperties m = ConvexPolytope(pts).mass_properties();
  const MassProperties e = box.mass_properties();
  EXPECT_NEAR(m.volume, e.volume, 1e-12);
  EXPECT_NEAR((m.centroid - Vec3(1, -2, 0.5)).norm(), 0.0, 1e-12);
  EXPECT_NEAR((m.inertia - e.inertia).norm(), 0.0, 1e-12);
}

TEST(ConvexPolytope, FlatSetsNeedAMargin) {
  const std::vector<Vec3> square = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}};
  const std::vector<Vec3> line = {{0, 0, 0}, {1, 1, 1}, {0.5, 0.5, 0.5}, {2, 2, 2}};
  const std::vector<Vec3> point = {{1, 2, 3}, {1, 2, 3}};
  EXPECT_NE(error_of(square, 0.0).find("coplanar"), std::string::npos) << error_of(square, 0.0);
  EXPECT_NE(error_of(line, 0.0).find("collinear"), std::string::npos) << error_of(line, 0.0);
  EXPECT_NE(error_of(point, 0.0).find("coincide"), std::string::npos) << error_of(point, 0.0);
  EXPECT_NE(error_of(square, 0.0).find("convex"), std::string::npos);

  const ConvexPolytope flat(square, 0.01);
  EXPECT_EQ(flat.data().dimension, 2);
  EXPECT_EQ(flat.vertices().size(), 4u);
  EXPECT_EQ(flat.data().edges.size(), 4u);
  EXPECT_EQ(flat.data().faces.size(), 2u);
  EXPECT_EQ(flat.mass_properties().volume, 0.0);
  const ConvexPolytope seg(line, 0.01);
  EXPECT_EQ(seg.data().dimension, 1);
  EXPECT_EQ(seg.vertices().size(), 2u);
  EXPECT_NEAR(seg.core_support(Vec3(1, 1, 1)).x(), 2.0, 0.0);
  EXPECT_NEAR(seg.core_support(Vec3(-1, 0, 0)).x(), 0.0, 0.0);
  const ConvexPolytope pt(point, 0.01);
  EXPECT_EQ(pt.data().dimension, 0);
  // A sliver a billionth of its size thick is flat too.
  std::vector<Vec3> sliver = square;
  sliver.push_back(Vec3(0.5, 0.5, 1e-12));
  EXPECT_NE(error_of(sliver, 0.0).find("coplanar"), std::string::npos);
}

// edge_faces: slot 0 is the face whose CCW loop runs the edge low → high,
// slot 1 the face running it high → low; both normals are orthogonal to it.
TEST(ConvexPolytope, EdgeFaces) {
  auto runs = [](const std::vector<int>& loop, int from, int to) {
    for (std::size_t k = 0; k < loop.size(); ++k)
      if (loop[k] == from && loop[(k + 1) % loop.size()] == to) return true;
    return false;
  };
  testing::Rng rng(5);
  for (int n : {4, 8, 60, 300}) {
    const ConvexPolytope p(n == 8 ? cube_corners(0.5) : rng.sphere_points(n, 0.5));
    const PolytopeData& d = p.data();
    ASSERT_EQ(d.edge_faces.size(), d.edges.size());
    for (std::size_t e = 0; e < d.edges.size(); ++e) {
      const auto [f0, f1] = d.edge_faces[e];
      ASSERT_GE(f0, 0);
      ASSERT_GE(f1, 0);
      EXPECT_NE(f0, f1);
      EXPECT_TRUE(runs(d.faces[f0], d.edges[e][0], d.edges[e][1]));
      EXPECT_TRUE(runs(d.faces[f1], d.edges[e][1], d.edges[e][0]));
      const Vec3 dir = (d.vertices[d.edges[e][1]] - d.vertices[d.edges[e][0]]).normalized();
      EXPECT_NEAR(dir.dot(d.face_normals[f0]), 0.0, 1e-9);
      EXPECT_NEAR(dir.dot(d.face_normals[f1]), 0.0, 1e-9);
    }
    // Every face is slot 0 of some edge (a loop of distinct indices rises
    // somewhere); the SAT visits faces that way.
    std::set<int> slot0;
    for (const auto& ef : d.edge_faces) slot0.insert(ef[0]);
    EXPECT_EQ(slot0.size(), d.faces.size());
  }
  const std::vector<Vec3> square = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  const ConvexPolytope flat(square, 0.01);
  for (const auto& ef : flat.data().edge_faces) {
    EXPECT_EQ(std::min(ef[0], ef[1]), 0);
    EXPECT_EQ(std::max(ef[0], ef[1]), 1);
  }
  const ConvexPolytope seg(std::vector<Vec3>{{0, 0, 0}, {1, 1, 1}}, 0.01);
  ASSERT_EQ(seg.data().edge_faces.size(), 1u);
  EXPECT_EQ(seg.data().edge_faces[0][0], -1);
  EXPECT_EQ(seg.data().edge_faces[0][1], -1);
}

TEST(ConvexPolytope, RejectsBadPoints) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(error_of({}, 0.0).find("empty"), std::string::npos);
  std::vector<Vec3> pts = cube_corners(1.0);
  pts[3].y() = nan;
  EXPECT_NE(error_of(pts, 0.0).find("point 3"), std::string::npos) << error_of(pts, 0.0);
  pts[3].y() = std::numeric_limits<double>::infinity();
  EXPECT_NE(error_of(pts, 0.0).find("not finite"), std::string::npos);
  EXPECT_NE(error_of(cube_corners(1.0), -1.0).find("margin"), std::string::npos);
  pts = cube_corners(1.0);
  pts[5].z() = -2.0 * kMaxLength;
  EXPECT_NE(error_of(pts, 0.0).find("point 5 coordinate 2e+15 is beyond"), std::string::npos) << error_of(pts, 0.0);
  EXPECT_NE(error_of(cube_corners(1.0), 2.0 * kMaxLength).find("margin"), std::string::npos);
}

}  // namespace
}  // namespace proxima
