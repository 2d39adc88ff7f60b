// SPDX-License-Identifier: BSD-3-Clause
// EPA (through signed_distance with GJK forced) on overlapping pairs, against
// ground truth that shares no code with it: the explicit Minkowski difference
// for polyhedral cores, and for curved shapes the support function of A ⊖ B
// minimized over a dense direction sweep (PD = min over unit n of h(n)).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

#include <gtest/gtest.h>

#include <proxima/narrow/epa.hpp>
#include <proxima/query.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using testing::TestShape;

// h_{A⊖B}(n) from the test's own world-frame support functions.
double support_value(const TestShape& a, const Transform& ta, const TestShape& b, const Transform& tb, const Vec3& n) {
  return n.dot(a.support(ta, n) - b.support(tb, -n));
}

// min over unit n of h(n): a Fibonacci sweep, then a shrinking 16-direction
// pattern search from each of the 4 best samples (h has several local
// minima on the sphere and kinks along curved edges). An upper bound on the
// true depth that converges to it. A move must gain more than rounding, and
// each step size makes at most 64 moves: where h is flat along a circle (a
// sphere on a cone's axis) the search otherwise circled on rounding-level
// gains for minutes.
double swept_depth(const TestShape& a, const Transform& ta, const TestShape& b, const Transform& tb) {
  const int n = 2000;
  std::vector<std::pair<double, Vec3>> samples;
  for (int i = 0; i < n; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / n, r = std::sqrt(1.0 - z * z), phi = i * 2.399963229728653;
    const Vec3 d(r * std::cos(phi), r * std::sin(phi), z);
    samples.push_back({support_value(a, ta, b, tb, d), d});
  }
  std::partial_sort(samples.begin(), samples.begin() + 4, samples.end(),
                    [](const auto& x, const auto& y) { return x.first < y.first; });
  double overall = 1e300;
  for (int s = 0; s < 4; ++s) {
    Vec3 best = samples[static_cast<std::size_t>(s)].second;
    double best_h = samples[static_cast<std::size_t>(s)].first;
    for (double step = 0.05; step > 1e-8; step *= 0.5) {
      int moves = 0;
      for (bool improved = true; improved && moves < 64; ++moves) {
        improved = false;
        const Vec3 u = best.unitOrthogonal(), w = best.cross(u);
        for (int k = 0; k < 16; ++k) {
          const double ang = k * M_PI / 8.0;
          const Vec3 d = (best + step * (std::cos(ang) * u + std::sin(ang) * w)).normalized();
          const double h = support_value(a, ta, b, tb, d);
          if (h < best_h - 1e-14) { best_h = h; best = d; improved = true; }
        }
      }
    }
    overall = std::min(overall, best_h);
  }
  return overall;
}

TEST(Epa, OverlappingPairsMatchGroundTruth) {
  const std::vector<TestShape> shapes = testing::bounded_test_shapes();
  DistanceRequest gjk_only;
  gjk_only.method = Method::gjk;
  // For sweep rows the column is the gap to the sweep, which EPA beats.
  std::printf("%-18s %-18s %-9s %6s %10s %9s\n", "A", "B", "truth", "poses", "max|diff|", "not_conv");
  for (std::size_t i = 0; i < shapes.size(); ++i)
    for (std::size_t j = i; j < shapes.size(); ++j) {
      const TestShape& a = shapes[i];
      const TestShape& b = shapes[j];
      const bool exact = a.core_vertices && b.core_vertices;
      testing::Rng rng(2000u + static_cast<unsigned>(10 * i + j));
      // Curved pairs: at least 20 poses even at CI's reduced scale.
      const int want = exact ? testing::scaled(2000) : std::max(20, testing::scaled(100));
      int checked = 0, not_converged = 0;
      double max_err = 0;
      for (int k = 0; k < 50 * want && checked < want; ++k) {
        const Transform ta = rng.pose(0.6 * (a.bounding_radius + b.bounding_radius)), tb = rng.pose(0.05);
        double truth;
        if (exact) {
          truth = oracle::minkowski_signed_distance(a.core_vertices(ta), b.core_vertices(tb)) - a.inflation - b.inflation;
        } else {
          if (distance(a.shape, ta, b.shape, tb).distance > 0.0) continue;
          truth = -swept_depth(a, ta, b, tb);
        }
        if (!(truth < -1e-6)) continue;
        const DistanceResult r = signed_distance(a.shape, ta, b.shape, tb, gjk_only);
        ASSERT_TRUE(std::isfinite(r.distance) && r.normal.allFinite() && r.point_a.allFinite() && r.point_b.allFinite());
        ++checked;
        if (r.status == Status::not_converged) {
          ++not_converged;
          continue;
        }
        ASSERT_EQ(r.status, Status::ok) << a.label << "/" << b.label;
        const double err = std::abs(r.distance - truth);
        max_err = std::max(max_err, err);
        if (exact) {
          EXPECT_LE(err, 1e-9) << a.label << "/" << b.label << " pose " << k << " truth " << truth << " got " << r.distance;
        } else {
          // The sweep only bounds the depth from above (its search can stall in
          // the kinks of h, by up to 1e-3 here), and EPA's depth is h along its
          // normal, so also ≥ the true depth: no sampled direction may beat it.
          EXPECT_LE(-r.distance, -truth + 1e-9) << a.label << "/" << b.label << " pose " << k << " sweep " << truth;
        }
        EXPECT_NEAR(r.normal.norm(), 1.0, 1e-12);
        EXPECT_NEAR((r.point_b - (r.point_a - r.distance * r.normal)).norm(), 0.0, 1e-9);
        // The depth is the support value along the reported normal.
        EXPECT_NEAR(-r.distance, support_value(a, ta, b, tb, -r.normal), 1e-9) << a.label << "/" << b.label;
      }
      std::printf("%-18s %-18s %-9s %6d %10.2g %9d\n", a.label.c_str(), b.label.c_str(), exact ? "minkowski" : "sweep", checked, max_err, not_converged);
      EXPECT_EQ(checked, want) << a.label << "/" << b.label;
      EXPECT_LE(not_converged, checked / 50 + 1) << a.label << "/" << b.label;
    }
}

TEST(Epa, TouchingAndCoincidentShapes) {
  const Box box(1.0, 1.0, 1.0);
  DistanceRequest g;
  g.method = Method::gjk;
  // Face on face, exactly touching: depth 0 (or a hair), normal ±z.
  const DistanceResult t = signed_distance(box, Transform::from_translation(Vec3(0.3, 0.2, 1.0)), box, {}, g);
  ASSERT_EQ(t.status, Status::ok);
  EXPECT_NEAR(t.distance, 0.0, 1e-12);
  // Coincident boxes: depth = full extent, 1.
  const DistanceResult c = signed_distance(box, {}, box, {}, g);
  ASSERT_EQ(c.status, Status::ok);
  EXPECT_NEAR(c.distance, -1.0, 1e-12);
  // Coincident ellipsoids: depth = twice the smallest radius along that axis.
  const Ellipsoid e(Vec3(0.5, 0.3, 0.2));
  const DistanceResult ce = signed_distance(e, {}, e, {}, g);
  EXPECT_TRUE(ce.status == Status::ok || ce.status == Status::not_converged);
  if (ce.status == Status::ok) {
    EXPECT_NEAR(ce.distance, -0.4, 1e-6);
  }
  // Flat cores in one plane (margins give the volume): depth = sum of margins.
  const std::vector<Vec3> sq = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const ConvexPolytope flat(sq, 0.05);
  const DistanceResult f = signed_distance(flat, Transform::from_translation(Vec3(0.5, 0, 0)), flat, {}, g);
  ASSERT_EQ(f.status, Status::ok);
  EXPECT_NEAR(f.distance, -0.1, 1e-12);
  EXPECT_NEAR(std::abs(f.normal.z()), 1.0, 1e-12);
}

// Deep overlaps of two ellipsoids where the depth's minimum is shallow (the
// origin near a centre of curvature of A ⊖ B): the 256-vertex polytope
// fills before its bracket is within tolerance (these poses each did, out
// of 300,000 random ones), and the second run in the larger polytope
// answers ok, within the tolerance of the sweep over the test's own
// support functions.
TEST(Epa, ShallowMinimaOfTwoEllipsoidsConvergeInTheLargerPolytope) {
  const TestShape e = testing::bounded_test_shapes().back();
  ASSERT_EQ(e.label, "ellipsoid");
  const Ellipsoid& shape = e.shape.as<Ellipsoid>();
  const auto pose = [](double w, double x, double y, double z, const Vec3& p) {
    return Transform::from_quaternion(Quat(w, x, y, z).normalized(), p);
  };
  const std::pair<Transform, Transform> poses[] = {
      {pose(0.55778365987613643, -0.18905949222425075, 0.58094761441312304, 0.56181292836921459,
            Vec3(0.72363219331293938, -1.040738823208514, 1.5271167860383763)),
       pose(0.16703994586241205, 0.46263188533993599, -0.77507057103829835, -0.39665476810882405,
            Vec3(0.70300228938718556, -1.2012957352972651, 1.5602569170709206))},
      {pose(0.86217200540723193, 0.38275958685074002, 0.25252500274191325, 0.21537329164991514,
            Vec3(1.5119923959354458, 0.67845455835187063, 0.099976437468931423)),
       pose(0.93663957160546418, 0.13868498609693961, -0.20589066734998152, -0.2471473662255039,
            Vec3(1.4916191685646039, 0.45130751176963496, 0.14582014446178168))},
      {pose(-0.2580974314009995, 0.90560593178206417, 0.33640339427372185, -0.0098167482632657063,
            Vec3(-0.16120853441714719, 0.65596516556689632, 0.52256878335579371)),
       pose(-0.73177754588072175, -0.19408241404041482, -0.48764866106214039, -0.4347785910889988,
            Vec3(-0.12398704197888266, 0.61246116008851748, 0.49587107118899709))},
      {pose(0.23299023951180667, -0.25928016847695196, 0.81950992690248115, 0.45485472651725217,
            Vec3(1.3452589739061249, 0.69201712054926923, 1.7764622767419151)),
       pose(0.28487294394484503, 0.50719351090026299, -0.68935337179749745, -0.43173380351819035,
            Vec3(1.2888874290202086, 0.67558126524111262, 1.6653435268310732))},
  };
  DistanceRequest gjk_only;
  gjk_only.method = Method::gjk;
  for (const auto& [ta, tb] : poses) {
    const double truth = -swept_depth(e, ta, e, tb);
    ASSERT_LT(truth, -0.3);
    // The first run alone does not converge here.
    detail::Simplex simplex;
    ASSERT_TRUE(gjk(shape, ta, shape, tb, {}, nullptr, &simplex).overlap);
    EpaOptions one_run;
    one_run.second_run = false;
    EXPECT_EQ(epa(shape, ta, shape, tb, simplex, one_run).status, Status::not_converged);
    const EpaResult two = epa(shape, ta, shape, tb, simplex);
    EXPECT_EQ(two.status, Status::ok);
    EXPECT_GT(two.iterations, detail::EpaPolytope::kMaxVertices);
    // Through the query: ok, the sweep's depth within 1e-7 (the sweep is
    // itself an upper bound), and the depth the support value along the
    // normal.
    const DistanceResult r = signed_distance(shape, ta, shape, tb, gjk_only);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_NEAR(r.distance, truth, 1e-7);
    EXPECT_LE(-r.distance, -truth + 1e-9);
    EXPECT_NEAR(-r.distance, support_value(e, ta, e, tb, -r.normal), 1e-9);
    EXPECT_EQ(signed_distance(shape, ta, shape, tb).status, Status::ok);
  }
}

// The face heap EPA switches to on long runs must pick the face a scan
// picks (least distance, then least slot), with faces killed and slots
// re-used under it, ties, infinite distances (degenerate faces) and the
// rebuild when it fills. The scan is the reference.
TEST(Epa, FaceHeapPicksWhatAScanPicks) {
  using detail::EpaFaceHeap;
  using detail::EpaPolytope;
  testing::Rng rng(31);
  for (int trial = 0; trial < 20; ++trial) {
    auto P = std::make_unique<EpaPolytope>();
    auto heap = std::make_unique<EpaFaceHeap>();
    auto scan = [&] {
      int best = -1;
      for (int k = 0; k < P->nf; ++k)
        if (P->f[k].alive && (best < 0 || P->f[k].dist < P->f[best].dist)) best = k;
      return best;
    };
    // Distances from a small set, so that ties are common.
    auto set = [&](int k) {
      const double r = rng.uniform(0.0, 1.0);
      P->f[k].alive = true;
      P->f[k].dist = r < 0.05 ? std::numeric_limits<double>::infinity() : std::floor(r * 20.0) / 20.0;
    };
    for (int k = 0; k < 80; ++k) set(P->new_face());
    heap->build(*P);
    int checked = 0;
    for (int step = 0; step < 3000; ++step) {
      const int top = heap->top(*P);
      ASSERT_EQ(top, scan()) << "trial " << trial << " step " << step;
      if (top < 0) break;
      ++checked;
      // Kill the top and a few others, then add faces into freed slots.
      P->kill(top);
      for (int k = 0; k < P->nf; ++k)
        if (P->f[k].alive && rng.uniform(0.0, 1.0) < 0.02) P->kill(k);
      const int add = static_cast<int>(rng.uniform(0.0, 4.0));
      for (int a = 0; a < add; ++a) {
        const int k = P->new_face();
        if (k < 0) break;
        set(k);
        heap->push(*P, k);
      }
    }
    EXPECT_GT(checked, 50) << "trial " << trial;
  }
}

// EPA's scan for the closest face: the first slot of least value, NaN never
// taken, −1 when nothing is finite; every length (odd ones leave a tail
// after the pairs) against a plain loop.
TEST(Epa, FirstLeastIsTheFirstSlotOfTheLeastValue) {
  testing::Rng rng(47);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double x[80];
  int checked_ties = 0, checked_none = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const int n = trial % 80;
    for (int k = 0; k < n; ++k) {
      const double r = rng.uniform(0.0, 1.0);
      // Few distinct values, so that ties are common; some +inf and NaN,
      // and whole arrays of them.
      x[k] = r < 0.1 ? kInf : r < 0.2 ? nan : std::floor(r * 8.0) / 8.0 - 0.5;
      if (trial % 7 == 0) x[k] = r < 0.5 ? kInf : nan;
    }
    int want = -1;
    for (int k = 0; k < n; ++k)
      if (x[k] < kInf && (want < 0 || x[k] < x[want])) want = k;
    ASSERT_EQ(detail::first_least(x, n), want) << "trial " << trial << ", n " << n;
    if (want < 0) ++checked_none;
    for (int k = want + 1; want >= 0 && k < n; ++k) checked_ties += x[k] == x[want];
  }
  EXPECT_GT(checked_ties, 1000);
  EXPECT_GT(checked_none, 500);
}

}  // namespace
}  // namespace proxima
