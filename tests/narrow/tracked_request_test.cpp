// SPDX-License-Identifier: BSD-3-Clause
// signed_distance with a caller's PenetrationCache in the request
// (DistanceRequest::penetration): pose sequences that go from deep contact
// through shallow contact to apart and back, one cache carried along, on
// every pair the coherence certificate covers, in both orders. Ground
// truth: the explicit Minkowski difference of the raw points (tests/oracle)
// and brute-force support planes for the witnesses. Also what the cache
// must not do: be taken by another query or method, be taken malformed,
// or be touched on a pair it does not cover.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/narrow/incremental_depth.hpp>
#include <proxima/query.hpp>
#include <proxima/shape/cylinder.hpp>
#include <proxima/shape/ellipsoid.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../support/test_shapes.hpp"

// A named namespace of its own: the unity build batches this file with others.
namespace proxima::tracked_request_test {
namespace {

using testing::Rng;

struct Truth {
  std::vector<Vec3> a, b;  // core vertices in the shapes' frames
  double ra, rb;           // inflations: radius plus margin
};

// The pair's signed distance (margins and radii included), from the
// Minkowski difference of the world core vertices.
double truth_of(const Truth& t, const Transform& ta, const Transform& tb) {
  return oracle::minkowski_signed_distance(testing::transformed(ta, t.a), testing::transformed(tb, t.b)) - t.ra -
         t.rb;
}

// The answer's witnesses on both shapes' support planes along its normal
// and on the shapes (the core's point under each, the inflation along the
// normal away, on the core's hull), the distance apart, and the normal a
// unit vector.
void expect_witnesses(const DistanceResult& r, const Truth& t, const Transform& ta, const Transform& tb) {
  const Vec3& m = r.normal;
  EXPECT_NEAR(m.norm(), 1.0, 1e-12);
  const std::vector<Vec3> wa = testing::transformed(ta, t.a), wb = testing::transformed(tb, t.b);
  EXPECT_NEAR((-m).dot(r.point_a), (-m).dot(testing::points_support(wa, t.ra, -m)), 1e-8);
  EXPECT_NEAR(m.dot(r.point_b), m.dot(testing::points_support(wb, t.rb, m)), 1e-8);
  EXPECT_LE(std::abs(oracle::hull_signed_distance(wa, r.point_a + t.ra * m)), 1e-8);
  EXPECT_LE(std::abs(oracle::hull_signed_distance(wb, r.point_b - t.rb * m)), 1e-8);
  EXPECT_LE((r.point_b - r.point_a + r.distance * m).norm(), 1e-8);
}

bool same_bits(const PenetrationCache& x, const PenetrationCache& y) {
  return std::memcmp(x.direction.data(), y.direction.data(), sizeof(double) * 3) == 0 && x.hint_a == y.hint_a &&
         x.hint_b == y.hint_b && x.cores.simplex_size == y.cores.simplex_size &&
         std::memcmp(x.cores.direction.data(), y.cores.direction.data(), sizeof(double) * 3) == 0;
}

// Runs of a pose sequence: B starts with its core 2–12 cm into A's and
// moves out along a direction near the contact normal, in 2–5 mm steps
// with a small turn, through shallow contact (only the radii overlapping)
// until it is 2 cm apart, then back in. Every answer against the
// oracle and the same query without the cache; the cache keeps the normal
// of a contact and is empty once apart. Returns the number of contact
// steps after which the cache holds what answers the next step (a
// coherence certificate, or GJK's warm start between the cores apart).
template <class A, class B>
int sequences(const char* label, const A& a, const B& b, const Truth& t, double half, unsigned seed) {
  Rng rng(seed);
  int runs = 0, steps = 0, deep = 0, apart = 0, held = 0;
  while (runs < testing::scaled(5)) {
    const Transform ta = rng.pose(0.0);
    Transform tb = rng.pose(half);
    const DistanceResult start = signed_distance(a, ta, b, tb);
    const double radii = t.ra + t.rb;
    if (!(start.status == Status::ok && start.distance < -radii - 0.02 && start.distance > -radii - 0.12)) continue;
    ++runs;
    const Vec3 out = Eigen::AngleAxisd(0.3, rng.unit_vector().cross(start.normal).normalized()) * -start.normal;
    const double step = rng.uniform(2e-3, 5e-3);
    const Mat3 turn = Eigen::AngleAxisd(rng.uniform(0.05, 0.3) * M_PI / 180.0, rng.unit_vector()).toRotationMatrix();
    PenetrationCache cache;
    DistanceRequest req;
    req.penetration = &cache;
    double sign = 1.0;
    for (int k = 0; k < 400; ++k) {
      const double truth = truth_of(t, ta, tb);
      if (truth > 0.02) sign = -1.0;
      if (sign < 0.0 && truth < start.distance) break;
      SCOPED_TRACE(::testing::Message() << label << " run " << runs << " step " << k << " truth " << truth);
      const DistanceResult r = signed_distance(a, ta, b, tb, req);
      const DistanceResult plain = signed_distance(a, ta, b, tb);
      EXPECT_EQ(r.status, Status::ok);
      if (r.status != Status::ok) return -1;
      EXPECT_NEAR(r.distance, truth, 1e-8);
      EXPECT_NEAR(r.distance, plain.distance, 1e-8);
      expect_witnesses(r, t, ta, tb);
      if (r.distance < 0.0) {
        ++deep;
        EXPECT_EQ(cache.direction, r.normal);
        held += cache.coherence.holds() || cache.cores.direction.squaredNorm() > 0.0;
      } else {
        ++apart;
        EXPECT_EQ(cache.direction, Vec3::Zero());
      }
      ++steps;
      tb = Transform{turn * tb.R, tb.p + sign * step * out};
    }
  }
  std::printf("%-24s %d steps (%d in contact, %d apart): all right, the cache holding an answer after %d\n", label,
              steps, deep, apart, held);
  EXPECT_GT(apart, 0) << label;
  EXPECT_GT(deep, apart / 2) << label;
  return held;
}

const std::vector<Vec3> kSegment{Vec3(0, 0, -0.25), Vec3(0, 0, 0.25)};

TEST(TrackedRequest, SequencesThroughContactAndApart) {
  Rng g(401);
  const std::vector<Vec3> raw = g.sphere_points(200, 0.5);
  const ConvexPolytope poly(raw);
  const Capsule capsule(0.25, 0.5);
  const Sphere sphere(0.3);
  const Box box(Vec3(1.0, 0.6, 0.4));
  const std::vector<Vec3> corners = testing::box_corners(Vec3(0.5, 0.3, 0.2));
  EXPECT_GT(sequences("polytope200-capsule", poly, capsule, Truth{raw, kSegment, 0.0, 0.25}, 0.6, 402u), 0);
  EXPECT_GT(sequences("capsule-polytope200", capsule, poly, Truth{kSegment, raw, 0.25, 0.0}, 0.6, 403u), 0);
  EXPECT_GT(sequences("polytope200-sphere", poly, sphere, Truth{raw, {Vec3::Zero()}, 0.0, 0.3}, 0.5, 404u), 0);
  EXPECT_GT(sequences("sphere-polytope200", sphere, poly, Truth{{Vec3::Zero()}, raw, 0.3, 0.0}, 0.5, 405u), 0);
  EXPECT_GT(sequences("polytope200-box", poly, box, Truth{raw, corners, 0.0, 0.0}, 0.55, 406u), 0);
  EXPECT_GT(sequences("box-polytope200", box, poly, Truth{corners, raw, 0.0, 0.0}, 0.55, 407u), 0);
  // Margins on both shapes: the rounded surfaces, where witnesses are not
  // on the hull's faces.
  std::vector<Vec3> blob;
  for (int i = 0; i < 60; ++i) blob.push_back(g.uniform_vec(Vec3(-0.4, -0.15, -0.25), Vec3(0.4, 0.15, 0.25)));
  const ConvexPolytope irregular(blob, 0.02);
  const Box padded(Vec3(1.0, 0.6, 0.4), 0.01);
  EXPECT_GT(sequences("irregular60-box margins", irregular, padded, Truth{blob, corners, 0.02, 0.01}, 0.5, 408u), 0);
}

// The cache belongs to signed_distance with Method::automatic or
// Method::incremental: any other query or method given one refuses the
// request, and leaves the cache as it was.
TEST(TrackedRequest, OtherQueriesAndMethodsRefuseIt) {
  Rng g(411);
  const ConvexPolytope poly(g.sphere_points(100, 0.5));
  const Capsule capsule(0.25, 0.5);
  const Transform ta = Transform::identity(), tb = testing::at(0.3, 0.1, 0.0);
  PenetrationCache cache;
  cache.direction = Vec3(0, 1, 0);
  PenetrationCache before = cache;
  DistanceRequest req;
  req.penetration = &cache;
  for (Method m : {Method::gjk, Method::analytic, Method::sat, Method::mpr}) {
    req.method = m;
    SCOPED_TRACE(static_cast<int>(m));
    EXPECT_FALSE(req.valid());
    EXPECT_EQ(signed_distance(poly, ta, capsule, tb, req).status, Status::invalid_input);
    EXPECT_TRUE(same_bits(cache, before));
  }
  for (Method m : {Method::automatic, Method::incremental}) {
    req.method = m;
    SCOPED_TRACE(static_cast<int>(m));
    before = cache;
    EXPECT_TRUE(req.valid());
    EXPECT_EQ(distance(poly, ta, capsule, tb, req).status, Status::invalid_input);
    EXPECT_EQ(tolerance(poly, ta, capsule, tb, 0.01, req).status, Status::invalid_input);
    EXPECT_TRUE(same_bits(cache, before));
    EXPECT_EQ(signed_distance(poly, ta, capsule, tb, req).status, Status::ok);
  }
}

// A malformed cache is refused by name of the request (invalid_input), on
// a covered pair and an uncovered one alike, and never read.
TEST(TrackedRequest, MalformedCachesAreRefused) {
  Rng g(421);
  const ConvexPolytope poly(g.sphere_points(100, 0.5));
  const Capsule capsule(0.25, 0.5);
  const Sphere sphere(0.3);
  const Transform ta = Transform::identity(), tb = testing::at(0.3, 0.1, 0.0);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  std::vector<PenetrationCache> bad(6);
  bad[0].direction = Vec3(nan, 0, 0);
  bad[1].direction = Vec3(0, inf, 0);
  bad[2].direction = Vec3(1e200, 1e200, 0);  // its squared length overflows
  bad[3].hint_a = -2;
  bad[4].hint_b = std::numeric_limits<int>::min();
  bad[5].cores.simplex_size = 5;
  for (std::size_t i = 0; i < bad.size(); ++i) {
    SCOPED_TRACE(i);
    DistanceRequest req;
    req.penetration = &bad[i];
    EXPECT_FALSE(req.valid());
    const PenetrationCache before = bad[i];
    EXPECT_EQ(signed_distance(poly, ta, capsule, tb, req).status, Status::invalid_input);
    EXPECT_EQ(signed_distance(sphere, ta, sphere, tb, req).status, Status::invalid_input);
    EXPECT_TRUE(same_bits(bad[i], before));
  }
  // Large hints are accepted (a hint past a shape's last vertex is not used).
  PenetrationCache large;
  large.hint_a = 1 << 30;
  large.direction = Vec3(1, 0, 0);
  DistanceRequest req;
  req.penetration = &large;
  const DistanceResult r = signed_distance(poly, ta, capsule, tb, req);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_NEAR(r.distance, signed_distance(poly, ta, capsule, tb).distance, 1e-9);
}

// Pairs the certificate does not cover answer as without the cache, bit
// for bit, and leave it as it was; on a covered pair that is apart, the
// cache's direction is emptied.
TEST(TrackedRequest, UncoveredPairsLeaveItAlone) {
  Rng g(431);
  const std::vector<Vec3> pa = g.sphere_points(60, 0.4), pb = g.sphere_points(60, 0.4);
  const ConvexPolytope poly_a(pa), poly_b(pb);
  const Shape shapes[] = {Sphere(0.3), Capsule(0.2, 0.5), Box(Vec3(0.6, 0.5, 0.4)), Cylinder(0.2, 0.5),
                          Ellipsoid(Vec3(0.3, 0.2, 0.25))};
  int checked = 0;
  for (int i = 0; i < testing::scaled(30); ++i) {
    const Transform ta = g.pose(0.0), tb = g.pose(0.5);
    const auto check = [&](const Shape& a, const Shape& b) {
      PenetrationCache cache;
      cache.direction = g.unit_vector();
      cache.hint_a = 3;
      const PenetrationCache before = cache;
      DistanceRequest req;
      req.penetration = &cache;
      const DistanceResult r = signed_distance(a, ta, b, tb, req), plain = signed_distance(a, ta, b, tb);
      EXPECT_EQ(r.status, plain.status);
      EXPECT_EQ(r.distance, plain.distance);
      EXPECT_EQ(r.point_a, plain.point_a);
      EXPECT_EQ(r.point_b, plain.point_b);
      EXPECT_TRUE(same_bits(cache, before));
      ++checked;
    };
    for (const Shape& a : shapes)
      for (const Shape& b : shapes) check(a, b);
    check(poly_a, poly_b);
    check(poly_a, Cylinder(0.2, 0.5));
    check(Ellipsoid(Vec3(0.3, 0.2, 0.25)), poly_b);
  }
  EXPECT_GT(checked, 0);
  // A covered pair apart: the answer is GJK's distance, the direction emptied.
  PenetrationCache cache;
  cache.direction = Vec3(1, 0, 0);
  DistanceRequest req;
  req.penetration = &cache;
  const DistanceResult r = signed_distance(poly_a, Transform::identity(), Capsule(0.2, 0.5), testing::at(1.5, 0, 0), req);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_NEAR(r.distance, truth_of(Truth{pa, {Vec3(0, 0, -0.25), Vec3(0, 0, 0.25)}, 0.0, 0.2}, Transform::identity(),
                                   testing::at(1.5, 0, 0)),
              1e-9);
  EXPECT_EQ(cache.direction, Vec3::Zero());
}

}  // namespace
}  // namespace proxima::tracked_request_test
