// SPDX-License-Identifier: BSD-3-Clause
// time_of_impact against ground truth that shares no code with it: the
// closed-form meeting time of two moving spheres, the explicit lowest corner
// of a turning box above a plane, and the explicitly built Minkowski
// difference of two polytopes (tests/oracle), each along a motion the test
// builds itself from an axis and an angle.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include <proxima/query.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../oracle/sweep_oracle.hpp"
#include "../support/non_finite.hpp"
#include "../support/motion_checks.hpp"
#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using testing::aim;
using testing::expect_conservative;
using testing::random_motion;
using testing::Rng;
using testing::TestMotion;

TEST(TimeOfImpact, MovingSpheresMeetAtTheClosedFormTime) {
  Rng rng(71);
  int hits = 0;
  for (int i = 0; i < 500; ++i) {
    const double ra = rng.uniform(0.05, 0.5), rb = rng.uniform(0.05, 0.5);
    TestMotion a = random_motion(rng, 1.0, 2.0, 3.0);
    const TestMotion b = random_motion(rng, 1.0, 2.0, 3.0);
    if (i % 2 == 0) aim(a, b, rng);
    TimeOfImpactRequest req;
    req.clearance = (i % 3 == 0) ? rng.uniform(0.0, 0.2) : 0.0;
    const TimeOfImpactResult r =
        time_of_impact(Sphere(ra), a.at(0), a.at(1), Sphere(rb), b.at(0), b.at(1), req);
    // |c + t·w| = ra + rb + clearance: the smaller root of a quadratic.
    const Vec3 c = a.p0 - b.p0, w = a.dp - b.dp;
    const double s = ra + rb + req.clearance;
    const double qa = w.squaredNorm(), qb = 2.0 * c.dot(w), qc = c.squaredNorm() - s * s;
    double truth = 2.0;
    if (qc <= 0.0) {
      truth = 0.0;
    } else if (qa > 0.0 && qb * qb - 4.0 * qa * qc >= 0.0) {
      const double t = (-qb - std::sqrt(qb * qb - 4.0 * qa * qc)) / (2.0 * qa);
      if (t >= 0.0 && t <= 1.0) truth = t;
    }
    ASSERT_EQ(r.status, Status::ok);
    if (truth > 1.0) {
      EXPECT_FALSE(r.collide) << i;
      continue;
    }
    ASSERT_TRUE(r.collide) << i;
    if (truth == 0.0) {
      EXPECT_EQ(r.time, 0.0) << i;
      continue;
    }
    ++hits;
    const double gap = (c + r.time * w).norm() - s;
    EXPECT_LE(r.time, truth + 1e-12) << i;
    EXPECT_GE(gap, -1e-9) << i;
    EXPECT_LE(gap, req.accuracy + 1e-9) << i;
    EXPECT_NEAR(r.witness.distance, gap + req.clearance, 1e-9) << i;
    EXPECT_EQ(r.witness_time, r.time);
  }
  EXPECT_GT(hits, 100);
}

TEST(TimeOfImpact, TurningBoxAgainstAPlaneFindsTheLowestCorner) {
  Rng rng(72);
  int hits = 0;
  for (int i = 0; i < 200; ++i) {
    const Vec3 half = rng.uniform_vec(0.05, 0.6);
    const double margin = (i % 4 == 0) ? 0.02 : 0.0;
    TestMotion box = random_motion(rng, 0.3, 1.0, 3.1);
    box.p0.z() += 1.2;
    box.dp.z() -= 1.0;
    const Vec3 n = Vec3(0.1, -0.2, 1.0).normalized();
    const double offset = rng.uniform(-0.3, 0.3);
    TimeOfImpactRequest req;
    req.clearance = (i % 5 == 0) ? 0.05 : 0.0;
    const Transform fixed = Transform::identity();
    const TimeOfImpactResult r = time_of_impact(Box(2.0 * half, margin), box.at(0), box.at(1),
                                                Halfspace(n, offset), fixed, fixed, req);
    const auto g = [&](double t) {
      const Transform x = box.at(t);
      double low = std::numeric_limits<double>::infinity();
      for (int k = 0; k < 8; ++k) {
        const Vec3 corner((k & 1 ? 1 : -1) * half.x(), (k & 2 ? 1 : -1) * half.y(), (k & 4 ? 1 : -1) * half.z());
        low = std::min(low, n.dot(x.R * corner + x.p) - offset);
      }
      return low - margin - req.clearance;
    };
    SCOPED_TRACE(i);
    expect_conservative(r, g, req.accuracy, 1e-9);
    hits += r.collide;
  }
  EXPECT_GT(hits, 50);
}

TEST(TimeOfImpact, CapsuleAgainstATurningHalfspace) {
  Rng rng(73);
  int hits = 0;
  for (int i = 0; i < 150; ++i) {
    const double radius = rng.uniform(0.05, 0.3), length = rng.uniform(0.1, 1.0);
    const TestMotion cap = random_motion(rng, 0.5, 0.8, 2.5);
    TestMotion plane = random_motion(rng, 0.5, 0.5, 1.5);
    plane.p0.z() -= 1.5;
    const Vec3 n = rng.unit_vector();
    const double offset = rng.uniform(-0.2, 0.2);
    const TimeOfImpactResult r = time_of_impact(Capsule(radius, length), cap.at(0), cap.at(1), Halfspace(n, offset),
                                                plane.at(0), plane.at(1));
    const auto g = [&](double t) {
      const Transform c = cap.at(t), h = plane.at(t);
      const Vec3 nw = h.R * n;
      double low = std::numeric_limits<double>::infinity();
      for (const double s : {-0.5 * length, 0.5 * length}) low = std::min(low, nw.dot(c.R * Vec3(0, 0, s) + c.p - h.p));
      return low - offset - radius;
    };
    SCOPED_TRACE(i);
    expect_conservative(r, g, 1e-6, 1e-9);
    hits += r.collide;
    // The same question with the halfspace as A: same time, normal reversed.
    const TimeOfImpactResult s = time_of_impact(Halfspace(n, offset), plane.at(0), plane.at(1),
                                                Capsule(radius, length), cap.at(0), cap.at(1));
    EXPECT_EQ(s.collide, r.collide);
    if (r.collide) {
      EXPECT_NEAR(s.time, r.time, 1e-5);
      EXPECT_LT((s.witness.normal + r.witness.normal).norm(), 1e-3);
    }
  }
  EXPECT_GT(hits, 30);
}

std::vector<Vec3> placed(const std::vector<Vec3>& local, const Transform& x) {
  std::vector<Vec3> out;
  for (const Vec3& v : local) out.push_back(x.apply(v));
  return out;
}

TEST(TimeOfImpact, TurningPolytopesAgainstTheMinkowskiOracle) {
  Rng rng(74);
  int hits = 0;
  for (int i = 0; i < 40; ++i) {
    const std::vector<Vec3> pa = rng.sphere_points(12, rng.uniform(0.1, 0.4));
    const std::vector<Vec3> pb = rng.sphere_points(10, rng.uniform(0.1, 0.4));
    const ConvexPolytope a(pa), b(pb);
    TestMotion ma = random_motion(rng, 0.8, 1.2, 3.0);
    const TestMotion mb = random_motion(rng, 0.8, 1.2, 3.0);
    if (i % 2 == 0) aim(ma, mb, rng);
    const TimeOfImpactResult r = time_of_impact(a, ma.at(0), ma.at(1), b, mb.at(0), mb.at(1));
    const auto g = [&](double t) {
      return oracle::minkowski_signed_distance(placed(pa, ma.at(t)), placed(pb, mb.at(t)));  // raw points
    };
    SCOPED_TRACE(i);
    ASSERT_EQ(r.status, Status::ok);
    if (!r.collide) {
      for (int k = 0; k <= 200; ++k) ASSERT_GT(g(k / 200.0), 0.0) << "contact missed at t = " << k / 200.0;
      continue;
    }
    if (r.time == 0.0 && g(0.0) <= 0.0) continue;  // overlapping from the start
    ++hits;
    EXPECT_GE(g(r.time), -1e-9);
    EXPECT_LE(g(r.time), 1e-6 + 1e-9);
    for (int k = 0; k < 100; ++k) ASSERT_GT(g(r.time * k / 100.0), -1e-9);
  }
  EXPECT_GT(hits, 8);
}

// Under translation alone the distance of two convex bodies is convex in t,
// so its first crossing of the clearance is found exactly by a ternary
// search for the minimum and a bisection before it.
TEST(TimeOfImpact, TranslatedPolytopesMeetWhereTheOracleSays) {
  Rng rng(75);
  int hits = 0;
  for (int i = 0; i < 40; ++i) {
    const std::vector<Vec3> pa = rng.sphere_points(16, 0.3), pb = rng.sphere_points(16, 0.25);
    const ConvexPolytope a(pa), b(pb);
    const Transform a0 = rng.pose(1.0), b0 = rng.pose(1.0);
    Transform a1 = a0, b1 = b0;
    b1.p += rng.uniform_vec(-1.0, 1.0);
    a1.p += i % 2 == 0 ? Vec3((b0.p - a0.p) / 0.6 + (b1.p - b0.p)) : Vec3::Zero();
    a1.p += rng.uniform_vec(-0.2, 0.2);
    TimeOfImpactRequest req;
    req.clearance = 0.01;
    req.accuracy = 1e-8;
    const auto g = [&](double t) {
      const Transform x{a0.R, a0.p + t * (a1.p - a0.p)}, y{b0.R, b0.p + t * (b1.p - b0.p)};
      return oracle::minkowski_signed_distance(placed(pa, x), placed(pb, y)) - req.clearance;
    };
    double lo = 0.0, hi = 1.0;
    for (int k = 0; k < 100; ++k) {
      const double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
      if (g(m1) < g(m2)) {
        hi = m2;
      } else {
        lo = m1;
      }
    }
    double truth = 2.0;
    if (g(0.0) <= 0.0) {
      truth = 0.0;
    } else if (g(lo) <= 0.0) {
      double x = 0.0, y = lo;
      for (int k = 0; k < 80; ++k) (g(0.5 * (x + y)) > 0.0 ? x : y) = 0.5 * (x + y);
      truth = y;
    }
    const TimeOfImpactResult r = time_of_impact(a, a0, a1, b, b0, b1, req);
    ASSERT_EQ(r.status, Status::ok) << i;
    ASSERT_EQ(r.collide, truth <= 1.0) << i << " truth " << truth;
    if (!r.collide) continue;
    EXPECT_LE(r.time, truth + 1e-12) << i;
    if (truth == 0.0) continue;
    ++hits;
    EXPECT_GE(g(r.time), -1e-12) << i;
    EXPECT_LE(g(r.time), req.accuracy + 1e-12) << i;
  }
  EXPECT_GT(hits, 10);
}

// Every bounded pair of the dispatch table (flat and sliver hulls, margins
// included), turning and moving, judged by the support-function sweep
// oracle: at the reported time the distance is within [clearance,
// clearance + accuracy]; at sampled earlier times (or over the whole motion
// when no contact is reported) it is above the clearance.
TEST(TimeOfImpact, EveryBoundedPairAgainstTheSweepOracle) {
  const std::vector<testing::TestShape> shapes = testing::bounded_test_shapes();
  Rng rng(76);
  int hits = 0, total = 0;
  for (const testing::TestShape& x : shapes) {
    for (const testing::TestShape& y : shapes) {
      for (int k = 0; k < testing::scaled(4); ++k) {
        TestMotion ma = random_motion(rng, 1.0, 1.0, 2.8);
        const TestMotion mb = random_motion(rng, 1.0, 1.0, 2.8);
        if (k % 2 == 0) aim(ma, mb, rng);
        TimeOfImpactRequest req;
        req.clearance = k % 3 == 0 ? 0.03 : 0.0;
        const auto g = [&](double t) {
          const Transform pa = ma.at(t), pb = mb.at(t);
          return oracle::sweep_separation_report([&](const Vec3& d) { return x.support(pa, d); },
                                                 [&](const Vec3& d) { return y.support(pb, d); })
                     .value -
                 req.clearance;
        };
        if (g(0.0) <= 1e-6) continue;
        ++total;
        const TimeOfImpactResult r = time_of_impact(x.shape, ma.at(0), ma.at(1), y.shape, mb.at(0), mb.at(1), req);
        SCOPED_TRACE(x.label + " vs " + y.label + " #" + std::to_string(k));
        ASSERT_EQ(r.status, Status::ok);
        const double end = r.collide ? r.time : 1.0;
        for (int i = 0; i < 8; ++i) ASSERT_GT(g(end * (i + (r.collide ? 0.0 : 1.0)) / 8.0), -1e-9) << i;
        if (!r.collide) continue;
        ++hits;
        EXPECT_GE(g(r.time), -1e-9);
        EXPECT_LE(g(r.time), req.accuracy + 1e-9);
      }
    }
  }
  EXPECT_GT(hits, total / 4);
}

// A rod spinning half a turn sweeps through a ball that both end poses miss:
// a check at the two ends sees nothing.
TEST(TimeOfImpact, SpinningRodDoesNotTunnelThroughABall) {
  const Capsule rod(0.02, 2.0);
  const Sphere ball(0.05);
  const Transform start = Transform::from_axis_angle(Vec3::UnitY(), 0.1);
  const Transform end = Transform::from_axis_angle(Vec3::UnitY(), 3.0);
  const Transform at_ball = Transform::from_translation(Vec3(0.7, 0.0, 0.0));
  ASSERT_FALSE(collide(rod, start, ball, at_ball).collide);
  ASSERT_FALSE(collide(rod, end, ball, at_ball).collide);
  const TimeOfImpactResult r = time_of_impact(rod, start, end, ball, at_ball, at_ball);
  ASSERT_EQ(r.status, Status::ok);
  ASSERT_TRUE(r.collide);
  // At angle θ about y the rod's axis is (sin θ, 0, cos θ), 0.7·|cos θ| from
  // the ball's centre; they touch at 0.07 (the two radii), before θ = π/2.
  const double theta = 0.1 + 2.9 * r.time;
  EXPECT_NEAR(0.7 * std::abs(std::cos(theta)), 0.07, 1e-6);
  EXPECT_LT(theta, M_PI_2);
}

TEST(TimeOfImpact, BulletThroughAThinWall) {
  const Sphere bullet(0.01);
  const Box wall(Vec3(0.002, 1.0, 1.0));
  const Transform from = Transform::from_translation(Vec3(-5.0, 0.0, 0.0));
  const Transform to = Transform::from_translation(Vec3(5.0, 0.0, 0.0));
  const Transform fixed = Transform::identity();
  const TimeOfImpactResult r = time_of_impact(bullet, from, to, wall, fixed, fixed);
  ASSERT_EQ(r.status, Status::ok);
  ASSERT_TRUE(r.collide);
  EXPECT_NEAR(r.time, (5.0 - 0.011) / 10.0, 1e-6);
  EXPECT_NEAR(r.witness.normal.x(), -1.0, 1e-9);
  EXPECT_LE(r.iterations, 3);
}

TEST(TimeOfImpact, StartsOverlappingOrStaysApart) {
  const Sphere s(0.5);
  const Transform o = Transform::identity();
  const Transform near = Transform::from_translation(Vec3(0.9, 0, 0));
  TimeOfImpactResult r = time_of_impact(s, o, o, s, near, near);
  EXPECT_TRUE(r.collide);
  EXPECT_EQ(r.time, 0.0);
  EXPECT_EQ(r.iterations, 1);
  const Transform far = Transform::from_translation(Vec3(3, 0, 0));
  const Transform farther = Transform::from_translation(Vec3(4, 0, 0));
  r = time_of_impact(s, o, o, s, far, farther);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_FALSE(r.collide);
  EXPECT_EQ(r.time, 1.0);
  EXPECT_EQ(r.iterations, 1);  // moving apart: one look is proof
  EXPECT_NEAR(r.witness.distance, 2.0, 1e-12);
}

TEST(TimeOfImpact, IterationCapGivesASafeLowerBound) {
  const Box box(Vec3(1.0, 0.2, 0.2));
  const Transform b0 = Transform::from_translation(Vec3(0, 0, 1.0));
  const Transform b1 = Transform::from_axis_angle(Vec3::UnitY(), 1.5, Vec3(0, 0, 0.5));
  const Transform fixed = Transform::identity();
  const Halfspace floor(Vec3::UnitZ(), 0.0);
  const TimeOfImpactResult full = time_of_impact(box, b0, b1, floor, fixed, fixed);
  ASSERT_EQ(full.status, Status::ok);
  ASSERT_TRUE(full.collide);
  ASSERT_GT(full.iterations, 2);
  TimeOfImpactRequest capped;
  capped.max_iterations = 2;
  const TimeOfImpactResult r = time_of_impact(box, b0, b1, floor, fixed, fixed, capped);
  EXPECT_EQ(r.status, Status::not_converged);
  EXPECT_TRUE(r.collide);
  EXPECT_GT(r.time, 0.0);
  EXPECT_LE(r.time, full.time);
}

TEST(TimeOfImpact, BadInputIsRejected) {
  using testing::kInf;
  using testing::kNan;
  const Sphere s(0.5);
  const Transform o = Transform::identity();
  Transform bad = o;
  bad.p.x() = kNan;
  EXPECT_EQ(time_of_impact(s, o, bad, s, o, o).status, Status::invalid_input);
  EXPECT_EQ(time_of_impact(s, o, o, s, bad, o).status, Status::invalid_input);
  bad = o;
  bad.R(0, 0) = kInf;
  EXPECT_EQ(time_of_impact(s, o, o, s, o, bad).status, Status::invalid_input);
  for (const double clearance : {-1.0, kNan, kInf}) {
    TimeOfImpactRequest req;
    req.clearance = clearance;
    EXPECT_EQ(time_of_impact(s, o, o, s, o, o, req).status, Status::invalid_input) << clearance;
  }
  for (const double accuracy : {0.0, -1e-6, kNan, kInf}) {
    TimeOfImpactRequest req;
    req.accuracy = accuracy;
    EXPECT_EQ(time_of_impact(s, o, o, s, o, o, req).status, Status::invalid_input) << accuracy;
  }
  TimeOfImpactRequest none;
  none.max_iterations = 0;
  EXPECT_EQ(time_of_impact(s, o, o, s, o, o, none).status, Status::invalid_input);
}

// Two halfspaces: one standing or sliding is a closed form away; one turning
// has no bound on how fast its far points move, so the answer is the safe
// one (collide, not_converged) and never a missed contact.
TEST(TimeOfImpact, HalfspacePairs) {
  const Transform o = Transform::identity();
  const Halfspace up(Vec3::UnitZ(), 0.0), down(-Vec3::UnitZ(), 0.0);
  const Transform below = Transform::from_translation(Vec3(0, 0, -1));
  const Transform closer = Transform::from_translation(Vec3(0, 0, -0.5));
  TimeOfImpactResult r = time_of_impact(up, below, closer, down, o, o);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_FALSE(r.collide);
  r = time_of_impact(up, below, Transform::from_translation(Vec3(0, 0, 1)), down, o, o);
  EXPECT_EQ(r.status, Status::ok);
  ASSERT_TRUE(r.collide);
  EXPECT_NEAR(r.time, 0.5, 1e-6);
  r = time_of_impact(up, below, Transform::from_axis_angle(Vec3::UnitX(), 0.3, below.p), down, o, o);
  EXPECT_EQ(r.status, Status::not_converged);
  EXPECT_TRUE(r.collide);
}

}  // namespace
}  // namespace proxima
