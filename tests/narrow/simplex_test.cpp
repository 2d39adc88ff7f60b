// SPDX-License-Identifier: BSD-3-Clause
// The simplex sub-solver on degenerate simplices, against brute force over a
// fine barycentric grid.
#include <cmath>

#include <gtest/gtest.h>

#include <proxima/narrow/simplex.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../support/random.hpp"

namespace proxima {
namespace {

using detail::Simplex;

Simplex make(const std::vector<Vec3>& pts) {
  Simplex s;
  for (const Vec3& p : pts) {
    s.y[s.n] = p;
    s.a[s.n] = p;
    s.b[s.n] = Vec3::Zero();
    ++s.n;
  }
  return s;
}

// Distance from the origin to the hull of the points, by dense sampling of
// barycentric weights plus every edge solved exactly.
double brute(const std::vector<Vec3>& p) {
  double best = 1e300;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = 0; j < p.size(); ++j) {
      const Vec3 ab = p[j] - p[i];
      const double l2 = ab.squaredNorm();
      const double t = l2 > 0 ? std::clamp(-p[i].dot(ab) / l2, 0.0, 1.0) : 0.0;
      best = std::min(best, (p[i] + t * ab).norm());
    }
  const int n = 60;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; i + j <= n; ++j)
      for (int k = 0; i + j + k <= n; ++k) {
        const double w[4] = {double(i) / n, double(j) / n, double(k) / n, double(n - i - j - k) / n};
        bool unused = false;
        for (std::size_t m = p.size(); m < 4; ++m) unused |= w[m] > 0;
        if (unused) continue;
        Vec3 x = Vec3::Zero();
        for (std::size_t m = 0; m < p.size(); ++m) x += w[m] * p[m];
        best = std::min(best, x.norm());
      }
  return best;
}

TEST(Simplex, DegenerateCasesNeverNaN) {
  const std::vector<std::vector<Vec3>> cases = {
      {{1, 1, 1}, {1, 1, 1}},                                  // repeated point
      {{1, 0, 0}, {2, 0, 0}, {3, 0, 0}},                       // collinear triangle
      {{1, 1, 0}, {1, 1, 0}, {1, 1, 0}},                       // triangle collapsed to a point
      {{1, -1, 1}, {1, 1, 1}, {1, 0, 1}, {1, 0.5, 1}},         // tetrahedron collapsed to a segment
      {{1, -1, -1}, {1, 1, -1}, {1, 0, 1}, {1, 0.2, 0.1}},     // flat tetrahedron, origin off its plane
      {{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}, {0, 0.1, 0}},       // flat tetrahedron containing the origin
      {{0.3, 0.2, 0.5}, {0.3, 0.2, 0.5 + 1e-12}, {1, 2, 3}},   // sliver triangle
  };
  for (const auto& c : cases) {
    Simplex s = make(c);
    const bool inside = detail::solve_simplex(s);
    const Vec3 v = s.point();
    ASSERT_TRUE(v.allFinite());
    const double d = inside ? 0.0 : v.norm();
    EXPECT_NEAR(d, brute(c), 2e-3) << "case with " << c.size() << " points";
    EXPECT_LE(d, brute(c) + 1e-12);  // v is a point of the hull: never below the truth
  }
}

TEST(Simplex, RandomTrianglesAndTetrahedra) {
  testing::Rng rng(5);
  for (int it = 0; it < 300; ++it) {
    std::vector<Vec3> p;
    const int n = 3 + it % 2;
    for (int k = 0; k < n; ++k) p.push_back(rng.uniform_vec(-1, 1) + Vec3(0.3, 0, 0));
    Simplex s = make(p);
    const bool inside = detail::solve_simplex(s);
    const double d = inside ? 0.0 : s.point().norm();
    const double b = brute(p);
    EXPECT_LE(d, b + 1e-12);
    EXPECT_GE(d, b - 0.02);  // grid resolution of the brute force
    double wsum = 0;
    for (int k = 0; k < s.n; ++k) {
      EXPECT_GE(s.w[k], inside ? -1e-12 : 0.0);
      wsum += s.w[k];
    }
    EXPECT_NEAR(wsum, 1.0, 1e-12);
  }
}

// Tetrahedra the origin is outside of, most of them outside two or three
// face planes (where the nearest point may be on any of those faces, an
// edge or a vertex between them), against qhull's exact distance to the
// hull. With newest_last, the fourth point is on the origin's side of the
// first three's plane, as GJK adds it, so the face left out is not one the
// origin is outside of.
TEST(Simplex, TetrahedraOutsideSeveralFacesMatchTheHullDistance) {
  testing::Rng rng(11);
  int several = 0;
  for (int it = 0; it < 2000; ++it) {
    std::vector<Vec3> p;
    const Vec3 offset = rng.uniform_vec(-3, 3);
    for (int k = 0; k < 4; ++k) p.push_back(rng.uniform_vec(-1, 1) + offset);
    const Vec3 n = (p[1] - p[0]).cross(p[2] - p[0]);
    const bool newest_last = it % 2 == 1;
    // GJK's step: the new point lies on the origin's side of the old face.
    if (newest_last && n.dot(p[3] - p[0]) * n.dot(-p[0]) <= 0.0) continue;
    const double truth = oracle::hull_signed_distance(p);
    if (!(truth > 1e-6)) continue;
    int outside = 0;
    for (int f = 0; f < 4; ++f) {
      const Vec3 a = p[(f + 1) % 4], b = p[(f + 2) % 4], c = p[(f + 3) % 4], opposite = p[f];
      const Vec3 m = (b - a).cross(c - a);
      outside += m.dot(-a) * m.dot(opposite - a) < 0.0;
    }
    several += outside >= 2;
    const detail::SimplexSolution sol = detail::closest(make(p), newest_last);
    ASSERT_FALSE(sol.inside);
    EXPECT_NEAR(std::sqrt(sol.vv), truth, 1e-12 * (1.0 + offset.norm())) << "tetrahedron " << it;
    Vec3 x = Vec3::Zero();
    double wsum = 0.0;
    for (int k = 0; k < sol.n; ++k) {
      EXPECT_GE(sol.w[k], 0.0);
      x += sol.w[k] * p[static_cast<std::size_t>(sol.idx[k])];
      wsum += sol.w[k];
    }
    EXPECT_NEAR(wsum, 1.0, 1e-12);
    EXPECT_LE((x - sol.v).norm(), 1e-12 * (1.0 + offset.norm()));
  }
  EXPECT_GT(several, 300);
}

}  // namespace
}  // namespace proxima
