// SPDX-License-Identifier: BSD-3-Clause
// GJK distance for every bounded pair against ground truth that shares no code
// with it: the explicitly built Minkowski difference (qhull hull of all
// core-vertex differences) where both cores are polytopes, a dense
// support-direction sweep with certified refinement otherwise.
#include <algorithm>
#include <cstdio>

#include <gtest/gtest.h>

#include <proxima/query.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../oracle/sweep_oracle.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using testing::TestShape;

struct PairStats {
  int checked = 0;
  int overlapping = 0;
  double max_err = 0.0;
};

PairStats check_pair(const TestShape& a, const TestShape& b, int poses, unsigned seed) {
  testing::Rng rng(seed);
  PairStats st;
  const bool exact = a.core_vertices && b.core_vertices;
  const double half = 0.9 * (a.bounding_radius + b.bounding_radius);
  for (int i = 0; i < poses; ++i) {
    const Transform ta = rng.pose(half), tb = rng.pose(0.1);
    double truth;
    bool known;
    if (exact) {
      truth = oracle::minkowski_signed_distance(a.core_vertices(ta), b.core_vertices(tb)) - a.inflation - b.inflation;
      known = true;
    } else {
      const oracle::SweepReport rep = oracle::sweep_separation_report(
          [&](const Vec3& d) { return a.support(ta, d); }, [&](const Vec3& d) { return b.support(tb, d); });
      truth = rep.value;
      known = rep.separated;
    }
    const DistanceResult r = distance(a.shape, ta, b.shape, tb);
    EXPECT_EQ(r.status, Status::ok) << a.label << "/" << b.label << " pose " << i;
    EXPECT_TRUE(std::isfinite(r.distance) && r.point_a.allFinite() && r.point_b.allFinite());
    const CollideResult c = collide(a.shape, ta, b.shape, tb);
    if (known && truth > 1e-9) {
      const double err = std::abs(r.distance - truth);
      st.max_err = std::max(st.max_err, err);
      EXPECT_LE(err, 1e-9) << a.label << "/" << b.label << " pose " << i << " truth " << truth;
      EXPECT_FALSE(c.collide) << a.label << "/" << b.label << " pose " << i;
      ++st.checked;
    } else if (exact && truth < -1e-9) {
      EXPECT_EQ(r.distance, 0.0) << a.label << "/" << b.label << " pose " << i << " truth " << truth;
      EXPECT_TRUE(c.collide) << a.label << "/" << b.label << " pose " << i;
      ++st.overlapping;
    } else if (!exact && truth < -1e-6) {
      EXPECT_EQ(r.distance, 0.0) << a.label << "/" << b.label << " pose " << i << " sweep " << truth;
      ++st.overlapping;
    }
  }
  return st;
}

class GjkOracle : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(GjkOracle, DistanceMatchesGroundTruth) {
  static const std::vector<TestShape> shapes = testing::bounded_test_shapes();
  const auto [i, j] = GetParam();
  const TestShape& a = shapes[static_cast<std::size_t>(i)];
  const TestShape& b = shapes[static_cast<std::size_t>(j)];
  const bool exact = a.core_vertices && b.core_vertices;
  const int poses = testing::scaled(exact ? 10000 : 1000);
  const PairStats st = check_pair(a, b, poses, 1000u + static_cast<unsigned>(10 * i + j));
  std::printf("%-18s %-18s %s poses %5d separated %5d overlapping %5d max |error| %.3g\n", a.label.c_str(),
              b.label.c_str(), exact ? "minkowski" : "sweep    ", poses, st.checked, st.overlapping, st.max_err);
  EXPECT_GT(st.checked, poses / 10) << "too few separated poses to mean anything";
}

std::vector<std::pair<int, int>> unordered_shape_pairs() {
  std::vector<std::pair<int, int>> p;
  const int n = static_cast<int>(testing::bounded_test_shapes().size());
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) p.push_back({i, j});
  return p;
}

INSTANTIATE_TEST_SUITE_P(AllPairs, GjkOracle, ::testing::ValuesIn(unordered_shape_pairs()),
                         [](const ::testing::TestParamInfo<std::pair<int, int>>& info) {
                           static const std::vector<TestShape> s = testing::bounded_test_shapes();
                           std::string n = s[static_cast<std::size_t>(info.param.first)].label + "_" +
                                           s[static_cast<std::size_t>(info.param.second)].label;
                           std::replace(n.begin(), n.end(), '.', '_');
                           return n;
                         });

TEST(GjkOracle, LargePolytopes) {
  // 200- and 1000-vertex hulls against each other, few poses (qhull of 2·10⁵ points).
  testing::Rng rng(9);
  const std::vector<Vec3> p200 = rng.sphere_points(200, 0.5), p1000 = rng.sphere_points(1000, 0.5);
  const ConvexPolytope a(p200), b(p1000);
  double max_err = 0;
  for (int i = 0; i < testing::scaled(60); ++i) {
    const Transform ta = rng.pose(1.2), tb = rng.pose(0.1);
    // The raw points: the oracle does not rely on the library's hulls.
    const double truth = oracle::minkowski_signed_distance(testing::transformed(ta, p200),
                                                           testing::transformed(tb, p1000));
    const DistanceResult r = distance(a, ta, b, tb);
    if (truth > 1e-9) {
      max_err = std::max(max_err, std::abs(r.distance - truth));
      EXPECT_NEAR(r.distance, truth, 1e-9);
    } else if (truth < -1e-9) {
      EXPECT_EQ(r.distance, 0.0);
    }
  }
  std::printf("convex200 / convex1000 max |error| %.3g\n", max_err);
}

// Pairs whose Minkowski difference is degenerate for GJK: faces and edges
// parallel (ties among support points, flat and collinear simplices), gaps
// from 1e−9 to 0.1 of the size, and sizes from 1e−3 to 1e3 m placed 10³
// sizes away from the origin. A 90° rotation about z and translations by
// quarters of the size are exact in floating point, so the ties are exact.
TEST(GjkOracle, DegeneratePolyhedralPairs) {
  testing::Rng rng(23);
  // Cube corners with the edge midpoints and face centres (coplanar and
  // collinear with hull vertices) and a thin slab.
  std::vector<Vec3> studded;
  for (int x = -1; x <= 1; ++x)
    for (int y = -1; y <= 1; ++y)
      for (int z = -1; z <= 1; ++z)
        if (x != 0 || y != 0 || z != 0) studded.emplace_back(0.5 * x, 0.5 * y, 0.5 * z);
  int checked = 0;
  double worst = 0.0;
  for (const double size : {1e-3, 1.0, 1e3}) {
    const std::vector<Vec3> corners = testing::box_corners(Vec3(0.5 * size, 0.5 * size, 0.5 * size));
    const std::vector<Vec3> slab = testing::box_corners(Vec3(0.5 * size, 0.25 * size, 0.5e-3 * size));
    std::vector<Vec3> stud;
    for (const Vec3& p : studded) stud.push_back(size * p);
    const ConvexPolytope cube(corners), thin(slab), studs(stud);
    const Box box(size, size, size);
    for (int i = 0; i < testing::scaled(400); ++i) {
      const double gap = size * std::pow(10.0, -9.0 + 8.0 * (i % 9) / 8.0);  // 1e−9 … 0.1 of the size
      // B above A along z by the gap, sideways by quarters, a quarter turn
      // or none; both far from the origin, or at it.
      const Vec3 far = ((i / 4) % 2 == 0 ? 1e3 * size : 0.0) * Vec3(1.0, -2.0, 0.5);
      const Vec3 side(0.25 * size * static_cast<double>(i % 5 - 2), 0.25 * size * static_cast<double>(i % 3 - 1), 0.0);
      const Transform ta = Transform::from_translation(far);
      Transform tb = Transform::from_translation(far + side + Vec3(0, 0, size + gap));
      if (i % 4 == 1) tb.R << 0, -1, 0, 1, 0, 0, 0, 0, 1;
      const int pair = i % 4;
      const Shape& sa = pair == 0 ? Shape(box) : pair == 1 ? Shape(cube) : pair == 2 ? Shape(studs) : Shape(cube);
      const std::vector<Vec3>& va = pair == 2 ? stud : corners;
      const Shape sb = pair == 3 ? Shape(thin) : Shape(cube);
      const std::vector<Vec3>& vb = pair == 3 ? slab : corners;
      // The thin slab lies flat on the cube: its lower face is 1e−3 below its centre.
      if (pair == 3) tb.p.z() -= 0.5 * size - 0.5e-3 * size;
      const double truth =
          oracle::minkowski_signed_distance(testing::transformed(ta, va), testing::transformed(tb, vb));
      const DistanceResult r = distance(sa, ta, sb, tb);
      ASSERT_EQ(r.status, Status::ok) << "size " << size << " case " << i;
      if (truth > 1e-9 * size) {
        const double err = std::abs(r.distance - truth);
        worst = std::max(worst, err / size);
        EXPECT_LE(err, 1e-9 * size) << "size " << size << " case " << i << " truth " << truth;
        EXPECT_NEAR((r.point_a - r.point_b).norm(), r.distance, 1e-9 * size);
        ++checked;
      }
    }
  }
  std::printf("degenerate polyhedral pairs: %d checked, worst |error| / size %.3g\n", checked, worst);
  EXPECT_GT(checked, testing::scaled(400));
}

}  // namespace
}  // namespace proxima
