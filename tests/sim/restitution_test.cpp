// SPDX-License-Identifier: BSD-3-Clause
// Newton's restitution against closed forms: a body dropped from height h
// bounces back to e² h; resting contacts stay at rest with e > 0; e = 0
// leaves no bounce.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include <proxima/sim/world.hpp>

#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using testing::at;

constexpr double kGravity = 9.81;

struct Case {
  sim::SolverKind solver;
  sim::Formulation formulation;
  bool box;  // a box landing flat on a static box (four contacts), else a sphere on a halfspace
};

std::string name_of(const Case& c) {
  return std::string(sim::to_string(c.solver)) + "_" + sim::to_string(c.formulation) + (c.box ? "_box" : "_sphere");
}

// Height of the body's lowest point above the floor's top (z = 0).
struct Drop {
  sim::World w;
  int body = -1;
  double half = 0.0;  // half height of the dropped body
  double bottom() const { return w.bodies()[static_cast<std::size_t>(body)].pose.p.z() - half; }
  double vz() const { return w.bodies()[static_cast<std::size_t>(body)].linear_velocity.z(); }
};

Drop drop(const Case& c, double h, double e) {
  Drop d;
  d.w.options.solver = c.solver;
  d.w.options.formulation = c.formulation;
  d.w.restitution.default_e = e;
  d.half = 0.1;
  if (c.box) {
    d.w.add(sim::make_body("floor", Box(4.0, 4.0, 0.2), 0.0, at(0, 0, -0.1), true));
    d.body = d.w.add(sim::make_body("box", Box(0.2, 0.2, 0.2), 500.0, at(0, 0, h + d.half)));
  } else {
    d.w.add(sim::make_body("floor", Halfspace(Vec3::UnitZ(), 0.0), 0.0, Transform::identity(), true));
    d.body = d.w.add(sim::make_body("ball", Sphere(d.half), 500.0, at(0, 0, h + d.half)));
  }
  return d;
}

class Bounce : public ::testing::TestWithParam<Case> {};

// Dropped from h, the body meets the floor at v = √(2 g h) and leaves at
// e v, so it climbs to e² h. The step resolves the impact at the step whose
// gap it would close, so the body turns within v Δt of the surface, and the
// sampled velocities differ from the continuous ones by g Δt: the peak is
// within 2 v Δt of e² h (8.9 mm for h = 1 m at Δt = 1 ms).
TEST_P(Bounce, ReachesESquaredH) {
  const double h = 1.0, e = 0.5;
  Drop d = drop(GetParam(), h, e);
  const double v = std::sqrt(2.0 * kGravity * h), dt = d.w.options.dt;
  bool bounced = false;
  double peak = -1.0;
  for (int i = 0; i < 1000 && !(bounced && d.vz() < 0.0); ++i) {
    d.w.step();
    if (!bounced && d.vz() > 0.0) bounced = true;
    if (bounced) peak = std::max(peak, d.bottom());
  }
  ASSERT_TRUE(bounced);
  EXPECT_NEAR(peak, e * e * h, 2.0 * v * dt) << name_of(GetParam());
  std::printf("  %s: bounce to %.5f m (e² h = %.5f m)\n", name_of(GetParam()).c_str(), peak, e * e * h);
}

// e = 0: the body lands and stays (no upward speed beyond the ψ/Δt
// correction of its small landing penetration).
TEST_P(Bounce, ZeroRestitutionDoesNotBounce) {
  Drop d = drop(GetParam(), 0.5, 0.0);
  double up = 0.0;
  int landed = 0;
  for (int i = 0; i < 800; ++i) {
    d.w.step();
    if (d.w.time() > 0.4) {  // landed at √(2·0.5/g) = 0.32 s
      up = std::max(up, d.vz());
      ++landed;
    }
  }
  ASSERT_GT(landed, 0);
  EXPECT_LT(up, 0.05) << name_of(GetParam());
  EXPECT_NEAR(d.bottom(), 0.0, 2e-3);
}

INSTANTIATE_TEST_SUITE_P(
    Solvers, Bounce,
    ::testing::Values(Case{sim::SolverKind::lemke, sim::Formulation::stewart_trinkle, false},
                      Case{sim::SolverKind::pgs, sim::Formulation::stewart_trinkle, false},
                      Case{sim::SolverKind::lemke, sim::Formulation::stewart_trinkle, true},
                      Case{sim::SolverKind::pgs, sim::Formulation::stewart_trinkle, true},
                      Case{sim::SolverKind::lemke, sim::Formulation::peg, true},
                      Case{sim::SolverKind::pgs, sim::Formulation::peg, true}),
    [](const auto& info) { return name_of(info.param); });

class RestingStack : public ::testing::TestWithParam<sim::SolverKind> {};

// Three boxes resting on each other with e = 0.8: contacts that only carry
// weight are no impacts (approach g Δt per step, below the threshold), so
// the stack stays put.
TEST_P(RestingStack, StaysAtRestWithRestitution) {
  sim::World w;
  w.options.solver = GetParam();
  w.restitution.default_e = 0.8;
  w.add(sim::make_body("floor", Halfspace(Vec3::UnitZ(), 0.0), 0.0, Transform::identity(), true));
  int top = -1;
  for (int k = 0; k < 3; ++k) top = w.add(sim::make_body("box", Box(0.2, 0.2, 0.2), 500.0, at(0, 0, 0.1 + 0.2 * k)));
  const Vec3 start = w.bodies()[static_cast<std::size_t>(top)].pose.p;
  double fastest = 0.0;
  const int steps = testing::scaled(2000);
  for (int i = 0; i < steps; ++i) {
    w.step();
    for (const sim::Body& b : w.bodies()) fastest = std::max(fastest, b.linear_velocity.norm());
  }
  EXPECT_LT(fastest, 0.01) << "a contact bounced";
  EXPECT_LT((w.bodies()[static_cast<std::size_t>(top)].pose.p - start).norm(), 1e-3);
  std::printf("  resting stack (%s, e = 0.8): fastest %.2e m/s, top moved %.2e m\n", sim::to_string(GetParam()),
              fastest, (w.bodies()[static_cast<std::size_t>(top)].pose.p - start).norm());
}

INSTANTIATE_TEST_SUITE_P(Solvers, RestingStack, ::testing::Values(sim::SolverKind::lemke, sim::SolverKind::pgs),
                         [](const auto& info) { return std::string(sim::to_string(info.param)); });

// Per-pair overrides: two balls on one floor, the pair table's e for one,
// the default for the other.
TEST(Restitution, PairOverridesTheDefault) {
  sim::World w;
  w.restitution.default_e = 0.3;
  const int floor = w.add(sim::make_body("floor", Halfspace(Vec3::UnitZ(), 0.0), 0.0, Transform::identity(), true));
  const int a = w.add(sim::make_body("a", Sphere(0.1), 500.0, at(0, 0, 1.1)));
  const int b = w.add(sim::make_body("b", Sphere(0.1), 500.0, at(1, 0, 1.1)));
  w.restitution.set(b, floor, 0.9);
  EXPECT_EQ(w.restitution.e(floor, a), 0.3);
  EXPECT_EQ(w.restitution.e(floor, b), 0.9);
  double peak[2] = {-1, -1};
  bool bounced[2] = {false, false};
  for (int i = 0; i < 1400; ++i) {
    w.step();
    for (int k = 0; k < 2; ++k) {
      const sim::Body& x = w.bodies()[static_cast<std::size_t>(k == 0 ? a : b)];
      if (x.linear_velocity.z() > 0.0) bounced[k] = true;
      if (bounced[k] && x.linear_velocity.z() >= 0.0) peak[k] = std::max(peak[k], x.pose.p.z() - 0.1);
    }
  }
  const double tol = 2.0 * std::sqrt(2.0 * kGravity) * w.options.dt;
  EXPECT_NEAR(peak[0], 0.3 * 0.3, tol);
  EXPECT_NEAR(peak[1], 0.9 * 0.9, tol);
}

}  // namespace
}  // namespace proxima
