// SPDX-License-Identifier: BSD-3-Clause
// Kinematic bodies against closed forms: a belt carries a box by friction
// (Coulomb: a = μ g until the box moves with the belt), a pusher moves a box
// at its own speed against friction μ m g, a scripted body passes through
// static ones, and keyframed paths interpolate as written.
#include <cmath>
#include <cstdio>
#include <numbers>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/sim/world.hpp>

#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using testing::at;

constexpr double kG = 9.81;

sim::Body kinematic_box(const std::string& name, const Vec3& size, const Transform& pose, sim::KinematicPath path) {
  sim::Body b;
  b.name = name;
  b.geometry = std::make_shared<sim::ConvexGeometry>(Shape(Box(size)));
  b.pose = pose;
  b.kinematic = std::move(path);
  return b;
}

sim::KinematicPath twist(const Vec3& v, const Vec3& w = Vec3::Zero()) {
  sim::KinematicPath p;
  p.velocity = v;
  p.angular_velocity = w;
  return p;
}

class Belt : public ::testing::TestWithParam<sim::SolverKind> {};

// A box set down on a belt moving at v slides until it moves with the belt:
// the friction μ m g accelerates it at μ g, so it reaches v after
// t* = v/(μ g), having slipped v t* − v t*/2 = v²/(2 μ g) against the belt.
TEST_P(Belt, CarriesABoxByFriction) {
  const double v = 1.0, mu = 0.5;
  sim::World w;
  w.options.solver = GetParam();
  // The sliding basis turns one friction-cone edge against the slip, so the
  // force while sliding is Coulomb's μ N along it (the polygon's other
  // edges would cut it by up to cos(π/q)).
  w.options.friction_basis = sim::FrictionBasis::sliding;
  w.friction.default_mu = mu;
  const int belt = w.add(kinematic_box("belt", Vec3(40.0, 2.0, 0.2), Transform::identity(), twist(Vec3(v, 0, 0))));
  const int box = w.add(sim::make_body("box", Box(0.2, 0.2, 0.2), 500.0, at(0.0, 0.0, 0.2)));
  const double t_star = v / (mu * kG);
  const double slip = v * v / (2.0 * mu * kG);
  const double h = w.options.dt;
  const int steps = static_cast<int>(std::lround((t_star + 0.15) / h));
  double reached = -1.0;
  int checked = 0;
  for (int i = 1; i <= steps; ++i) {
    w.step();
    const double t = w.time();
    const double vx = w.bodies()[static_cast<std::size_t>(box)].linear_velocity.x();
    // Sliding: v(t) = μ g t (symplectic Euler adds the step's μ g Δt at
    // most); carried: v.
    const double expected = std::min(v, mu * kG * t);
    ASSERT_NEAR(vx, expected, mu * kG * h + 1e-5) << "t = " << t;
    ++checked;
    if (reached < 0.0 && vx >= v - 1e-5) reached = t;
  }
  EXPECT_EQ(checked, steps);
  ASSERT_GT(reached, 0.0);
  // The step at which the box stops slipping is t* rounded up to a step.
  EXPECT_NEAR(reached, t_star, 1.5 * h);
  const double belt_x = w.bodies()[static_cast<std::size_t>(belt)].pose.p.x();
  const double box_x = w.bodies()[static_cast<std::size_t>(box)].pose.p.x();
  // The belt moved v T exactly (a constant twist).
  EXPECT_NEAR(belt_x, v * w.time(), 1e-9);
  // Slip v²/(2 μ g): the discrete velocities lead the continuous ones by at
  // most μ g Δt for t* = 0.2 s, so the slip is within v Δt of the closed form.
  const double measured_slip = belt_x - box_x;
  EXPECT_NEAR(measured_slip, slip, v * h) << "slip " << measured_slip << " m, closed form " << slip << " m";
  std::printf("  belt (%s): reached v at %.4f s (t* = %.4f s), slip %.5f m (closed form %.5f m)\n",
              sim::to_string(GetParam()), reached, t_star, measured_slip, slip);
  // The belt itself is not moved by the box.
  EXPECT_EQ(w.bodies()[static_cast<std::size_t>(belt)].linear_velocity, Vec3(v, 0, 0));
}

INSTANTIATE_TEST_SUITE_P(Solvers, Belt, ::testing::Values(sim::SolverKind::lemke, sim::SolverKind::pgs),
                         [](const auto& info) { return std::string(sim::to_string(info.param)); });

class Pusher : public ::testing::TestWithParam<sim::SolverKind> {};

// A pusher at constant speed drives a box over a floor with friction μ: once
// in contact the box moves at the pusher's speed, and the pusher's normal
// force and the floor's friction force are both μ m g.
TEST_P(Pusher, PushesABoxAtItsSpeedAgainstFriction) {
  const double v = 0.5, mu = 0.5;
  sim::World w;
  w.options.solver = GetParam();
  w.friction.default_mu = mu;
  w.add(sim::make_body("floor", Halfspace(Vec3::UnitZ(), 0.0), 0.0, Transform::identity(), true));
  const int box = w.add(sim::make_body("box", Box(0.2, 0.2, 0.2), 500.0, at(0.0, 0.0, 0.1)));
  // Its face 2 cm behind the box's, at the box's centre height (no tipping
  // moment from the push: the floor's friction alone tilts the load).
  const int pusher =
      w.add(kinematic_box("pusher", Vec3(0.1, 0.4, 0.1), at(-0.17, 0.0, 0.1), twist(Vec3(v, 0, 0))));
  w.friction.set(pusher, box, 0.0);  // a frictionless push: its force is all normal
  const double m = w.bodies()[static_cast<std::size_t>(box)].mass.mass;
  const double h = w.options.dt;
  const int steps = static_cast<int>(std::lround(0.5 / h));
  double push_sum = 0.0, friction_sum = 0.0;
  int averaged = 0;
  for (int i = 1; i <= steps; ++i) {
    w.step();
    if (w.time() < 0.3) continue;  // contact at 0.04 s; then the transient of the impact
    double push = 0.0;
    Vec3 floor_friction = Vec3::Zero();
    for (const sim::ContactImpulse& c : w.last_contacts()) {
      const bool on_box_a = c.body_a == box;
      const int other = on_box_a ? c.body_b : c.body_a;
      const Vec3 impulse_on_box = (on_box_a ? 1.0 : -1.0) * (c.normal_impulse * c.normal + c.friction_impulse);
      if (other == pusher) push += impulse_on_box.x();
      else floor_friction += impulse_on_box - impulse_on_box.dot(Vec3::UnitZ()) * Vec3::UnitZ();
    }
    push_sum += push / h;
    friction_sum += floor_friction.x() / h;
    ++averaged;
    ASSERT_NEAR(w.bodies()[static_cast<std::size_t>(box)].linear_velocity.x(), v, 1e-4) << "t = " << w.time();
  }
  ASSERT_GT(averaged, 100);
  const double push = push_sum / averaged, friction = friction_sum / averaged;
  // Coulomb's μ m g; the polyhedral cone's edge along the motion carries it
  // exactly (the fixed basis has t₁ = x for a floor normal z).
  EXPECT_NEAR(push, mu * m * kG, 0.01 * mu * m * kG);
  EXPECT_NEAR(friction, -mu * m * kG, 0.01 * mu * m * kG);
  std::printf("  pusher (%s): push %.4f N, floor friction %.4f N, μ m g = %.4f N\n", sim::to_string(GetParam()),
              push, friction, mu * m * kG);
}

INSTANTIATE_TEST_SUITE_P(Solvers, Pusher, ::testing::Values(sim::SolverKind::lemke, sim::SolverKind::pgs),
                         [](const auto& info) { return std::string(sim::to_string(info.param)); });

// Static and kinematic bodies do not meet: the scripted box keeps its path
// through a static box and the floor, and no contact involves it.
TEST(Kinematic, PassesThroughStaticBodies) {
  sim::World w;
  w.add(sim::make_body("floor", Halfspace(Vec3::UnitZ(), 0.0), 0.0, Transform::identity(), true));
  w.add(sim::make_body("wall", Box(0.2, 2.0, 2.0), 0.0, at(1.0, 0.0, 0.0), true));
  const Vec3 v(2.0, 0.0, -0.1), p0(0.0, 0.0, 0.05);
  const int k = w.add(kinematic_box("ram", Vec3(0.3, 0.3, 0.3), Transform::from_translation(p0), twist(v)));
  int checked = 0;
  for (int i = 0; i < 1000; ++i) {
    w.step();
    const Vec3 expected = p0 + w.time() * v;
    ASSERT_LE((w.bodies()[static_cast<std::size_t>(k)].pose.p - expected).norm(), 1e-12);
    ASSERT_EQ(w.last_stats().contacts, 0);
    ASSERT_EQ(w.last_stats().pairs, 0);
    ++checked;
  }
  EXPECT_EQ(checked, 1000);
}

// A constant twist turns the frame about its origin: after T at ω about z
// the orientation is the rotation by ω T, the position p₀ + v T.
TEST(Kinematic, ConstantTwistIsTheClosedFormPose) {
  sim::World w;
  w.gravity = Vec3::Zero();
  const Vec3 v(0.1, 0.2, 0.3), omega(0.0, 0.0, 1.5);
  const int k = w.add(kinematic_box("spinner", Vec3(0.1, 0.2, 0.3), Transform::identity(), twist(v, omega)));
  for (int i = 0; i < 1000; ++i) w.step();
  const sim::Body& b = w.bodies()[static_cast<std::size_t>(k)];
  const Mat3 expected = Eigen::AngleAxisd(1.5 * w.time(), Vec3::UnitZ()).toRotationMatrix();
  EXPECT_LE((b.pose.R - expected).norm(), 1e-10);
  EXPECT_LE((b.pose.p - w.time() * v).norm(), 1e-12);
  EXPECT_LE((b.angular_velocity - omega).norm(), 1e-9);
  EXPECT_LE((b.linear_velocity - v).norm(), 1e-9);
  EXPECT_EQ(b.kinetic_energy(), 0.0);  // infinite mass: no energy of its own
}

// Keyframes: linear in position, slerp in rotation, the segment's velocity
// in between, held before the first and after the last keyframe.
TEST(Kinematic, KeyframesInterpolate) {
  sim::KinematicPath path;
  const Quat q0 = Quat::Identity();
  const Quat q1(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitZ()));
  path.keyframes = {{0.5, Vec3(0, 0, 0), q0}, {1.5, Vec3(1, 2, 0), q1}, {2.5, Vec3(1, 2, 2), q1}};
  sim::World w;
  w.gravity = Vec3::Zero();
  w.options.dt = 1e-3;
  const int k = w.add(kinematic_box("arm", Vec3(0.1, 0.1, 0.1), at(5, 5, 5), path));
  const sim::Body& b = w.bodies()[static_cast<std::size_t>(k)];
  EXPECT_LE(b.pose.p.norm(), 0.0);  // placed on its path at t = 0 (before the first keyframe)
  const auto run_to = [&](double t) {
    while (w.time() < t - 0.5 * w.options.dt) w.step();
  };
  run_to(0.25);  // before the first keyframe: at rest
  EXPECT_LE(b.pose.p.norm(), 1e-15);
  EXPECT_LE(b.linear_velocity.norm(), 1e-15);
  run_to(1.0);  // halfway through the first segment
  EXPECT_LE((b.pose.p - Vec3(0.5, 1.0, 0.0)).norm(), 1e-9);
  const Mat3 half = Eigen::AngleAxisd(std::numbers::pi / 4, Vec3::UnitZ()).toRotationMatrix();
  EXPECT_LE((b.pose.R - half).norm(), 1e-9);
  // The velocity of the last step, inside the segment: (1, 2, 0) m/s and π/2 rad/s about z.
  EXPECT_LE((b.linear_velocity - Vec3(1, 2, 0)).norm(), 1e-6);
  EXPECT_LE((b.angular_velocity - Vec3(0, 0, std::numbers::pi / 2)).norm(), 1e-6);
  run_to(2.0);
  EXPECT_LE((b.pose.p - Vec3(1, 2, 1)).norm(), 1e-9);
  EXPECT_LE((b.pose.R - q1.toRotationMatrix()).norm(), 1e-9);
  EXPECT_LE((b.linear_velocity - Vec3(0, 0, 2)).norm(), 1e-6);
  EXPECT_LE(b.angular_velocity.norm(), 1e-9);
  run_to(3.0);  // held at the last keyframe
  EXPECT_LE((b.pose.p - Vec3(1, 2, 2)).norm(), 1e-12);
  EXPECT_LE(b.linear_velocity.norm(), 1e-12);
}

std::string add_error(sim::Body b) {
  sim::World w;
  try {
    w.add(std::move(b));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Kinematic, BadPathsAreRefusedByName) {
  const auto body = [](sim::KinematicPath p) { return kinematic_box("k", Vec3(1, 1, 1), Transform::identity(), p); };
  sim::KinematicPath p;
  p.keyframes = {{0.0, Vec3::Zero(), Quat::Identity()}, {0.0, Vec3::UnitX(), Quat::Identity()}};
  EXPECT_NE(add_error(body(p)).find("kinematic.keyframes[1].t: time 0 s is not after"), std::string::npos)
      << add_error(body(p));
  p.keyframes[1].t = 1.0;
  p.keyframes[1].q = Quat(1.0, 0.1, 0.0, 0.0);
  EXPECT_NE(add_error(body(p)).find("kinematic.keyframes[1].q: quaternion norm"), std::string::npos);
  p.keyframes[1].q = Quat::Identity();
  p.keyframes[1].p = Vec3(std::nan(""), 0, 0);
  EXPECT_NE(add_error(body(p)).find("kinematic.keyframes[1].p"), std::string::npos);
  p.keyframes[1].p = Vec3::UnitX();
  EXPECT_EQ(add_error(body(p)), "");
  p.velocity = Vec3(1, 0, 0);
  EXPECT_NE(add_error(body(p)).find("kinematic.keyframes: a keyframed path has no constant twist"), std::string::npos);
  EXPECT_NE(add_error(body(twist(Vec3(INFINITY, 0, 0)))).find("kinematic.velocity: must be finite"),
            std::string::npos);
  EXPECT_NE(add_error(body(twist(Vec3::Zero(), Vec3(0, NAN, 0)))).find("kinematic.angular_velocity"),
            std::string::npos);
  sim::Body s = body(twist(Vec3::UnitX()));
  s.is_static = true;
  EXPECT_EQ(add_error(s), "body \"k\": a body is static or kinematic, not both");
}

TEST(Kinematic, SetKinematicDrivesAndReleasesABody) {
  sim::World w;
  w.gravity = Vec3(0, 0, -kG);
  const int b = w.add(sim::make_body("ball", Sphere(0.1), 1000.0, Transform::identity()));
  w.set_kinematic(b, twist(Vec3(1, 0, 0)));
  for (int i = 0; i < 100; ++i) w.step();
  // Scripted: no gravity acts.
  EXPECT_LE((w.bodies()[static_cast<std::size_t>(b)].pose.p - Vec3(0.1, 0, 0)).norm(), 1e-12);
  w.set_kinematic(b, std::nullopt);
  for (int i = 0; i < 100; ++i) w.step();
  // Free again from the path's velocity: v_z = −g T (exact for symplectic Euler).
  EXPECT_NEAR(w.bodies()[static_cast<std::size_t>(b)].linear_velocity.z(), -kG * 0.1, 1e-9);
  EXPECT_NEAR(w.bodies()[static_cast<std::size_t>(b)].linear_velocity.x(), 1.0, 1e-12);
  EXPECT_THROW(w.set_kinematic(7, std::nullopt), Error);
  const int floor = w.add(sim::make_body("floor", Halfspace(Vec3::UnitZ(), -5.0), 0.0, Transform::identity(), true));
  EXPECT_THROW(w.set_kinematic(floor, twist(Vec3::Zero())), Error);
}

}  // namespace
}  // namespace proxima
