// SPDX-License-Identifier: BSD-3-Clause
// The request options of collide, distance and tolerance that the default
// request leaves alone: GJK's tolerances (tol_abs, tol_rel) and every
// method for collide and tolerance; requests and caches out of range, which
// every query refuses, and caches in range, which never change an answer.
// Ground truth from the point–ellipsoid distance of tests/oracle and the
// point–box distance written here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/query.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/capsule.hpp>
#include <proxima/shape/convex_polytope.hpp>
#include <proxima/shape/cylinder.hpp>
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


// distance on overlapping cores reports the depth method's normal; a method
// with no depth for the pair (sat on a cylinder) answers not_implemented
// there, as signed_distance does, and answers separated poses by GJK.
TEST(RequestOptions, DistanceOnAnOverlapNeedsTheMethodsDepth) {
  const Cylinder cyl(0.3, 0.7);
  const Box box(0.6, 0.4, 0.8);
  DistanceRequest sat;
  sat.method = Method::sat;
  const Transform over = Transform::from_axis_angle(Vec3(1, 2, 3).normalized(), 0.7, Vec3(0.2, 0.1, 0.05));
  const Transform apart = Transform::from_axis_angle(Vec3(1, 2, 3).normalized(), 0.7, Vec3(1.5, 0.1, 0.05));
  EXPECT_EQ(distance(cyl, over, box, {}, sat).status, Status::not_implemented);
  EXPECT_EQ(signed_distance(cyl, over, box, {}, sat).status, Status::not_implemented);
  const DistanceResult far = distance(cyl, apart, box, {}, sat);
  EXPECT_EQ(far.status, Status::ok);
  EXPECT_GT(far.distance, 0.5);
  // The default method's normal is the one signed_distance reports.
  const DistanceResult d = distance(cyl, over, box, {});
  const DistanceResult s = signed_distance(cyl, over, box, {});
  EXPECT_EQ(d.status, Status::ok);
  EXPECT_EQ(d.distance, 0.0);
  EXPECT_LT(s.distance, -0.1);
  EXPECT_LE((d.normal - s.normal).norm(), 1e-12);
}

// Each field out of range, alone, in a request that is otherwise the
// default: every query refuses it with Status::invalid_input, on closed-form,
// GJK, SAT and EPA pairs alike, and the same request with the field back in
// range is answered (so the refusal is the field's).
TEST(RequestOptions, OutOfRangeFieldsAreRefusedByEveryQuery) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i) corners.emplace_back(i & 1 ? 0.3 : -0.3, i & 2 ? 0.2 : -0.2, i & 4 ? 0.1 : -0.1);
  const ConvexPolytope hull(corners);
  const Box box(0.6, 0.4, 0.2);
  const Sphere ball(0.25);
  const Capsule capsule(0.1, 0.5);
  struct Pair {
    const char* name;
    Shape a, b;
  };
  const Pair pairs[] = {{"sphere-box", ball, box}, {"box-box", box, box}, {"hull-capsule", hull, capsule},
                        {"hull-sphere", hull, ball}};
  struct Bad {
    std::string field;
    std::function<void(DistanceRequest&, GjkCache&)> set;
  };
  std::vector<Bad> bad;
  for (const double x : {nan, inf, -inf, -1.0})
    bad.push_back({"tol_abs " + std::to_string(x), [x](DistanceRequest& r, GjkCache&) { r.tol_abs = x; }});
  for (const double x : {nan, inf, -1e-10})
    bad.push_back({"tol_rel " + std::to_string(x), [x](DistanceRequest& r, GjkCache&) { r.tol_rel = x; }});
  for (const int n : {0, -1, std::numeric_limits<int>::min()})
    bad.push_back(
        {"max_iterations " + std::to_string(n), [n](DistanceRequest& r, GjkCache&) { r.max_iterations = n; }});
  bad.push_back({"bound nan", [nan](DistanceRequest& r, GjkCache&) { r.bound = nan; }});
  for (const int m : {6, 255})
    bad.push_back(
        {"method " + std::to_string(m), [m](DistanceRequest& r, GjkCache&) { r.method = static_cast<Method>(m); }});
  bad.push_back({"cache direction", [nan](DistanceRequest&, GjkCache& c) { c.direction = Vec3(0, nan, 1); }});
  bad.push_back({"cache support direction", [inf](DistanceRequest&, GjkCache& c) {
                   c.simplex_size = 3;
                   c.support_directions[2] = Vec3(1, -inf, 0);
                 }});
  bad.push_back({"cache simplex_size 5", [](DistanceRequest&, GjkCache& c) { c.simplex_size = 5; }});
  bad.push_back({"cache simplex_size -1", [](DistanceRequest&, GjkCache& c) { c.simplex_size = -1; }});
  bad.push_back({"cache direction 1e200", [](DistanceRequest&, GjkCache& c) { c.direction = Vec3(1e200, 0, 0); }});
  bad.push_back({"cache hint_a", [](DistanceRequest&, GjkCache& c) { c.hint_a = -2; }});
  bad.push_back({"cache hint_b", [](DistanceRequest&, GjkCache& c) { c.hint_b = std::numeric_limits<int>::min(); }});
  const Transform ta = Transform::from_translation(Vec3(0.05, 0.02, 0.1)), tb = Transform::identity();
  for (const Pair& p : pairs) {
    for (const Bad& b : bad) {
      SCOPED_TRACE(std::string(p.name) + ": " + b.field);
      GjkCache cache;
      cache.simplex_size = 1;
      cache.support_directions[0] = Vec3(0, 0, 1);
      DistanceRequest req;
      req.cache = &cache;
      ASSERT_TRUE(req.valid());
      EXPECT_EQ(signed_distance(p.a, ta, p.b, tb, req).status, Status::ok);
      b.set(req, cache);
      EXPECT_FALSE(req.valid());
      EXPECT_EQ(distance(p.a, ta, p.b, tb, req).status, Status::invalid_input);
      EXPECT_EQ(signed_distance(p.a, ta, p.b, tb, req).status, Status::invalid_input);
      if (b.field.rfind("bound", 0) != 0) {  // tolerance() sets the bound itself
        EXPECT_EQ(tolerance(p.a, ta, p.b, tb, 0.01, req).status, Status::invalid_input);
      }
      if (b.field.rfind("cache", 0) == 0 || b.field.rfind("method", 0) == 0) {
        CollideRequest creq;
        creq.method = req.method;
        creq.cache = req.cache;
        EXPECT_EQ(collide(p.a, ta, p.b, tb, creq).status, Status::invalid_input);
      }
    }
  }
  // The ends of the ranges are taken: −0 and 0 tolerances, one iteration,
  // bounds ±∞ and a cache with empty directions.
  DistanceRequest edge;
  edge.tol_abs = -0.0;
  edge.tol_rel = 0.0;
  edge.max_iterations = 1;
  // A cache's support directions are the caller's to fill (a default
  // cache has none in use): zero here, not left indeterminate.
  GjkCache empty;
  empty.simplex_size = 4;
  for (Vec3& d : empty.support_directions) d = Vec3::Zero();
  edge.cache = &empty;
  for (const double bound : {-inf, inf}) {
    edge.bound = bound;
    EXPECT_TRUE(edge.valid());
    EXPECT_NE(distance(hull, ta, capsule, tb, edge).status, Status::invalid_input);
  }
  // GJK itself refuses such a cache too.
  GjkCache cache;
  cache.direction = Vec3(nan, 0, 0);
  EXPECT_EQ(gjk(hull, ta, capsule, tb, {}, &cache).status, Status::invalid_input);
}

// A cache is a hint: any cache in range (directions of any length up to
// 1e150, zero, pointing anywhere; hints past the last vertex) leaves every answer where
// the point–box distance puts it, on the pairs that read it.
TEST(RequestOptions, AnyCacheInRangeLeavesTheAnswer) {
  const Vec3 half(0.5, 0.3, 0.2);
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i) corners.emplace_back(i & 1 ? half.x() : -half.x(), i & 2 ? half.y() : -half.y(),
                                                   i & 4 ? half.z() : -half.z());
  const ConvexPolytope hull(corners);
  const Box box(2.0 * half);
  const Sphere ball(0.25);
  testing::Rng rng(91);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng.engine()); };
  const double lengths[] = {0.0, 1e-300, 1.0, 1e150};
  int answered = 0;
  for (int i = 0; i < testing::scaled(2000); ++i) {
    const Transform tb = rng.pose(0.0);
    const Vec3 c = rng.uniform_vec(-0.9, 0.9);
    const double truth = point_box_signed_distance(half, tb.apply_inverse(c)) - 0.25;
    const Transform ts = Transform::from_translation(c);
    GjkCache cache;
    cache.direction = lengths[pick(0, 3)] * rng.unit_vector();
    cache.simplex_size = pick(0, 4);
    for (Vec3& d : cache.support_directions) d = lengths[pick(0, 3)] * rng.unit_vector();
    cache.hint_a = pick(-1, 1000);
    cache.hint_b = pick(-1, 1000);
    for (const Method m : {Method::automatic, Method::gjk, Method::incremental}) {
      for (const bool polytope : {true, false}) {
        GjkCache used = cache;
        DistanceRequest req;
        req.method = m;
        req.cache = &used;
        ASSERT_TRUE(req.valid());
        const DistanceResult r =
            polytope ? signed_distance(hull, tb, ball, ts, req) : signed_distance(box, tb, ball, ts, req);
        ASSERT_EQ(r.status, Status::ok) << "pose " << i;
        ASSERT_TRUE(std::isfinite(r.distance) && r.normal.allFinite() && r.point_a.allFinite())
            << "pose " << i << " method " << static_cast<int>(m) << " polytope " << polytope << " direction "
            << cache.direction.transpose() << " size " << cache.simplex_size << " first "
            << cache.support_directions[0].transpose() << " hints " << cache.hint_a << " " << cache.hint_b;
        EXPECT_NEAR(r.distance, truth, 1e-7) << "pose " << i << " polytope " << polytope;
        ++answered;
      }
    }
  }
  EXPECT_EQ(answered, 6 * testing::scaled(2000));
}

}  // namespace
}  // namespace proxima
