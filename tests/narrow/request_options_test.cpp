// SPDX-License-Identifier: BSD-3-Clause
// The request options of collide, distance and tolerance that the default
// request leaves alone: GJK's tolerances (tol_abs, tol_rel) and every
// method for collide and tolerance. Ground truth from the point–ellipsoid distance of
// tests/oracle and the point–box distance written here.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include <proxima/query.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/ellipsoid.hpp>
#include <proxima/shape/sphere.hpp>

#include "../oracle/oracle_geometry.hpp"
#include "../support/random.hpp"

namespace proxima {
namespace {

// Signed distance from local point q to a box of half extents e.
double point_box_signed_distance(const Vec3& e, const Vec3& q) {
  const Vec3 o = q.cwiseAbs() - e;
  return o.cwiseMax(0.0).norm() + std::min(o.maxCoeff(), 0.0);
}

// GJK on a curved pair converges only asymptotically, so its tolerances
// decide the answer: each setting's error stays within tol_abs + tol_rel·L
// (L bounds the size of A − B), and looser settings stop sooner.
TEST(RequestOptions, GjkToleranceBoundsTheErrorAndTheWork) {
  const Vec3 radii(0.6, 0.3, 0.15);
  const Ellipsoid ell(radii);
  const Sphere ball(0.3);
  struct Setting {
    double tol_abs, tol_rel;
    long iterations = 0;
    double worst = 0.0;
  };
  Setting settings[] = {{0.0, 1e-10}, {0.0, 1e-4}, {1e-3, 0.0}, {0.0, 1e-2}};
  testing::Rng rng(71);
  int poses = 0;
  for (int i = 0; i < testing::scaled(2000); ++i) {
    const Transform tc = rng.pose(0.0);
    const Vec3 c = rng.uniform_vec(-2.0, 2.0);
    const Vec3 q = tc.apply_inverse(c);
    if (!(q.cwiseQuotient(radii).squaredNorm() > 1.0)) continue;
    const double truth = oracle::point_ellipsoid_distance(radii, q) - 0.3;
    if (!(truth > 0.05)) continue;  // separated by a margin: GJK's case
    const double L = (c - tc.p).norm() + 0.6 + 0.3;
    for (Setting& s : settings) {
      DistanceRequest req;
      req.method = Method::gjk;
      req.tol_abs = s.tol_abs;
      req.tol_rel = s.tol_rel;
      const DistanceResult r = distance(ell, tc, ball, Transform::from_translation(c), req);
      ASSERT_EQ(r.status, Status::ok);
      // GJK's distance is that of a point of the hull it built: never short.
      EXPECT_GE(r.distance, truth - 1e-12);
      EXPECT_LE(r.distance - truth, s.tol_abs + s.tol_rel * L + 1e-12)
          << "tol_abs " << s.tol_abs << " tol_rel " << s.tol_rel;
      s.worst = std::max(s.worst, r.distance - truth);
      s.iterations += r.iterations;
    }
    ++poses;
  }
  for (const Setting& s : settings)
    std::printf("tol_abs %g tol_rel %g: %ld iterations over %d poses, worst error %.3g\n", s.tol_abs, s.tol_rel,
                s.iterations, poses, s.worst);
  EXPECT_GE(poses, testing::scaled(2000) / 4);
  // Each looser setting does less work than the default, and the loosest
  // errs measurably (it is not silently ignored).
  EXPECT_LT(settings[1].iterations, settings[0].iterations);
  EXPECT_LT(settings[2].iterations, settings[0].iterations);
  EXPECT_LT(settings[3].iterations, settings[1].iterations);
  EXPECT_GT(settings[3].worst, 1e-6);
}

// collide and tolerance answer the same under every method that applies,
// and agree with the closed form, on boxes near a sphere: separated,
// touching within the tolerance, and overlapping.
TEST(RequestOptions, CollideAndToleranceUnderEveryMethod) {
  const Box box(1.0, 0.6, 0.4);
  const Sphere ball(0.25);
  const Vec3 half(0.5, 0.3, 0.2);
  constexpr double kTol = 0.05;
  const Method methods[] = {Method::automatic, Method::analytic, Method::gjk,
                            Method::sat,       Method::incremental, Method::mpr};
  testing::Rng rng(72);
  int asserted[6] = {};
  for (int i = 0; i < testing::scaled(3000); ++i) {
    const Transform tb = rng.pose(0.0);
    const Vec3 c = rng.uniform_vec(-0.9, 0.9);
    const double truth = point_box_signed_distance(half, tb.apply_inverse(c)) - 0.25;
    if (std::abs(truth) < 1e-6 || std::abs(truth - kTol) < 1e-6) continue;  // off the decision boundaries
    const Transform ts = Transform::from_translation(c);
    for (int m = 0; m < 6; ++m) {
      CollideRequest creq;
      creq.method = methods[m];
      const CollideResult col = collide(box, tb, ball, ts, creq);
      DistanceRequest dreq;
      dreq.method = methods[m];
      const ToleranceResult tol = tolerance(box, tb, ball, ts, kTol, dreq);
      if (col.status == Status::not_implemented) {
        // SAT has no box–sphere test when the centre is inside the box.
        EXPECT_EQ(methods[m], Method::sat);
        continue;
      }
      ASSERT_EQ(col.status, Status::ok) << "method " << m;
      ASSERT_EQ(tol.status, Status::ok) << "method " << m;
      EXPECT_EQ(col.collide, truth < 0.0) << "method " << m << " truth " << truth;
      EXPECT_EQ(tol.within, truth <= kTol) << "method " << m << " truth " << truth;
      if (tol.within) {
        EXPECT_LE(tol.distance, kTol);
        EXPECT_GE(tol.distance, std::max(truth, 0.0) - 1e-9);
      } else {
        EXPECT_GT(tol.distance, kTol);
        EXPECT_LE(tol.distance, truth + 1e-9);
      }
      ++asserted[m];
    }
  }
  for (int m = 0; m < 6; ++m) EXPECT_GE(asserted[m], testing::scaled(3000) / 2) << "method " << m;
}

}  // namespace
}  // namespace proxima
