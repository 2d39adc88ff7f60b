// SPDX-License-Identifier: BSD-3-Clause
// MPR ray cast (narrow/mpr.hpp) against ground truths that share no code with
// it: for polytope pairs the explicit Minkowski difference hull (qhull on all
// vertex differences, in tests/oracle), where the exit distance along unit d
// is min over facets with n·d > 0 of offset / (n·d);
// for sphere pairs the ray–ball closed form; for capsule pairs a bisection on
// the (convex) distance from λd to the core segment difference.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include <proxima/narrow/mpr.hpp>
#include <proxima/query.hpp>
#include <proxima/shape/shape.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using testing::Rng;

using testing::box_corners;

// Exit distance along unit d from the origin of the hull of all a − b.
double hull_ray_distance(const std::vector<Vec3>& wa, const std::vector<Vec3>& wb, const Vec3& d) {
  std::vector<Vec3> diff;
  for (const Vec3& a : wa)
    for (const Vec3& b : wb) diff.push_back(a - b);
  return oracle::hull_ray_exit(diff, d);
}

struct RayStats {
  int n = 0, ok = 0;
  double max_err = 0.0;
  long calls = 0;
};

template <class A, class B>
void polytope_pair(const char* label, const A& a, const std::vector<Vec3>& va, const B& b,
                   const std::vector<Vec3>& vb, double half, unsigned seed, int poses) {
  Rng rng(seed);
  RayStats st;
  while (st.n < poses) {
    const Transform ta = rng.pose(half), tb = rng.pose(0.0);
    const std::vector<Vec3> wa = testing::transformed(ta, va), wb = testing::transformed(tb, vb);
    if (!(oracle::minkowski_signed_distance(wa, wb) < -1e-3)) continue;  // origin well inside C
    for (int k = 0; k < 5; ++k) {
      const Vec3 d = rng.unit_vector();
      const double truth = hull_ray_distance(wa, wb, d);
      const MprRayResult r = mpr_ray(a, ta, b, tb, d);
      ++st.n;
      st.calls += r.iterations;
      ASSERT_TRUE(std::isfinite(r.distance) && std::isfinite(r.upper_bound) && r.normal.allFinite());
      // The bounds are proven: they must bracket the truth.
      EXPECT_LE(r.lower_bound, truth + 1e-9) << label;
      EXPECT_GE(r.upper_bound, truth - 1e-9) << label;
      EXPECT_NEAR(r.normal.norm(), 1.0, 1e-12);
      EXPECT_LT((r.point - r.distance * d).norm(), 1e-12);
      if (r.status == Status::ok) {
        ++st.ok;
        const double err = std::abs(r.distance - truth);
        st.max_err = std::max(st.max_err, err);
        EXPECT_LE(err, 1e-7) << label << " truth " << truth;
      } else {
        EXPECT_EQ(r.status, Status::not_converged);
      }
    }
  }
  std::printf("%-16s rays %5d ok %5d max |error| %.3g mean support calls %.1f\n", label, st.n, st.ok,
              st.max_err, double(st.calls) / st.n);
  EXPECT_GE(st.ok, st.n * 99 / 100) << label;
}

TEST(MprRay, BoxBoxMatchesMinkowskiHull) {
  const Box a(0.6, 0.4, 0.8), b(1.0, 1.0, 1.0);
  polytope_pair("box-box", a, box_corners(a.half_extents()), b, box_corners(b.half_extents()), 0.6, 11,
                testing::scaled(2000));
}

TEST(MprRay, PolytopeBoxMatchesMinkowskiHull) {
  Rng g(5);
  const std::vector<Vec3> raw = g.sphere_points(40, 0.5);  // the oracle's input, not the library's hull
  const ConvexPolytope a(raw);
  const Box b(0.8, 0.3, 0.5);
  polytope_pair("convex40-box", a, raw, b, box_corners(b.half_extents()), 0.6, 12,
                testing::scaled(2000));
}

TEST(MprRay, Polytope200PolytopeMatchesMinkowskiHull) {
  Rng g(6);
  const std::vector<Vec3> raw_a = g.sphere_points(200, 0.5), raw_b = g.sphere_points(60, 0.3);
  const ConvexPolytope a(raw_a), b(raw_b);
  polytope_pair("convex200-60", a, raw_a, b, raw_b, 0.5, 13, testing::scaled(500));
}

// Exit distance of the ray from the ball B(c, R) (origin inside).
double ray_ball(const Vec3& c, double R, const Vec3& d) {
  const double dc = d.dot(c);
  return dc + std::sqrt(R * R - c.squaredNorm() + dc * dc);
}

TEST(MprRay, SphereSphereClosedForm) {
  const Sphere a(0.5), b(0.3, 0.05);
  Rng rng(21);
  double max_err = 0.0;
  int n = 0;
  for (int i = 0; i < testing::scaled(10000); ++i) {
    const Transform ta = rng.pose(0.5), tb = rng.pose(0.5);
    const Vec3 c = ta.p - tb.p;
    if (c.norm() > 0.8) continue;
    const Vec3 d = rng.unit_vector();
    const MprRayResult r = mpr_ray(a, ta, b, tb, d);
    ASSERT_EQ(r.status, Status::ok);
    const double truth = ray_ball(c, 0.85, d);
    EXPECT_LE(r.lower_bound, truth + 1e-12);
    EXPECT_GE(r.upper_bound, truth - 1e-12);
    max_err = std::max(max_err, std::abs(r.distance - truth));
    ++n;
  }
  std::printf("sphere-sphere    rays %5d max |error| %.3g\n", n, max_err);
  EXPECT_LE(max_err, 1e-7);
}

// Distance from p to segment [s0, s1] (written here, not the library's).
double point_segment(const Vec3& p, const Vec3& s0, const Vec3& s1) {
  const Vec3 e = s1 - s0;
  const double t = std::clamp((p - s0).dot(e) / e.squaredNorm(), 0.0, 1.0);
  return (p - s0 - t * e).norm();
}

TEST(MprRay, SphereCapsuleBisection) {
  const Sphere a(0.5);
  const Capsule b(0.25, 0.5);
  Rng rng(22);
  double max_err = 0.0;
  int n = 0;
  for (int i = 0; i < testing::scaled(5000); ++i) {
    const Transform ta = rng.pose(0.6), tb = rng.pose(0.0);
    // C = ball(0.75) around the segment a_centre − [b0, b1].
    const Vec3 ax = tb.R.col(2);
    const Vec3 s0 = ta.p - (tb.p + 0.25 * ax), s1 = ta.p - (tb.p - 0.25 * ax);
    if (point_segment(Vec3::Zero(), s0, s1) > 0.7) continue;
    const Vec3 d = rng.unit_vector();
    double lo = 0.0, hi = 3.0;  // dist(λd, segment) − 0.75 is convex in λ, ≤ 0 at 0
    for (int k = 0; k < 200; ++k) {
      const double mid = 0.5 * (lo + hi);
      (point_segment(mid * d, s0, s1) <= 0.75 ? lo : hi) = mid;
    }
    const MprRayResult r = mpr_ray(a, ta, b, tb, d);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_LE(r.lower_bound, hi + 1e-12);
    EXPECT_GE(r.upper_bound, lo - 1e-12);
    max_err = std::max(max_err, std::abs(r.distance - lo));
    ++n;
  }
  std::printf("sphere-capsule   rays %5d max |error| %.3g\n", n, max_err);
  EXPECT_LE(max_err, 1e-7);
}

// Signed distance of a local point to a box of half extents h (written here).
double box_sd(const Vec3& h, const Vec3& q) {
  const Vec3 o = q.cwiseAbs() - h;
  return o.cwiseMax(0.0).norm() + std::min(o.maxCoeff(), 0.0);
}

// A converged ray cast splits its exit point into a point on A and a point on
// B: the witnesses of a depth answer along the ray. Curved against flat and
// curved against curved, where no feature of either shape names the point.
TEST(MprRay, ExitPointSplitsIntoPointsOnBothSurfaces) {
  const Sphere sphere(0.4, 0.02);
  const Box box(1.0, 0.6, 0.8);
  const Capsule capsule(0.2, 0.7);
  const double h = 0.5 * capsule.length();
  Rng rng(33);
  int checked = 0;
  double worst = 0.0;
  for (int i = 0; i < testing::scaled(3000); ++i) {
    const Transform ta = rng.pose(0.5), tb = rng.pose(0.5);
    const Vec3 d = rng.unit_vector();
    const int pair = i % 2;  // sphere–box, capsule–sphere
    // The ray cast's precondition, judged here: the pair overlaps by 1 mm or more.
    const Vec3 c = pair == 0 ? tb.apply_inverse(ta.p) : ta.apply_inverse(tb.p);
    const double centre_gap = pair == 0 ? box_sd(Vec3(0.5, 0.3, 0.4), c) - 0.42
                                        : (c - Vec3(0, 0, std::clamp(c.z(), -h, h))).norm() - 0.62;
    if (centre_gap > -1e-3) continue;
    const MprRayResult r = pair == 0 ? mpr_ray(sphere, ta, box, tb, d) : mpr_ray(capsule, ta, sphere, tb, d);
    ASSERT_EQ(r.status, Status::ok) << "pose " << i;
    ASSERT_TRUE(r.has_witnesses) << "pose " << i;
    const Vec3 qa = ta.apply_inverse(r.point_a), qb = tb.apply_inverse(r.point_b);
    const double sd_a = pair == 0 ? qa.norm() - 0.42 : (qa - Vec3(0, 0, std::clamp(qa.z(), -h, h))).norm() - 0.2;
    const double sd_b = pair == 0 ? box_sd(Vec3(0.5, 0.3, 0.4), qb) : qb.norm() - 0.42;
    EXPECT_LE(std::abs(sd_a), 1e-8) << "pose " << i;
    EXPECT_LE(std::abs(sd_b), 1e-8) << "pose " << i;
    EXPECT_LE((r.point_a - r.point_b - r.point).norm(), 1e-8) << "pose " << i;
    worst = std::max({worst, std::abs(sd_a), std::abs(sd_b)});
    ++checked;
  }
  std::printf("exit-point witnesses: %d rays, worst distance to the surface %.3g\n", checked, worst);
  EXPECT_GE(checked, testing::scaled(3000) / 3);
}

TEST(MprRay, DegenerateDirectionsNeverNaN) {
  // Identical axis-aligned unit boxes: C = [-1, 1]³. Rays through face
  // centres, edge midpoints and corners, along faces, and along edges.
  const Box a(1.0, 1.0, 1.0);
  const Transform I = Transform::identity();
  const std::vector<std::pair<Vec3, double>> cases = {
      {Vec3(1, 0, 0), 1.0},  {Vec3(0, -1, 0), 1.0}, {Vec3(1, 1, 0), std::sqrt(2.0)},
      {Vec3(1, 1, 1), std::sqrt(3.0)}, {Vec3(-1, 1, -1), std::sqrt(3.0)}, {Vec3(1, 1e-12, 0), 1.0},
      {Vec3(2, 1, 0), std::sqrt(1.25)}};
  for (const auto& [d, truth] : cases) {
    const MprRayResult r = mpr_ray(a, I, a, I, d);
    EXPECT_EQ(r.status, Status::ok) << d.transpose();
    EXPECT_NEAR(r.distance, truth, 1e-9) << d.transpose();
    EXPECT_TRUE(r.normal.allFinite() && std::isfinite(r.upper_bound));
  }
  // The origin on C's boundary (touching boxes, C = [0, 2] × …): exit
  // distance 0 outward, 2 inward.
  const Transform T = Transform::from_translation(Vec3(1.0, 0.3, 0.2));
  const MprRayResult t = mpr_ray(a, T, a, I, Vec3(-1, 0, 0));
  EXPECT_EQ(t.status, Status::ok);
  EXPECT_TRUE(std::isfinite(t.distance) && t.normal.allFinite());
  EXPECT_NEAR(t.distance, 0.0, 1e-9);
  const MprRayResult t2 = mpr_ray(a, T, a, I, Vec3(1, 0, 0));
  EXPECT_TRUE(std::isfinite(t2.distance) && t2.normal.allFinite());
  EXPECT_NEAR(t2.distance, 2.0, 1e-9);
  // Concentric spheres: every support point is on its ray.
  const Sphere s(0.4);
  const MprRayResult cs = mpr_ray(s, I, s, I, Vec3(0.3, -0.2, 0.9));
  EXPECT_EQ(cs.status, Status::ok);
  EXPECT_NEAR(cs.distance, 0.8, 1e-12);
}

// A long thin box turned about its long axis, inside a flat wide cylinder,
// centres together (fuzz/corpus/shapes/regress_mpr_plane_before_refinement):
// the portal's first triangle already brackets the exit distance, so the cast
// stops before its first refinement call. It reported the ray itself as the
// normal with support value +inf, and the `mpr` depth was −inf with status
// ok. The plane reported must be a support plane of C through the exit
// point: its value checked against the two shapes' own support functions.
TEST(MprRay, BoundsThatMeetBeforeRefinementStillReportASupportPlane) {
  const Vec3 half(16.476691844052795, 0.001730144197756924, 0.0015195696955825132);
  const Box box(2.0 * half.x(), 2.0 * half.y(), 2.0 * half.z());
  const double radius = 5.1410696574349579, half_length = 0.0039599450675211713;
  const Cylinder cyl(radius, 2.0 * half_length);
  Transform ta = Transform::identity();
  ta.R << 1, 0, 0, 0, -0.95097017081775403, 0.30928261220904807, 0, -0.30928261220904807, -0.95097017081775403;
  const Transform tb = Transform::identity();
  const MprRayResult r = mpr_ray(box, ta, cyl, tb, Vec3::UnitZ());
  ASSERT_EQ(r.status, Status::ok);
  ASSERT_TRUE(std::isfinite(r.support_value) && r.normal.allFinite());
  const Vec3 n = r.normal;
  const double h_box = (ta.R.transpose() * n).cwiseAbs().dot(half);
  const double h_cyl = radius * std::hypot(n.x(), n.y()) + half_length * std::abs(n.z());
  EXPECT_NEAR(r.support_value, h_box + h_cyl, 1e-12);
  ASSERT_GT(n.z(), 0.0);
  EXPECT_NEAR(r.support_value / n.z(), r.distance, 1e-9);  // the plane holds the exit point
  DistanceRequest req;
  req.method = Method::mpr;
  // The query answers the exit distance along the ray (the centre line;
  // here the centres coincide and the ray is +z): a bound, not the minimum.
  const DistanceResult d = signed_distance(Shape(box), ta, Shape(cyl), tb, req);
  EXPECT_EQ(d.status, Status::upper_bound);
  ASSERT_TRUE(std::isfinite(d.distance));
  EXPECT_NEAR(d.distance, -r.upper_bound, 1e-12);
  EXPECT_NEAR(d.distance, -r.distance, 1e-9);
  EXPECT_LE((d.normal - Vec3(0, 0, -1)).norm(), 1e-12);
  EXPECT_LE((d.point_a - d.point_b - d.distance * d.normal).norm(), 1e-12);
}

TEST(MprRay, InvalidInput) {
  const Box a(1.0, 1.0, 1.0);
  const Transform I = Transform::identity();
  EXPECT_EQ(mpr_ray(a, I, a, I, Vec3::Zero()).status, Status::invalid_input);
  EXPECT_EQ(mpr_ray(a, I, a, I, Vec3(std::nan(""), 0, 0)).status, Status::invalid_input);
  Transform bad = I;
  bad.p.x() = std::numeric_limits<double>::infinity();
  EXPECT_EQ(mpr_ray(a, bad, a, I, Vec3::UnitX()).status, Status::invalid_input);
  // Separated pair: the precondition is detected, not answered.
  const MprRayResult sep = mpr_ray(a, Transform::from_translation(Vec3(3, 0, 0)), a, I, Vec3(-1, 0.1, 0));
  EXPECT_EQ(sep.status, Status::invalid_input);
  EXPECT_TRUE(sep.separated);
  EXPECT_TRUE(std::isfinite(sep.distance));
}

}  // namespace
}  // namespace proxima
