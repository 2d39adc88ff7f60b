// SPDX-License-Identifier: BSD-3-Clause
// PreparedEnvironment: the Panda among a few hundred random objects. Its
// answers must be the plain Environment's, pair for pair and bit for bit
// (the index changes only which objects are looked at); and the minimum
// distance must be the brute-force minimum over every link shape and every
// object, each asked of the public narrow phase directly.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <thread>

#include <gtest/gtest.h>

#include <proxima/query.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>

#include "robot_test_support.hpp"
#include "support/random.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;

const SceneChecker& prepared_panda() {
  static const SceneChecker c = robot_test::panda_checker(MeshMode::convex_hull);
  return c;
}

// Small convex objects scattered through the arm's reach (some inside it),
// a floor halfspace below the base, and, with `mesh`, a triangulated block.
Environment clutter(Rng& rng, int count, bool mesh) {
  Environment env;
  for (int i = 0; i < count; ++i) {
    Transform p = rng.pose(1.2);
    p.p.z() += 0.5;
    const double a = rng.uniform(0.005, 0.03), b = rng.uniform(0.005, 0.05);
    char name[16];  // (gcc 12 sees a false overflow in "o" + std::to_string(i) here)
    std::snprintf(name, sizeof name, "o%d", i);
    switch (i % 4) {
      case 0: env.add(name, Box(2 * a, 2 * b, a + b), p); break;
      case 1: env.add(name, Sphere(a), p); break;
      case 2: env.add(name, Capsule(a, b), p); break;
      default: env.add(name, Cylinder(a, b), p); break;
    }
  }
  env.add("floor", Halfspace(Vec3::UnitZ(), -0.3), Transform::identity());
  if (mesh) {
    std::vector<Vec3> v;
    for (int k = 0; k < 8; ++k) v.emplace_back(k & 1 ? 0.1 : -0.1, k & 2 ? 0.05 : -0.05, k & 4 ? 0.02 : -0.02);
    const std::vector<TriangleIndices> t = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                            {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    env.add("block", Bvh(TriangleMesh(v, t, 0.0, "block")), testing::at(0.4, 0.1, 0.6));
  }
  return env;
}

std::vector<double> random_q(const SceneChecker& c, Rng& rng) {
  std::vector<double> q(c.model().variable_count());
  for (std::size_t j = 0; j < q.size(); ++j) {
    const Joint& jt = c.model().joint(c.model().variable_joint(j));
    q[j] = rng.uniform(jt.lower, jt.upper);
  }
  return q;
}

void expect_same_pairs(const std::vector<PairId>& x, const std::vector<PairId>& y, const std::string& what) {
  ASSERT_EQ(x.size(), y.size()) << what;
  for (std::size_t k = 0; k < x.size(); ++k) {
    EXPECT_EQ(x[k].link, y[k].link) << what;
    EXPECT_EQ(x[k].other, y[k].other) << what;
  }
}

// The smallest distance over every link shape and every object, each from
// the public narrow phase (convex objects only; tested against its own
// oracles), so that what is tested here is the prepared index's pruning.
double brute_force_distance(const SceneChecker& c, const RobotState& st, const Environment& env) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t l = 0; l < c.model().links().size(); ++l)
    for (std::size_t i = st.shape_begin[l]; i < st.shape_begin[l + 1]; ++i) {
      const Shape* s = c.geometry().links()[l].shapes[i - st.shape_begin[l]].shape();
      if (!s) continue;
      for (const EnvironmentObject& o : env.objects) {
        const DistanceResult d = distance(*s, st.shape_poses[i], std::get<Shape>(o.geometry), o.pose);
        // A failed pair would leave the minimum too large: it fails the test.
        if (d.status != Status::ok) ADD_FAILURE() << "link " << l << " object " << o.name << ": " << to_string(d.status);
        best = std::min(best, d.distance);
      }
    }
  return best;
}

TEST(PreparedEnvironment, AnswersAreThePlainEnvironmentsAndTheBruteForceMinimum) {
  const SceneChecker& c = prepared_panda();
  Rng rng(1127);
  const Environment env = clutter(rng, 400, false);
  const PreparedEnvironment prepared(env);
  ASSERT_EQ(prepared.objects().size(), env.objects.size());
  EXPECT_EQ(prepared.index().unbounded().size(), 1u);  // the floor
  int collisions = 0, within = 0;
  RobotState st;
  for (int k = 0; k < testing::scaled(150); ++k) {
    const std::vector<double> q = random_q(c, rng);
    c.state(q, Transform::identity(), st);
    ASSERT_EQ(st.status, Status::ok);
    const std::string what = "configuration " + std::to_string(k);

    const CollisionReport a = c.environment_collision(st, env), b = c.environment_collision(st, prepared);
    ASSERT_EQ(a.status, Status::ok) << what;
    EXPECT_EQ(b.status, a.status) << what;
    expect_same_pairs(a.pairs, b.pairs, what);
    collisions += a.collide();

    const DistanceReport da = c.environment_distance(st, env), db = c.environment_distance(st, prepared);
    ASSERT_TRUE(da.found) << what;
    EXPECT_EQ(db.found, da.found) << what;
    EXPECT_EQ(db.distance, da.distance) << what;  // the same narrow-phase call: bit for bit
    if (da.distance > 0.0) {
      EXPECT_EQ(db.pair.link, da.pair.link) << what;
      EXPECT_EQ(db.pair.other, da.pair.other) << what;
      EXPECT_EQ(db.point_link, da.point_link) << what;
    }
    EXPECT_NEAR(db.distance, brute_force_distance(c, st, env), 1e-12) << what;

    const double t = rng.uniform(0.0, 0.1);
    const ToleranceReport ta = c.tolerance(st, env, t), tb = c.tolerance(st, prepared, t);
    EXPECT_EQ(tb.within, ta.within) << what;
    EXPECT_EQ(tb.self, ta.self) << what;
    EXPECT_EQ(tb.pair.link, ta.pair.link) << what;
    EXPECT_EQ(tb.pair.other, ta.pair.other) << what;
    within += ta.within;
    // Within t exactly when some pair is: with self pairs checked first,
    // an environment answer means the minimum is within t.
    if (ta.within && !ta.self) {
      EXPECT_LE(da.distance, t) << what;
    }
    if (da.distance <= t) {
      EXPECT_TRUE(ta.within) << what;
    }
  }
  if (testing::scaled(150) >= 150) {
    EXPECT_GT(collisions, 20);  // the clutter is dense enough to be met
    EXPECT_LT(collisions, 150);
    EXPECT_GT(within, collisions);
  }
}

TEST(PreparedEnvironment, MeshObjectsAndMotionChecksMatchThePlainEnvironment) {
  const SceneChecker& c = prepared_panda();
  Rng rng(1128);
  const Environment env = clutter(rng, 120, true);
  const PreparedEnvironment prepared(env);
  int hits = 0;
  for (int k = 0; k < testing::scaled(30); ++k) {
    const std::vector<double> q0 = random_q(c, rng);
    std::vector<double> q1 = q0;
    for (double& x : q1) x += rng.uniform(-0.5, 0.5);
    MotionCheckOptions o;
    o.clearance = k % 3 == 0 ? 0.01 : 0.0;
    const MotionCheck a = c.check_motion(q0, q1, env, o), b = c.check_motion(q0, q1, prepared, o);
    const std::string what = "segment " + std::to_string(k);
    ASSERT_EQ(a.status, Status::ok) << what << ": " << a.message;
    EXPECT_EQ(b.status, a.status) << what;
    EXPECT_EQ(b.collide, a.collide) << what;
    EXPECT_EQ(b.s, a.s) << what;
    EXPECT_EQ(b.self, a.self) << what;
    EXPECT_EQ(b.pair.link, a.pair.link) << what;
    EXPECT_EQ(b.pair.other, a.pair.other) << what;
    EXPECT_EQ(b.distance, a.distance) << what;
    EXPECT_EQ(b.iterations, a.iterations) << what;
    EXPECT_EQ(b.distance_queries, a.distance_queries) << what;
    hits += a.collide;

    const RobotState st = c.state(q0);
    expect_same_pairs(c.environment_collision(st, env).pairs, c.environment_collision(st, prepared).pairs, what);
    EXPECT_EQ(c.environment_distance(st, env).distance, c.environment_distance(st, prepared).distance) << what;
  }
  if (testing::scaled(30) >= 30) {
    EXPECT_GT(hits, 3);
  }
}

TEST(PreparedEnvironment, SharedAcrossThreads) {
  // Immutable: two threads asking at once get what one thread gets alone.
  const SceneChecker& c = prepared_panda();
  Rng rng(1129);
  const PreparedEnvironment prepared(clutter(rng, 300, true));
  std::vector<std::vector<double>> qs;
  for (int k = 0; k < testing::scaled(60); ++k) qs.push_back(random_q(c, rng));
  std::vector<double> alone;
  for (const auto& q : qs) alone.push_back(c.environment_distance(c.state(q), prepared).distance);
  std::vector<double> t1(qs.size()), t2(qs.size());
  std::thread a([&] {
    for (std::size_t k = 0; k < qs.size(); ++k) t1[k] = c.environment_distance(c.state(qs[k]), prepared).distance;
  });
  std::thread b([&] {
    for (std::size_t k = qs.size(); k-- > 0;) t2[k] = c.environment_distance(c.state(qs[k]), prepared).distance;
  });
  a.join();
  b.join();
  EXPECT_EQ(t1, alone);
  EXPECT_EQ(t2, alone);
}

TEST(PreparedEnvironment, BadAndEmptyEnvironments) {
  Environment env;
  env.add("good", Sphere(0.1), testing::at(1, 0, 0));
  Transform bad = testing::at(0, 0, 0);
  bad.p.y() = std::numeric_limits<double>::quiet_NaN();
  env.add("shelf 3", Box(0.1, 0.1, 0.1), bad);
  robot_test::expect_error([&] { PreparedEnvironment p(env); }, {"environment object 'shelf 3': pose is not finite"});

  const SceneChecker& c = prepared_panda();
  const PreparedEnvironment none;
  const PreparedEnvironment empty{Environment{}};
  const RobotState st = c.state(std::vector<double>(c.model().variable_count(), 0.0));
  for (const PreparedEnvironment* p : {&none, &empty}) {
    EXPECT_TRUE(p->objects().empty());
    EXPECT_FALSE(c.environment_collision(st, *p).collide());
    const DistanceReport d = c.environment_distance(st, *p);
    EXPECT_EQ(d.status, Status::ok);
    EXPECT_FALSE(d.found);
    EXPECT_TRUE(std::isinf(d.distance));
    EXPECT_FALSE(c.tolerance(st, *p, 0.1).within && !c.tolerance(st, *p, 0.1).self);
  }
  // A bad state or tolerance is reported as with a plain Environment.
  const RobotState broken = c.state(std::vector<double>(c.model().variable_count() + 1, 0.0));
  EXPECT_EQ(c.environment_distance(broken, empty).status, Status::invalid_input);
  EXPECT_EQ(c.tolerance(st, empty, -1.0).status, Status::invalid_input);
  EXPECT_EQ(c.tolerance(st, empty, std::numeric_limits<double>::quiet_NaN()).status, Status::invalid_input);
}

}  // namespace
}  // namespace proxima::robot
