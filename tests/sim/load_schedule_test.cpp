// SPDX-License-Identifier: BSD-3-Clause
// Forces and torques that vary in time: a free body's momentum changes by
// the closed-form integral of the schedule, and a piecewise-linear schedule
// is what its keys say.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/sim/world.hpp>

#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

// A ramp from 0 to F over [0, T] held at F after: its integral to t.
Vec3 ramp_impulse(const Vec3& F, double T, double t) {
  return t <= T ? Vec3(F * (0.5 * t * t / T)) : Vec3(F * (0.5 * T + (t - T)));
}

sim::LoadSchedule ramp(const Vec3& F, double T) {
  sim::LoadSchedule s;
  s.keys = {{0.0, Vec3::Zero()}, {T, F}};
  return s;
}

// Free body (no gravity): Δp = ∫F dt, ΔL = ∫τ dt at every step, to rounding
// (the step applies the schedule's exact mean over the step). The ramp's
// end falls inside a step (T = 0.3337 s at Δt = 1 ms), which a sampled
// force would miss by up to F Δt / 2.
TEST(LoadSchedule, MomentumChangeIsTheIntegralOfTheSchedule) {
  sim::World w;
  w.gravity = Vec3::Zero();
  // An asymmetric box: it tumbles under the torque, yet L changes by ∫τ dt.
  const int b = w.add(sim::make_body("brick", Box(0.3, 0.2, 0.1), 800.0, Transform::identity()));
  const Vec3 F(3.0, -1.0, 2.0), tau(0.2, 0.5, -0.1);
  const double T = 0.3337;
  w.set_force_schedule(b, ramp(F, T));
  w.set_torque_schedule(b, ramp(tau, T));
  const double m = w.bodies()[0].mass.mass;
  int checked = 0;
  for (int i = 0; i < 600; ++i) {
    w.step();
    const sim::Body& x = w.bodies()[static_cast<std::size_t>(b)];
    const Vec3 p = m * x.linear_velocity, L = x.inertia_world() * x.angular_velocity;
    ASSERT_LE((p - ramp_impulse(F, T, w.time())).norm(), 1e-12 * (1.0 + F.norm())) << "t = " << w.time();
    ASSERT_LE((L - ramp_impulse(tau, T, w.time())).norm(), 1e-9 * (1.0 + tau.norm())) << "t = " << w.time();
    ++checked;
  }
  EXPECT_EQ(checked, 600);
  // Held at the last key: the force is F from then on.
  EXPECT_LE((w.bodies()[0].force - F).norm(), 1e-12);
}

TEST(LoadSchedule, PiecewiseLinearValuesAndMeans) {
  sim::LoadSchedule s;
  s.keys = {{1.0, Vec3(2, 0, 0)}, {2.0, Vec3(4, 0, 0)}, {4.0, Vec3(0, 0, 0)}};
  EXPECT_EQ(s.at(0.0), Vec3(2, 0, 0));  // held before the first key
  EXPECT_EQ(s.at(1.5), Vec3(3, 0, 0));
  EXPECT_EQ(s.at(3.0), Vec3(2, 0, 0));
  EXPECT_EQ(s.at(9.0), Vec3(0, 0, 0));  // held after the last
  // ∫₀⁵ = 2 (held) + 3 + 4 + 0 = 9 over 5 s.
  EXPECT_NEAR(s.mean(0.0, 5.0).x(), 9.0 / 5.0, 1e-14);
  // Across the corner at 2 s: ∫_{1.5}^{3} = (3 + 4)/2·0.5 + (4 + 2)/2·1 = 4.75.
  EXPECT_NEAR(s.mean(1.5, 3.0).x(), 4.75 / 1.5, 1e-14);
}

TEST(LoadSchedule, BadSchedulesAreRefusedByName) {
  sim::World w;
  const int b = w.add(sim::make_body("ball", Sphere(0.1), 1000.0, Transform::identity()));
  sim::LoadSchedule s;
  s.keys = {{0.0, Vec3::Zero()}, {0.0, Vec3::UnitX()}};
  try {
    w.set_force_schedule(b, s);
    ADD_FAILURE() << "accepted times that do not increase";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "body \"ball\": force[1].t: time 0 s is not after the previous key's 0 s");
  }
  s.keys[1] = {1.0, Vec3(NAN, 0, 0)};
  try {
    w.set_torque_schedule(b, s);
    ADD_FAILURE() << "accepted a NaN torque";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "body \"ball\": torque[1]: value must be finite");
  }
  EXPECT_THROW(w.set_force_schedule(3, {}), Error);
}

// The energy bookkeeping: a constant force is a potential (E = K + U kept),
// a scheduled one is not counted in U, so K + U grows by its work.
TEST(LoadSchedule, PotentialEnergyCountsConstantForcesOnly) {
  sim::World w;
  w.gravity = Vec3::Zero();
  const int a = w.add(sim::make_body("a", Sphere(0.1), 1000.0, Transform::identity()));
  const int b = w.add(sim::make_body("b", Sphere(0.1), 1000.0, testing::at(5, 0, 0)));
  w.bodies()[static_cast<std::size_t>(a)].force = Vec3(1, 0, 0);
  sim::LoadSchedule s;
  s.keys = {{0.0, Vec3(1, 0, 0)}};  // constant, but a schedule
  w.set_force_schedule(b, s);
  for (int i = 0; i < 1000; ++i) w.step();
  const sim::Body& A = w.bodies()[static_cast<std::size_t>(a)];
  const sim::Body& B = w.bodies()[static_cast<std::size_t>(b)];
  // U counts A's −F·x only.
  EXPECT_NEAR(w.potential_energy(), -A.pose.p.x(), 1e-12);
  // A: K + U conserved up to the symplectic step's O(Δt) offset, F Δt v / 2.
  EXPECT_NEAR(A.kinetic_energy() - A.pose.p.x(), 0.0, A.linear_velocity.x() * 1e-3);
  // B: K equals the work F·Δx (to the same O(Δt)).
  EXPECT_NEAR(B.kinetic_energy(), B.pose.p.x() - 5.0, B.linear_velocity.x() * 1e-3);
}

}  // namespace
}  // namespace proxima
