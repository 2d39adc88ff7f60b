// SPDX-License-Identifier: BSD-3-Clause
// SceneChecker::check_motion on small robots: the planar arm of
// tests/support/planar_arm.hpp, whose tool path is closed-form (a tip
// sweeping a circle into a ball; three joints and a slide together), the
// small arm (prismatic and mimic joints) against dense discrete sampling,
// and every kind of bad input.
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <utility>

#include <gtest/gtest.h>

#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>

#include "dense_motion.hpp"
#include "robot_test_support.hpp"
#include "support/planar_arm.hpp"
#include "support/random.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

using testing::PlanarArm;
using testing::Rng;

constexpr double kTipRadius = 0.03;

// planar_arm.hpp's arm as a URDF: only the tool carries geometry (a ball at
// the tool frame's origin), so its distance to a ball is closed-form.
const char* planar_arm_urdf() {
  return R"(<?xml version="1.0"?>
<robot name="planar">
  <link name="base"/><link name="l1"/><link name="l2"/><link name="l3"/>
  <link name="tool"><collision><geometry><sphere radius="0.03"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <axis xyz="0 0 1"/><limit lower="-3.2" upper="3.2"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><origin xyz="0.5 0 0"/>
    <axis xyz="0 0 1"/><limit lower="-3.2" upper="3.2"/></joint>
  <joint name="j3" type="revolute"><parent link="l2"/><child link="l3"/><origin xyz="0.4 0 0"/>
    <axis xyz="0 0 1"/><limit lower="-3.2" upper="3.2"/></joint>
  <joint name="j4" type="prismatic"><parent link="l3"/><child link="tool"/><origin xyz="0.1 0 0"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1"/></joint>
</robot>
)";
}

SceneChecker planar_checker(double margin = 0.0) {
  const RobotModel m = parse_urdf(planar_arm_urdf(), ".");
  return SceneChecker(RobotGeometry(m, robot_test::options(MeshMode::convex_hull, margin)),
                      AllowedCollisionMatrix::adjacent(m));
}

// The tool ball's distance to a ball of radius `radius` at `centre`, from
// PlanarArm's closed form alone.
double planar_gap(std::span<const double> q, const Vec3& centre, double radius, double margin) {
  return (PlanarArm{}.tool(q).p - centre).norm() - kTipRadius - margin - radius;
}

// The first s at which planar_gap reaches `clearance` (scan, then
// bisection of the closed form), or 2 when it never does.
double planar_first_contact(std::span<const double> q0, std::span<const double> q1, const Vec3& centre,
                            double radius, double margin, double clearance) {
  auto gap = [&](double s) { return planar_gap(robot_test::lerp_joints(q0, q1, s), centre, radius, margin) - clearance; };
  constexpr int n = 20000;
  for (int k = 0; k <= n; ++k) {
    double hi = static_cast<double>(k) / n;
    if (gap(hi) > 0.0) continue;
    if (k == 0) return 0.0;
    double lo = static_cast<double>(k - 1) / n;
    for (int i = 0; i < 60; ++i) (gap(0.5 * (lo + hi)) > 0.0 ? lo : hi) = 0.5 * (lo + hi);
    return hi;
  }
  return 2.0;
}

Environment ball_at(const Vec3& centre, double radius) {
  Environment env;
  env.add("ball", Sphere(radius), Transform::from_translation(centre));
  return env;
}

TEST(RobotMotionCheck, TipSweepingACircleMeetsABallAtTheClosedFormAngle) {
  // Only j1 turns, 0 → 1.5 rad: the tip (1 m out) sweeps a circle; a ball of
  // radius 0.05 at 0.95 m, angle φ = 1, is met where
  // |L e(θ) − D e(φ)| = r + R + clearance, i.e. cos(φ − θ) = (L² + D² − ρ²)/(2 L D).
  const SceneChecker c = planar_checker();
  const double L = 1.0, D = 0.95, R = 0.05, phi = 1.0, turn = 1.5;
  const Environment env = ball_at(Vec3(D * std::cos(phi), D * std::sin(phi), 0.0), R);
  const double q0[] = {0, 0, 0, 0}, q1[] = {turn, 0, 0, 0};
  for (double clearance : {0.0, 0.01, 0.02}) {
    const double rho = kTipRadius + R + clearance;
    const double theta = phi - std::acos((L * L + D * D - rho * rho) / (2 * L * D));
    MotionCheckOptions o;
    o.clearance = clearance;
    o.accuracy = 1e-6;
    const MotionCheck m = c.check_motion(q0, q1, env, o);
    ASSERT_EQ(m.status, Status::ok) << m.message;
    ASSERT_TRUE(m.collide);
    EXPECT_FALSE(m.self);
    EXPECT_EQ(m.pair.link_name, "tool");
    EXPECT_EQ(m.pair.other_name, "ball");
    EXPECT_LE(m.s, theta / turn);
    // There the gap shrinks by about L D sin(φ − θ) / ρ · turn ≥ 0.7 m per
    // unit s: the reported s is within accuracy / 0.5 of the contact.
    EXPECT_GT(m.s, theta / turn - 1e-6 / 0.5) << clearance;
    EXPECT_GE(m.distance, clearance);
    EXPECT_LE(m.distance, clearance + 1e-6);
    const Vec3 tip = PlanarArm{}.tool(robot_test::lerp_joints(q0, q1, m.s)).p;
    EXPECT_NEAR((m.point_link - tip).norm(), kTipRadius, 1e-9);
    EXPECT_LT(m.iterations, 100);
  }
}

TEST(RobotMotionCheck, PlanarArmMatchesItsClosedFormPath) {
  // All four joints move at once (the slide too); link margins count.
  Rng rng(311);
  int hits = 0, misses = 0;
  for (double margin : {0.0, 0.015}) {
    const SceneChecker c = planar_checker(margin);
    for (int k = 0; k < testing::scaled(60); ++k) {
      std::vector<double> q0(4), q1(4);
      for (int j = 0; j < 3; ++j) q0[j] = rng.uniform(-3.0, 3.0);
      for (int j = 0; j < 3; ++j) q1[j] = q0[j] + rng.uniform(-1.5, 1.5);
      q0[3] = rng.uniform(-0.2, 0.2);
      q1[3] = rng.uniform(-0.2, 0.2);
      // Half the balls near the tool's path, half anywhere it might reach.
      const Vec3 near = PlanarArm{}.tool(robot_test::lerp_joints(q0, q1, rng.uniform(0.0, 1.0))).p;
      const Vec3 offset = rng.uniform_vec(-0.15, 0.15);
      const Vec3 anywhere = rng.uniform_vec(Vec3(-0.9, -0.9, -0.1), Vec3(0.9, 0.9, 0.1));
      const Vec3 centre = k % 2 == 0 ? Vec3(near + offset) : anywhere;
      const double R = rng.uniform(0.02, 0.15);
      const double clearance = k % 3 == 0 ? 0.0 : rng.uniform(0.0, 0.05);
      if (planar_gap(q0, centre, R, margin) <= clearance + 1e-3) continue;  // starts in contact: another test
      MotionCheckOptions o;
      o.clearance = clearance;
      o.accuracy = 1e-5;
      const MotionCheck m = c.check_motion(q0, q1, ball_at(centre, R), o);
      ASSERT_EQ(m.status, Status::ok) << m.message;
      const double first = planar_first_contact(q0, q1, centre, R, margin, clearance);
      if (!m.collide) {
        EXPECT_GT(first, 1.0) << "k " << k << ": contact at s = " << first << " missed";
        ++misses;
        continue;
      }
      ++hits;
      EXPECT_LE(m.s, first) << k;
      const double gap = planar_gap(robot_test::lerp_joints(q0, q1, m.s), centre, R, margin);
      EXPECT_GE(gap, clearance - 1e-9) << k;
      EXPECT_LE(gap, clearance + 1e-5 + 1e-9) << k;
      EXPECT_NEAR(m.distance, gap, 1e-9) << k;
    }
  }
  if (testing::scaled(60) >= 60) {
    EXPECT_GT(hits, 10);
    EXPECT_GT(misses, 10);
  }
}

TEST(RobotMotionCheck, StartInContactIsReportedAtZero) {
  const SceneChecker c = planar_checker();
  const double q0[] = {0, 0, 0, 0}, q1[] = {1, 0, 0, 0};
  const MotionCheck m = c.check_motion(q0, q1, ball_at(Vec3(1.0, 0.02, 0.0), 0.05));
  ASSERT_EQ(m.status, Status::ok);
  EXPECT_TRUE(m.collide);
  EXPECT_EQ(m.s, 0.0);
  EXPECT_EQ(m.distance, 0.0);
  EXPECT_EQ(m.iterations, 1);
}

TEST(RobotMotionCheck, AStandingSegmentIsTheDiscreteCheck) {
  const SceneChecker c = planar_checker();
  const double q[] = {0.3, -0.2, 0.1, 0.05};
  const Vec3 tip = PlanarArm{}.tool(q).p;
  for (double gap : {0.01, -0.01}) {
    const Environment env = ball_at(tip + Vec3(0, kTipRadius + 0.05 + gap, 0), 0.05);
    const MotionCheck m = c.check_motion(q, q, env);
    ASSERT_EQ(m.status, Status::ok);
    EXPECT_EQ(m.collide, gap < 0) << gap;
    EXPECT_EQ(m.iterations, 1);
  }
}

TEST(RobotMotionCheck, TheIterationCapGivesAProvenLowerBound) {
  const SceneChecker c = planar_checker();
  const double q0[] = {0, 0, 0, 0}, q1[] = {1.5, 0, 0, 0};
  const Environment env = ball_at(Vec3(0.95 * std::cos(1.0), 0.95 * std::sin(1.0), 0.0), 0.05);
  MotionCheckOptions o;
  o.max_iterations = 3;
  o.accuracy = 1e-9;
  const MotionCheck m = c.check_motion(q0, q1, env, o);
  EXPECT_EQ(m.status, Status::not_converged);
  EXPECT_TRUE(m.collide);
  EXPECT_EQ(m.iterations, 3);
  const double first = planar_first_contact(q0, q1, env.objects[0].pose.p, 0.05, 0.0, 0.0);
  EXPECT_GT(m.s, 0.0);
  EXPECT_LT(m.s, first);
  EXPECT_EQ(m.pair.other_name, "ball");
  EXPECT_GT(m.distance, 0.0);
}

// Segments between configurations `draw(k)` gives (collision-free at both
// ends), every other one with a 1 cm clearance, against dense sampling:
// the check never misses a sampled contact nor reports one later than the
// samples do, and stops at a distance within [clearance, clearance +
// accuracy]. Returns how many segments collide and how many stay clear.
template <class Draw>
std::pair<int, int> expect_dense_agreement(const SceneChecker& c, const Environment& env, int segments, Draw&& draw,
                                           bool self_only = false) {
  int hits = 0, misses = 0;
  for (int k = 0; k < segments; ++k) {
    const auto [q0, q1] = draw(k);
    const double clearance = k % 2 == 0 ? 0.0 : 0.01;
    MotionCheckOptions o;
    o.clearance = clearance;
    const MotionCheck m = c.check_motion(q0, q1, env, o);
    EXPECT_EQ(m.status, Status::ok) << m.message;
    if (m.s == 0.0) continue;  // the start is within the clearance
    const robot_test::DenseHit truth = robot_test::dense_first_hit(c, q0, q1, env, clearance, 3000);
    if (!m.collide) {
      EXPECT_FALSE(truth.hit) << k << ": sampled contact at s = " << truth.first;
      ++misses;
      continue;
    }
    ++hits;
    if (self_only) {
      EXPECT_TRUE(m.self) << k;
    }
    EXPECT_LE(m.s, truth.first) << k;
    const double d = robot_test::distance_at(c, robot_test::lerp_joints(q0, q1, m.s), env);
    EXPECT_GE(d, clearance) << k;
    EXPECT_LE(d, clearance + o.accuracy + 1e-9) << k;
  }
  return {hits, misses};
}

// The directional bound (C²A): turning about vertical axes moves the tool
// only sideways, so above a table the check needs one step, where the
// direction-free bound (every point's whole speed counts as closing) would
// creep; a slide down meets the table where the closed form says.
TEST(RobotMotionCheck, TurningAboveATableIsOneStepASlideMeetsIt) {
  const SceneChecker c = planar_checker();
  Environment table;
  table.add("table", Box(4.0, 4.0, 0.1), Transform::from_translation(Vec3(0, 0, -0.1)));  // top at z = −0.05
  const double q0[] = {0, 0, 0, 0}, turning[] = {2.0, 1.0, -1.5, 0};
  const MotionCheck m = c.check_motion(q0, turning, table);
  ASSERT_EQ(m.status, Status::ok) << m.message;
  EXPECT_FALSE(m.collide);
  EXPECT_EQ(m.iterations, 1);
  // The same turn while j4 slides the tool down 0.1 m: its ball (radius
  // 0.03, centre at the slide) meets the top at slide −0.02, s = 0.2.
  const double sliding[] = {2.0, 1.0, -1.5, -0.1};
  MotionCheckOptions o;
  o.accuracy = 1e-6;
  const MotionCheck hit = c.check_motion(q0, sliding, table, o);
  ASSERT_EQ(hit.status, Status::ok) << hit.message;
  ASSERT_TRUE(hit.collide);
  EXPECT_EQ(hit.pair.other_name, "table");
  EXPECT_LE(hit.s, 0.2);
  EXPECT_GT(hit.s, 0.2 - 1e-6 / 0.1);  // the gap closes at 0.1 m per unit s
  EXPECT_LT(hit.iterations, 10);
}

// Self pairs with the directional bound: links that share a turning joint
// (l1 and l3 below j1) and links on the base (its box against l2, l3),
// folding onto each other, against dense sampling.
TEST(RobotMotionCheck, FoldingArmSelfPairsMatchDenseSampling) {
  const RobotModel model = parse_urdf(R"(<?xml version="1.0"?>
<robot name="folding">
  <link name="base"><collision><origin xyz="0 0 -0.1"/><geometry><box size="0.3 0.3 0.1"/></geometry></collision></link>
  <link name="l1"><collision><origin xyz="0.15 0 0.1"/><geometry><box size="0.3 0.08 0.05"/></geometry></collision></link>
  <link name="l2"><collision><origin xyz="0.15 0 0" rpy="0 1.5707963267948966 0"/><geometry><cylinder radius="0.02" length="0.2"/></geometry></collision></link>
  <link name="l3"><collision><origin xyz="0.2 0 0"/><geometry><sphere radius="0.04"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/><limit lower="-3" upper="3"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><origin xyz="0.3 0 0.1"/><axis xyz="0 1 0"/><limit lower="-3" upper="3"/></joint>
  <joint name="j3" type="revolute"><parent link="l2"/><child link="l3"/><origin xyz="0.3 0 0"/><axis xyz="0 1 0"/><limit lower="-3" upper="3"/></joint>
</robot>
)",
                                      ".");
  const SceneChecker c(RobotGeometry(model), AllowedCollisionMatrix::adjacent(model));
  ASSERT_EQ(c.self_pairs().size(), 3u);
  const Environment none;
  Rng rng(317);
  RobotState st;
  auto clear_q = [&] {
    for (;;) {
      std::vector<double> q = {rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0)};
      if (!robot_test::hits_at(c, q, none, 0.0, st)) return q;
    }
  };
  const auto [hits, misses] = expect_dense_agreement(
      c, none, testing::scaled(80), [&](int) { return std::pair{clear_q(), clear_q()}; }, true);
  if (testing::scaled(80) >= 80) {
    EXPECT_GT(hits, 10);
    EXPECT_GT(misses, 5);
  }
}

// The extent bound: an arm whose housing (the box's lower end) is centred
// on its joint's axis turns above a base. Its far end moves at 0.5 m/rad,
// but along the normal to the base only the housing's extent about the
// axis counts. The lowest corner (0.05, 0.05 from the axis) dips to
// 0.05 (sin θ + cos θ) below the axis: with the base 6 cm below it the two
// meet at sin(θ + π/4) = 0.06 / (0.05 √2); with the base 3 cm lower they
// never do.
TEST(RobotMotionCheck, AnArmTurningAboutItsHousingMeetsTheBaseAtTheClosedFormAngle) {
  const RobotModel model = parse_urdf(R"(<?xml version="1.0"?>
<robot name="housing">
  <link name="base"/>
  <link name="arm"><collision><origin xyz="0 0 0.225"/><geometry><box size="0.1 0.1 0.55"/></geometry></collision></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 0.2"/><axis xyz="1 0 0"/><limit lower="-2" upper="2"/></joint>
</robot>
)",
                                      ".");
  const SceneChecker c(RobotGeometry(model), AllowedCollisionMatrix::adjacent(model));
  const double q0[] = {0.0}, q1[] = {1.0};
  MotionCheckOptions o;
  o.accuracy = 1e-6;
  Environment near, far;
  near.add("base", Box(0.4, 0.4, 0.1), Transform::from_translation(Vec3(0, 0, 0.09)));  // top 6 cm below the axis
  far.add("base", Box(0.4, 0.4, 0.1), Transform::from_translation(Vec3(0, 0, 0.06)));   // top 9 cm below it
  const MotionCheck hit = c.check_motion(q0, q1, near, o);
  ASSERT_EQ(hit.status, Status::ok) << hit.message;
  ASSERT_TRUE(hit.collide);
  const double theta = std::asin(0.06 / (0.05 * std::sqrt(2.0))) - std::numbers::pi / 4;
  EXPECT_LE(hit.s, theta);
  // The corner dips at 0.05 (cos θ − sin θ) > 0.037 m/rad there.
  EXPECT_GT(hit.s, theta - 1e-6 / 0.037);
  const MotionCheck clear = c.check_motion(q0, q1, far, o);
  ASSERT_EQ(clear.status, Status::ok) << clear.message;
  EXPECT_FALSE(clear.collide);
  // Without the extent bound: 127 and 22 steps; with it, 35 and 13.
  EXPECT_LT(hit.iterations, 60);
  EXPECT_LT(clear.iterations, 17);
}

// The directional bound must follow the axes as they turn: j2 spins a
// ball about an axis that is vertical at j1 = 0, where the ball moves only
// sideways above the table, and that j1 tilts during the segment, when the
// spin swings the ball down into it. Against dense sampling.
TEST(RobotMotionCheck, ATiltingSpinnerMatchesDenseSampling) {
  const RobotModel model = parse_urdf(R"(<?xml version="1.0"?>
<robot name="spinner">
  <link name="base"/><link name="l1"/>
  <link name="l2"><collision><origin xyz="0.3 0 0"/><geometry><sphere radius="0.03"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><origin xyz="0 0 0.5"/><axis xyz="1 0 0"/><limit lower="-1.2" upper="1.2"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><axis xyz="0 0 1"/><limit lower="-6" upper="6"/></joint>
</robot>
)",
                                      ".");
  const SceneChecker c(RobotGeometry(model), AllowedCollisionMatrix::adjacent(model));
  Environment table;
  table.add("table", Box(2.0, 2.0, 0.1), Transform::from_translation(Vec3(0, 0, 0.3)));  // top at z = 0.35
  Rng rng(331);
  RobotState st;
  auto clear_q = [&](double tilt) {
    for (;;) {
      std::vector<double> q = {rng.uniform(-tilt, tilt), rng.uniform(-6.0, 6.0)};
      if (!robot_test::hits_at(c, q, table, 0.0, st)) return q;
    }
  };
  // Starting level (the spin axis vertical) every other time.
  const auto [hits, misses] = expect_dense_agreement(c, table, testing::scaled(120), [&](int k) {
    std::vector<double> q0 = clear_q((k / 2) % 2 == 0 ? 0.0 : 1.2);
    return std::pair{std::move(q0), clear_q(1.2)};
  });
  if (testing::scaled(120) >= 120) {
    EXPECT_GT(hits, 10);
    EXPECT_GT(misses, 10);
  }
}

// ---------------------------------------------------------- small arm --

SceneChecker ccd_small_arm() {
  const RobotModel m = parse_urdf(robot_test::small_arm_urdf(), ".");
  return SceneChecker(RobotGeometry(m), AllowedCollisionMatrix::adjacent(m));
}

Environment ccd_small_arm_env() {
  Environment env;
  env.add("table", Box(1.0, 1.0, 0.05), Transform::from_translation(Vec3(0.4, 0, 0.45)));
  env.add("ball", Sphere(0.08), Transform::from_translation(Vec3(0.1, 0.45, 0.9)));
  env.add("post", Cylinder(0.03, 0.6), Transform::from_translation(Vec3(-0.3, -0.2, 0.8)));
  env.add("wire", Cylinder(0.001, 1.0), Transform::from_axis_angle(Vec3::UnitX(), 1.5707963267948966, Vec3(0.3, 0.0, 1.1)));
  return env;
}

TEST(RobotMotionCheck, SmallArmMatchesDenseSampling) {
  // Revolute, prismatic and a mimic joint (multiplier −2) about a non-unit
  // axis, against objects, a 1 mm wire among them (the arm cannot reach
  // itself: its self pairs are checked but never met).
  const SceneChecker c = ccd_small_arm();
  const Environment env = ccd_small_arm_env();
  Rng rng(313);
  RobotState st;
  auto clear_q = [&] {
    for (;;) {
      std::vector<double> q = {rng.uniform(-3.0, 3.0), rng.uniform(-2.0, 2.0), rng.uniform(0.0, 0.3)};
      if (!robot_test::hits_at(c, q, env, 0.0, st)) return q;
    }
  };
  const auto [hits, misses] =
      expect_dense_agreement(c, env, testing::scaled(80), [&](int) { return std::pair{clear_q(), clear_q()}; });
  if (testing::scaled(80) >= 80) {
    EXPECT_GT(hits, 10);
    EXPECT_GT(misses, 5);
  }
}

// Random robots (robot_test::random_robot_urdf: prismatic and mimic joints
// about odd axes, a branch, fixed links in mid-chain, shapes far from their
// joints; the pairs that always touch allowed, as an SRDF does) among a
// box, a ball and a cylinder: the continuous check against dense sampling,
// self pairs and objects alike.
// `meshes`: a folder for random_robot_urdf's meshes (none when empty), read
// in `mode`.
void expect_random_robots_match_dense_sampling(unsigned seed, int robots, int segments,
                                               const std::filesystem::path& meshes, MeshMode mode) {
  Rng rng(seed);
  int hits = 0, misses = 0, used = 0;
  for (int k = 0; k < robots; ++k) {
    const std::string urdf = robot_test::random_robot_urdf(rng, false, meshes);
    const RobotModel m = parse_urdf(urdf, meshes.empty() ? "." : meshes, {}, "random robot " + std::to_string(k));
    const RobotGeometry geometry(m, robot_test::options(mode, k % 3 == 2 ? 0.004 : 0.0));
    const SceneChecker c(geometry, robot_test::always_near_allowed(geometry, m, rng));
    Environment env = robot_test::random_objects(rng);
    RobotState st;
    // Segments between collision-free configurations; a robot that has
    // too few of them (its links always meet the objects) is skipped.
    const auto clear_q = [&]() -> std::optional<std::vector<double>> {
      std::vector<double> q(m.variable_count());
      for (int attempt = 0; attempt < 200; ++attempt) {
        robot_test::uniform_joints(m, rng, q);
        if (!robot_test::hits_at(c, q, env, 0.0, st)) return q;
      }
      return std::nullopt;
    };
    std::vector<std::pair<std::vector<double>, std::vector<double>>> ends;
    while (static_cast<int>(ends.size()) < segments) {
      auto a = clear_q(), b = clear_q();
      if (!a || !b) break;
      ends.emplace_back(std::move(*a), std::move(*b));
    }
    if (static_cast<int>(ends.size()) < segments) continue;
    ++used;
    const auto [h, n] =
        expect_dense_agreement(c, env, segments, [&](int i) { return ends[static_cast<std::size_t>(i)]; });
    hits += h;
    misses += n;
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "robot " << k << ":\n" << urdf;
      return;
    }
  }
  std::printf("%d of %d random robots: %d segments collide, %d stay clear\n", used, robots, hits, misses);
  EXPECT_GE(used, robots / 2);
  if (testing::scaled(12) >= 12) {
    EXPECT_GT(hits, 10);
    EXPECT_GT(misses, 10);
  }
}

TEST(RobotMotionCheck, RandomRobotsMatchDenseSampling) {
  expect_random_robots_match_dense_sampling(337, std::max(3, testing::scaled(12)), std::max(4, testing::scaled(12)),
                                            {}, MeshMode::convex_hull);
}

// The same with random meshes on the links (robot_test::random_mesh_obj:
// bumpy, dented, some open), read as hulls and as raw surfaces.
TEST(RobotMotionCheck, RandomMeshRobotsMatchDenseSampling) {
  testing::TempDir dir;
  for (const MeshMode mode : {MeshMode::convex_hull, MeshMode::triangle_mesh})
    expect_random_robots_match_dense_sampling(mode == MeshMode::convex_hull ? 339 : 341,
                                              std::max(3, testing::scaled(12)), std::max(4, testing::scaled(12)),
                                              dir.path(), mode);
}

// A random robot the test above found a miss on (tests/data/robots/random):
// link l2 has two shapes; one shape pair with l0 was left out at the
// step's bound while the other's exact distance beyond it was taken for
// the pair's, so the check stepped past where l0 and l2 come within 1 cm.
TEST(RobotMotionCheck, ALinkPairWithAShapePairLeftOutIsNoFartherThanTheBound) {
  const RobotModel m = load_urdf(robot_test::robots_dir() / "random" / "two_shape_link.urdf");
  const SceneChecker c(RobotGeometry(m, robot_test::options(MeshMode::convex_hull, 0.004)),
                       AllowedCollisionMatrix::adjacent(m));
  const Environment none;
  const std::vector<std::pair<std::vector<double>, std::vector<double>>> segments = {
      {{1.36797759940754, 0.4761133546314199, 0.42998926540198257, 0.26124597381354886, -1.5638904510511786},
       {1.4316866402251642, 0.32873741383948918, 0.068506302904970173, -0.240546768084553, -0.34670242511366878}},
      {{0.35750964878369623, 0.49352611625958931, 1.7106831804631764, 0.84084596201276951, -2.3630831637370373},
       {1.4260550400664223, 0.39213456476362429, -1.9099441150752858, -0.19313943190143545, -2.3458982149356618}}};
  for (const auto& [q0, q1] : segments) {
    MotionCheckOptions o;
    o.clearance = 0.01;
    const MotionCheck mc = c.check_motion(q0, q1, none, o);
    const robot_test::DenseHit truth = robot_test::dense_first_hit(c, q0, q1, none, 0.01, 3000);
    ASSERT_TRUE(truth.hit);
    EXPECT_TRUE(mc.collide);
    EXPECT_LE(mc.s, truth.first);
    EXPECT_EQ(mc.pair.link_name + "/" + mc.pair.other_name, "l0/l2");
  }
}

TEST(RobotMotionCheck, BadInputIsInvalidWithAMessage) {
  const SceneChecker c = planar_checker();
  const Environment env = ball_at(Vec3(0.5, 0.5, 0.0), 0.05);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double ok[] = {0, 0, 0, 0}, other[] = {1, 0, 0, 0}, short_q[] = {0, 0, 0}, bad[] = {0, nan, 0, 0};
  const double huge0[] = {-1e308, 0, 0, 0}, huge1[] = {1e308, 0, 0, 0};
  auto expect_invalid = [&](const MotionCheck& m, const char* part) {
    EXPECT_EQ(m.status, Status::invalid_input) << part;
    EXPECT_FALSE(m.collide) << part;
    EXPECT_NE(m.message.find(part), std::string::npos) << "'" << part << "' not in: " << m.message;
  };
  expect_invalid(c.check_motion(short_q, other, env), "q0: robot 'planar': joint vector has 3 values, expected 4");
  expect_invalid(c.check_motion(ok, short_q, env), "q1: robot 'planar': joint vector has 3 values");
  expect_invalid(c.check_motion(bad, other, env), "q0: robot 'planar': joint vector value 1 (joint 'j2') is not finite");
  expect_invalid(c.check_motion(ok, bad, env), "q1:");
  expect_invalid(c.check_motion(huge0, huge1, env), "the motion of joint 'j1' is not finite");
  const double far[] = {1.5e308, 1.5e308, 0, 0};  // finite steps, an infinite speed bound
  expect_invalid(c.check_motion(ok, far, env), "the motion is too large to bound (link 'tool')");
  MotionCheckOptions o;
  o.clearance = -0.01;
  expect_invalid(c.check_motion(ok, other, env, o), "clearance");
  o.clearance = nan;
  expect_invalid(c.check_motion(ok, other, env, o), "clearance");
  o = {};
  o.accuracy = 0.0;
  expect_invalid(c.check_motion(ok, other, env, o), "accuracy 0.000000 must be finite and > 0");
  o.accuracy = std::numeric_limits<double>::infinity();
  expect_invalid(c.check_motion(ok, other, env, o), "accuracy");
  o = {};
  o.max_iterations = 0;
  expect_invalid(c.check_motion(ok, other, env, o), "max_iterations");
  Transform nan_base = Transform::identity();
  nan_base.p.x() = nan;
  expect_invalid(c.check_motion(ok, other, env, {}, nan_base), "base pose is not finite");
  Environment bad_env = env;
  bad_env.objects[0].pose.p.y() = nan;
  expect_invalid(c.check_motion(ok, other, bad_env), "environment object 'ball': pose is not finite");
}

}  // namespace
}  // namespace proxima::robot
