// SPDX-License-Identifier: BSD-3-Clause
// Touch links (EnvironmentObject::touch_links): the Panda's hand inside a
// block it is about to grasp. Allowing a set of links must remove exactly
// their pairs with that object from every answer and leave the rest, with a
// plain and a prepared environment alike; a name that is no link of the
// robot is refused by every query.
#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/query.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

const SceneChecker& touch_panda() {
  static const SceneChecker c = robot_test::panda_checker(MeshMode::convex_hull);
  return c;
}

const std::vector<double> kReady = {0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785};

// A block around the hand at kReady, a table below it, and a post the arm
// reaches past: the block's touch links are the caller's.
Environment grasp_scene(const SceneChecker& c, std::vector<std::string> touch) {
  const RobotState st = c.state(kReady);
  const Transform hand = st.link_poses[static_cast<std::size_t>(c.model().link_index("panda_hand"))];
  Environment env;
  env.add("table", Box(1.0, 1.0, 0.05), Transform::from_translation(Vec3(0.5, 0.0, 0.1)));
  env.add("block", Box(0.12, 0.12, 0.16), Transform{hand.R, hand.apply(Vec3(0, 0, 0.06))}, std::move(touch));
  env.add("post", Cylinder(0.03, 1.0), Transform::from_translation(Vec3(0.2, 0.35, 0.5)));
  return env;
}

std::set<std::string> links_touching(const CollisionReport& r, const std::string& object) {
  std::set<std::string> out;
  for (const PairId& p : r.pairs)
    if (p.other_name == object) out.insert(p.link_name);
  return out;
}

TEST(TouchLinks, AllowedPairsLeaveEveryAnswerAndNothingElseDoes) {
  const SceneChecker& c = touch_panda();
  const RobotState st = c.state(kReady);
  const CollisionReport none = c.environment_collision(st, grasp_scene(c, {}));
  ASSERT_EQ(none.status, Status::ok);
  const std::set<std::string> in_block = links_touching(none, "block");
  ASSERT_GE(in_block.size(), 2u) << "the hand and a finger, at least, are in the block";
  const std::vector<std::string> all(in_block.begin(), in_block.end());

  // Every link allowed but one: exactly that one still collides with it.
  for (const std::string& kept : all) {
    std::vector<std::string> allowed;
    for (const std::string& l : all)
      if (l != kept) allowed.push_back(l);
    const Environment env = grasp_scene(c, allowed);
    const PreparedEnvironment prepared(env);
    for (const CollisionReport& r : {c.environment_collision(st, env), c.environment_collision(st, prepared)}) {
      ASSERT_EQ(r.status, Status::ok);
      EXPECT_EQ(links_touching(r, "block"), std::set<std::string>{kept});
      EXPECT_EQ(links_touching(r, "table"), links_touching(none, "table"));
    }
    const ToleranceReport t = c.tolerance(st, prepared, 0.0);
    EXPECT_TRUE(t.within);
  }

  // All of them allowed: the block is out of every answer.
  const Environment env = grasp_scene(c, all);
  const PreparedEnvironment prepared(env);
  EXPECT_TRUE(links_touching(c.environment_collision(st, env), "block").empty());
  EXPECT_TRUE(links_touching(c.environment_collision(st, prepared), "block").empty());
  const DistanceReport d = c.environment_distance(st, env), dp = c.environment_distance(st, prepared);
  ASSERT_TRUE(d.found);
  EXPECT_EQ(dp.distance, d.distance);
  if (d.pair.other_name == "block") {
    EXPECT_EQ(in_block.count(d.pair.link_name), 0u);
  }
  // The smallest distance over the pairs left, each asked of the public
  // narrow phase directly.
  double truth = std::numeric_limits<double>::infinity();
  for (std::size_t l = 0; l < c.model().links().size(); ++l)
    for (std::size_t i = st.shape_begin[l]; i < st.shape_begin[l + 1]; ++i)
      for (const EnvironmentObject& o : env.objects) {
        if (o.name == "block" && in_block.count(c.model().links()[l].name)) continue;
        const Shape& link_shape = *c.geometry().links()[l].shapes[i - st.shape_begin[l]].shape();
        truth = std::min(truth, distance(link_shape, st.shape_poses[i], std::get<Shape>(o.geometry), o.pose).distance);
      }
  EXPECT_NEAR(d.distance, truth, 1e-12);

  // A small motion of the wrist inside the block: free of it when its
  // links may touch it, colliding at once when they may not.
  std::vector<double> q1 = kReady;
  q1[6] += 0.2;
  const MotionCheck free_motion = c.check_motion(kReady, q1, prepared);
  ASSERT_EQ(free_motion.status, Status::ok);
  EXPECT_FALSE(free_motion.collide && free_motion.pair.other_name == "block");
  const MotionCheck blocked = c.check_motion(kReady, q1, grasp_scene(c, {}));
  EXPECT_TRUE(blocked.collide);
  EXPECT_EQ(blocked.s, 0.0);
}

TEST(TouchLinks, AnUnknownLinkNameIsRefusedByEveryQuery) {
  const SceneChecker& c = touch_panda();
  const RobotState st = c.state(kReady);
  const Environment env = grasp_scene(c, {"panda_hand", "panda_hnd"});
  const PreparedEnvironment prepared(env);
  const std::string why = "environment object 'block': touch link 'panda_hnd' is not a link of robot 'panda'";
  std::vector<double> q1 = kReady;
  q1[0] += 0.1;
  for (const bool use_prepared : {false, true}) {
    const CollisionReport col =
        use_prepared ? c.environment_collision(st, prepared) : c.environment_collision(st, env);
    const DistanceReport dis = use_prepared ? c.environment_distance(st, prepared) : c.environment_distance(st, env);
    const ToleranceReport tol = use_prepared ? c.tolerance(st, prepared, 0.01) : c.tolerance(st, env, 0.01);
    const MotionCheck mot = use_prepared ? c.check_motion(kReady, q1, prepared) : c.check_motion(kReady, q1, env);
    EXPECT_EQ(col.status, Status::invalid_input);
    EXPECT_EQ(col.message, why);
    EXPECT_EQ(dis.status, Status::invalid_input);
    EXPECT_EQ(dis.message, why);
    EXPECT_EQ(tol.status, Status::invalid_input);
    EXPECT_EQ(tol.message, why);
    EXPECT_EQ(mot.status, Status::invalid_input);
    EXPECT_EQ(mot.message, why);
  }
}

}  // namespace
}  // namespace proxima::robot
