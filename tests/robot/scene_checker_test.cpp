// SPDX-License-Identifier: BSD-3-Clause
// The scene checker against brute force: every checked pair of every pair of
// shapes asked directly of the narrow phase (no AABB pre-check, no pruning),
// and for raw meshes every pair of triangles asked of the Minkowski oracle
// (tests/oracle, which shares no code with the library).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include <proxima/io/mesh_io.hpp>
#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/query.hpp>
#include <proxima/robot/attached_object.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>

#include "minkowski_oracle.hpp"
#include "robot_test_support.hpp"
#include "support/random.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;
using testing::scaled;
using Geo = std::variant<Shape, Bvh>;

constexpr double kInf = std::numeric_limits<double>::infinity();

// Direct narrow-phase calls for the four kinds of pair.
bool brute_collide(const Geo& a, const Transform& pa, const Geo& b, const Transform& pb) {
  const Shape* sa = std::get_if<Shape>(&a);
  const Shape* sb = std::get_if<Shape>(&b);
  if (sa && sb) return collide(*sa, pa, *sb, pb).collide;
  if (!sa && !sb) return collide(std::get<Bvh>(a), pa, std::get<Bvh>(b), pb).collide;
  if (!sa) return collide(std::get<Bvh>(a), pa, *sb, pb).collide;
  return collide(std::get<Bvh>(b), pb, *sa, pa).collide;
}

// What brute force says about one configuration.
struct BruteAnswer {
  std::set<std::pair<int, int>> self_pairs, env_pairs;
  double self_min = kInf, env_min = kInf;
};

// `pair_distance` answers for a shape pair; the defaults use the narrow phase.
using PairDistanceFn = std::function<double(const Geo&, const Transform&, const Geo&, const Transform&)>;

BruteAnswer brute_force(const SceneChecker& c, std::span<const double> q, const Environment& env,
                        const PairDistanceFn& pair_distance = robot_test::geometry_distance, bool collide_by_distance = false) {
  const RobotGeometry& g = c.geometry();
  const std::vector<Transform> links = forward_kinematics(c.model(), q);
  auto pose = [&](int l, const LinkShape& s) { return links[static_cast<std::size_t>(l)] * s.origin; };
  BruteAnswer out;
  const int n = static_cast<int>(links.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      if (c.allowed().allowed(a, b)) continue;
      for (const LinkShape& sa : g.link(a).shapes)
        for (const LinkShape& sb : g.link(b).shapes) {
          const double d = pair_distance(sa.geometry, pose(a, sa), sb.geometry, pose(b, sb));
          out.self_min = std::min(out.self_min, d);
          const bool hit = collide_by_distance ? d <= 0.0 : brute_collide(sa.geometry, pose(a, sa), sb.geometry, pose(b, sb));
          if (hit) out.self_pairs.insert({a, b});
        }
    }
  for (int l = 0; l < n; ++l)
    for (std::size_t o = 0; o < env.objects.size(); ++o)
      for (const LinkShape& s : g.link(l).shapes) {
        const EnvironmentObject& obj = env.objects[o];
        const double d = pair_distance(s.geometry, pose(l, s), obj.geometry, obj.pose);
        out.env_min = std::min(out.env_min, d);
        const bool hit = collide_by_distance ? d <= 0.0 : brute_collide(s.geometry, pose(l, s), obj.geometry, obj.pose);
        if (hit) out.env_pairs.insert({l, static_cast<int>(o)});
      }
  return out;
}

std::set<std::pair<int, int>> as_set(const CollisionReport& r) {
  std::set<std::pair<int, int>> s;
  for (const PairId& p : r.pairs) s.insert({p.link, p.other});
  return s;
}

std::string q_string(std::span<const double> q) {
  std::ostringstream s;
  s.precision(17);
  for (double x : q) s << x << ' ';
  return s.str();
}

// How far the world point p lies outside every shape of link l at state s
// (0 on or in one), by the distance query from a ball of 1e-12 m at p.
double off_link(const SceneChecker& c, const RobotState& s, int l, const Vec3& p) {
  const Geo dot = Shape(Sphere(1e-12));
  const auto u = static_cast<std::size_t>(l);
  double least = kInf;
  for (std::size_t i = s.shape_begin[u]; i < s.shape_begin[u + 1]; ++i)
    least = std::min(least, robot_test::geometry_distance(c.geometry().link(l).shapes[i - s.shape_begin[u]].geometry,
                                                          s.shape_poses[i], dot, Transform::from_translation(p)));
  return least;
}

// Compares every checker answer for q with brute force; returns the number
// of colliding configurations (to show the workload has both answers).
int compare_with_brute_force(const SceneChecker& c, std::span<const double> q, const Environment& env,
                             double dist_tol, const PairDistanceFn& pair_distance = robot_test::geometry_distance,
                             bool collide_by_distance = false) {
  SCOPED_TRACE("q = " + q_string(q));
  const BruteAnswer b = brute_force(c, q, env, pair_distance, collide_by_distance);
  const RobotState s = c.state(q);
  EXPECT_EQ(s.status, Status::ok);
  const CollisionReport self = c.self_collision(s);
  const CollisionReport envc = c.environment_collision(s, env);
  // A raw-mesh pair a hair apart is a tie between the exact predicate and
  // the oracle's floating point: compare collisions only away from it.
  if (!(b.self_min > 0.0 && b.self_min < 1e-9)) { EXPECT_EQ(as_set(self), b.self_pairs); }
  if (!(b.env_min > 0.0 && b.env_min < 1e-9)) { EXPECT_EQ(as_set(envc), b.env_pairs); }
  EXPECT_EQ(self.status, Status::ok);
  const DistanceReport sd = c.self_distance(s);
  const DistanceReport ed = c.environment_distance(s, env);
  EXPECT_EQ(sd.found, std::isfinite(b.self_min));
  EXPECT_EQ(ed.found, std::isfinite(b.env_min));
  if (sd.found) {
    EXPECT_NEAR(sd.distance, b.self_min, dist_tol);
    EXPECT_FALSE(c.allowed().allowed(sd.pair.link, sd.pair.other));
    EXPECT_EQ(sd.pair.link_name, c.model().link(sd.pair.link).name);
    // Witness points realise the distance, each on its link.
    EXPECT_NEAR((sd.point_link - sd.point_other).norm(), sd.distance, 1e-6);
    EXPECT_LT(off_link(c, s, sd.pair.link, sd.point_link), 1e-7) << sd.pair.link_name;
    EXPECT_LT(off_link(c, s, sd.pair.other, sd.point_other), 1e-7) << sd.pair.other_name;
  }
  if (ed.found) {
    EXPECT_NEAR(ed.distance, b.env_min, dist_tol);
    const EnvironmentObject& o = env.objects[static_cast<std::size_t>(ed.pair.other)];
    EXPECT_EQ(ed.pair.other_name, o.name);
    EXPECT_NEAR((ed.point_link - ed.point_other).norm(), ed.distance, 1e-6);
    EXPECT_LT(off_link(c, s, ed.pair.link, ed.point_link), 1e-7) << ed.pair.link_name << " and " << o.name;
    EXPECT_LT(robot_test::geometry_distance(o.geometry, o.pose, Shape(Sphere(1e-12)),
                                            Transform::from_translation(ed.point_other)),
              1e-7)
        << o.name;
  }
  const double overall = std::min(b.self_min, b.env_min);
  for (double t : {0.0, 0.01, 0.05, 0.2}) {
    if (std::abs(overall - t) < 1e-7) continue;
    const ToleranceReport tr = c.tolerance(s, env, t);
    EXPECT_EQ(tr.within, overall <= t) << "t = " << t;
    EXPECT_TRUE(std::isfinite(sd.distance) || !sd.found);
  }
  return !b.self_pairs.empty() || !b.env_pairs.empty();
}

// `draws` joint vectors of robot m uniform within its limits, each compared
// with brute force on checker c; returns how many collide.
int compare_uniform_draws(const SceneChecker& c, const RobotModel& m, const Environment& env, Rng& rng, int draws) {
  std::vector<double> q(m.variable_count());
  int colliding = 0;
  for (int n = 0; n < draws; ++n) {
    robot_test::uniform_joints(m, rng, q);
    colliding += compare_with_brute_force(c, q, env, 1e-9);
  }
  return colliding;
}

SceneChecker small_arm_checker(const GeometryOptions& o = {}) {
  const RobotModel m = parse_urdf(robot_test::small_arm_urdf(), ".");
  AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(m);
  return SceneChecker(RobotGeometry(m, o), acm);
}

Environment small_arm_environment() {
  Environment env;
  env.add("table", Box(1.0, 1.0, 0.05), Transform::from_translation(Vec3(0.4, 0, 0.45)));
  env.add("ball", Sphere(0.08), Transform::from_translation(Vec3(0.1, 0.45, 0.9)));
  env.add("post", Cylinder(0.03, 0.6), Transform::from_translation(Vec3(-0.3, -0.2, 0.8)));
  return env;
}

TEST(RobotSceneChecker, SmallArmMatchesBruteForce) {
  Rng rng(71);
  const SceneChecker c = small_arm_checker();
  const Environment env = small_arm_environment();
  EXPECT_EQ(c.self_pairs().size(), 6u);
  int colliding = 0;
  const int n = scaled(300);
  for (int k = 0; k < n; ++k) {
    const double q[] = {rng.uniform(-3.2, 3.2), rng.uniform(-3.2, 3.2), rng.uniform(-0.1, 0.4)};
    colliding += compare_with_brute_force(c, q, env, 1e-9);
  }
  if (n >= 100) {
    EXPECT_GT(colliding, n / 10);
    EXPECT_LT(colliding, n * 9 / 10);
  }
}

// Random robots (robot_test::random_robot_urdf: prismatic and mimic joints
// about odd axes, a branch, fixed links in mid-chain, one or two
// primitives a link), with and without a margin, among random objects and
// sometimes a floor: every answer is brute force's over all shape pairs.
TEST(RobotSceneChecker, RandomRobotsMatchBruteForce) {
  Rng rng(77);
  const int robots = std::max(4, scaled(16)), draws = std::max(10, scaled(40));
  int colliding = 0, compared = 0;
  for (int k = 0; k < robots; ++k) {
    const std::string urdf = robot_test::random_robot_urdf(rng);
    const RobotModel m = parse_urdf(urdf, ".", {}, "random robot " + std::to_string(k));
    GeometryOptions o;
    o.margin = k % 2 == 1 ? 0.005 : 0.0;
    const SceneChecker c(RobotGeometry(m, o), AllowedCollisionMatrix::adjacent(m));
    Environment env = robot_test::random_objects(rng);
    if (k % 3 == 0) env.add("floor", Halfspace(Vec3::UnitZ(), rng.uniform(-0.3, 0.0)), Transform::identity());
    colliding += compare_uniform_draws(c, m, env, rng, draws);
    compared += draws;
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "robot " << k << ":\n" << urdf;
      return;
    }
  }
  EXPECT_GT(colliding, compared / 10);
  EXPECT_LT(colliding, compared);
}

// Random robots whose links carry random meshes (robot_test::random_mesh_obj:
// bumpy, dented, some open) beside primitives, each robot read with its
// meshes as hulls and as raw surfaces, with and without a margin, holding
// an object (a primitive or another random mesh) on a random link, another
// link sometimes its touch link, the self pairs that always touch allowed
// (as an SRDF does): every answer is brute force's over all shape pairs.
TEST(RobotSceneChecker, RandomMeshRobotsHoldingObjectsMatchBruteForce) {
  Rng rng(79);
  robot_test::TempDir dir;
  const int robots = std::max(3, scaled(12)), draws = std::max(6, scaled(25));
  int colliding = 0, compared = 0, meshes = 0;
  for (int k = 0; k < robots; ++k) {
    const std::string urdf = robot_test::random_robot_urdf(rng, false, dir.path());
    const RobotModel m = parse_urdf(urdf, dir.path(), {}, "random robot " + std::to_string(k));
    Environment env = robot_test::random_objects(rng);
    if (k % 3 == 0) env.add("floor", Halfspace(Vec3::UnitZ(), rng.uniform(-0.3, 0.0)), Transform::identity());
    const auto links = static_cast<double>(m.links().size());
    AttachedObject held{"held", m.link(static_cast<int>(rng.uniform(1.0, links))).name, Shape(Sphere(0.01)),
                        Transform{rng.pose(0.0).R, rng.uniform_vec(-0.1, 0.1)}};
    if (k % 2 == 0) {
      const std::string file = "held" + std::to_string(k) + ".obj";
      held.geometry = Bvh(read_mesh(dir.write(file, robot_test::random_mesh_obj(rng))));
    } else {
      held.geometry = Shape(Capsule(rng.uniform(0.01, 0.04), rng.uniform(0.05, 0.2)));
    }
    const int touch = static_cast<int>(rng.uniform(0.0, links));
    if (rng.uniform(0.0, 1.0) < 0.5 && m.link(touch).name != held.link) held.touch_links = {m.link(touch).name};
    for (const MeshMode mode : {MeshMode::convex_hull, MeshMode::triangle_mesh}) {
      const RobotGeometry geometry(m, robot_test::options(mode, k % 4 == 1 ? 0.005 : 0.0));
      for (const LinkGeometry& l : geometry.links())
        for (const LinkShape& s : l.shapes) meshes += s.source.ends_with(".obj");
      const SceneChecker c =
          attach(SceneChecker(geometry, robot_test::always_near_allowed(geometry, m, rng)), std::span(&held, 1));
      colliding += compare_uniform_draws(c, m, env, rng, draws);
      compared += draws;
      if (::testing::Test::HasFailure()) {
        ADD_FAILURE() << "robot " << k << (mode == MeshMode::convex_hull ? ", hulls" : ", raw meshes") << ", held by "
                      << held.link << ":\n" << urdf;
        return;
      }
    }
  }
  std::printf("%d configurations of %d random robots (%d mesh elements): %d collide\n", compared, robots, meshes,
              colliding);
  EXPECT_GT(meshes, robots);
  EXPECT_GT(colliding, compared / 10);
  EXPECT_LT(colliding, compared);
}

TEST(RobotSceneChecker, ARefilledStateEqualsAFreshOne) {
  const SceneChecker c = small_arm_checker();
  Rng rng(77);
  RobotState reused;
  for (int k = 0; k < 20; ++k) {
    std::vector<double> q(c.model().variable_count());
    for (double& x : q) x = rng.uniform(-2.0, 2.0);
    if (k % 5 == 4) q[0] = std::numeric_limits<double>::quiet_NaN();  // an invalid call in between
    const Transform base = Transform::from_translation(Vec3(0.1 * k, 0.0, 0.0));
    const RobotState fresh = c.state(q, base);
    c.state(q, base, reused);
    ASSERT_EQ(reused.status, fresh.status) << k;
    EXPECT_EQ(reused.message, fresh.message) << k;
    ASSERT_EQ(reused.link_poses.size(), fresh.link_poses.size()) << k;
    ASSERT_EQ(reused.shape_poses.size(), fresh.shape_poses.size()) << k;
    EXPECT_EQ(reused.shape_begin, fresh.shape_begin) << k;
    for (std::size_t i = 0; i < fresh.link_poses.size(); ++i) {
      EXPECT_EQ(reused.link_poses[i].R, fresh.link_poses[i].R);
      EXPECT_EQ(reused.link_poses[i].p, fresh.link_poses[i].p);
    }
    for (std::size_t i = 0; i < fresh.shape_boxes.size(); ++i) {
      EXPECT_EQ(reused.shape_boxes[i].min, fresh.shape_boxes[i].min);
      EXPECT_EQ(reused.shape_boxes[i].max, fresh.shape_boxes[i].max);
    }
    if (fresh.status != Status::ok) continue;
    // Each shape placed at its link pose times its origin, bounded by its
    // local box moved there, each link bounded by the union of its shapes'.
    for (std::size_t l = 0; l < fresh.link_poses.size(); ++l) {
      const std::vector<LinkShape>& shapes = c.geometry().links()[l].shapes;
      ASSERT_EQ(fresh.shape_begin[l + 1] - fresh.shape_begin[l], shapes.size());
      Aabb link_box;
      for (std::size_t j = 0; j < shapes.size(); ++j) {
        const std::size_t i = fresh.shape_begin[l] + j;
        const Transform want = fresh.link_poses[l] * shapes[j].origin;
        EXPECT_LT((fresh.shape_poses[i].R - want.R).norm(), 1e-15) << k << " shape " << i;
        EXPECT_LT((fresh.shape_poses[i].p - want.p).norm(), 1e-15) << k << " shape " << i;
        const Aabb box = shapes[j].local_aabb().transformed(fresh.shape_poses[i]);
        EXPECT_EQ(fresh.shape_boxes[i].min, box.min) << k << " shape " << i;
        EXPECT_EQ(fresh.shape_boxes[i].max, box.max) << k << " shape " << i;
        link_box.extend(box);
      }
      EXPECT_EQ(fresh.link_boxes[l].min, link_box.min) << k << " link " << l;
      EXPECT_EQ(fresh.link_boxes[l].max, link_box.max) << k << " link " << l;
    }
  }
}

// state_of against state(): the links asked for bit for bit (their chains'
// forward kinematics alone), the others left as the reused state had them.
void expect_state_of_is_state(const SceneChecker& c, Rng& rng, double spread, int rows) {
  const std::size_t n = c.model().links().size();
  RobotState part;
  int compared = 0;
  for (int k = 0; k < rows; ++k) {
    std::vector<double> q(c.model().variable_count());
    for (double& x : q) x = rng.uniform(-spread, spread);
    const Transform base(Mat3(Eigen::AngleAxisd(0.1 * k, Vec3::UnitZ())), Vec3(0.05 * k, -0.1, 0.2));
    const RobotState whole = c.state(q, base);
    ASSERT_EQ(whole.status, Status::ok);
    // Another row's state first: whatever state_of leaves is that row's.
    std::vector<double> other(q.size(), 0.3);
    c.state(other, Transform::identity(), part);
    const RobotState before = part;
    const std::uint64_t links =
        std::uniform_int_distribution<std::uint64_t>(1, (std::uint64_t{1} << n) - 1)(rng.engine());
    c.state_of(q, base, links, part);
    ASSERT_EQ(part.status, Status::ok);
    EXPECT_EQ(part.shape_begin, whole.shape_begin);
    for (std::size_t l = 0; l < n; ++l) {
      const bool asked = links >> l & 1u;
      const RobotState& want = asked ? whole : before;
      EXPECT_EQ(part.link_boxes[l].min, want.link_boxes[l].min) << k << " link " << l;
      EXPECT_EQ(part.link_boxes[l].max, want.link_boxes[l].max) << k << " link " << l;
      if (asked) {
        EXPECT_EQ(part.link_poses[l].R, whole.link_poses[l].R) << k << " link " << l;
        EXPECT_EQ(part.link_poses[l].p, whole.link_poses[l].p) << k << " link " << l;
      }
      for (std::size_t i = whole.shape_begin[l]; i < whole.shape_begin[l + 1]; ++i) {
        EXPECT_EQ(part.shape_poses[i].R, want.shape_poses[i].R) << k << " shape " << i;
        EXPECT_EQ(part.shape_poses[i].p, want.shape_poses[i].p) << k << " shape " << i;
        EXPECT_EQ(part.shape_boxes[i].min, want.shape_boxes[i].min) << k << " shape " << i;
        EXPECT_EQ(part.shape_boxes[i].max, want.shape_boxes[i].max) << k << " shape " << i;
        compared += asked;
      }
    }
  }
  EXPECT_GT(compared, rows);
}

TEST(RobotSceneChecker, AStateOfSomeLinksIsTheWholeStatesForThem) {
  Rng rng(79);
  expect_state_of_is_state(small_arm_checker(), rng, 2.0, 200);
  expect_state_of_is_state(robot_test::panda_checker(MeshMode::convex_hull), rng, 2.8, 200);
}

TEST(RobotSceneChecker, AStateOfSomeLinksRefusesOnlyTheirPosesOutOfRange) {
  const SceneChecker c = small_arm_checker();
  const RobotModel& m = c.model();
  const auto bit = [&](const char* name) { return std::uint64_t{1} << m.link_index(name); };
  // The prismatic joint j3 far out: l3 and the tool beyond kMaxLength, l1
  // and l2 (before it on the chain) where they always are.
  const std::vector<double> q = {0.3, -0.4, 1e16};
  const RobotState whole = c.state(q, Transform::identity());
  ASSERT_EQ(whole.status, Status::invalid_input);
  EXPECT_NE(whole.message.find("out of range"), std::string::npos);
  RobotState s;
  c.state_of(q, Transform::identity(), bit("l1") | bit("l2"), s);
  EXPECT_EQ(s.status, Status::ok);
  EXPECT_EQ(s.link_poses[static_cast<std::size_t>(m.link_index("l2"))].p,
            forward_kinematics(m, q, Transform::identity())[static_cast<std::size_t>(m.link_index("l2"))].p);
  c.state_of(q, Transform::identity(), bit("l1") | bit("tool"), s);
  EXPECT_EQ(s.status, whole.status);
  EXPECT_EQ(s.message, whole.message);
  // A bad q or base is refused as state() refuses it.
  const std::vector<double> bad = {0.3, std::nan(""), 0.1};
  c.state_of(bad, Transform::identity(), bit("l1"), s);
  EXPECT_EQ(s.status, Status::invalid_input);
  EXPECT_EQ(s.message, c.state(bad, Transform::identity()).message);
  c.state_of(std::vector<double>{0.1}, Transform::identity(), bit("l1"), s);
  EXPECT_EQ(s.message, c.state(std::vector<double>{0.1}, Transform::identity()).message);
  // A bit that names no link.
  const std::uint64_t beyond = std::uint64_t{1} << m.links().size();
  try {
    c.state_of(q, Transform::identity(), bit("l1") | beyond, s);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("links: bit " + std::to_string(m.links().size()) + " names no link"),
              std::string::npos)
        << e.what();
  }
}

TEST(RobotSceneChecker, MarginsInflateEveryShape) {
  Rng rng(72);
  const SceneChecker c = small_arm_checker(robot_test::options(MeshMode::convex_hull, 0.02));
  const SceneChecker bare = small_arm_checker();
  const Environment env = small_arm_environment();
  for (int k = 0; k < scaled(100); ++k) {
    const double q[] = {rng.uniform(-3.2, 3.2), rng.uniform(-3.2, 3.2), rng.uniform(-0.1, 0.4)};
    compare_with_brute_force(c, q, env, 1e-9);
    // The environment's shapes have no margin, so its distance drops by
    // exactly the robot's margin; link pairs by twice it.
    const DistanceReport ed = c.environment_distance(c.state(q), env);
    const DistanceReport ed0 = bare.environment_distance(bare.state(q), env);
    if (ed0.distance > 0.03) { EXPECT_NEAR(ed.distance, ed0.distance - 0.02, 1e-9); }
    const DistanceReport sd = c.self_distance(c.state(q));
    const DistanceReport sd0 = bare.self_distance(bare.state(q));
    if (sd0.distance > 0.05) { EXPECT_NEAR(sd.distance, sd0.distance - 0.04, 1e-9); }
  }
}

// A low-poly closed prism of `sides` sides about z: radius r, height h.
std::string prism_obj(int sides, double r, double h) {
  std::ostringstream s;
  s.precision(17);
  for (int z = 0; z < 2; ++z)
    for (int i = 0; i < sides; ++i) {
      const double a = 2.0 * std::numbers::pi * i / sides;
      s << "v " << r * std::cos(a) << ' ' << r * std::sin(a) << ' ' << (z ? 0.5 : -0.5) * h << '\n';
    }
  for (int i = 0; i < sides; ++i) {
    const int j = (i + 1) % sides;
    s << "f " << i + 1 << ' ' << j + 1 << ' ' << j + 1 + sides << '\n';
    s << "f " << i + 1 << ' ' << j + 1 + sides << ' ' << i + 1 + sides << '\n';
  }
  for (int i = 1; i + 1 < sides; ++i) {
    s << "f 1 " << i + 2 << ' ' << i + 1 << '\n';
    s << "f " << sides + 1 << ' ' << sides + i + 1 << ' ' << sides + i + 2 << '\n';
  }
  return s.str();
}

// Four links of prisms in a chain that can fold back on itself.
std::string snake_urdf() {
  std::string s = R"(<robot name="snake">
  <link name="b0"><collision><geometry><mesh filename="prism.obj" scale="1 1 0.6"/></geometry></collision></link>)";
  for (int i = 1; i <= 3; ++i)
    s += "<link name=\"l" + std::to_string(i) +
         "\"><collision><origin xyz=\"0.2 0 0\" rpy=\"0 1.5707963267948966 0\"/>"
         "<geometry><mesh filename=\"prism.obj\"/></geometry></collision></link>\n";
  s += R"(<joint name="j1" type="revolute"><parent link="b0"/><child link="l1"/><origin xyz="0 0 0.3"/>
    <axis xyz="0 0 1"/><limit lower="-3.2" upper="3.2"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><origin xyz="0.42 0 0"/>
    <axis xyz="0 1 0"/><limit lower="-3.2" upper="3.2"/></joint>
  <joint name="j3" type="continuous"><parent link="l2"/><child link="l3"/><origin xyz="0.42 0 0"/>
    <axis xyz="0 0 1"/></joint>
</robot>)";
  return s;
}

// Triangle-pair brute force with the Minkowski oracle; box objects as their
// eight corners (a convex solid, as the narrow phase sees it).
double oracle_pair_distance(const Geo& a, const Transform& pa, const Geo& b, const Transform& pb) {
  auto triangles = [](const Geo& g, const Transform& p) {
    std::vector<std::vector<Vec3>> out;
    if (const Bvh* m = std::get_if<Bvh>(&g)) {
      for (std::size_t t = 0; t < m->mesh().triangle_count(); ++t)
        out.push_back({p.apply(m->mesh().corner(t, 0)), p.apply(m->mesh().corner(t, 1)), p.apply(m->mesh().corner(t, 2))});
    } else {
      const Box& box = std::get<Shape>(g).as<Box>();
      std::vector<Vec3> corners;
      for (int i = 0; i < 8; ++i)
        corners.push_back(p.apply(box.half_extents().cwiseProduct(Vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1))));
      out.push_back(corners);
    }
    return out;
  };
  double best = kInf;
  for (const auto& ta : triangles(a, pa))
    for (const auto& tb : triangles(b, pb)) best = std::min(best, std::max(0.0, oracle::minkowski_signed_distance(ta, tb)));
  return best;
}

TEST(RobotSceneChecker, RawMeshesMatchTrianglePairBruteForce) {
  robot_test::TempDir dir;
  dir.write("prism.obj", prism_obj(6, 0.06, 0.4));
  dir.write("octa.obj", "v 0.1 0 0\nv -0.1 0 0\nv 0 0.1 0\nv 0 -0.1 0\nv 0 0 0.1\nv 0 0 -0.1\n"
                        "f 1 3 5\nf 3 2 5\nf 2 4 5\nf 4 1 5\nf 3 1 6\nf 2 3 6\nf 4 2 6\nf 1 4 6\n");
  const RobotModel m = load_urdf(dir.write("snake.urdf", snake_urdf()));
  const SceneChecker c(RobotGeometry(m, robot_test::options(MeshMode::triangle_mesh)), AllowedCollisionMatrix::adjacent(m));
  ASSERT_NE(c.geometry().link(1).shapes[0].bvh(), nullptr);
  EXPECT_EQ(c.self_pairs().size(), 3u);
  Environment env;
  env.add("octa", Bvh(read_mesh(dir.path() / "octa.obj")), Transform::from_translation(Vec3(0.5, 0.3, 0.35)));
  env.add("block", Box(0.3, 0.3, 0.2), Transform::from_axis_angle(Vec3::UnitZ(), 0.4, Vec3(-0.4, 0.3, 0.2)));
  Rng rng(73);
  int colliding = 0;
  const int n = scaled(20);
  for (int k = 0; k < n; ++k) {
    const double q[] = {rng.uniform(-3.2, 3.2), rng.uniform(-3.2, 3.2), rng.uniform(-3.2, 3.2)};
    colliding += compare_with_brute_force(c, q, env, 1e-9, oracle_pair_distance, true);
  }
  if (n >= 20) {
    EXPECT_GT(colliding, 0);
    EXPECT_LT(colliding, n);
  }
}

TEST(RobotSceneChecker, BadInputGivesInvalidInputNeverThrows) {
  const SceneChecker c = small_arm_checker();
  const Environment env = small_arm_environment();
  const double short_q[] = {0.1};
  const RobotState bad = c.state(short_q);
  EXPECT_EQ(bad.status, Status::invalid_input);
  EXPECT_NE(bad.message.find("expected 3"), std::string::npos) << bad.message;
  EXPECT_EQ(c.self_collision(bad).status, Status::invalid_input);
  EXPECT_EQ(c.environment_distance(bad, env).status, Status::invalid_input);
  const double nan_q[] = {0.1, std::numeric_limits<double>::quiet_NaN(), 0.0};
  const RobotState bad2 = c.state(nan_q);
  EXPECT_EQ(bad2.status, Status::invalid_input);
  EXPECT_NE(bad2.message.find("'j2'"), std::string::npos) << bad2.message;
  const DistanceReport d = c.self_distance(bad2);
  EXPECT_EQ(d.status, Status::invalid_input);
  EXPECT_FALSE(std::isnan(d.distance));

  const double q[] = {0.1, 0.2, 0.1};
  const RobotState s = c.state(q);
  Transform nan_base;
  nan_base.p.z() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(c.state(q, nan_base).status, Status::invalid_input);
  Environment broken = env;
  broken.objects[1].pose.p.x() = std::numeric_limits<double>::infinity();
  const CollisionReport r = c.environment_collision(s, broken);
  EXPECT_EQ(r.status, Status::invalid_input);
  EXPECT_NE(r.message.find("'ball'"), std::string::npos) << r.message;
  EXPECT_EQ(c.tolerance(s, env, -0.1).status, Status::invalid_input);
  EXPECT_EQ(c.tolerance(s, env, std::numeric_limits<double>::quiet_NaN()).status, Status::invalid_input);

  // Nothing to measure: no environment.
  const DistanceReport none = c.environment_distance(s, Environment{});
  EXPECT_EQ(none.status, Status::ok);
  EXPECT_FALSE(none.found);
  EXPECT_TRUE(std::isinf(none.distance));
  EXPECT_FALSE(c.environment_collision(s, Environment{}).collide());

  robot_test::expect_error(
      [&] { SceneChecker wrong(c.geometry(), AllowedCollisionMatrix(2)); }, {"2 links", "robot 'arm' has 6"});
}

TEST(RobotSceneChecker, HalfspaceFloorInTheEnvironment) {
  const SceneChecker c = small_arm_checker();
  Environment env;
  env.add("floor", Halfspace(Vec3::UnitZ(), 0.0), Transform::identity());
  const double q[] = {0.0, 0.0, 0.0};
  const RobotState s = c.state(q);
  const DistanceReport d = c.environment_distance(s, env);
  ASSERT_TRUE(d.found);
  // The lowest shape is l1's cylinder, bottom at z = 0.5.
  EXPECT_NEAR(d.distance, 0.5, 1e-9);
  EXPECT_EQ(d.pair.link_name, "l1");
  EXPECT_EQ(d.pair.other_name, "floor");
  // Tolerance asks about the self pairs too: within t exactly when the
  // smaller of the two distances is.
  const double nearest = std::min(0.5, c.self_distance(s).distance);
  EXPECT_FALSE(c.tolerance(s, env, nearest - 0.01).within);
  const ToleranceReport t = c.tolerance(s, env, nearest + 0.01);
  EXPECT_TRUE(t.within);
  EXPECT_EQ(t.self, nearest < 0.5);
}

}  // namespace
}  // namespace proxima::robot

namespace proxima::robot {
namespace {

SceneChecker scene_panda(MeshMode mode) { return robot_test::panda_checker(mode); }

TEST(RobotSceneChecker, PandaHullsMatchBruteForce) {
  const SceneChecker c = scene_panda(MeshMode::convex_hull);
  Environment env;
  env.add("table", Box(1.2, 1.6, 0.05), Transform::from_translation(Vec3(0.95, 0, 0.2)));
  env.add("shelf", Box(0.3, 0.8, 0.02), Transform::from_axis_angle(Vec3::UnitX(), 0.3, Vec3(0.5, 0.1, 0.7)));
  env.add("can", Cylinder(0.04, 0.15), Transform::from_translation(Vec3(0.45, -0.2, 0.3)));
  Rng rng(74);
  int colliding = 0;
  const int n = scaled(60);
  for (int k = 0; k < n; ++k) {
    double q[7];
    for (std::size_t i = 0; i < 7; ++i) {
      const Joint& j = c.model().joint(c.model().variable_joint(i));
      q[i] = rng.uniform(j.lower, j.upper);
    }
    colliding += compare_with_brute_force(c, q, env, 1e-9);
  }
  if (n >= 30) {
    EXPECT_GT(colliding, 0);
    EXPECT_LT(colliding, n);
  }
}

// A table under the arm: at q = 0 its distance is the lowest point of any
// link's collision mesh above the table top, found from the mesh files'
// vertices placed by forward kinematics.
TEST(RobotSceneChecker, PandaAboveATableAtTheLowestMeshPoint) {
  const double top = -0.03;
  const double q[7] = {};
  for (MeshMode mode : {MeshMode::convex_hull, MeshMode::triangle_mesh}) {
    const SceneChecker c = scene_panda(mode);
    Environment env;
    env.add("table", Box(1.5, 1.5, 0.1), Transform::from_translation(Vec3(0.2, 0, top - 0.05)));
    const std::vector<Transform> links = forward_kinematics(c.model(), q);
    double lowest = kInf;
    std::string lowest_link;
    for (std::size_t l = 0; l < links.size(); ++l)
      for (const CollisionElement& e : c.model().links()[l].collisions) {
        const TriangleMesh mesh = read_mesh(e.geometry.path);
        for (const Vec3& v : mesh.vertices()) {
          const double z = (links[l] * e.origin).apply(v).z();
          if (z < lowest) {
            lowest = z;
            lowest_link = c.model().links()[l].name;
          }
        }
      }
    const RobotState s = c.state(q);
    const DistanceReport d = c.environment_distance(s, env);
    ASSERT_TRUE(d.found);
    EXPECT_NEAR(d.distance, lowest - top, 1e-9);
    EXPECT_EQ(d.pair.link_name, lowest_link);
    EXPECT_EQ(d.pair.other_name, "table");
    EXPECT_NEAR(d.point_link.z(), lowest, 1e-9);
    EXPECT_NEAR(d.point_other.z(), top, 1e-9);
    EXPECT_FALSE(c.environment_collision(s, env).collide());
    // Raised to the lowest point, the table touches.
    Environment raised;
    raised.add("table", Box(1.5, 1.5, 0.1), Transform::from_translation(Vec3(0.2, 0, lowest - 0.05 + 1e-6)));
    const CollisionReport hit = c.environment_collision(s, raised);
    ASSERT_EQ(hit.pairs.size(), 1u);
    EXPECT_EQ(hit.pairs[0].link_name, lowest_link);
  }
}

}  // namespace
}  // namespace proxima::robot
