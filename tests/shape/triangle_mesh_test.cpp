// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/shape/triangle_mesh.hpp>

#include "../support/non_finite.hpp"

namespace proxima {
namespace {

using testing::kInf;
using testing::kNan;

// Box of full extents s centred at c, 12 outward-facing triangles.
TriangleMesh box_mesh(const Vec3& s, const Vec3& c, bool inward = false) {
  std::vector<Vec3> v;
  for (int i = 0; i < 8; ++i) {
    v.push_back(c + 0.5 * Vec3((i & 1) ? s.x() : -s.x(), (i & 2) ? s.y() : -s.y(), (i & 4) ? s.z() : -s.z()));
  }
  // Each face as a quad counter-clockwise seen from outside.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  std::vector<TriangleIndices> t;
  for (const auto& q : quads) {
    const auto u = [&](int k) { return static_cast<std::uint32_t>(q[k]); };
    t.push_back({u(0), u(1), u(2)});
    t.push_back({u(0), u(2), u(3)});
  }
  if (inward) {
    for (auto& tri : t) std::swap(tri[1], tri[2]);
  }
  return TriangleMesh(std::move(v), std::move(t), 0.0, "box");
}

// Right tetrahedron O, a·x, b·y, c·z, outward.
TriangleMesh right_tetrahedron(double a, double b, double c, const Vec3& shift) {
  std::vector<Vec3> v = {shift, shift + Vec3(a, 0, 0), shift + Vec3(0, b, 0), shift + Vec3(0, 0, c)};
  return TriangleMesh(v, {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}});
}

void expect_error(const std::function<void()>& make, std::initializer_list<std::string> parts) {
  try {
    make();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string m = e.what();
    for (const std::string& p : parts) EXPECT_NE(m.find(p), std::string::npos) << "'" << p << "' not in: " << m;
  }
}

TEST(TriangleMesh, BoxMassPropertiesMatchClosedForm) {
  const Vec3 s(1.0, 2.0, 3.0), c(10.0, -20.0, 5.0);
  const TriangleMesh m = box_mesh(s, c);
  ASSERT_TRUE(m.is_closed());
  const auto mp = m.mass_properties();
  ASSERT_TRUE(mp.has_value());
  const double v = 6.0;
  EXPECT_NEAR(mp->volume, v, 1e-12);
  EXPECT_LT((mp->centroid - c).norm(), 1e-12);
  Mat3 expected = Mat3::Zero();
  expected.diagonal() << v * (4 + 9) / 12.0, v * (1 + 9) / 12.0, v * (1 + 4) / 12.0;
  EXPECT_LT((mp->inertia - expected).norm(), 1e-11) << mp->inertia;
}

TEST(TriangleMesh, TetrahedronMassPropertiesMatchClosedForm) {
  // ∫x² dV = a³bc/60 and ∫xy dV = a²b²c/120 over the right tetrahedron
  // (slice integrals), moved to the centroid (a, b, c)/4.
  const double a = 1.0, b = 2.0, c = 3.0;
  const Vec3 shift(-3.0, 100.0, 7.0);
  const auto mp = right_tetrahedron(a, b, c, shift).mass_properties();
  ASSERT_TRUE(mp.has_value());
  const double v = a * b * c / 6.0;
  const Vec3 g(a / 4.0, b / 4.0, c / 4.0);
  EXPECT_NEAR(mp->volume, v, 1e-12);
  EXPECT_LT((mp->centroid - (shift + g)).norm(), 1e-12);
  const Vec3 sq(a * a * a * b * c / 60.0, a * b * b * b * c / 60.0, a * b * c * c * c / 60.0);
  const double xy = a * a * b * b * c / 120.0, xz = a * a * b * c * c / 120.0, yz = a * b * b * c * c / 120.0;
  // Central second moments, then the inertia tensor.
  const Vec3 csq = sq - v * g.cwiseProduct(g);
  const double cxy = xy - v * g.x() * g.y(), cxz = xz - v * g.x() * g.z(), cyz = yz - v * g.y() * g.z();
  Mat3 expected;
  expected << csq.y() + csq.z(), -cxy, -cxz,  //
      -cxy, csq.x() + csq.z(), -cyz,          //
      -cxz, -cyz, csq.x() + csq.y();
  EXPECT_LT((mp->inertia - expected).norm(), 1e-11) << mp->inertia << "\nexpected\n" << expected;
}

TEST(TriangleMesh, InwardOrientationGivesTheSamePositiveProperties) {
  const Vec3 s(0.5, 0.25, 2.0), c(1.0, 2.0, 3.0);
  const auto out = box_mesh(s, c).mass_properties();
  const TriangleMesh in_mesh = box_mesh(s, c, /*inward=*/true);
  ASSERT_TRUE(in_mesh.is_closed());
  const auto in = in_mesh.mass_properties();
  ASSERT_TRUE(out && in);
  EXPECT_GT(in->volume, 0.0);
  EXPECT_NEAR(in->volume, out->volume, 1e-13);
  EXPECT_LT((in->centroid - out->centroid).norm(), 1e-13);
  EXPECT_LT((in->inertia - out->inertia).norm(), 1e-13);
  EXPECT_GT(in->inertia.diagonal().minCoeff(), 0.0);
}

TEST(TriangleMesh, OpenMeshHasNoMassProperties) {
  const TriangleMesh box = box_mesh(Vec3::Ones(), Vec3::Zero());
  std::vector<TriangleIndices> t = box.triangles();
  t.pop_back();
  const TriangleMesh open(box.vertices(), t);
  EXPECT_FALSE(open.is_closed());
  EXPECT_FALSE(open.mass_properties().has_value());
  const TriangleMesh single({Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY()}, {{0, 1, 2}});
  EXPECT_FALSE(single.is_closed());
  EXPECT_FALSE(single.mass_properties().has_value());
}

TEST(TriangleMesh, ClosednessNeedsEveryEdgeTwiceInOppositeDirections) {
  const TriangleMesh box = box_mesh(Vec3::Ones(), Vec3::Zero());
  // One triangle flipped: its edges now run the same way as their neighbours'.
  std::vector<TriangleIndices> flipped = box.triangles();
  std::swap(flipped[3][1], flipped[3][2]);
  EXPECT_FALSE(TriangleMesh(box.vertices(), flipped).is_closed());
  // A duplicate triangle: three uses of its edges.
  std::vector<TriangleIndices> dup = box.triangles();
  dup.push_back(dup[0]);
  const TriangleMesh with_dup(box.vertices(), dup);
  EXPECT_EQ(with_dup.triangle_count(), 13u);
  EXPECT_FALSE(with_dup.is_closed());
  // A repeated index is an edge of one point that no triangle can oppose.
  EXPECT_FALSE(TriangleMesh({Vec3::Zero(), Vec3::UnitX()}, {{0, 0, 1}, {0, 1, 0}}).is_closed());
}

// Closed and consistently oriented, counted directly: every directed edge
// met once and its reverse met once, no edge of one point.
bool closed_by_counting(const std::vector<TriangleIndices>& triangles) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> count;
  for (const TriangleIndices& t : triangles)
    for (std::size_t k = 0; k < 3; ++k) {
      if (t[k] == t[(k + 1) % 3]) return false;
      ++count[{t[k], t[(k + 1) % 3]}];
    }
  for (const auto& [edge, n] : count) {
    const auto back = count.find({edge.second, edge.first});
    if (n != 1 || back == count.end() || back->second != 1) return false;
  }
  return true;
}

TEST(TriangleMesh, ClosednessAgreesWithCountingOnEditedTori) {
  // A closed torus grid of 6 × 5 cells, edited at random: a triangle
  // removed, flipped, repeated, re-pointed at another vertex, or a triangle
  // and its reverse added.
  constexpr std::uint32_t n = 6, m = 5;
  std::vector<Vec3> v;
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t j = 0; j < m; ++j) v.emplace_back(i, j, 0.1 * (i + j));
  const auto id = [&](std::uint32_t i, std::uint32_t j) { return (i % n) * m + j % m; };
  std::vector<TriangleIndices> torus;
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t j = 0; j < m; ++j) {
      torus.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      torus.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  ASSERT_TRUE(TriangleMesh(v, torus).is_closed());
  std::mt19937 rng(11);
  int closed = 0, open = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<TriangleIndices> t = torus;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t k = rng() % t.size();
      switch (rng() % 5) {
        case 0: t.erase(t.begin() + static_cast<std::ptrdiff_t>(k)); break;
        case 1: std::swap(t[k][1], t[k][2]); break;
        case 2: t.push_back(t[k]); break;
        case 3: t[k][rng() % 3] = static_cast<std::uint32_t>(rng() % v.size()); break;
        default: {
          const TriangleIndices added = {static_cast<std::uint32_t>(rng() % v.size()),
                                         static_cast<std::uint32_t>(rng() % v.size()),
                                         static_cast<std::uint32_t>(rng() % v.size())};
          t.push_back(added);
          t.push_back({added[0], added[2], added[1]});
        }
      }
    }
    const bool expected = closed_by_counting(t);
    ASSERT_EQ(TriangleMesh(v, t).is_closed(), expected) << "trial " << trial;
    (expected ? closed : open) += 1;
  }
  // Both answers are exercised: a triangle flipped twice, or a pair added
  // on fresh edges, stays closed.
  EXPECT_GT(closed, 100);
  EXPECT_GT(open, 1000);
}

TEST(TriangleMesh, FlatClosedMeshEnclosesNothingAndNeverNaN) {
  // A triangle and its reverse: closed by the edge rule, no volume.
  const TriangleMesh flat({Vec3(1, 1, 1), Vec3(2, 1, 1), Vec3(1, 3, 1)}, {{0, 1, 2}, {0, 2, 1}});
  ASSERT_TRUE(flat.is_closed());
  const auto mp = flat.mass_properties();
  ASSERT_TRUE(mp.has_value());
  EXPECT_EQ(mp->volume, 0.0);
  EXPECT_TRUE(mp->centroid.allFinite());
  EXPECT_TRUE(mp->inertia.allFinite());
  EXPECT_LT((mp->centroid - Vec3(1.5, 2.0, 1.0)).norm(), 1e-15);
}

TEST(TriangleMesh, KeepsZeroAreaAndDuplicateTriangles) {
  // A point triangle, a segment triangle and the same triangle twice.
  const std::vector<Vec3> v = {Vec3::Zero(), Vec3::UnitX(), Vec3(2, 0, 0), Vec3::UnitY()};
  const TriangleMesh m(v, {{0, 0, 0}, {0, 1, 2}, {0, 1, 3}, {0, 1, 3}});
  EXPECT_EQ(m.triangle_count(), 4u);
  EXPECT_EQ(m.corner(1, 2), Vec3(2, 0, 0));
  EXPECT_FALSE(m.is_closed());
  EXPECT_FALSE(m.mass_properties().has_value());
}

TEST(TriangleMesh, BoundsMarginAndSharedData) {
  const TriangleMesh m({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 2, 0), Vec3(50, 50, 50)}, {{0, 1, 2}}, 0.1, "tri");
  EXPECT_EQ(m.name(), "tri");
  EXPECT_DOUBLE_EQ(m.margin(), 0.1);
  // The unused vertex 3 is not part of the geometry.
  EXPECT_LT((m.local_aabb().min - Vec3(-0.1, -0.1, -0.1)).norm(), 1e-15);
  EXPECT_LT((m.local_aabb().max - Vec3(1.1, 2.1, 0.1)).norm(), 1e-15);
  const TriangleMesh w = m.with_margin(0.5);
  EXPECT_DOUBLE_EQ(w.margin(), 0.5);
  EXPECT_DOUBLE_EQ(m.margin(), 0.1);
  EXPECT_EQ(w.vertices().data(), m.vertices().data());
  EXPECT_LT((w.local_aabb().max - Vec3(1.5, 2.5, 0.5)).norm(), 1e-15);
}

TEST(TriangleMesh, RejectsBadInputNamingMeshAndReason) {
  const std::vector<Vec3> v = {Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY()};
  expect_error([&] { TriangleMesh({Vec3::Zero(), Vec3::UnitX(), Vec3(0, kNan, 0)}, {{0, 1, 2}}, 0.0, "part7"); },
               {"part7", "vertex 2", "non-finite"});
  expect_error([&] { TriangleMesh({Vec3::Zero(), Vec3(kInf, 0, 0), Vec3::UnitY()}, {{0, 1, 2}}, 0.0, "p"); },
               {"'p'", "vertex 1", "non-finite"});
  expect_error([&] { TriangleMesh(v, {{0, 1, 2}, {0, 1, 3}}, 0.0, "part7"); },
               {"part7", "triangle 1", "index 3", "out of range"});
  expect_error([&] { TriangleMesh(v, {}, 0.0, "part7"); }, {"part7", "no triangles"});
  expect_error([&] { TriangleMesh({Vec3::Zero(), Vec3(0, 0, 3e15), Vec3::UnitY()}, {{0, 1, 2}}, 0.0, "p"); },
               {"'p'", "vertex 1 coordinate 3e+15 is beyond"});
  for (double bad : {-1e-3, kNan, kInf, 2.0 * kMaxLength}) {
    expect_error([&] { TriangleMesh(v, {{0, 1, 2}}, bad, "part7"); }, {"part7", "margin"});
    expect_error([&] { TriangleMesh(v, {{0, 1, 2}}, 0.0, "part7").with_margin(bad); }, {"part7", "margin"});
  }
  // Unnamed meshes still say what was rejected.
  expect_error([&] { TriangleMesh(v, {}); }, {"triangle mesh", "no triangles"});
}

}  // namespace
}  // namespace proxima
