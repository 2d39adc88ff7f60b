// SPDX-License-Identifier: BSD-3-Clause
// The pair tables of the sphere prefilter (prefilter_tables.cpp) against
// the pairs' own distances: at joint vectors drawn over the whole range,
// each self pair's tables bound the distance between its links, as the
// narrow phase measures it on their shapes, from below (lo) and their
// signed distance from above (hi), whatever the variables a table leaves
// out.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/query.hpp>
#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/sphere_prefilter.hpp>

#include "../../src/robot/prefilter_data.hpp"
#include "robot_test_support.hpp"
#include "support/random.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;

// The smallest signed distance between two links' shapes in state s.
double link_signed_distance(const SceneChecker& c, const RobotState& s, int a, int b) {
  double out = std::numeric_limits<double>::infinity();
  const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  for (std::size_t i = s.shape_begin[ua]; i < s.shape_begin[ua + 1]; ++i)
    for (std::size_t j = s.shape_begin[ub]; j < s.shape_begin[ub + 1]; ++j) {
      const auto& ga = c.geometry().link(ua).shapes[i - s.shape_begin[ua]].geometry;
      const auto& gb = c.geometry().link(ub).shapes[j - s.shape_begin[ub]].geometry;
      EXPECT_TRUE(std::holds_alternative<Shape>(ga) && std::holds_alternative<Shape>(gb));
      if (!std::holds_alternative<Shape>(ga) || !std::holds_alternative<Shape>(gb)) continue;
      const DistanceResult r =
          signed_distance(std::get<Shape>(ga), s.shape_poses[i], std::get<Shape>(gb), s.shape_poses[j]);
      EXPECT_EQ(r.status, Status::ok);
      out = std::min(out, r.distance);
    }
  return out;
}

struct TableCounts {
  int tables = 0, second = 0, checked = 0, decided = 0;
};

// At `draws` joint vectors uniform within the limits, each self pair's
// tables against the signed distance of its links: lo bounds the distance
// (0 for an overlap), hi the signed one. Counts what it checked.
TableCounts expect_tables_bound(const SceneChecker& c, int draws, Rng& rng, const std::string& name) {
  const SpherePrefilter& p = c.sphere_prefilter();
  TableCounts n;
  EXPECT_TRUE(p.available()) << name;
  if (!p.available()) return n;
  const Environment none;
  p.scene(c, PreparedEnvironment(none), Transform::identity(), 0.0);  // makes the tables
  const auto& d = detail::PrefilterAccess::data(p);
  const std::size_t dof = c.model().variable_count();
  int wrong = 0;
  for (std::size_t k = 0; k < d.self_pairs.size(); ++k) {
    n.tables += d.pair_table[k] >= 0;
    n.second += d.pair_second_table[k] >= 0;
  }
  std::vector<double> q(dof);
  for (int draw = 0; draw < draws; ++draw) {
    robot_test::uniform_joints(c.model(), rng, q);
    const RobotState s = c.state(q);
    EXPECT_EQ(s.status, Status::ok) << name;
    if (s.status != Status::ok) return n;
    for (std::size_t k = 0; k < d.self_pairs.size(); ++k) {
      const auto [a, b] = d.self_pairs[k];
      double sd = std::numeric_limits<double>::quiet_NaN();
      for (const int index : {d.pair_table[k], d.pair_second_table[k]}) {
        if (index < 0) continue;
        const PrefilterPairTable& t = d.tables[static_cast<std::size_t>(index)];
        std::size_t cell = 0;
        int sub_cell = 0;
        EXPECT_TRUE(t.locate(q.data(), 1, 0, cell, sub_cell)) << name;
        const PrefilterPairTable::Cell& bounds = t.at(cell, sub_cell);
        if (sd != sd) sd = link_signed_distance(c, s, a, b);
        ++n.checked;
        n.decided += bounds.lo > 0.0f || bounds.hi < 0.0f;
        // 1e-9 m is far below the tables' own allowances.
        const bool holds = bounds.lo <= std::max(sd, 0.0) + 1e-9 && sd <= bounds.hi + 1e-9;
        if (!holds) {
          ++wrong;
          if (wrong <= 10)
            ADD_FAILURE() << name << " " << c.model().link(a).name << "|" << c.model().link(b).name << " table "
                          << index << ": signed distance " << sd << " outside [" << bounds.lo << ", " << bounds.hi
                          << "]";
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0) << name;
  return n;
}

TEST(PrefilterTables, BoundThePairsDistancesOverTheWholeRange) {
  Rng rng(29);
  const int draws = testing::scaled(1500);
  for (const char* name : {"panda", "ur5"}) {
    const SceneChecker c = robot_test::shipped_checker(name, MeshMode::convex_hull);
    const TableCounts n = expect_tables_bound(c, draws, rng, name);
    const auto& d = detail::PrefilterAccess::data(c.sphere_prefilter());
    // The pairs near each other along the chain have tables (the Panda's
    // others are too many joints apart), and most answers are decided.
    EXPECT_GE(n.tables, 6) << name;
    EXPECT_GT(n.decided, n.checked / 2) << name;
    if (std::string(name) == "ur5") {
      EXPECT_GT(n.tables, static_cast<int>(d.self_pairs.size()) / 2);
      EXPECT_GT(n.second, 0);
    }
    std::printf("%s: %zu self pairs, %d with tables (%d with a second), %d bounds checked, %d decided\n", name,
                d.self_pairs.size(), n.tables, n.second, n.checked, n.decided);
  }
}

// The same on random robots (robot_test::random_robot_urdf): prismatic
// joints, odd axes, fixed links in mid-chain, mimic joints with their
// multiplier and offset, shapes far from their joints, with and without a
// margin.
TEST(PrefilterTables, BoundThePairsDistancesOfRandomRobots) {
  Rng rng(31);
  const int robots = std::max(6, testing::scaled(24)), draws = std::max(60, testing::scaled(300));
  TableCounts all;
  for (int k = 0; k < robots; ++k) {
    const std::string urdf = robot_test::random_robot_urdf(rng);
    const RobotModel m = parse_urdf(urdf, ".", {}, "random robot " + std::to_string(k));
    const SceneChecker c(RobotGeometry(m, robot_test::options(MeshMode::convex_hull, k % 3 == 2 ? 0.004 : 0.0)),
                         AllowedCollisionMatrix::adjacent(m));
    const TableCounts n = expect_tables_bound(c, draws, rng, "random robot " + std::to_string(k));
    all.tables += n.tables;
    all.checked += n.checked;
    all.decided += n.decided;
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << urdf;
      return;
    }
  }
  std::printf("%d random robots: %d pairs with tables, %d bounds checked, %d decided\n", robots, all.tables,
              all.checked, all.decided);
  EXPECT_GT(all.tables, robots);
  EXPECT_GT(all.decided, all.checked / 2);
}

}  // namespace
}  // namespace proxima::robot
