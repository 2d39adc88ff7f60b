// SPDX-License-Identifier: BSD-3-Clause
// Temporal coherence of contacts (contact_cache.hpp): the re-expression of
// a cached set is exact for rigid motions of the pair and first-order exact
// along the normal; the World reuses a resting pair's set and queries again
// after motion, teleports, new geometry or a cleared cache.
#include <algorithm>
#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include <proxima/sim/world.hpp>

#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

constexpr double kG = 9.81;

// A set of two contacts between A (above) and B (below), generated at the
// given poses: normal +z (B→A), points on the plane z = 0.
sim::CachedPair generated_at(const Transform& a, const Transform& b) {
  std::vector<Contact> fresh(2);
  fresh[0].point = Vec3(0.05, 0.05, 0.0);
  fresh[1].point = Vec3(-0.05, 0.02, 0.0);
  for (Contact& c : fresh) {
    c.normal = Vec3::UnitZ();
    c.depth = 1e-4;
  }
  fresh[1].feature_a = 3;
  sim::CachedPair p;
  sim::store_contacts(p, fresh, a, b);
  return p;
}

TEST(ContactCache, ARigidMotionOfThePairKeepsTheSetAndItsDepths) {
  const Transform a = Transform::from_translation(Vec3(0, 0, 0.05)), b = Transform::from_translation(Vec3(0, 0, -0.05));
  const sim::CachedPair p = generated_at(a, b);
  const Transform m = Transform::from_axis_angle(Vec3(1, 2, 3).normalized(), 0.7, Vec3(0.3, -2.0, 1.0));
  std::vector<Contact> out;
  ASSERT_TRUE(sim::reuse_contacts(p, m * a, m * b, sim::ContactReuse{}, out));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_LE((out[0].point - m.apply(Vec3(0.05, 0.05, 0.0))).norm(), 1e-15);
  EXPECT_LE((out[1].normal - m.rotate(Vec3::UnitZ())).norm(), 1e-15);
  EXPECT_NEAR(out[0].depth, 1e-4, 1e-15);
  EXPECT_EQ(out[1].feature_a, 3);
  EXPECT_FALSE(out[0].intersecting);
}

TEST(ContactCache, MotionAlongTheNormalChangesTheDepthByTheMotion) {
  const Transform a = Transform::from_translation(Vec3(0, 0, 0.05)), b = Transform::identity();
  const sim::CachedPair p = generated_at(a, b);
  std::vector<Contact> out;
  // A lifts 0.4 µm: the overlap shrinks by as much.
  ASSERT_TRUE(sim::reuse_contacts(p, Transform::from_translation(Vec3(0, 0, 0.05 + 4e-7)), b, {}, out));
  EXPECT_NEAR(out[0].depth, 1e-4 - 4e-7, 1e-15);
  EXPECT_NEAR(out[0].point.z(), 2e-7, 1e-15);  // midway between the two bodies' points
  // A twist about the normal moves the points by ≤ 0.1 µm: still reused.
  out.clear();
  ASSERT_TRUE(sim::reuse_contacts(p, Transform::from_axis_angle(Vec3::UnitZ(), 1e-6, Vec3(0, 0, 0.05)), b, {}, out));
  EXPECT_NEAR(out[0].depth, 1e-4, 1e-12);
}

TEST(ContactCache, TooMuchMotionOrTurnAsksForANewQuery) {
  const Transform a = Transform::from_translation(Vec3(0, 0, 0.05)), b = Transform::identity();
  const sim::CachedPair p = generated_at(a, b);
  std::vector<Contact> out;
  // 2 µm sideways (the bound is 1 µm).
  EXPECT_FALSE(sim::reuse_contacts(p, Transform::from_translation(Vec3(2e-6, 0, 0.05)), b, {}, out));
  // A tilt of 2 µrad about a point: no point moves by 1 µm, the normal turns.
  const Transform tilt = Transform::from_translation(Vec3(0.05, 0.05, 0.0)) *
                         Transform::from_axis_angle(Vec3::UnitX(), 2e-6) *
                         Transform::from_translation(Vec3(-0.05, -0.05, 0.0));
  EXPECT_FALSE(sim::reuse_contacts(p, a, tilt * b, {}, out));
  EXPECT_TRUE(out.empty());  // a refused reuse appends nothing
  // A turn of 2 µrad about the normal through a cached point: that point
  // stays put and no normal turns, yet features 5 cm away move by 0.1 µm
  // (and by any amount as the turn grows): refused, for a one-point set too.
  const Transform spin = Transform::from_translation(Vec3(0.05, 0.05, 0.0)) *
                         Transform::from_axis_angle(Vec3::UnitZ(), 2e-6) *
                         Transform::from_translation(Vec3(-0.05, -0.05, 0.0));
  EXPECT_FALSE(sim::reuse_contacts(p, a, spin * b, {}, out));
  sim::CachedPair one = p;
  one.points.resize(1);
  EXPECT_TRUE(sim::reuse_contacts(one, a, b, {}, out));
  out.clear();
  const Transform big_spin = Transform::from_translation(Vec3(0.05, 0.05, 0.0)) *
                             Transform::from_axis_angle(Vec3::UnitZ(), 0.3) *
                             Transform::from_translation(Vec3(-0.05, -0.05, 0.0));
  EXPECT_FALSE(sim::reuse_contacts(one, a, big_spin * b, {}, out));
  EXPECT_TRUE(out.empty());
  // A zero bound allows no motion at all.
  sim::ContactReuse zero;
  zero.max_motion = 0.0;
  EXPECT_FALSE(sim::reuse_contacts(p, Transform::from_translation(Vec3(0, 0, 0.05 + 1e-9)), b, zero, out));
}

TEST(ContactCache, IntersectingCoresAreNeverReused) {
  std::vector<Contact> fresh(1);
  fresh[0].intersecting = true;
  sim::CachedPair p;
  sim::store_contacts(p, fresh, Transform::identity(), Transform::identity());
  std::vector<Contact> out;
  EXPECT_FALSE(sim::reuse_contacts(p, Transform::identity(), Transform::identity(), {}, out));
}

TEST(ContactCache, ANewSetTakesTheImpulsesOfTheNearestOldPoint) {
  sim::CachedPair p = generated_at(Transform::identity(), Transform::identity());
  p.points[0].normal_impulse = 1.0;
  p.points[1].normal_impulse = 2.0;
  p.points[1].friction_impulse = Vec3(0.1, 0, 0);
  std::vector<Contact> fresh(3);
  fresh[0].point = Vec3(-0.0501, 0.02, 0.0);  // near the old second point, same features
  fresh[0].feature_a = 3;
  fresh[1].point = Vec3(-0.0501, 0.02, 0.0);  // same place, other features
  fresh[2].point = Vec3(0.05, 0.05, 0.02);    // 2 cm from the old first point
  sim::store_contacts(p, fresh, Transform::identity(), Transform::identity());
  sim::match_impulses(p, 0.01);
  EXPECT_EQ(p.points[0].normal_impulse, 2.0);
  EXPECT_EQ(p.points[0].friction_impulse, Vec3(0.1, 0, 0));
  EXPECT_EQ(p.points[1].normal_impulse, 0.0);
  EXPECT_EQ(p.points[2].normal_impulse, 0.0);
}

// A box on the floor, PGS.
sim::World box_on_floor(bool reuse) {
  sim::World w;
  w.options.solver = sim::SolverKind::pgs;
  w.options.reuse.enabled = reuse;
  w.add(sim::make_body("floor", Halfspace(Vec3::UnitZ(), 0.0), 0.0, Transform::identity(), true));
  w.add(sim::make_body("box", Box(0.2, 0.3, 0.1), 800.0, Transform::from_axis_angle(Vec3::UnitZ(), 0.3, Vec3(0.1, -0.2, 0.05))));
  return w;
}

double support(const sim::World& w) {
  double n = 0.0;
  for (const sim::ContactImpulse& c : w.last_contacts()) n += c.normal_impulse;
  return n / w.options.dt;
}

TEST(ContactCacheWorld, ARestingBoxReusesItsContactsAndStillCarriesItsWeight) {
  sim::World w = box_on_floor(true);
  sim::World fresh = box_on_floor(false);
  const double weight = w.bodies()[1].mass.mass * kG;
  int reused = 0;
  double worst = 0.0;
  const int steps = 2000;
  for (int i = 0; i < steps; ++i) {
    reused += w.step().reused;
    fresh.step();
    EXPECT_EQ(fresh.last_stats().reused, 0);
    if (i >= 100) worst = std::max(worst, std::abs(support(w) - weight) / weight);
  }
  EXPECT_GE(reused, steps * 9 / 10);
  EXPECT_EQ(w.last_stats().contacts, 4);
  EXPECT_LE(worst, 1e-6);
  // The same rest as with a query every step.
  EXPECT_LE((w.bodies()[1].pose.p - fresh.bodies()[1].pose.p).norm(), 1e-8);
  EXPECT_LE((w.bodies()[1].pose.R - fresh.bodies()[1].pose.R).norm(), 1e-8);
}

TEST(ContactCacheWorld, ASlidingBoxIsQueriedEveryStep) {
  sim::World w = box_on_floor(true);
  w.friction.default_mu = 0.0;
  w.bodies()[1].linear_velocity = Vec3(1.0, 0.0, 0.0);
  for (int i = 0; i < 200; ++i) {
    EXPECT_EQ(w.step().reused, 0) << "step " << i;
    EXPECT_EQ(w.last_stats().contacts, 4);
  }
}

TEST(ContactCacheWorld, TeleportsNewGeometryAndClearingForceANewQuery) {
  sim::World w = box_on_floor(true);
  for (int i = 0; i < 300; ++i) w.step();
  ASSERT_EQ(w.step().reused, 1);
  // Lifted by 3 mm (inside the 5 mm margin): the contacts report the gap.
  w.bodies()[1].pose.p.z() += 3e-3;
  ASSERT_EQ(w.step().reused, 0);
  ASSERT_EQ(w.last_contacts().size(), 4u);
  for (const sim::ContactImpulse& c : w.last_contacts()) EXPECT_NEAR(c.depth, -3e-3, 1e-5);
  // Put back, settled again, then a larger box of the same pose.
  w.bodies()[1].pose.p.z() -= 3e-3;
  w.bodies()[1].linear_velocity.setZero();
  for (int i = 0; i < 300; ++i) w.step();
  ASSERT_EQ(w.step().reused, 1);
  w.bodies()[1].geometry = std::make_shared<sim::ConvexGeometry>(Box(0.2, 0.3, 0.1 + 2e-3));
  ASSERT_EQ(w.step().reused, 0);
  for (const sim::ContactImpulse& c : w.last_contacts()) EXPECT_NEAR(c.depth, 1e-3, 1e-5);
  for (int i = 0; i < 300; ++i) w.step();
  ASSERT_EQ(w.step().reused, 1);
  w.clear_contact_cache();
  EXPECT_EQ(w.step().reused, 0);
}

TEST(ContactCacheWorld, LemkeAlwaysQueries) {
  sim::World w = box_on_floor(true);
  w.options.solver = sim::SolverKind::lemke;
  for (int i = 0; i < 300; ++i) EXPECT_EQ(w.step().reused, 0);
}

// Two boxes stacked on the floor, added in either order: the same rest and
// both reuse. Not bitwise: the swapped query and the PGS visiting order
// differ at rounding, and the sweeps stop at 1e-6 m/s; without the cache
// the two orders end 3e-10 m and 1.2e-8 rad apart (the top box's twist is
// the least constrained), with it 7e-10 m and 1.7e-8 rad.
TEST(ContactCacheWorld, BodyOrderDoesNotChangeTheOutcome) {
  const auto stack = [](bool reversed) {
    sim::World w;
    w.options.solver = sim::SolverKind::pgs;
    std::vector<sim::Body> b;
    b.push_back(sim::make_body("floor", Halfspace(Vec3::UnitZ(), 0.0), 0.0, Transform::identity(), true));
    b.push_back(sim::make_body("low", Box(0.2, 0.2, 0.1), 800.0, Transform::from_translation(Vec3(0, 0, 0.05))));
    b.push_back(sim::make_body("high", Box(0.1, 0.1, 0.1), 800.0,
                               Transform::from_axis_angle(Vec3::UnitZ(), 0.4, Vec3(0.02, 0, 0.15))));
    if (reversed) std::reverse(b.begin(), b.end());
    for (sim::Body& x : b) w.add(x);
    int reused = 0;
    for (int i = 0; i < 1500; ++i) reused += w.step().reused;
    return std::make_pair(w, reused);
  };
  const auto [w1, r1] = stack(false);
  const auto [w2, r2] = stack(true);
  EXPECT_GE(r1, 2 * 1500 * 9 / 10);
  EXPECT_GE(r2, 2 * 1500 * 9 / 10);
  for (const char* name : {"low", "high"}) {
    const sim::Body& b1 = w1.bodies()[static_cast<std::size_t>(w1.find(name))];
    const sim::Body& b2 = w2.bodies()[static_cast<std::size_t>(w2.find(name))];
    EXPECT_LE((b1.pose.p - b2.pose.p).norm(), 1e-8) << name;
    EXPECT_LE((b1.pose.R - b2.pose.R).norm(), 1e-7) << name;
  }
}

}  // namespace
}  // namespace proxima
