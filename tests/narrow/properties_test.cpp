// SPDX-License-Identifier: BSD-3-Clause
// Properties every cell of the dispatch table must hold (Coal's
// normal_and_nearest_points idea), and degenerate input.
#include <cmath>
#include <cstdio>
#include <limits>

#include <gtest/gtest.h>

#include <proxima/query.hpp>

#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

std::vector<testing::TestShape> all_shapes() {
  std::vector<testing::TestShape> s = testing::bounded_test_shapes();
  testing::TestShape h{"halfspace", Halfspace(Vec3(0.2, 0.1, 1.0), -0.3), 0.0, nullptr, nullptr, 0.3};
  s.push_back(h);
  return s;
}

class PairProperties : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(PairProperties, ConventionsHold) {
  static const std::vector<testing::TestShape> shapes = all_shapes();
  const auto [i, j] = GetParam();
  const Shape& a = shapes[static_cast<std::size_t>(i)].shape;
  const Shape& b = shapes[static_cast<std::size_t>(j)].shape;
  const double half = 0.9 * (shapes[static_cast<std::size_t>(i)].bounding_radius + shapes[static_cast<std::size_t>(j)].bounding_radius);
  testing::Rng rng(500u + static_cast<unsigned>(i * 20 + j));
  int separated = 0, overlapping = 0, unfinished = 0;
  for (int k = 0; k < testing::scaled(10000); ++k) {
    const Transform ta = rng.pose(half), tb = rng.pose(half);
    const DistanceResult r = distance(a, ta, b, tb);
    ASSERT_EQ(r.status, Status::ok);
    ASSERT_TRUE(std::isfinite(r.distance) && r.normal.allFinite() && r.point_a.allFinite() && r.point_b.allFinite());
    ASSERT_GE(r.distance, 0.0);
    const CollideResult c = collide(a, ta, b, tb);
    ASSERT_EQ(c.status, Status::ok);
    const DistanceResult sd = signed_distance(a, ta, b, tb);
    ASSERT_TRUE(std::isfinite(sd.distance));
    if (r.distance == 0.0) {
      EXPECT_TRUE(c.collide);
      EXPECT_EQ((r.point_a - r.point_b).norm(), 0.0);
      ++overlapping;
      // Signed distance is ≤ 0 and, moving A along the normal, by the depth
      // plus ε separates the pair and by the depth minus ε does not (Coal's
      // property). A rare not_converged is allowed, a wrong number is not.
      if (sd.status == Status::ok) {
        EXPECT_LE(sd.distance, 1e-12);
        EXPECT_NEAR((sd.point_b - (sd.point_a - sd.distance * sd.normal)).norm(), 0.0, 1e-9);
        const double eps = 1e-6;
        const Transform out{ta.R, ta.p + (-sd.distance + eps) * sd.normal};
        EXPECT_FALSE(collide(a, out, b, tb).collide) << "depth " << -sd.distance;
        if (-sd.distance > 2 * eps) {
          const Transform in{ta.R, ta.p + (-sd.distance - eps) * sd.normal};
          EXPECT_TRUE(collide(a, in, b, tb).collide) << "depth " << -sd.distance;
        }
      } else {
        ++unfinished;
        EXPECT_TRUE(sd.status == Status::not_converged || sd.status == Status::not_implemented);
      }
      continue;
    }
    ++separated;
    EXPECT_FALSE(c.collide);
    EXPECT_NEAR(r.normal.norm(), 1.0, 1e-12);
    // point_b = point_a − distance · normal.
    EXPECT_NEAR((r.point_b - (r.point_a - r.distance * r.normal)).norm(), 0.0, 1e-9);
    // Signed distance agrees for separated pairs.
    ASSERT_EQ(sd.status, Status::ok);
    EXPECT_NEAR(sd.distance, r.distance, 1e-12);
    // Swapping A and B negates the normal.
    const DistanceResult s = distance(b, tb, a, ta);
    EXPECT_NEAR(s.distance, r.distance, 1e-9);
    if (r.distance > 1e-6) {
      EXPECT_NEAR((s.normal + r.normal).norm(), 0.0, 1e-4);
    }
    // A rigid motion of both poses changes nothing.
    const Transform m = rng.pose(5.0);
    const DistanceResult mr = distance(a, m * ta, b, m * tb);
    EXPECT_NEAR(mr.distance, r.distance, 1e-9);
    if (r.distance > 1e-6) {
      EXPECT_NEAR((mr.normal - m.R * r.normal).norm(), 0.0, 1e-4);
    }
    // Moving A by +ε·normal increases the distance by exactly ε (supporting plane).
    const double eps = 1e-3;
    const DistanceResult moved = distance(a, Transform{ta.R, ta.p + eps * r.normal}, b, tb);
    EXPECT_NEAR(moved.distance, r.distance + eps, 1e-8);
  }
  EXPECT_GT(separated, 0);
  EXPECT_LE(unfinished, overlapping / 100);
}

std::vector<std::pair<int, int>> table_cells() {
  std::vector<std::pair<int, int>> p;
  const int n = static_cast<int>(all_shapes().size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (!(i == n - 1 && j == n - 1)) p.push_back({i, j});
  return p;
}

INSTANTIATE_TEST_SUITE_P(EveryCell, PairProperties, ::testing::ValuesIn(table_cells()),
                         [](const ::testing::TestParamInfo<std::pair<int, int>>& info) {
                           static const std::vector<testing::TestShape> s = all_shapes();
                           std::string n = s[static_cast<std::size_t>(info.param.first)].label + "_" +
                                           s[static_cast<std::size_t>(info.param.second)].label;
                           std::replace(n.begin(), n.end(), '.', '_');
                           return n;
                         });

TEST(Degenerate, CoincidentCentresAndNaNPoses) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<testing::TestShape> shapes = all_shapes();
  Transform bad;
  bad.p = Vec3(nan, 0, 0);
  Transform bad_r;
  bad_r.R(1, 1) = std::numeric_limits<double>::infinity();
  for (const auto& a : shapes)
    for (const auto& b : shapes) {
      if (a.shape.type() == ShapeType::halfspace || b.shape.type() == ShapeType::halfspace) continue;
      const DistanceResult r = distance(a.shape, {}, b.shape, {});
      EXPECT_EQ(r.status, Status::ok) << a.label << "/" << b.label;
      EXPECT_EQ(r.distance, 0.0) << a.label << "/" << b.label;
      EXPECT_TRUE(r.point_a.allFinite() && r.normal.allFinite());
      EXPECT_TRUE(collide(a.shape, {}, b.shape, {}).collide);
      for (const Transform& t : {bad, bad_r}) {
        EXPECT_EQ(distance(a.shape, t, b.shape, {}).status, Status::invalid_input);
        EXPECT_EQ(signed_distance(a.shape, {}, b.shape, t).status, Status::invalid_input);
        EXPECT_EQ(collide(a.shape, t, b.shape, {}).status, Status::invalid_input);
        EXPECT_FALSE(collide(a.shape, t, b.shape, {}).collide);
      }
    }
}

TEST(Degenerate, TouchingShapes) {
  const Box box(1.0, 1.0, 1.0);
  const Cylinder cyl(0.5, 1.0);
  const ConvexPolytope tet({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  // Face on face, edge on face, vertex on face: distance 0 to rounding.
  const Transform up = Transform::from_translation(Vec3(0.2, 0.1, 1.0));
  const Transform edge = Transform::from_axis_angle(Vec3::UnitX(), M_PI / 4, Vec3(0, 0, 0.5 + std::sqrt(0.5)));
  for (const Transform& t : {up, edge}) {
    EXPECT_LE(distance(box, t, box, {}).distance, 1e-12);
    EXPECT_LE(distance(cyl, t, box, {}).distance, 1e-12);
  }
  EXPECT_LE(distance(tet, Transform::from_translation(Vec3(0.5, 0, 0)), box, {}).distance, 1e-12);
}

TEST(Degenerate, ScalesFromTenthOfAMillimetreToAKilometre) {
  // The same configuration scaled: the distance scales with it, to a relative 1e-9.
  testing::Rng rng(11);
  const std::vector<Vec3> pts = rng.sphere_points(100, 0.5);
  for (int k = 0; k < 50; ++k) {
    const Transform ta = rng.pose(1.5), tb = rng.pose(0.2);
    double ref[3] = {0, 0, 0};
    for (double s : {1.0, 1e-4, 1e-2, 1e3}) {
      const Transform sa{ta.R, s * ta.p}, sb{tb.R, s * tb.p};
      std::vector<Vec3> sp;
      for (const Vec3& p : pts) sp.push_back(s * p);
      const double d[3] = {distance(Box(s * Vec3(1, 0.6, 0.8)), sa, Box(s * Vec3(0.5, 0.5, 0.5)), sb).distance,
                           distance(ConvexPolytope(sp), sa, ConvexPolytope(sp), sb).distance,
                           distance(Ellipsoid(s * Vec3(0.5, 0.3, 0.2)), sa, Cylinder(s * 0.3, s * 0.8), sb).distance};
      for (int q = 0; q < 3; ++q) {
        ASSERT_TRUE(std::isfinite(d[q]));
        if (s == 1.0) ref[q] = d[q];
        else EXPECT_NEAR(d[q] / s, ref[q], 1e-9) << "scale " << s << " shape pair " << q;
      }
    }
  }
}

TEST(Degenerate, UnnormalizedQuaternionsAreNormalized) {
  const Box b(1, 1, 1);
  const DistanceResult unit = distance(b, Transform::from_quaternion(std::cos(0.3), 0, 0, std::sin(0.3), Vec3(2, 0, 0)), b, {});
  const DistanceResult scaled = distance(b, Transform::from_quaternion(7 * std::cos(0.3), 0, 0, 7 * std::sin(0.3), Vec3(2, 0, 0)), b, {});
  EXPECT_NEAR(unit.distance, scaled.distance, 1e-15);
}

TEST(Gjk, DistanceBoundExitsEarlyWithALowerBound) {
  const ConvexPolytope p(testing::Rng(12).sphere_points(300, 0.5));
  const Transform ta = Transform::from_translation(Vec3(3, 0.2, 0.1));
  const DistanceResult full = distance(p, ta, p, {});
  DistanceRequest req;
  req.bound = 0.5;
  const DistanceResult early = distance(p, ta, p, {}, req);
  EXPECT_TRUE(early.bound_exceeded);
  EXPECT_GT(early.distance, 0.5);
  EXPECT_LE(early.distance, full.distance + 1e-12);
  EXPECT_LE(early.iterations, full.iterations);
  req.bound = 5.0;
  EXPECT_FALSE(distance(p, ta, p, {}, req).bound_exceeded);
}

TEST(Gjk, WarmStartCacheGivesTheSameAnswerInFewerIterations) {
  testing::Rng rng(13);
  const ConvexPolytope p(rng.sphere_points(500, 0.5));
  GjkCache cache;
  DistanceRequest warm;
  warm.cache = &cache;
  Transform ta = Transform::from_translation(Vec3(1.3, 0.2, 0.1));
  int cold_it = 0, warm_it = 0;
  for (int step = 0; step < 100; ++step) {
    ta = Transform::from_axis_angle(Vec3(0, 0, 1), 0.002, Vec3::Zero()) * ta;  // small motion per step
    const DistanceResult c = distance(p, ta, p, {});
    const DistanceResult w = distance(p, ta, p, {}, warm);
    EXPECT_NEAR(c.distance, w.distance, 1e-10);
    cold_it += c.iterations;
    warm_it += w.iterations;
  }
  EXPECT_LT(warm_it, cold_it);
  std::printf("iterations over 100 steps: cold %d, warm %d\n", cold_it, warm_it);
}

TEST(Gjk, IterationCapReportsNotConverged) {
  DistanceRequest req;
  req.max_iterations = 2;
  req.tol_abs = 0.0;
  req.tol_rel = 0.0;
  const DistanceResult r = distance(Ellipsoid(Vec3(0.5, 0.3, 0.2)), Transform::from_axis_angle(Vec3(1, 2, 3), 0.5, Vec3(1.5, 0.3, 0.2)),
                                    Ellipsoid(Vec3(0.4, 0.4, 0.1)), {}, req);
  EXPECT_EQ(r.status, Status::not_converged);
  EXPECT_TRUE(std::isfinite(r.distance));
  EXPECT_GT(r.distance, 0.0);
}

}  // namespace
}  // namespace proxima

namespace proxima {
namespace {

TEST(Gjk, WarmStartAgreesWithColdThroughContactChanges) {
  // A random walk that passes in and out of contact: the cache carries 1–4
  // point simplices across the switch and must never change an answer.
  testing::Rng rng(14);
  const std::vector<testing::TestShape> shapes = testing::bounded_test_shapes();
  for (const auto& a : shapes)
    for (const auto& b : shapes) {
      GjkCache cache;
      DistanceRequest warm;
      warm.cache = &cache;
      CollideRequest cwarm;
      GjkCache ccache;
      cwarm.cache = &ccache;
      Transform ta = rng.pose(0.5), tb = rng.pose(0.1);
      int overlaps = 0;
      for (int step = 0; step < testing::scaled(400); ++step) {
        const Vec3 toward = -0.02 * ta.p.normalized() * (step % 80 < 40 ? 1.0 : -1.0);
        ta = Transform::from_axis_angle(rng.unit_vector(), 0.02, toward) * ta;
        const DistanceResult c = distance(a.shape, ta, b.shape, tb);
        const DistanceResult w = distance(a.shape, ta, b.shape, tb, warm);
        ASSERT_EQ(w.status, Status::ok);
        EXPECT_NEAR(w.distance, c.distance, 1e-9) << a.label << "/" << b.label << " step " << step;
        EXPECT_EQ(collide(a.shape, ta, b.shape, tb, cwarm).collide, collide(a.shape, ta, b.shape, tb).collide)
            << a.label << "/" << b.label << " step " << step;
        overlaps += c.distance == 0.0;
      }
      EXPECT_GT(overlaps, 0) << a.label << "/" << b.label;
    }
}

}  // namespace
}  // namespace proxima
