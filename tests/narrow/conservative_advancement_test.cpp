// SPDX-License-Identifier: BSD-3-Clause
// The advancement loop (narrow::advance) on a distance the test writes down
// itself: d(t) = max(0, d0 − v t), closing at speed v. Its safety branches
// (an unconverged distance, no speed bound, the iteration cap) are what a
// real GJK call reaches too rarely to test through the shapes: here the
// distance answers exactly what each branch needs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <proxima/narrow/conservative_advancement.hpp>

namespace proxima {
namespace {

// The line's distance at t with the status the caller picks.
DistanceResult line_distance(double d0, double v, double t, Status status = Status::ok) {
  DistanceResult r;
  r.status = status;
  r.distance = std::max(0.0, d0 - v * t);
  return r;
}

TEST(ConservativeAdvancement, ReachesTheContactOfAClosingLineFromBelow) {
  for (const double v : {0.5, 2.0, 10.0}) {
    const double d0 = 1.0, contact = d0 / v;
    TimeOfImpactRequest req;
    const TimeOfImpactResult r = narrow::advance(
        req, [&](double t) { return line_distance(d0, v, t); }, [&](const DistanceResult&) { return v; });
    if (contact >= 1.0) {
      EXPECT_FALSE(r.collide) << v;
      EXPECT_EQ(r.time, 1.0);
      continue;
    }
    ASSERT_TRUE(r.collide) << v;
    EXPECT_EQ(r.status, Status::ok);
    EXPECT_LE(r.time, contact);  // never past the contact
    EXPECT_LE(line_distance(d0, v, r.time).distance, req.accuracy);
    EXPECT_EQ(r.witness_time, r.time);
  }
}

TEST(ConservativeAdvancement, AnUnconvergedDistanceStopsWithTheSafeAnswer) {
  // Converged at t = 0 only: every later distance is an upper bound, from
  // which a step could pass the contact.
  const double d0 = 1.0, v = 2.0;
  TimeOfImpactRequest req;
  int calls = 0;
  const TimeOfImpactResult r = narrow::advance(
      req,
      [&](double t) {
        ++calls;
        return line_distance(d0, v, t, t > 0.0 ? Status::not_converged : Status::ok);
      },
      [&](const DistanceResult&) { return 2.0 * v; });  // loose: one step ends halfway
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(r.status, Status::not_converged);
  EXPECT_TRUE(r.collide);
  // The one step taken from the converged distance: clear up to there.
  const double step = (d0 - 0.5 * req.accuracy) / (2.0 * v);
  EXPECT_DOUBLE_EQ(r.time, step);
  EXPECT_LE(r.time, d0 / v);
  EXPECT_EQ(r.witness.status, Status::not_converged);
}

TEST(ConservativeAdvancement, AnUnconvergedDistanceWithinReachIsAContact) {
  // Unconverged but already at most clearance + accuracy: an upper bound
  // that low is a contact, whatever the exact value.
  TimeOfImpactRequest req;
  req.clearance = 0.1;
  const TimeOfImpactResult r = narrow::advance(
      req, [&](double t) { return line_distance(0.1, 1.0, t, Status::not_converged); },
      [&](const DistanceResult&) { return 1.0; });
  EXPECT_TRUE(r.collide);
  EXPECT_EQ(r.time, 0.0);
  EXPECT_EQ(r.iterations, 1);
}

TEST(ConservativeAdvancement, NoSpeedBoundCannotRuleContactOut) {
  TimeOfImpactRequest req;
  const TimeOfImpactResult r = narrow::advance(
      req, [&](double t) { return line_distance(1.0, 0.0, t); },
      [&](const DistanceResult&) { return std::numeric_limits<double>::infinity(); });
  EXPECT_EQ(r.status, Status::not_converged);
  EXPECT_TRUE(r.collide);
  EXPECT_EQ(r.time, 0.0);
  const TimeOfImpactResult nan = narrow::advance(
      req, [&](double t) { return line_distance(1.0, 0.0, t); },
      [&](const DistanceResult&) { return std::numeric_limits<double>::quiet_NaN(); });
  EXPECT_EQ(nan.status, Status::not_converged);
  EXPECT_TRUE(nan.collide);
}

TEST(ConservativeAdvancement, NothingClosingInIsNoContact) {
  TimeOfImpactRequest req;
  for (const double mu : {0.0, -1.0}) {
    const TimeOfImpactResult r = narrow::advance(
        req, [&](double t) { return line_distance(1.0, 0.0, t); }, [&](const DistanceResult&) { return mu; });
    EXPECT_EQ(r.status, Status::ok) << mu;
    EXPECT_FALSE(r.collide) << mu;
    EXPECT_EQ(r.time, 1.0);
    EXPECT_EQ(r.iterations, 1);
  }
}

TEST(ConservativeAdvancement, TheCapGivesAProvenLowerBound) {
  // A bound 1000× the true speed: tiny steps, so the cap ends the search.
  const double d0 = 1.0, v = 1.5;
  TimeOfImpactRequest req;
  req.max_iterations = 20;
  const TimeOfImpactResult r = narrow::advance(
      req, [&](double t) { return line_distance(d0, v, t); }, [&](const DistanceResult&) { return 1000.0 * v; });
  EXPECT_EQ(r.status, Status::not_converged);
  EXPECT_TRUE(r.collide);
  EXPECT_EQ(r.iterations, req.max_iterations);
  EXPECT_GT(r.time, 0.0);
  EXPECT_LT(r.time, d0 / v);  // the pair is clear up to it
  EXPECT_GT(line_distance(d0, v, r.time).distance, req.clearance);
}

TEST(ConservativeAdvancement, RejectedDistancesPassTheirStatusOn) {
  TimeOfImpactRequest req;
  for (const Status s : {Status::invalid_input, Status::not_implemented}) {
    const TimeOfImpactResult r = narrow::advance(
        req, [&](double t) { return line_distance(1.0, 1.0, t, s); }, [&](const DistanceResult&) { return 1.0; });
    EXPECT_EQ(r.status, s);
    EXPECT_FALSE(r.collide);
  }
}

}  // namespace
}  // namespace proxima
