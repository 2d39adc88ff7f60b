// SPDX-License-Identifier: BSD-3-Clause
// Objects held by the Panda: placed by the hand's pose times their own,
// checked against every link but their own and their touch links, against
// the environment and along a motion, all compared with the pair queries
// asked directly at poses composed here from the original robot's state.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/query.hpp>
#include <proxima/robot/attached_object.hpp>

#include "robot_test_support.hpp"
#include "support/random.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;
using testing::scaled;

const SceneChecker& held_panda() {
  static const SceneChecker c = robot_test::panda_checker(MeshMode::convex_hull);
  return c;
}

// A 20 cm rod along the hand's z axis, its lower end between the fingers.
AttachedObject rod(std::vector<std::string> touch = {"panda_leftfinger", "panda_rightfinger"}) {
  return {"rod", "panda_hand", Shape(Capsule(0.015, 0.2)), Transform::from_translation(Vec3(0, 0, 0.2)),
          std::move(touch)};
}

std::vector<double> held_random_q(const RobotModel& m, Rng& rng) {
  std::vector<double> q(m.variable_count());
  for (std::size_t i = 0; i < q.size(); ++i) {
    const Joint& j = m.joint(m.variable_joint(i));
    q[i] = rng.uniform(j.lower, j.upper);
  }
  return q;
}

const Shape& held_link_shape(const SceneChecker& c, int link) { return *c.geometry().link(link).shapes[0].shape(); }

TEST(AttachedObject, MovesWithItsLink) {
  const SceneChecker& c = held_panda();
  const AttachedObject o = rod();
  const SceneChecker h = attach(c, std::span(&o, 1));
  ASSERT_EQ(h.model().links().size(), c.model().links().size() + 1);
  EXPECT_EQ(h.model().variable_count(), c.model().variable_count());
  const int hand = c.model().link_index("panda_hand"), held = h.model().link_index("rod");
  ASSERT_GE(held, 0);
  Rng rng(5101);
  for (int k = 0; k < 20; ++k) {
    const std::vector<double> q = held_random_q(c.model(), rng);
    const RobotState a = c.state(q), b = h.state(q);
    ASSERT_EQ(b.status, Status::ok);
    for (std::size_t l = 0; l < a.link_poses.size(); ++l) {
      EXPECT_LT((a.link_poses[l].R - b.link_poses[l].R).norm(), 1e-15);
      EXPECT_LT((a.link_poses[l].p - b.link_poses[l].p).norm(), 1e-15);
    }
    const Transform want = a.link_poses[static_cast<std::size_t>(hand)] * o.pose;
    const Transform& got = b.shape_poses[b.shape_begin[static_cast<std::size_t>(held)]];
    EXPECT_LT((got.R - want.R).norm(), 1e-14);
    EXPECT_LT((got.p - want.p).norm(), 1e-14);
  }
  // The original checker is left as it was.
  EXPECT_EQ(c.model().link_index("rod"), -1);
}

// Every answer against the pair queries asked directly: the robot's own
// pairs from the original checker, the rod's from collide() and distance()
// at the composed pose.
TEST(AttachedObject, MatchesThePairQueries) {
  const SceneChecker& c = held_panda();
  const AttachedObject o = rod();
  const SceneChecker h = attach(c, std::span(&o, 1));
  Environment env;
  env.add("table", Box(1.2, 1.6, 0.05), Transform::from_translation(Vec3(0.6, 0, 0.3)));
  env.add("post", Cylinder(0.03, 1.2), Transform::from_translation(Vec3(0.2, 0.4, 0.6)));
  const int hand = c.model().link_index("panda_hand"), held = h.model().link_index("rod");
  const std::set<std::string> skipped{"panda_hand", "panda_leftfinger", "panda_rightfinger"};
  const Shape& rod_shape = std::get<Shape>(o.geometry);
  Rng rng(5102);
  const int n = scaled(200);
  int rod_self = 0, rod_env = 0;
  for (int k = 0; k < n; ++k) {
    const std::vector<double> q = held_random_q(c.model(), rng);
    const RobotState a = c.state(q), b = h.state(q);
    const Transform pose = a.link_poses[static_cast<std::size_t>(hand)] * o.pose;
    std::set<std::pair<int, int>> self;
    for (const PairId& p : c.self_collision(a).pairs) self.emplace(p.link, p.other);
    double self_min = c.self_distance(a).distance;
    for (std::size_t l = 0; l < a.link_poses.size(); ++l) {
      if (!c.geometry().has_geometry(static_cast<int>(l)) || skipped.count(c.model().links()[l].name)) continue;
      const Transform lp = a.shape_poses[a.shape_begin[l]];
      if (collide(rod_shape, pose, held_link_shape(c, static_cast<int>(l)), lp).collide) {
        self.emplace(static_cast<int>(l), held);
        ++rod_self;
      }
      self_min = std::min(self_min, distance(rod_shape, pose, held_link_shape(c, static_cast<int>(l)), lp).distance);
    }
    std::set<std::pair<int, int>> outside;
    for (const PairId& p : c.environment_collision(a, env).pairs) outside.emplace(p.link, p.other);
    double env_min = c.environment_distance(a, env).distance;
    for (std::size_t i = 0; i < env.objects.size(); ++i) {
      const Shape& s = std::get<Shape>(env.objects[i].geometry);
      if (collide(rod_shape, pose, s, env.objects[i].pose).collide) {
        outside.emplace(held, static_cast<int>(i));
        ++rod_env;
      }
      env_min = std::min(env_min, distance(rod_shape, pose, s, env.objects[i].pose).distance);
    }
    std::set<std::pair<int, int>> got_self, got_env;
    for (const PairId& p : h.self_collision(b).pairs) got_self.emplace(p.link, p.other);
    for (const PairId& p : h.environment_collision(b, env).pairs) got_env.emplace(p.link, p.other);
    EXPECT_EQ(got_self, self) << k;
    EXPECT_EQ(got_env, outside) << k;
    EXPECT_NEAR(h.self_distance(b).distance, self_min, 1e-9) << k;
    EXPECT_NEAR(h.environment_distance(b, env).distance, env_min, 1e-9) << k;
  }
  if (n >= 100) {
    EXPECT_GT(rod_self, 0);
    EXPECT_GT(rod_env, 0);
  }
}

TEST(AttachedObject, TouchLinksMayTouchIt) {
  const SceneChecker& c = held_panda();
  // A block through the fingers: it touches them at every configuration.
  AttachedObject block{"block", "panda_hand", Shape(Box(0.03, 0.2, 0.03)),
                       Transform::from_translation(Vec3(0, 0, 0.1)), {}};
  const std::vector<double> q{0, -0.785, 0, -2.356, 0, 1.571, 0.785};
  const SceneChecker bare = attach(c, std::span(&block, 1));
  std::set<std::string> touching;
  for (const PairId& p : bare.self_collision(bare.state(q)).pairs)
    if (p.other_name == "block" || p.link_name == "block") touching.insert(p.link_name == "block" ? p.other_name : p.link_name);
  EXPECT_EQ(touching, (std::set<std::string>{"panda_leftfinger", "panda_rightfinger"}));
  block.touch_links = {"panda_leftfinger", "panda_rightfinger"};
  const SceneChecker held = attach(c, std::span(&block, 1));
  EXPECT_FALSE(held.self_collision(held.state(q)).collide());
  EXPECT_GT(held.self_distance(held.state(q)).distance, 0.0);
}

// Only the rod reaches a thin post during the motion: the robot alone
// passes it, the robot holding the rod does not, and sampling the motion
// finely confirms a colliding configuration at or after the reported s.
TEST(AttachedObject, CheckMotionCarriesIt) {
  const SceneChecker& c = held_panda();
  const AttachedObject o = rod();
  const SceneChecker h = attach(c, std::span(&o, 1));
  const std::vector<double> q0{-0.6, -0.3, 0, -2.0, 0, 1.9, 0.785}, q1{0.6, -0.3, 0, -2.0, 0, 1.9, 0.785};
  // A post where the rod's far end passes at the motion's midpoint.
  const RobotState mid = h.state(std::vector<double>{0, -0.3, 0, -2.0, 0, 1.9, 0.785});
  const Transform& rod_pose = mid.shape_poses[mid.shape_begin[static_cast<std::size_t>(h.model().link_index("rod"))]];
  const Vec3 tip = rod_pose.apply(Vec3(0, 0, 0.1));
  Environment env;
  env.add("post", Cylinder(0.01, 0.04), Transform::from_translation(tip));
  EXPECT_FALSE(c.check_motion(q0, q1, env).collide);
  const MotionCheck m = h.check_motion(q0, q1, env);
  ASSERT_EQ(m.status, Status::ok);
  ASSERT_TRUE(m.collide);
  EXPECT_EQ(m.pair.link_name, "rod");
  int first = -1;
  const int samples = 2000;
  for (int k = 0; k <= samples && first < 0; ++k) {
    std::vector<double> q(7);
    const double s = static_cast<double>(k) / samples;
    for (std::size_t i = 0; i < 7; ++i) q[i] = q0[i] + s * (q1[i] - q0[i]);
    if (h.environment_collision(h.state(q), env).collide()) first = k;
  }
  ASSERT_GE(first, 0);
  EXPECT_LE(m.s, static_cast<double>(first) / samples + 1e-9);
}

TEST(AttachedObject, BadObjectsAreRefusedByName) {
  const SceneChecker& c = held_panda();
  auto refused = [&](AttachedObject o, std::initializer_list<std::string> parts) {
    robot_test::expect_error([&] { attach(c, std::span(&o, 1)); }, parts);
  };
  AttachedObject o = rod();
  o.link = "panda_tool";
  refused(o, {"'rod'", "link 'panda_tool'"});
  o = rod({"panda_thumb"});
  refused(o, {"'rod'", "touch link 'panda_thumb'"});
  o = rod();
  o.name = "panda_link3";
  refused(o, {"'panda_link3'", "already has a link"});
  o.name = "";
  refused(o, {"empty name"});
  o = rod();
  o.pose.p.x() = std::numeric_limits<double>::quiet_NaN();
  refused(o, {"'rod'", "pose"});
  o = rod();
  o.pose.R = Vec3(2.0, 0.5, 1.0).asDiagonal();
  refused(o, {"'rod'", "not a rotation"});
  o = rod();
  o.geometry = Shape(Halfspace(Vec3::UnitZ(), 0.0));
  refused(o, {"'rod'", "unbounded"});
  const std::vector<AttachedObject> twice{rod(), rod()};
  robot_test::expect_error([&] { attach(c, twice); }, {"'rod'", "already has a link"});
}

}  // namespace
}  // namespace proxima::robot
