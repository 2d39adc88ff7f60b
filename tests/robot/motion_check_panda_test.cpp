// SPDX-License-Identifier: BSD-3-Clause
// SceneChecker::check_motion on the Panda in a MotionBenchMaker scene
// (tests/data/robots/panda/scenes, read with the benchmark's own YAML
// reader): segments between random valid configurations against dense
// discrete sampling, and a thin rod that both ends and a planner's coarse
// sampling miss.
#include <cmath>
#include <limits>
#include <numbers>

#include <gtest/gtest.h>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>

#include "dense_motion.hpp"
#include "robot_test_support.hpp"
#include "support/random.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;

std::filesystem::path ccd_panda_dir() { return robot_test::robots_dir() / "panda"; }

const SceneChecker& ccd_panda(MeshMode mode) {
  static const SceneChecker hull = robot_test::panda_checker(MeshMode::convex_hull);
  static const SceneChecker raw = robot_test::panda_checker(MeshMode::triangle_mesh);
  return mode == MeshMode::convex_hull ? hull : raw;
}

// A shipped MotionBenchMaker scene as an Environment.
Environment ccd_scene(const std::string& name) {
  return read_planning_scene(ccd_panda_dir() / "scenes" / (name + ".yaml")).environment;
}

// Uniform within the limits, clear of the scene and of itself.
std::vector<double> ccd_valid_configuration(const SceneChecker& c, const Environment& env, Rng& rng) {
  RobotState st;
  for (;;) {
    std::vector<double> q(c.model().variable_count());
    for (std::size_t j = 0; j < q.size(); ++j) {
      const Joint& jt = c.model().joint(c.model().variable_joint(j));
      q[j] = rng.uniform(jt.lower, jt.upper);
    }
    if (!robot_test::hits_at(c, q, env, 0.0, st)) return q;
  }
}

struct SegmentTally {
  int hits = 0, misses = 0, self_hits = 0, between_samples = 0;
};

// One segment, check_motion against dense sampling: a collision-free answer
// has no sampled hit; a hit is at or before the first sampled one, no
// sample before it hits, and the distance there is within [clearance,
// clearance + accuracy].
void compare_segment(const SceneChecker& c, const Environment& env, std::span<const double> q0,
                     std::span<const double> q1, const MotionCheckOptions& o, int samples, SegmentTally& tally,
                     const std::string& what) {
  const MotionCheck m = c.check_motion(q0, q1, env, o);
  ASSERT_EQ(m.status, Status::ok) << what << ": " << m.message;
  const robot_test::DenseHit truth = robot_test::dense_first_hit(c, q0, q1, env, o.clearance, samples);
  if (!m.collide) {
    EXPECT_FALSE(truth.hit) << what << ": sampled contact at s = " << truth.first << " missed";
    ++tally.misses;
    return;
  }
  ++tally.hits;
  tally.self_hits += m.self;
  EXPECT_LE(m.s, truth.first) << what;
  if (!truth.hit) ++tally.between_samples;  // a graze no sample caught, or within accuracy only
  if (m.s > 0.0) {
    const double d = robot_test::distance_at(c, robot_test::lerp_joints(q0, q1, m.s), env);
    EXPECT_GE(d, o.clearance) << what;
    EXPECT_LE(d, o.clearance + o.accuracy + 1e-9) << what;
    EXPECT_NEAR(m.distance, d, 1e-9) << what << " " << m.pair.link_name << " / " << m.pair.other_name;
  }
}

TEST(RobotMotionCheckPanda, TablePickSegmentsMatchDenseSampling) {
  const SceneChecker& c = ccd_panda(MeshMode::convex_hull);
  const Environment env = ccd_scene("table_pick_scene0001");
  ASSERT_GT(env.objects.size(), 5u);
  Rng rng(401);
  SegmentTally tally;
  for (int k = 0; k < testing::scaled(40); ++k) {
    const std::vector<double> q0 = ccd_valid_configuration(c, env, rng), q1 = ccd_valid_configuration(c, env, rng);
    MotionCheckOptions o;
    o.clearance = k % 4 == 3 ? 0.02 : 0.0;
    compare_segment(c, env, q0, q1, o, 2000, tally, "segment " + std::to_string(k));
  }
  if (testing::scaled(40) >= 40) {
    EXPECT_GT(tally.hits, 5);
    EXPECT_GT(tally.misses, 2);
    EXPECT_GT(tally.self_hits, 0);
  }
}

TEST(RobotMotionCheckPanda, ShortSegmentsNearTheShelvesMatchDenseSampling) {
  // A planner's edges are short: random steps of up to 0.4 rad per joint
  // from valid configurations, in the tall bookshelf.
  const SceneChecker& c = ccd_panda(MeshMode::convex_hull);
  const Environment env = ccd_scene("bookshelf_tall_scene0001");
  Rng rng(403);
  SegmentTally tally;
  for (int k = 0; k < testing::scaled(60); ++k) {
    const std::vector<double> q0 = ccd_valid_configuration(c, env, rng);
    std::vector<double> q1 = q0;
    for (double& x : q1) x += rng.uniform(-0.4, 0.4);
    compare_segment(c, env, q0, q1, MotionCheckOptions{}, 2000, tally, "step " + std::to_string(k));
  }
  if (testing::scaled(60) >= 60) {
    EXPECT_GT(tally.hits, 3);
    EXPECT_GT(tally.misses, 10);
  }
}

TEST(RobotMotionCheckPanda, RawMeshLinksMatchDenseSampling) {
  const SceneChecker& c = ccd_panda(MeshMode::triangle_mesh);
  const Environment env = ccd_scene("table_pick_scene0001");
  Rng rng(405);
  SegmentTally tally;
  for (int k = 0; k < testing::scaled(8); ++k) {
    const std::vector<double> q0 = ccd_valid_configuration(c, env, rng), q1 = ccd_valid_configuration(c, env, rng);
    compare_segment(c, env, q0, q1, MotionCheckOptions{}, 1000, tally, "mesh segment " + std::to_string(k));
  }
  EXPECT_GT(tally.hits + tally.misses, 0);
}

std::vector<double> ccd_ready(double q7 = std::numbers::pi / 4) {
  constexpr double pi = std::numbers::pi;
  return {0.0, -pi / 4, 0.0, -3 * pi / 4, 0.0, pi / 2, q7};
}

TEST(RobotMotionCheckPanda, SelfPairsCanBeLeftOut) {
  // Joint 6 from π/2 to 0 (within its limits) folds link 7 onto link 5.
  const SceneChecker& c = ccd_panda(MeshMode::convex_hull);
  const Environment none;
  const std::vector<double> q0 = ccd_ready();
  std::vector<double> q1 = q0;
  q1[5] = 0.0;
  const MotionCheck with = c.check_motion(q0, q1, none);
  ASSERT_EQ(with.status, Status::ok);
  ASSERT_TRUE(with.collide);
  EXPECT_TRUE(with.self);
  EXPECT_EQ(with.pair.link_name, "panda_link5");
  EXPECT_EQ(with.pair.other_name, "panda_link7");
  const robot_test::DenseHit truth = robot_test::dense_first_hit(c, q0, q1, none, 0.0, 4000);
  ASSERT_TRUE(truth.hit);
  EXPECT_LE(with.s, truth.first);
  EXPECT_GT(with.s, truth.first - 0.05);
  MotionCheckOptions o;
  o.self = false;
  const MotionCheck without = c.check_motion(q0, q1, none, o);
  ASSERT_EQ(without.status, Status::ok);
  EXPECT_FALSE(without.collide);
  EXPECT_EQ(without.s, 1.0);
}

TEST(RobotMotionCheckPanda, AThinRodBetweenCoarseSamplesIsFound) {
  // Joint 1 turns 0.6 rad with the hand pointing down. A planner sampling
  // at 0.05 rad per joint looks at 13 configurations, 2.5 cm apart at the
  // fingertips. A wire 2 mm thick stands under the left fingertip's lowest
  // point as it is midway between two samples, reaching 1 mm above it: the
  // finger clips it between the samples and at neither.
  const SceneChecker& c = ccd_panda(MeshMode::convex_hull);
  std::vector<double> q0 = ccd_ready(std::numbers::pi / 2), q1 = q0;
  q0[0] = -0.3;
  q1[0] = 0.3;
  constexpr int coarse = 12;  // 0.6 rad / 0.05 rad
  const double s_mid = 6.5 / coarse;
  const int finger = c.model().link_index("panda_leftfinger");
  const RobotState mid = c.state(robot_test::lerp_joints(q0, q1, s_mid));
  const LinkShape& shape = c.geometry().link(finger).shapes[0];
  const Transform pose = mid.link_poses[static_cast<std::size_t>(finger)] * shape.origin;
  Vec3 lowest = Vec3::Constant(std::numeric_limits<double>::infinity());
  for (const Vec3& v : shape.shape()->as<ConvexPolytope>().vertices())
    if (pose.apply(v).z() < lowest.z()) lowest = pose.apply(v);
  constexpr double length = 0.3;
  Environment env;
  env.add("wire", Cylinder(0.001, length), Transform::from_translation(lowest + Vec3(0, 0, 0.001 - length / 2)));

  RobotState st;
  for (int k = 0; k <= coarse; ++k)
    ASSERT_FALSE(robot_test::hits_at(c, robot_test::lerp_joints(q0, q1, static_cast<double>(k) / coarse), env, 0.0, st))
        << "coarse sample " << k << " sees the wire: the setup no longer tunnels";
  const robot_test::DenseHit truth = robot_test::dense_first_hit(c, q0, q1, env, 0.0, 5000);
  ASSERT_TRUE(truth.hit);
  EXPECT_GT(truth.first, 6.0 / coarse);
  EXPECT_LT(truth.first, 7.0 / coarse);

  const MotionCheck m = c.check_motion(q0, q1, env);
  ASSERT_EQ(m.status, Status::ok) << m.message;
  ASSERT_TRUE(m.collide);
  EXPECT_EQ(m.pair.other_name, "wire");
  EXPECT_LE(m.s, truth.first);
  EXPECT_GT(m.s, 6.0 / coarse);
  EXPECT_LE(m.distance, 1e-4);
  // The fingertip leaves the wire behind: the rest of the segment after the
  // clip is clear again, so a check of the end alone also misses it.
  EXPECT_FALSE(robot_test::hits_at(c, q1, env, 0.0, st));
}

}  // namespace
}  // namespace proxima::robot
