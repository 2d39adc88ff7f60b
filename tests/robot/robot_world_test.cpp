// SPDX-License-Identifier: BSD-3-Clause
// A robot touching the world, against closed forms: a one-link arm resting
// on a box edge (normal force from torque balance), a box dropped on a
// PD-held link (joint torque from the gravity of link and box), a cube on a
// tilted link sticking below atan μ and sliding at g (sin α − μ cos α)
// above, a cube on a link held by its joint limit carrying exactly its
// weight, stacked bodies carrying their weights, an arm swinging into the
// floor (no penetration, energy never above its start), and the inputs the
// step refuses; under self-collision, the arm resting on a block of its own
// base (the same torque balance) and a folding link resting on another
// moving link (no moment about its hinge).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <tuple>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/collision_matrix.hpp>
#include <proxima/robot/robot_world.hpp>
#include <proxima/robot/urdf.hpp>

#include "../support/test_shapes.hpp"
#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using Eigen::VectorXd;
using robot_test::exact;

constexpr double kGravity = 9.81;

// One link on a revolute joint about +y at the origin (positive q turns the
// link's x axis down): a uniform plate len × w × t along x whose centre of
// mass, at len/2 on the axis, is where its collision box is centred.
struct PlateArm {
  double m = 2.0, len = 1.0, w = 0.1, t = 0.04;
  std::string joint_type = "continuous";
  double lc() const { return 0.5 * len; }
  std::string urdf(const std::string& joint_extra = "") const {
    const double ixx = m * (w * w + t * t) / 12.0, iyy = m * (len * len + t * t) / 12.0,
                 izz = m * (len * len + w * w) / 12.0;
    std::string s = "<robot name=\"arm\"><link name=\"base\"/><link name=\"plate\"><inertial><origin xyz=\"";
    s += exact(lc()) + " 0 0\"/><mass value=\"" + exact(m) + "\"/><inertia ixx=\"" + exact(ixx) + "\" iyy=\"" +
         exact(iyy) + "\" izz=\"" + exact(izz) + "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>";
    s += "<collision><origin xyz=\"" + exact(lc()) + " 0 0\"/><geometry><box size=\"" + exact(len) + " " + exact(w) +
         " " + exact(t) + "\"/></geometry></collision></link>";
    s += "<joint name=\"pivot\" type=\"" + joint_type + "\"><parent link=\"base\"/><child link=\"plate\"/>"
         "<axis xyz=\"0 1 0\"/>" + joint_extra + "</joint></robot>";
    return s;
  }
  RobotGeometry geometry(const std::string& joint_extra = "") const {
    return RobotGeometry(parse_urdf(urdf(joint_extra), "."));
  }
};

ArticulatedState at(double q, double qd = 0.0) { return {VectorXd::Constant(1, q), VectorXd::Constant(1, qd)}; }

sim::Body static_body(const std::string& name, Shape shape, const Transform& pose) {
  return sim::make_body(name, std::move(shape), 0.0, pose, true);
}

// Steps n times; returns the deepest contact seen.
double step_deepest(RobotWorld& rw, int n) {
  double deepest = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    rw.step();
    for (const RobotContact& c : rw.last_contacts()) deepest = std::max(deepest, c.depth);
  }
  return deepest;
}

// Resting on contacts: the link has stopped and sits where the geometry puts
// it. A contact approached with a gap asks for at most that gap's closing,
// so the link never sinks past touching by more than rounding.
void expect_resting(const RobotWorld& rw, double q_rest, double deepest) {
  EXPECT_FALSE(rw.last_contacts().empty());
  EXPECT_EQ(rw.last_stats().status, sim::LcpStatus::ok);
  EXPECT_NEAR(rw.robot().state().qd[0], 0.0, 1e-9);
  EXPECT_NEAR(rw.robot().state().q[0], q_rest, 1e-7);
  EXPECT_LE(deepest, 1e-9);
}

// The plate arm with ArmRestingOnABoxEdge…'s block as a collision box of its
// own base link.
RobotGeometry plate_over_own_block(const PlateArm& arm) {
  std::string urdf = arm.urdf();
  const std::string bare = "<link name=\"base\"/>";
  urdf.replace(urdf.find(bare), bare.size(),
               "<link name=\"base\"><collision><origin xyz=\"0.45 0 -0.8\"/><geometry><box size=\"0.5 1 1\"/>"
               "</geometry></collision></link>");
  return RobotGeometry(parse_urdf(urdf, "."));
}

class RobotWorldSolvers : public ::testing::TestWithParam<sim::SolverKind> {};

TEST_P(RobotWorldSolvers, ArmRestingOnABoxEdgeCarriesTheTorqueBalanceForce) {
  // The plate's underside rests on the top edge of a static block, the edge
  // along y at (ex, ez). Geometry alone fixes the rest angle: the underside
  // lies t/2 from the axis, so with the edge at distance d and depression α
  // from the pivot, sin(q − α) = t / (2d)·(−1) gives q = α − asin(t / 2d),
  // and the contact sits s = √(d² − t²/4) along the link. Frictionless, the
  // force is along the plate's normal, so its moment about the pivot is N s
  // and torque balance gives N = m g l_c cos q / s.
  const PlateArm arm;
  const double ex = 0.7, ez = -0.3;
  const double d = std::hypot(ex, ez), alpha = std::atan2(-ez, ex);
  const double q_rest = alpha - std::asin(arm.t / (2.0 * d)), s = std::sqrt(d * d - 0.25 * arm.t * arm.t);
  sim::World w;
  w.friction.default_mu = 0.0;
  w.options.solver = GetParam();
  w.options.dt = 1e-3;
  // The block spans x ∈ [0.2, 0.7], z ∈ [−1.3, −0.3]: its top-right edge is
  // the one the plate, sloping down away from the pivot, meets.
  w.add(static_body("block", Box(0.5, 1.0, 1.0), Transform::from_translation(Vec3(0.45, 0.0, -0.8))));
  RobotWorld rw(arm.geometry(), Transform::identity(), at(q_rest - 0.02), std::move(w));
  const double deepest = step_deepest(rw, 400);
  EXPECT_EQ(rw.last_stats().fallbacks, 0);
  expect_resting(rw, q_rest, deepest);
  const double q = rw.robot().state().q[0];
  double normal = 0.0;
  for (const RobotContact& c : rw.last_contacts()) {
    EXPECT_EQ(c.link, 1);
    EXPECT_EQ(c.body_b, 0);
    // The plate's upward normal (sin q, 0, cos q).
    EXPECT_NEAR(c.normal.dot(Vec3(std::sin(q), 0.0, std::cos(q))), 1.0, 1e-9);
    normal += c.normal_impulse / rw.world().options.dt;
  }
  const double expected = arm.m * kGravity * arm.lc() * std::cos(q) / s;
  EXPECT_NEAR(normal, expected, 1e-6 * expected) << "solver " << sim::to_string(GetParam());
}

TEST_P(RobotWorldSolvers, BoxDroppedOnAPdHeldLinkLoadsTheJointWithItsWeight) {
  // The plate is held level by PD (kp, kd) with q_target = 0; a 1 kg cube
  // dropped on it comes to rest. At rest the motor carries the gravity
  // torque of plate and cube, m g l_c cos q + m_b g x_b (x_b the cube's
  // centre of mass from the pivot, horizontal), and the PD's steady-state
  // error is that torque over kp.
  PlateArm arm;
  arm.w = 0.3;
  const double kp = 2000.0, kd = 40.0;
  sim::World w;
  w.friction.default_mu = 0.6;
  w.options.solver = GetParam();
  w.options.dt = 1e-3;
  const double cube = 0.1, density = 1000.0;  // 1 kg
  const int box = w.add(sim::make_body("cube", Box(cube, cube, cube), density,
                                       Transform::from_translation(Vec3(0.6, 0.0, 0.5 * arm.t + 0.5 * cube + 0.03))));
  RobotWorld rw(arm.geometry(), Transform::identity(), at(0.0), std::move(w));
  rw.robot().set_pd(VectorXd::Constant(1, kp), VectorXd::Constant(1, kd), VectorXd::Zero(1), VectorXd::Zero(1));
  for (int i = 0; i < 1500; ++i) rw.step();
  const sim::Body& b = rw.world().bodies()[static_cast<std::size_t>(box)];
  const double mb = b.mass.mass;
  ASSERT_NEAR(mb, 1.0, 1e-12);
  // At rest on the link, not fallen off.
  EXPECT_LT(b.linear_velocity.norm(), 1e-6);
  EXPECT_NEAR(b.com_position().x(), 0.6, 1e-3);
  EXPECT_FALSE(rw.last_contacts().empty());
  const double q = rw.robot().state().q[0];
  const double gravity_torque = arm.m * kGravity * arm.lc() * std::cos(q) + mb * kGravity * b.com_position().x();
  const double motor = rw.robot().motor_torque()[0];
  EXPECT_NEAR(-motor, gravity_torque, 1e-6 * gravity_torque) << "solver " << sim::to_string(GetParam());
  EXPECT_NEAR(q, gravity_torque / kp, 1e-8);
}

TEST_P(RobotWorldSolvers, BoxOnATiltedLinkSticksOrSlidesAsCoulombSays) {
  // The plate is held at a tilt α by a stiff PD (its damping implicit, as
  // the URDF's <dynamics damping>), a cube lies on it with μ = 0.4. Below
  // atan μ the cube stays put; above it, it slides down the slope with the
  // acceleration g (sin α − μ cos α) of a block on an incline. The plate's
  // own give under the moving load (kp = 1e5 N m/rad) tilts it by ~1e-5 rad.
  PlateArm arm;
  arm.w = 0.3;
  const double mu = 0.4, kp = 1e5;
  for (const double alpha : {0.25, 0.6}) {  // atan 0.4 = 0.3805
    sim::World w;
    w.friction.default_mu = mu;
    w.options.solver = GetParam();
    w.options.dt = 1e-3;
    // The cube's centre 0.4 m along the plate, resting on its top face.
    const double cube = 0.1, along = 0.4, up = 0.5 * arm.t + 0.5 * cube;
    const Vec3 slope(std::cos(alpha), 0.0, -std::sin(alpha)), normal(std::sin(alpha), 0.0, std::cos(alpha));
    const Mat3 tilt = Eigen::AngleAxisd(alpha, Vec3::UnitY()).toRotationMatrix();
    w.add(sim::make_body("cube", Box(cube, cube, cube), 1000.0, Transform{tilt, along * slope + up * normal}));
    RobotWorld rw(arm.geometry("<dynamics damping=\"200\"/>"), Transform::identity(), at(alpha), std::move(w));
    rw.robot().set_pd(VectorXd::Constant(1, kp), VectorXd::Zero(1), VectorXd::Constant(1, alpha), VectorXd::Zero(1));
    const sim::Body& b = rw.world().bodies()[0];
    for (int i = 0; i < 100; ++i) rw.step();  // the load settles on the plate
    const double s0 = b.com_position().dot(slope), v0 = b.linear_velocity.dot(slope);
    const int steps = 200;
    for (int i = 0; i < steps; ++i) rw.step();
    const double t = steps * rw.world().options.dt;
    const double s1 = b.com_position().dot(slope), v1 = b.linear_velocity.dot(slope);
    ASSERT_FALSE(rw.last_contacts().empty());
    if (std::tan(alpha) < mu) {
      EXPECT_LT(std::abs(v1), 1e-6) << "alpha " << alpha;
      EXPECT_LT(std::abs(s1 - s0), 1e-6) << "alpha " << alpha;
    } else {
      const double a = kGravity * (std::sin(alpha) - mu * std::cos(alpha));
      EXPECT_NEAR((v1 - v0) / t, a, 1e-3 * a) << "alpha " << alpha;
      // Semi-implicit Euler: s advances by the new velocity each step.
      EXPECT_NEAR(s1 - s0, v0 * t + 0.5 * a * t * (t + rw.world().options.dt), 1e-3 * a * t * t) << "alpha " << alpha;
    }
  }
}

TEST_P(RobotWorldSolvers, LinkFrictionSetPerLinkAndBodyDecidesStickOrSlide) {
  // The tilted plate of the test above at α = 0.25 (tan α = 0.255) under a
  // world default μ of 0.1: the cube slides at g (sin α − μ cos α) with the
  // default, sticks with the plate's own μ = 0.4 (for every body, or for the
  // cube), and a pair's entry overrides the link's.
  PlateArm arm;
  arm.w = 0.3;
  const double alpha = 0.25;
  const auto run = [&](const std::vector<std::tuple<int, int, double>>& entries) {
    sim::World w;
    w.friction.default_mu = 0.1;
    w.options.solver = GetParam();
    const double cube = 0.1, along = 0.4, up = 0.5 * arm.t + 0.5 * cube;
    const Vec3 slope(std::cos(alpha), 0.0, -std::sin(alpha)), normal(std::sin(alpha), 0.0, std::cos(alpha));
    const Mat3 tilt = Eigen::AngleAxisd(alpha, Vec3::UnitY()).toRotationMatrix();
    w.add(sim::make_body("cube", Box(cube, cube, cube), 1000.0, Transform{tilt, along * slope + up * normal}));
    RobotWorld rw(arm.geometry("<dynamics damping=\"200\"/>"), Transform::identity(), at(alpha), std::move(w));
    rw.robot().set_pd(VectorXd::Constant(1, 1e5), VectorXd::Zero(1), VectorXd::Constant(1, alpha), VectorXd::Zero(1));
    for (const auto& [link, body, mu] : entries) rw.set_link_friction(link, body, mu);
    const sim::Body& b = rw.world().bodies()[0];
    for (int i = 0; i < 100; ++i) rw.step();
    const double v0 = b.linear_velocity.dot(slope);
    for (int i = 0; i < 200; ++i) rw.step();
    return (b.linear_velocity.dot(slope) - v0) / 0.2;  // mean acceleration down the slope
  };
  const int plate = 1, cube_body = 0;
  const double sliding = kGravity * (std::sin(alpha) - 0.1 * std::cos(alpha));
  EXPECT_NEAR(run({}), sliding, 1e-3 * sliding);
  EXPECT_NEAR(run({{plate, -1, 0.4}}), 0.0, 1e-6);
  EXPECT_NEAR(run({{plate, cube_body, 0.4}}), 0.0, 1e-6);
  EXPECT_NEAR(run({{plate, -1, 0.4}, {plate, cube_body, 0.1}}), sliding, 1e-3 * sliding);
}

TEST(RobotWorld, LinkFrictionRefusesWhatIsOutOfRange) {
  const PlateArm arm;
  sim::World w;
  w.add(static_body("floor", Box(1, 1, 0.1), Transform{Mat3::Identity(), Vec3(0, 0, -1)}));
  RobotWorld rw(arm.geometry(), Transform::identity(), at(0.0), std::move(w));
  robot_test::expect_error([&] { rw.set_link_friction(2, 0, 0.5); }, {"link friction", "link index 2", "2 links"});
  robot_test::expect_error([&] { rw.set_link_friction(1, 1, 0.5); }, {"link friction", "body index 1", "1 bodies"});
  robot_test::expect_error([&] { rw.set_link_friction(1, -2, 0.5); }, {"body index -2"});
  robot_test::expect_error([&] { rw.set_link_friction(1, 0, -0.1); }, {"mu must be finite and >= 0"});
  robot_test::expect_error([&] { rw.set_link_friction(1, 0, std::nan("")); }, {"mu must be finite and >= 0"});
  EXPECT_EQ(rw.link_friction(1, 0), rw.world().friction.default_mu);
  rw.set_link_friction(1, -1, 0.7);
  EXPECT_EQ(rw.link_friction(1, 0), 0.7);
}

TEST_P(RobotWorldSolvers, StackedBodiesAwayFromTheRobotCarryTheirWeight) {
  // Body–body contacts go through the same problem: two cubes stacked on a
  // static floor, the robot far off. The floor carries both weights, the
  // lower cube's top the upper one's, and nothing moves.
  const PlateArm arm;
  sim::World w;
  w.options.solver = GetParam();
  w.add(static_body("floor", Halfspace(Vec3::UnitZ(), 0.0), Transform::identity()));
  w.add(sim::make_body("low", Box(0.2, 0.2, 0.2), 500.0, Transform::from_translation(Vec3(3.0, 0.0, 0.1))));
  w.add(sim::make_body("high", Box(0.1, 0.1, 0.1), 800.0, Transform::from_translation(Vec3(3.0, 0.0, 0.25))));
  RobotWorld rw(arm.geometry(), Transform::from_translation(Vec3(0.0, 0.0, 2.0)), at(0.0), std::move(w));
  for (int i = 0; i < 300; ++i) rw.step();
  const double dt = rw.world().options.dt, m_low = 4.0, m_high = 0.8;
  double on_floor = 0.0, on_low = 0.0;
  for (const RobotContact& c : rw.last_contacts()) {
    EXPECT_EQ(c.link, -1);
    (c.body_b == 0 || c.body_a == 0 ? on_floor : on_low) += c.normal_impulse * std::abs(c.normal.z()) / dt;
  }
  EXPECT_NEAR(on_floor, (m_low + m_high) * kGravity, 1e-6 * (m_low + m_high) * kGravity);
  EXPECT_NEAR(on_low, m_high * kGravity, 1e-6 * m_high * kGravity);
  EXPECT_NEAR(rw.world().bodies()[2].com_position().z(), 0.25, 1e-5);
  EXPECT_LT(rw.world().bodies()[2].linear_velocity.norm(), 1e-6);
}

TEST_P(RobotWorldSolvers, LinkOnItsJointLimitCarriesACubeWithoutSinking) {
  // No motor: the plate rests level on its joint's upper limit (q ≤ 0, so
  // gravity presses it onto the limit) and a cube dropped on it comes to
  // rest there. The limit must act in the same problem as the contact: the
  // cube's support is then exactly its weight, the plate stays at the limit
  // and the cube does not sink into it.
  PlateArm arm;
  arm.w = 0.3;
  arm.joint_type = "revolute";
  sim::World w;
  w.options.solver = GetParam();
  const double cube = 0.1;
  w.add(sim::make_body("cube", Box(cube, cube, cube), 1000.0,
                       Transform::from_translation(Vec3(0.6, 0.0, 0.5 * arm.t + 0.5 * cube + 0.02))));
  RobotWorld rw(arm.geometry("<limit lower=\"-1\" upper=\"0\" effort=\"100\" velocity=\"10\"/>"),
                Transform::identity(), at(0.0), std::move(w));
  double deepest = 0.0;
  for (int i = 0; i < 600; ++i) {
    rw.step();
    if (i > 300)
      for (const RobotContact& c : rw.last_contacts()) deepest = std::max(deepest, c.depth);
  }
  EXPECT_EQ(rw.last_stats().limits, 1);  // the upper limit, a row of the contact problem
  EXPECT_NEAR(rw.robot().state().q[0], 0.0, 1e-9);
  double support = 0.0;
  for (const RobotContact& c : rw.last_contacts()) support += c.normal_impulse * c.normal.z() / rw.world().options.dt;
  EXPECT_NEAR(-support, 1.0 * kGravity, 1e-6 * kGravity);
  EXPECT_LE(deepest, 1e-9);
  EXPECT_LT(rw.world().bodies()[0].linear_velocity.norm(), 1e-6);
}

TEST_P(RobotWorldSolvers, ArmSwingingIntoTheFloorNeitherSinksNorGainsEnergy) {
  // The pivot 0.5 m above a floor; the plate starts level at rest and swings
  // down until its far end strikes the floor near q = 30°. With restitution 0
  // the contact only takes energy out, and semi-implicit Euler's own swing
  // error (a modified energy within O(Δt) of the true one) runs below the
  // start on this swing: total energy never exceeds its start beyond
  // rounding. The contact rows ask a gap to close at most, so the plate
  // never sinks into the floor, and it comes to rest on it.
  const PlateArm arm;
  sim::World w;
  w.options.dt = 1e-3;
  w.options.solver = GetParam();
  w.add(static_body("floor", Halfspace(Vec3::UnitZ(), 0.0), Transform::identity()));
  RobotWorld rw(arm.geometry(), Transform::from_translation(Vec3(0.0, 0.0, 0.5)), at(0.0), std::move(w));
  const double e0 = rw.kinetic_energy() + rw.potential_energy();
  const double scale = arm.m * kGravity * arm.lc();
  double worst_excess = -std::numeric_limits<double>::infinity(), deepest = 0.0;
  bool touched = false;
  for (int i = 0; i < 1500; ++i) {
    rw.step();
    worst_excess = std::max(worst_excess, rw.kinetic_energy() + rw.potential_energy() - e0);
    for (const RobotContact& c : rw.last_contacts()) {
      deepest = std::max(deepest, c.depth);
      touched = touched || c.normal_impulse > 0.0;
    }
  }
  EXPECT_TRUE(touched);
  EXPECT_LE(worst_excess, 1e-12 * scale);
  EXPECT_LE(deepest, 1e-9);
  // It came to rest on the floor: energy well below the start, the far
  // lower corner at the floor.
  EXPECT_LT(rw.kinetic_energy(), 1e-6 * scale);
  const double q = rw.robot().state().q[0];
  const double corner_z = 0.5 - arm.len * std::sin(q) - 0.5 * arm.t * std::cos(q);
  EXPECT_NEAR(corner_z, 0.0, 1e-6);
}

TEST_P(RobotWorldSolvers, ArmRestingOnItsOwnBaseCarriesTheTorqueBalanceForce) {
  // The scene of ArmRestingOnABoxEdgeCarriesTheTorqueBalanceForce with the
  // block a collision box of the robot's base link, under self-collision
  // with nothing allowed: the same rest angle and, by torque balance, the
  // same force N = m g l_c cos q / s, now between two links of the robot.
  const PlateArm arm;
  const double ex = 0.7, ez = -0.3;
  const double d = std::hypot(ex, ez), alpha = std::atan2(-ez, ex);
  const double q_rest = alpha - std::asin(arm.t / (2.0 * d)), s = std::sqrt(d * d - 0.25 * arm.t * arm.t);
  const RobotGeometry geometry = plate_over_own_block(arm);
  sim::World w;
  w.friction.default_mu = 0.0;
  w.options.solver = GetParam();
  w.options.dt = 1e-3;
  RobotWorld rw(geometry, Transform::identity(), at(q_rest - 0.02), std::move(w));
  rw.set_self_collision(AllowedCollisionMatrix(2));
  ASSERT_EQ(rw.self_pairs().size(), 1u);
  EXPECT_EQ(rw.self_pairs()[0], std::make_pair(0, 1));
  const double deepest = step_deepest(rw, 400);
  expect_resting(rw, q_rest, deepest);
  const double q = rw.robot().state().q[0];
  double normal = 0.0;
  for (const RobotContact& c : rw.last_contacts()) {
    // Side A the base (link 0), side B the plate (link 1): the normal, B to
    // A, is the plate's downward one.
    EXPECT_EQ(c.link, 0);
    EXPECT_EQ(c.link_b, 1);
    EXPECT_EQ(c.body_b, -1);
    EXPECT_NEAR(c.normal.dot(Vec3(std::sin(q), 0.0, std::cos(q))), -1.0, 1e-9);
    normal += c.normal_impulse / rw.world().options.dt;
  }
  const double expected = arm.m * kGravity * arm.lc() * std::cos(q) / s;
  EXPECT_NEAR(normal, expected, 1e-6 * expected) << "solver " << sim::to_string(GetParam());
}

TEST_P(RobotWorldSolvers, FoldingLinkRestsOnAnotherMovingLinkInStaticEquilibrium) {
  // Two moving links of one chain: link1 on a PD-held pivot, a post fixed
  // at its tip, and link3 hinged on the post, pointing back over link1. It
  // falls onto link1 and rests there. Its statics are the ground truth: the
  // contact forces on link3 and its weight have no moment about its hinge
  // (no motor, damping or friction there), and it does not sink.
  const double m1 = 2.0, m3 = 0.5, l1 = 0.6, l3 = 0.4, w = 0.1, t = 0.04, post = 0.12;
  const std::string urdf = robot_test::folding_urdf(m1, l1, w, m3, l3, w, t, post);
  const RobotGeometry geometry(parse_urdf(urdf, "."));
  const RobotModel& model = geometry.model();
  sim::World world;
  world.friction.default_mu = 0.5;
  world.options.solver = GetParam();
  world.options.dt = 1e-3;
  RobotWorld rw(geometry, Transform::identity(), {VectorXd::Zero(2), VectorXd::Zero(2)}, std::move(world));
  rw.set_self_collision(AllowedCollisionMatrix::adjacent(model));
  // link1 against link3 is the only pair: the others share a joint.
  ASSERT_EQ(rw.self_pairs().size(), 1u);
  rw.robot().set_pd(Eigen::Vector2d(5000.0, 0.0), Eigen::Vector2d(100.0, 0.0), VectorXd::Zero(2), VectorXd::Zero(2));
  const double deepest = step_deepest(rw, 2000);
  ASSERT_FALSE(rw.last_contacts().empty());
  EXPECT_LT(rw.robot().state().qd.cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_LE(deepest, 1e-6);
  const int link3 = model.link_index("link3");
  const Transform& pose3 = rw.link_poses()[static_cast<std::size_t>(link3)];
  const Vec3 hinge = pose3.p, axis = pose3.R * Vec3::UnitY();
  // Fell about 0.08 m over 0.4 m: link3 turned by about 11.5°, onto link1.
  EXPECT_GT(std::abs(rw.robot().state().q[1]), 0.15);
  const double h = rw.world().options.dt;
  double moment = (pose3.apply(Vec3(-0.5 * l3, 0.0, 0.0)) - hinge).cross(Vec3(0.0, 0.0, -m3 * kGravity)).dot(axis);
  const double weight_moment = std::abs(moment);
  for (const RobotContact& c : rw.last_contacts()) {
    EXPECT_EQ(c.link, model.link_index("link1"));
    EXPECT_EQ(c.link_b, link3);
    // On side B (link3): minus what A receives.
    const Vec3 force = -(c.normal * c.normal_impulse + c.friction_impulse) / h;
    moment += (c.point - hinge).cross(force).dot(axis);
  }
  EXPECT_NEAR(moment, 0.0, 1e-6 * weight_moment) << "solver " << sim::to_string(GetParam());
}

TEST(RobotWorld, SelfCollisionChecksTheLinkPairsTheMatrixDoesNotAllow) {
  // The plate and its base block of ArmRestingOnItsOwnBase…, a joint's two
  // links: the adjacent matrix allows them, so the plate swings through.
  const PlateArm arm;
  const RobotGeometry geometry = plate_over_own_block(arm);
  sim::World w;
  w.options.dt = 1e-3;
  RobotWorld rw(geometry, Transform::identity(), at(0.0), std::move(w));
  rw.set_self_collision(AllowedCollisionMatrix::adjacent(geometry.model()));
  EXPECT_TRUE(rw.self_pairs().empty());
  for (int i = 0; i < 600; ++i) {
    rw.step();
    EXPECT_TRUE(rw.last_contacts().empty());
  }
  EXPECT_GT(rw.robot().state().q[0], 0.8);  // well past the block's edge at 0.39 rad
  robot_test::expect_error([&] { rw.set_self_collision(AllowedCollisionMatrix(3)); },
                           {"allowed-collision matrix has 3 links, the robot 2"});
}

INSTANTIATE_TEST_SUITE_P(Solvers, RobotWorldSolvers, ::testing::Values(sim::SolverKind::lemke, sim::SolverKind::pgs),
                         [](const auto& info) { return std::string(sim::to_string(info.param)); });

TEST(RobotWorld, RefusesBadStepsAndInputsNamingTheField) {
  const PlateArm arm;
  const auto make = [&] {
    sim::World w;
    w.add(static_body("floor", Halfspace(Vec3::UnitZ(), -2.0), Transform::identity()));
    return RobotWorld(arm.geometry(), Transform::identity(), at(0.0), std::move(w));
  };
  for (const double dt : {0.0, -1e-3, std::nan(""), std::numeric_limits<double>::infinity()}) {
    RobotWorld rw = make();
    rw.world().options.dt = dt;
    robot_test::expect_error([&] { rw.step(); }, {"options.dt", "finite and > 0"});
    EXPECT_EQ(rw.time(), 0.0);
  }
  RobotWorld rw = make();
  robot_test::expect_error([&] { rw.robot().set_pd(VectorXd::Ones(2), VectorXd::Ones(1), VectorXd::Zero(1),
                                                   VectorXd::Zero(1)); },
                           {"kp vector has 2 values, expected 1"});
  robot_test::expect_error([&] { rw.robot().set_pd(VectorXd::Ones(1), VectorXd::Ones(1),
                                                   VectorXd::Constant(1, std::nan("")), VectorXd::Zero(1)); },
                           {"position target", "pivot", "not finite"});
  robot_test::expect_error([&] { rw.robot().set_torque(VectorXd::Zero(3)); }, {"joint torque vector has 3 values"});
  robot_test::expect_error([&] { RobotWorld(arm.geometry(), Transform::identity(), at(std::nan("")), sim::World()); },
                           {"joint position", "pivot", "not finite"});
  robot_test::expect_error(
      [&] { RobotWorld(arm.geometry(), Transform::identity(), ArticulatedState{VectorXd::Zero(2), VectorXd::Zero(2)},
                       sim::World()); },
      {"joint position vector has 2 values, expected 1"});
  rw.world().options.stabilization = 1.5;
  robot_test::expect_error([&] { rw.step(); }, {"options.stabilization", "[0, 1]"});
  rw.world().options.stabilization = 0.2;
  rw.world().options.contact_margin = -1.0;
  robot_test::expect_error([&] { rw.step(); }, {"options.contact_margin"});
  rw.world().options.contact_margin = 5e-3;
  rw.world().options.epsilon = -1e-3;  // PEG and ε > 0 are taken (robot_world_peg_test.cpp)
  robot_test::expect_error([&] { rw.step(); }, {"options.epsilon", "finite and >= 0"});
  rw.world().options.epsilon = 0.0;
  rw.world().options.friction_basis = sim::FrictionBasis::sliding;
  robot_test::expect_error([&] { rw.step(); }, {"options.friction_basis"});
  rw.world().options.friction_basis = sim::FrictionBasis::fixed;
  rw.world().restitution.default_e = 0.5;
  robot_test::expect_error([&] { rw.step(); }, {"restitution"});
  rw.world().restitution.default_e = 0.0;
  rw.world().gravity = Vec3(0.0, 0.0, -1.0);
  robot_test::expect_error([&] { rw.step(); }, {"gravity"});
  rw.world().gravity = Vec3(0.0, 0.0, -kGravity);
  sim::Body pusher = sim::make_body("pusher", Box(0.1, 0.1, 0.1), 1000.0, Transform::from_translation(Vec3(5, 0, 0)));
  pusher.kinematic = sim::KinematicPath{};
  rw.world().add(std::move(pusher));
  robot_test::expect_error([&] { rw.step(); }, {"pusher", "kinematic"});
  EXPECT_EQ(rw.time(), 0.0);
  // The two halves of the robot's step: no finish without a begin.
  robot_test::expect_error([&] { rw.robot().finish_step(nullptr); }, {"finish_step without begin_step"});
}

TEST(RobotWorld, InitialBaseDisagreeingWithBaseIsRefusedNamingBoth) {
  // `base` places the root; a state naming another pose is an error, for a
  // fixed and a floating base alike, not silently moved to `base`.
  const PlateArm arm;
  const Transform base = Transform::from_translation(Vec3(0.0, 0.0, 2.0));
  Transform elsewhere = Transform::from_translation(Vec3(1.0, 0.0, 0.0));
  Transform turned = base;
  turned.R = Eigen::AngleAxisd(0.3, Vec3::UnitZ()).toRotationMatrix();
  for (const BaseKind kind : {BaseKind::fixed, BaseKind::floating}) {
    const auto state = [&](const Transform& b) {
      ArticulatedState s{VectorXd::Zero(1), VectorXd::Zero(kind == BaseKind::floating ? 7 : 1)};
      s.base = b;
      return s;
    };
    robot_test::expect_error([&] { RobotWorld(arm.geometry(), base, state(elsewhere), sim::World(), kind); },
                             {"initial.base (translation [1, 0, 0])", "base (translation [0, 0, 2]", "disagree"});
    robot_test::expect_error([&] { RobotWorld(arm.geometry(), base, state(turned), sim::World(), kind); },
                             {"initial.base (translation [0, 0, 2])", "turned 0.3 rad", "disagree"});
    Transform nan_pose = base;
    nan_pose.p.x() = std::nan("");
    robot_test::expect_error([&] { RobotWorld(arm.geometry(), base, state(nan_pose), sim::World(), kind); },
                             {"initial.base", "disagree"});
    // Agreeing (exactly, or to rounding, as a state read back from a robot
    // standing there) or left at the identity: the root is at `base`, so
    // the plate's frame (its joint has no offset, q = 0) is there too.
    Transform rounded = base;
    rounded.p.z() += 1e-13;
    rounded.R(0, 1) = 1e-12;
    for (const Transform& given : {base, rounded, Transform::identity()}) {
      const RobotWorld rw(arm.geometry(), base, state(given), sim::World(), kind);
      EXPECT_EQ(rw.robot().state().base.p, base.p);
      EXPECT_EQ(rw.robot().state().base.R, base.R);
      EXPECT_EQ(rw.link_poses()[1].p, Vec3(0.0, 0.0, 2.0));
    }
  }
}

TEST(RobotWorld, FailedRobotStepLeavesBodiesWhereTheyWere) {
  // An overflowing robot step (1e308 N m over 1e10 s) throws; the falling
  // cube, stepped in the same problem, must not have moved either.
  const PlateArm arm;
  sim::World w;
  w.add(sim::make_body("cube", Box(0.1, 0.1, 0.1), 1000.0, Transform::from_translation(Vec3(3, 0, 1))));
  RobotWorld rw(arm.geometry(), Transform::identity(), at(0.0), std::move(w));
  rw.robot().set_torque(VectorXd::Constant(1, 1e308));
  rw.world().options.dt = 1e10;
  robot_test::expect_error([&] { rw.step(); }, {"overflowed"});
  rw.world().options.dt = 1e-3;
  EXPECT_EQ(rw.world().bodies()[0].pose.p, Vec3(3, 0, 1));
  EXPECT_EQ(rw.world().bodies()[0].linear_velocity, Vec3::Zero());
  EXPECT_EQ(rw.robot().state().q[0], 0.0);
  rw.robot().set_torque(VectorXd::Zero(1));
  rw.step();
  EXPECT_NEAR(rw.world().bodies()[0].linear_velocity.z(), -kGravity * rw.world().options.dt, 1e-12);
}

}  // namespace
}  // namespace proxima::robot
