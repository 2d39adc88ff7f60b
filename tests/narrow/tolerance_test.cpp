// SPDX-License-Identifier: BSD-3-Clause
// tolerance() for every bounded pair against the sweep oracle (support
// functions only, no GJK): the answer is right on both sides of the true
// distance, the distance it reports is the bound that proves it, and the
// early exit never costs more GJK iterations than the full distance.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <proxima/query.hpp>

#include "../oracle/sweep_oracle.hpp"
#include "../support/non_finite.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

TEST(Tolerance, EveryBoundedPairOnBothSidesOfTheTrueDistance) {
  const std::vector<testing::TestShape> shapes = testing::bounded_test_shapes();
  testing::Rng rng(91);
  int within = 0, beyond = 0, separated = 0;
  for (const testing::TestShape& a : shapes) {
    for (const testing::TestShape& b : shapes) {
      for (int k = 0; k < testing::scaled(6); ++k) {
        const Transform ta = rng.pose(1.2 * (a.bounding_radius + b.bounding_radius)), tb = rng.pose(0.1);
        const oracle::SweepReport rep = oracle::sweep_separation_report(
            [&](const Vec3& d) { return a.support(ta, d); }, [&](const Vec3& d) { return b.support(tb, d); });
        const double truth = rep.value;
        const DistanceResult full = distance(a.shape, ta, b.shape, tb);
        separated += rep.separated && truth > 1e-6;
        for (const double factor : {0.0, 0.5, 0.99, 1.01, 2.0}) {
          const double t = std::max(0.0, truth) * factor;
          if (!rep.separated || std::abs(t - truth) < 1e-8) continue;
          const ToleranceResult r = tolerance(a.shape, ta, b.shape, tb, t);
          SCOPED_TRACE(a.label + " vs " + b.label + " k " + std::to_string(k) + " factor " + std::to_string(factor));
          ASSERT_EQ(r.status, Status::ok);
          EXPECT_EQ(r.within, truth <= t) << "truth " << truth << " tolerance " << t;
          if (r.within) {
            EXPECT_LE(r.distance, t);
            EXPECT_GE(r.distance, truth - 1e-9);
            ++within;
          } else {
            EXPECT_GT(r.distance, t);
            EXPECT_LE(r.distance, truth + 1e-9);
            ++beyond;
          }
          EXPECT_LE(r.iterations, full.iterations);
        }
        if (!rep.separated && truth < -1e-6) {  // overlapping: within any tolerance
          const ToleranceResult r = tolerance(a.shape, ta, b.shape, tb, 0.0);
          EXPECT_TRUE(r.within) << a.label << " vs " << b.label;
          EXPECT_EQ(r.distance, 0.0);
        }
      }
    }
  }
  // Each separated pose asks two tolerances above its distance and three
  // below (0, half, 0.99 of it).
  EXPECT_GT(separated, 40 * testing::scaled(6));
  EXPECT_GE(within, 2 * separated - 5);
  EXPECT_GE(beyond, 3 * separated - 5);
}

TEST(Tolerance, HalfspacesAndBadInput) {
  const Sphere s(0.5);
  const Halfspace floor(Vec3::UnitZ(), 0.0);
  const Transform up = Transform::from_translation(Vec3(0, 0, 0.8));
  const Transform o = Transform::identity();
  ToleranceResult r = tolerance(s, up, floor, o, 0.31);
  EXPECT_TRUE(r.within);
  EXPECT_NEAR(r.distance, 0.3, 1e-15);
  r = tolerance(s, up, floor, o, 0.29);
  EXPECT_FALSE(r.within);
  EXPECT_NEAR(r.distance, 0.3, 1e-15);
  for (const double t : {-0.1, testing::kNan, testing::kInf}) {
    EXPECT_EQ(tolerance(s, up, floor, o, t).status, Status::invalid_input) << t;
    EXPECT_FALSE(tolerance(s, up, floor, o, t).within);
  }
  Transform bad = up;
  bad.p.z() = testing::kNan;
  EXPECT_EQ(tolerance(s, bad, floor, o, 0.1).status, Status::invalid_input);
}

// Two hulls apart along the line between their centres by more than the
// tolerance: GJK's first support call proves it (no second one), and what
// it reports is a lower bound on the true distance (the sweep oracle's,
// from the hulls' corners alone). Collide on the same pair stops there as
// well.
TEST(Tolerance, PartedAlongTheCentreLineAtTheFirstSupportCall) {
  const std::vector<Vec3> corners = {{-0.5, -0.4, -0.3}, {0.5, -0.4, -0.3}, {-0.5, 0.4, -0.3}, {0.5, 0.4, -0.3},
                                     {-0.5, -0.4, 0.3},  {0.5, -0.4, 0.3},  {-0.5, 0.4, 0.3},  {0.5, 0.4, 0.3},
                                     {0.0, 0.0, 0.45}};
  const Shape hull{ConvexPolytope(corners)};
  const auto support = [&](const Transform& t) {
    return [&corners, t](const Vec3& d) {
      Vec3 best = t.apply(corners[0]);
      for (const Vec3& c : corners)
        if (d.dot(t.apply(c)) > d.dot(best)) best = t.apply(c);
      return best;
    };
  };
  testing::Rng rng(17);
  int parted_at_once = 0;
  for (int k = 0; k < 200; ++k) {
    const Transform ta = rng.pose(0.2);
    Transform tb = rng.pose(0.2);
    tb.p += Vec3(3.0, 0.0, 0.0);
    const oracle::SweepReport truth = oracle::sweep_separation_report(support(ta), support(tb));
    ASSERT_TRUE(truth.separated);
    const ToleranceResult r = tolerance(hull, ta, hull, tb, 0.5);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_FALSE(r.within);
    EXPECT_GT(r.distance, 0.5);
    EXPECT_LE(r.distance, truth.upper + 1e-12);
    const CollideResult c = collide(hull, ta, hull, tb);
    ASSERT_EQ(c.status, Status::ok);
    EXPECT_FALSE(c.collide);
    if (r.iterations == 0) {
      ++parted_at_once;
      EXPECT_EQ(c.iterations, 0);
    }
  }
  // The origins are at least 2.6 m apart and each hull lies within 0.71 m
  // of its own: the line between the centres parts every such pair by
  // over 1.1 m.
  EXPECT_EQ(parted_at_once, 200);
}

}  // namespace
}  // namespace proxima
