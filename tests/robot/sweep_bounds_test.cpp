// SPDX-License-Identifier: BSD-3-Clause
// The speed bounds behind check_motion (src/robot/sweep_bounds.hpp) against
// finite differences of forward kinematics: no point of a link's core
// moves farther than its bound times Δs, in the world, and, for a link
// pair, in the frame of the last joint their chains share; no distance
// between two links (margins included) changes faster than their bound.
#include <algorithm>
#include <limits>

#include <gtest/gtest.h>

#include <proxima/query.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/urdf.hpp>

#include "../../src/robot/sweep_bounds.hpp"
#include "robot_test_support.hpp"
#include "support/random.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;

// Points of a shape's core in its link's frame (the bounds leave margins
// and sphere radii out): core support points along random directions, hull
// and mesh vertices.
std::vector<Vec3> sweep_test_points(const LinkShape& ls, Rng& rng) {
  std::vector<Vec3> local;
  if (const Bvh* b = ls.bvh()) {
    local = b->mesh().vertices();
  } else if (ls.shape()->type() == ShapeType::convex) {
    local = ls.shape()->as<ConvexPolytope>().vertices();
  } else {
    for (int k = 0; k < 40; ++k) {
      const Vec3 d = rng.unit_vector();
      std::visit(
          [&](const auto& x) {
            if constexpr (requires { x.core_support(d); }) local.push_back(x.core_support(d));
          },
          ls.shape()->variant());
    }
  }
  std::vector<Vec3> out;
  for (const Vec3& v : local) out.push_back(ls.origin.apply(v));
  return out;
}

// Checks every link and every pair of links on `segments` random segments;
// returns the largest speed seen over its bound (≤ 1 when the bounds hold).
double worst_ratio(const RobotGeometry& g, int segments, double spread, unsigned seed) {
  const RobotModel& m = g.model();
  const detail::SweepGeometry sweep = detail::sweep_geometry(g);
  Rng rng(seed);
  const std::size_t n = m.links().size();
  std::vector<std::vector<Vec3>> points(n);
  for (std::size_t i = 0; i < n; ++i)
    for (const LinkShape& ls : g.link(static_cast<int>(i)).shapes) {
      const std::vector<Vec3> p = sweep_test_points(ls, rng);
      points[i].insert(points[i].end(), p.begin(), p.end());
    }
  detail::LinkSpeeds speeds;
  double worst = 0.0;
  for (int k = 0; k < segments; ++k) {
    std::vector<double> q0(m.variable_count()), q1(m.variable_count());
    for (std::size_t j = 0; j < q0.size(); ++j) {
      const Joint& jt = m.joint(m.variable_joint(j));
      const double lo = std::max(jt.lower, -3.0), hi = std::min(jt.upper, 3.0);
      q0[j] = rng.uniform(lo, hi);
      q1[j] = q0[j] + rng.uniform(-spread, spread);
    }
    detail::link_speeds(m, sweep, q0, q1, speeds);
    const double s = rng.uniform(0.0, 1.0), h = 1e-6;
    auto at = [&](double t) {
      std::vector<double> q(q0.size());
      for (std::size_t j = 0; j < q.size(); ++j) q[j] = q0[j] + t * (q1[j] - q0[j]);
      return forward_kinematics(m, q);
    };
    const std::vector<Transform> a = at(s), b = at(s + h);
    for (std::size_t i = 0; i < n; ++i) {
      if (points[i].empty()) continue;
      const int li = static_cast<int>(i);
      // Against the world, then relative to every other link's shared frame.
      for (std::size_t other = 0; other <= n; ++other) {
        std::size_t shared = 0;
        if (other < n) {
          if (other == i) continue;
          shared = detail::shared_joints(sweep, li, static_cast<int>(other));
        }
        const double bound = speeds.below(sweep, li, shared);
        Transform fa = Transform::identity(), fb = Transform::identity();
        if (shared > 0) {
          const auto frame = static_cast<std::size_t>(
              m.joint(sweep.chain[sweep.chain_begin[i] + shared - 1]).child_link);
          fa = a[frame];
          fb = b[frame];
        }
        for (const Vec3& x : points[i]) {
          const Vec3 pa = fa.apply_inverse(a[i].apply(x)), pb = fb.apply_inverse(b[i].apply(x));
          const double speed = (pb - pa).norm() / h;
          if (bound == 0.0) EXPECT_LT(speed, 1e-7) << m.link(li).name;
          else worst = std::max(worst, speed / bound);
        }
      }
    }
  }
  return worst;
}

// The distance between two links (shapes with their margins, 0 when they
// touch) changes no faster than the pair's bound: what check_motion relies
// on, margins included.
double worst_distance_ratio(const RobotGeometry& g, int segments, unsigned seed) {
  const RobotModel& m = g.model();
  const detail::SweepGeometry sweep = detail::sweep_geometry(g);
  Rng rng(seed);
  detail::LinkSpeeds speeds;
  double worst = 0.0;
  const int n = static_cast<int>(m.links().size());
  for (int k = 0; k < segments; ++k) {
    std::vector<double> q0(m.variable_count()), q1(m.variable_count());
    for (std::size_t j = 0; j < q0.size(); ++j) {
      const Joint& jt = m.joint(m.variable_joint(j));
      q0[j] = rng.uniform(std::max(jt.lower, -3.0), std::min(jt.upper, 3.0));
      q1[j] = q0[j] + rng.uniform(-1.0, 1.0);
    }
    detail::link_speeds(m, sweep, q0, q1, speeds);
    const double s = rng.uniform(0.0, 1.0), h = 1e-3;
    auto link_distance = [&](double t, int a, int b) {
      std::vector<double> q(q0.size());
      for (std::size_t j = 0; j < q.size(); ++j) q[j] = q0[j] + t * (q1[j] - q0[j]);
      const std::vector<Transform> poses = forward_kinematics(m, q);
      double d = std::numeric_limits<double>::infinity();
      for (const LinkShape& la : g.link(a).shapes)
        for (const LinkShape& lb : g.link(b).shapes)
          d = std::min(d, distance(*la.shape(), poses[static_cast<std::size_t>(a)] * la.origin, *lb.shape(),
                                   poses[static_cast<std::size_t>(b)] * lb.origin)
                              .distance);
      return d;
    };
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) {
        if (!g.has_geometry(a) || !g.has_geometry(b)) continue;
        const std::size_t shared = detail::shared_joints(sweep, a, b);
        const double bound = speeds.below(sweep, a, shared) + speeds.below(sweep, b, shared);
        const double rate = std::abs(link_distance(s + h, a, b) - link_distance(s, a, b)) / h;
        if (bound == 0.0) EXPECT_LT(rate, 1e-6) << m.link(a).name << " / " << m.link(b).name;
        else worst = std::max(worst, rate / bound);
      }
  }
  return worst;
}

TEST(RobotSweepBounds, MarginsLeaveTheBoundsAlone) {
  // A margin, or a sphere's radius, adds to every distance alike.
  const RobotModel m = parse_urdf(robot_test::small_arm_urdf(), ".");
  const detail::SweepGeometry bare = detail::sweep_geometry(RobotGeometry(m));
  const detail::SweepGeometry padded =
      detail::sweep_geometry(RobotGeometry(m, robot_test::options(MeshMode::convex_hull, 0.05)));
  EXPECT_EQ(bare.reach, padded.reach);
  EXPECT_EQ(bare.axis_reach, padded.axis_reach);
  EXPECT_EQ(bare.chain, padded.chain);
}

TEST(RobotSweepBounds, LinkDistancesWithMarginsChangeWithinTheirBounds) {
  const RobotModel arm = parse_urdf(robot_test::small_arm_urdf(), ".");
  const double w_arm = worst_distance_ratio(RobotGeometry(arm, robot_test::options(MeshMode::convex_hull, 0.05)),
                                            testing::scaled(200), 505);
  EXPECT_LE(w_arm, 1.0 + 1e-6);
  const RobotModel panda = load_urdf(robot_test::robots_dir() / "panda" / "panda.urdf");
  const double w_panda = worst_distance_ratio(RobotGeometry(panda, robot_test::options(MeshMode::convex_hull, 0.02)),
                                              testing::scaled(40), 507);
  EXPECT_LE(w_panda, 1.0 + 1e-6);
  EXPECT_GT(std::max(w_arm, w_panda), 0.1);  // not vacuous
}

TEST(RobotSweepBounds, SmallArmPointsStayWithinTheirBounds) {
  // Prismatic, mimic (multiplier −2, non-unit axis), fixed and rpy origins.
  const RobotModel m = parse_urdf(robot_test::small_arm_urdf(), ".");
  for (double margin : {0.0, 0.05}) {
    const double w = worst_ratio(RobotGeometry(m, robot_test::options(MeshMode::convex_hull, margin)),
                                 testing::scaled(300), 2.0, 501);
    EXPECT_LE(w, 1.0 + 1e-6) << margin;
    EXPECT_GT(w, 0.3) << margin;  // not vacuous
  }
}

TEST(RobotSweepBounds, PandaPointsStayWithinTheirBounds) {
  const RobotModel m = load_urdf(robot_test::robots_dir() / "panda" / "panda.urdf");
  for (MeshMode mode : {MeshMode::convex_hull, MeshMode::triangle_mesh}) {
    const double w = worst_ratio(RobotGeometry(m, robot_test::options(mode, 0.01)), testing::scaled(100), 1.0, 503);
    EXPECT_LE(w, 1.0 + 1e-6);
    EXPECT_GT(w, 0.3);
  }
}

}  // namespace
}  // namespace proxima::robot
