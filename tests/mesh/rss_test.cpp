// SPDX-License-Identifier: BSD-3-Clause
// RSS–RSS distance bound (src/mesh/traversal.hpp) against an independent
// rectangle–rectangle distance: each rectangle as two triangles, the exact
// triangle–triangle distance (itself tested against an oracle), checked by
// sampling points of both rectangles. The bound must never exceed the true
// distance between the swept volumes, and should be close to it when the
// rectangles are apart.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/mesh/triangle_distance.hpp>

#include "../../src/mesh/traversal.hpp"
#include "../support/random.hpp"

namespace proxima {
namespace {

using mesh::detail::Placement;
using mesh::detail::rss_bound;
using testing::Rng;

struct Rect {
  Vec3 c, u, v;  // centre and half-edge vectors (the float axes times half)
};

BvhRss random_rss(Rng& rng, double size) {
  const Transform f = rng.pose(1.0);
  BvhRss r;
  for (int j = 0; j < 3; ++j) {
    r.center[j] = static_cast<float>(f.p[j]);
    r.axis[0][j] = static_cast<float>(f.R(j, 0));
    r.axis[1][j] = static_cast<float>(f.R(j, 1));
  }
  // Some segments and points among the rectangles.
  const double k = rng.uniform(0, 1);
  r.half[0] = static_cast<float>(k < 0.1 ? 0.0 : rng.uniform(0, size));
  r.half[1] = static_cast<float>(k < 0.2 ? 0.0 : rng.uniform(0, size));
  r.radius = static_cast<float>(k > 0.9 ? 0.0 : rng.uniform(0, 0.2 * size));
  return r;
}

// The rectangle mapped by x ↦ R x + t.
Rect placed(const BvhRss& r, const Mat3& R, const Vec3& t) {
  const Vec3 c(r.center[0], r.center[1], r.center[2]);
  const Vec3 u(r.axis[0][0], r.axis[0][1], r.axis[0][2]), v(r.axis[1][0], r.axis[1][1], r.axis[1][2]);
  return {R * c + t, R * (double(r.half[0]) * u), R * (double(r.half[1]) * v)};
}

double rect_distance(const Rect& a, const Rect& b) {
  auto tris = [](const Rect& r) {
    return std::array<mesh::Triangle, 2>{mesh::Triangle{r.c - r.u - r.v, r.c + r.u - r.v, r.c + r.u + r.v},
                                         mesh::Triangle{r.c - r.u - r.v, r.c + r.u + r.v, r.c - r.u + r.v}};
  };
  double d = std::numeric_limits<double>::infinity();
  for (const auto& x : tris(a))
    for (const auto& y : tris(b)) d = std::min(d, mesh::triangle_distance(x, y).distance);
  return d;
}

// Smallest distance over a grid of points of both rectangles (≥ the true one).
double sampled_distance(const Rect& a, const Rect& b, int n) {
  std::vector<Vec3> pb;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) pb.push_back(b.c + (2.0 * i / n - 1) * b.u + (2.0 * j / n - 1) * b.v);
  double d = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const Vec3 x = a.c + (2.0 * i / n - 1) * a.u + (2.0 * j / n - 1) * a.v;
      for (const Vec3& y : pb) d = std::min(d, (x - y).norm());
    }
  return d;
}

TEST(RssBound, LowerBoundAndTightWhenApart) {
  Rng rng(71);
  std::vector<double> rel;  // (true − bound) / true over separated pairs
  int separated = 0;
  for (int k = 0; k < 20000; ++k) {
    const double size = k % 3 == 0 ? 1.0 : 0.2;
    const BvhRss a = random_rss(rng, size), b = random_rss(rng, size);
    const Transform pose = rng.pose(k % 2 == 0 ? 1.5 : 4.0);
    const Placement P{pose.R, pose.R.cwiseAbs(), pose.p};
    const double lb = rss_bound(a, b, P);
    const Rect ra = placed(a, Mat3::Identity(), Vec3::Zero()), rb = placed(b, pose.R, pose.p);
    const double rect = rect_distance(ra, rb);
    const double radii = double(a.radius) + double(b.radius);
    ASSERT_LE(lb, rect - radii + 1e-12) << k;
    if (k % 200 == 0) {
      // The independent distance itself, against sampled points.
      const double s = sampled_distance(ra, rb, 40);
      EXPECT_GE(s, rect - 1e-12) << k;
      EXPECT_LE(s, rect + 0.08 * size + 1e-12) << k;
    }
    if (rect > 1e-3) {
      ++separated;
      rel.push_back((rect - radii - lb) / rect);
    }
  }
  std::sort(rel.begin(), rel.end());
  const auto q = [&](double f) { return rel[static_cast<std::size_t>(f * (rel.size() - 1))]; };
  std::printf("RSS bound shortfall / rectangle distance over %d separated pairs: median %.2e, 90%% %.2e, "
              "99%% %.2e, max %.2e\n",
              separated, q(0.5), q(0.9), q(0.99), q(1.0));
  EXPECT_GT(separated, 10000);
  EXPECT_LT(q(0.5), 1e-5);  // most separated pairs: exact to the slack
  EXPECT_LT(q(0.9), 0.05);
}

TEST(RssBound, CornerOverFaceIsExact) {
  // B's corner above the middle of A's face, B tilted away: the distance is
  // the corner's height, which the normal of A must give to the slack.
  Rng rng(72);
  for (int k = 0; k < 1000; ++k) {
    BvhRss a{}, b{};
    a.axis[0][0] = 1.0f;
    a.axis[1][1] = 1.0f;
    a.half[0] = a.half[1] = 1.0f;
    a.radius = 0.05f;
    b.axis[0][0] = 1.0f;
    b.axis[1][1] = 1.0f;
    b.half[0] = static_cast<float>(rng.uniform(0.1, 1.0));
    b.half[1] = static_cast<float>(rng.uniform(0.1, 1.0));
    b.radius = 0.02f;
    // Tilt b about an axis so one corner is lowest, then lift that corner
    // to height h above a point inside A's face.
    const double h = rng.uniform(0.1, 2.0);
    const Mat3 R = (Eigen::AngleAxisd(rng.uniform(0.2, 1.2), Vec3(1, -1, 0).normalized()).toRotationMatrix());
    const Vec3 corner = R * Vec3(-b.half[0], -b.half[1], 0.0);
    const double x = rng.uniform(-0.9, 0.9), y = rng.uniform(-0.9, 0.9);
    const Vec3 target(x, y, h);
    const Vec3 t = target - corner;
    const Placement P{R, R.cwiseAbs(), t};
    const double exact = rect_distance(placed(a, Mat3::Identity(), Vec3::Zero()), placed(b, R, t));
    ASSERT_NEAR(exact, h, 1e-12);
    const double lb = rss_bound(a, b, P);
    EXPECT_LE(lb, h - 0.07 + 1e-12);
    EXPECT_GE(lb, h - 0.07 - 2e-5) << k;
  }
}

}  // namespace
}  // namespace proxima
